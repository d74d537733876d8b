"""A cribbage table: one game, several seats, each a person at a terminal or the computer.

``Table`` runs the game itself in one coroutine, the *host*: the cut for deal, then for
each hand a chat before the deal, the discard, the cut, the play and the show, until a
side reaches 121. Whenever a seat must decide something, the host asks: the computer
thinks on a worker thread, a person is sent a *request*. Every person at the table (each
player, and anyone watching) has a ``Person``, whose own coroutine (``attend``, run by that
caller's session) reads their keys, draws their view and answers requests. So two people
choose their discards at the same time, and anyone may open a chat line (``c``), read the
help or redraw while someone else is thinking, without the game losing its place.

Each person's ``TableView`` shows their own hand face up and everyone else's face down,
and tells the game from their seat ("You play 5♥", "Bob plays 5♥"). The host only changes
state and wakes people up; each person draws their own screen, so one coroutine writes to
one terminal.

A seat whose caller's line drops is *away*: the others are told at once, and when the game
needs that seat they are asked whether to wait for the caller to call back (the game then
goes on where it stood) or to let the computer play the seat. The wait is bounded
(``reconnect_wait`` seconds); then the computer takes over. A seat the computer took over
goes back to its caller if they call back before the game ends.

``play_against_computer`` is the simplest table: one caller at seat 0 ("player 1")
against the computer, with "play again?" after each game.

A table may be given a game already under way (a saved game the caller resumes): the
host picks it up from whatever phase it stands in, down to a discard half made, a count
half played or a show half counted. The table knows nothing of saving; whoever builds
the game hangs a saver on it (see door/app/records.py).

Keys that work everywhere (the status line always lists the ones that work now): ``?``
or F1 help, Ctrl-L redraws everything, ``c`` opens a chat line, ``q`` (or Ctrl-C) asks
before quitting. While the caller is typing a line, ``?`` (on an empty line) and F1 still
give help and Esc leaves the line. A key that means nothing at a step is answered on the
message line.

Each person's view is a screen on their session's stack (door/ui/session.py); help and
the quit dialog are pushed over it. The people are in door/table/person.py, the seats and
the questions put to them in door/table/seats.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Final

from door.competition.match import Match
from door.competition.turn_timer import TurnTimer
from door.screens import theme
from door.screens.cards import card_face
from door.screens.chat import canned_reply, clean_chat
from door.screens.cut import CutForDealPanel, CutPanel
from door.screens.game_over import PLAY_AGAIN, GameOverPanel
from door.screens.game_screen import Panel
from door.screens.help import default_help
from door.screens.narration import narrate, side_names
from door.screens.show import ShowPanel, show_title
from door.table.computer import is_quick, think
from door.table.forfeits import counts, forfeit_line, quit_warning
from door.table.light_random import light_random
from door.table.listener import TableListener
from door.table.options import COMPUTER_NAME, GameOptions, GameResult
from door.table.person import Person
from door.table.seats import (
    DEFAULT_PAUSE,
    DEFAULT_RECONNECT_WAIT,
    EXHIBITION_STATUS,
    EXHIBITION_STATUS_NO_BAR,
    MAX_NAME_LENGTH,
    WATCHING_STATUS,
    GameAbandoned,
    Result,
    Seat,
    SeatAway,
    and_list,
    display_order,
    duration,
    faces,
    is_over,
)
from door.table.win_bars import WIN_BAR_SETTINGS, WinBars
from door.term.ansi import sanitize
from door.term.canvas import Style
from door.ui.session import Session
from engine.computer.player import ComputerPlayer
from engine.rules.cards import Card
from engine.rules.events import CutForDeal, Event, ShowScored
from engine.rules.game import Game, Phase

logger = logging.getLogger(__name__)

TIMED_DECISIONS: Final = frozenset({"throw to the crib", "cut the deck", "play"})
"""The decisions a turn timer runs on (a count claim waits: counting is not racing)."""
EXHIBITION_PAUSES: Final = (0.0, 0.2, 0.5, 0.8, 1.5, 3.0)
"""The speeds a watcher of the computer playing itself steps through, in seconds a move."""
EXHIBITION_BREAK: Final = 4
"""Pauses between two games of the computer against itself."""


async def play_against_computer(
    session: Session,
    options: GameOptions,
    caller_name: str,
    *,
    rng: random.Random,
    pause: float = DEFAULT_PAUSE,
    help_text: str | None = None,
    listener: TableListener[Table] | None = None,
    on_table: Callable[[Table], None] | None = None,
    game: Game | None = None,
    win_bar: str = "on",
) -> GameResult:
    """Play games of cribbage against the computer until the caller stops.

    The caller is seat 0 ("player 1"). After each finished game ``listener`` (if
    given) hears its result (door/table/listener.py) and the caller is asked whether to
    play again; the result returned is that of the last game, with ``quit`` set if the
    caller left it unfinished. ``rng`` shuffles every deck (and seeds the computer's
    choices); ``pause`` is how long the computer's moves are held on screen;
    ``help_text`` defaults to the contents of config/help.txt; ``on_table`` is told the
    table once it is set (so it can be listed and watched). ``game``, if given, is
    played instead of a new one: a game being recorded, or a saved game to resume where
    it stands. ``win_bar`` is the sysop's setting (``door.table.win_bars.WIN_BAR_SETTINGS``). Raises
    ``door.term.terminal.Disconnected`` if the line drops.
    """
    table = Table(
        options,
        (caller_name, *([None] * (options.players - 1))),
        rng=rng,
        pause=pause,
        help_text=help_text,
        listener=listener,
        game=game,
        win_bar=win_bar,
    )
    person = table.sit(0, session)
    if on_table is not None:
        on_table(table)
    table.start()
    try:
        return await person.attend()
    finally:
        table.close()


class Table:
    """One game and the people at it. ``names`` holds a name for each seat taken by a
    caller and None for each seat the computer plays; seat 0 is "player 1".

    Call ``sit`` for each caller's seat (and ``watch`` for anyone watching) with their
    terminal, ``start`` to begin, and have each caller's session await their
    ``Person.attend()``. ``close`` stops the game if it is still going.

    ``game`` is the game to play (by default a new one shuffled by ``rng``); it may be
    one under way. ``account_ids`` holds, per seat, the account of the caller sitting
    there (None for a guest or the computer). ``win_bar`` is the sysop's setting for the
    win bar (``door.table.win_bars.WIN_BAR_SETTINGS``). ``listener`` is whoever keeps the
    table, told when a game ends and asked whether it is saved (door/table/listener.py).
    """

    def __init__(
        self,
        options: GameOptions,
        names: Sequence[str | None],
        *,
        rng: random.Random,
        pause: float = DEFAULT_PAUSE,
        help_text: str | None = None,
        reconnect_wait: float = DEFAULT_RECONNECT_WAIT,
        listener: TableListener[Table] | None = None,
        game: Game | None = None,
        account_ids: Sequence[int | None] | None = None,
        win_bar: str = "on",
    ) -> None:
        if win_bar not in WIN_BAR_SETTINGS:
            choices = ", ".join(WIN_BAR_SETTINGS)
            raise ValueError(f"the win bar is one of {choices}, not {win_bar!r}")
        if len(names) != options.players:
            raise ValueError(f"{options.players} players need {options.players} seats")
        if game is not None and game.players != options.players:
            raise ValueError(f"a game for {game.players} cannot be played by {options.players}")
        self.options = options
        self.rng = rng
        self.pause_seconds = pause
        self.reconnect_wait = reconnect_wait
        self.help_text = help_text if help_text is not None else default_help()
        self.listener: TableListener[Table] = listener or TableListener()
        """Whoever keeps the table (saves its game, rates it): door/table/listener.py."""
        self.chat_rng = light_random(rng)
        self.last_reply = ""
        self.seats = _make_seats(names, options.level, rng, account_ids)
        self.names = tuple(seat.name for seat in self.seats)
        self.match: Match | None = (
            Match(side_names(self.names, 2), options.best_of) if options.best_of > 1 else None
        )
        """The match under way, in game points, when the options ask for one."""
        self.exhibition = not any(seat.human for seat in self.seats)
        """The computer plays itself, for whoever watches."""
        self.solo = sum(seat.human for seat in self.seats) == 1
        """One caller against the computer: no waiting for them if they drop, and
        "play again?" at the end."""
        self.game = game or Game(
            options.players, runs=options.runs, counting=options.counting, rng=rng
        )
        self.watchers: list[Person] = []
        self.win_bars = WinBars()
        """Everyone's win bar, worked out once per moment of the game and view."""
        self.win_bar_setting = win_bar
        never = win_bar == "never"
        self.watching_status = (
            (EXHIBITION_STATUS_NO_BAR if never else EXHIBITION_STATUS)
            if self.exhibition
            else WATCHING_STATUS
        )
        """A watcher's key line: the exhibition's offers + and - (and w, where the bar
        may show)."""
        self.header: tuple[str, ...] = ()
        self.panel: Panel | None = None
        self.message = ""
        self.status = "Please wait"
        self.waits: dict[int, str] = {}
        """Seats the game is waiting for, and what for ("play", "cut the deck")."""
        self.over = False
        self.abandoned = False
        self.failure: BaseException | None = None
        self.quit_result: GameResult | None = None
        self.forfeit_text = ""
        """Set when a caller forfeited a game that counts by leaving it (forfeits.py)."""
        self._host: asyncio.Task[None] | None = None
        self._thinking: list[asyncio.Future[Any]] = []
        self.back_text = "You are back at the table, where the game stands."
        """What a caller reads on coming back to their seat."""

    # --- who is here ----------------------------------------------------------------

    @property
    def title(self) -> str:
        """``Alice vs Bob`` (``Alice & Carol vs Bob & Computer`` for partners)."""
        if self.options.players == 4:
            return f"{self.names[0]} & {self.names[2]} vs {self.names[1]} & {self.names[3]}"
        return " vs ".join(self.names)

    def players_present(self) -> list[Person]:
        return [seat.person for seat in self.seats if seat.person is not None]

    def people(self) -> list[Person]:
        """Everyone looking at the table: the players here, then the watchers."""
        return [*self.players_present(), *self.watchers]

    def people_deciding(self) -> bool:
        return any(person.current_request() for person in self.players_present()) or any(
            seat.away for seat in self.seats if seat.index in self.waits
        )

    def first_opponent_name(self) -> str:
        return self.names[1]

    back_to = "the lobby"
    """Where RETURN takes the players once the game is over for them."""

    def end_text(self) -> str:
        """What the players read once the game is over for them."""
        if self.abandoned:
            return "Nobody is left to play: the game is over."
        return self.forfeit_text or "The game is over."

    def quit_consequence(self, person: Person | None = None) -> str:
        """What leaving now means for ``person``, for the quit dialog."""
        if self.solo:
            return f"Leave now and {self.first_opponent_name()} is given the game."
        if counts(self.options, sum(seat.human for seat in self.seats)):
            other = next(s.name for s in self.seats if person is None or s is not person.seat)
            return quit_warning(self.options, other)
        return "Leave now and the computer plays your seat."

    def win_bar_refusal(self) -> str:
        """Why a player may not ask for the win bar here ("": they may)."""
        if self.win_bar_setting == "never":
            return "The sysop has turned the win bar off on this board."
        return ""

    def win_bar_at_start(self, seat: Seat | None) -> bool:
        """Whether a person sitting at ``seat`` (None: watching) starts with the bar on:
        against the computer and watching, unless the sysop says otherwise."""
        return (self.solo or seat is None) and self.win_bar_setting == "on"

    @property
    def given_up(self) -> bool:
        """The caller of a game against the computer chose to quit it: not a dropped
        line, nor the door closing (those leave a saved game to resume)."""
        return self.quit_result is not None

    def sit(self, index: int, session: Session) -> Person:
        """The caller of seat ``index`` sits down, seeing the table on ``session``."""
        seat = self.seats[index]
        if not seat.human:
            raise ValueError(f"seat {index} is the computer's")
        person = Person(self, seat.name, session, seat)
        seat.person = person
        seat.sat_down = True
        seat.settled()
        return person

    def waits_for(self, name: str, account_id: int | None = None) -> Seat | None:
        """The seat ``name`` may take back: a caller's seat of that name whose caller is
        gone, and, if they had logged in, only for the same account."""
        key = name.casefold()
        for seat in self.seats:
            if (
                seat.human
                and not seat.left
                and seat.person is None
                and seat.name.casefold() == key
                and seat.account_id in (None, account_id)
            ):
                return seat
        return None

    def rejoin(self, name: str, session: Session, account_id: int | None = None) -> Person | None:
        """The caller ``name`` (logged in to ``account_id``, if any) is back after their
        line dropped: their seat again, where the game stands; None if no seat here is
        waiting for them."""
        seat = self.waits_for(name, account_id)
        if seat is None or self.over:
            return None
        was_computer = seat.computer_plays
        seat.computer_plays = False
        first_time = not seat.sat_down
        person = self.sit(seat.index, session)
        if first_time:
            person.view.log.add("You sit down at the table.")
            back = f"{seat.name} sits down."
        else:
            person.view.log.add(self.back_text)
            back = f"{seat.name} is back."
        if was_computer:
            back += f" {seat.name} plays from the next decision on."
        self.announce(back, exclude=person)
        self.changed()
        return person

    def watch(self, name: str, session: Session) -> Person:
        person = Person(self, name, session, None)
        person.view.log.add(f"You are watching {self.title}. Press c to chat.", theme.TITLE)
        self.watchers.append(person)
        self.announce(f"{name} is watching.", exclude=person)
        return person

    def person_dropped(self, person: Person) -> None:
        """A line dropped: tell the others; the game waits for the seat when it needs it."""
        person.left = True
        self._fail_request(person)
        if person.seat is None:
            self._remove_watcher(person)
            return
        seat = person.seat
        if seat.person is person:
            seat.person = None
            seat.went_away()
        if self.over:
            return
        if self.solo:
            self.close()
            return
        self.announce(f"{seat.name}'s line has dropped.", theme.ERROR)
        self._end_if_nobody_plays()
        self.changed()

    def person_quit(self, person: Person) -> None:
        person.left = True
        self._fail_request(person)
        if person.seat is None:
            self._remove_watcher(person)
            self.announce(f"{person.name} stopped watching.")
            return
        seat = person.seat
        if seat.person is person:
            seat.person = None
        if self.over:
            return
        if self.solo:
            # Leaving a game against the computer forfeits it: the engine ends the game
            # (and a saved game records the forfeit as its last action).
            self.game.forfeit(seat.index)
            self.quit_result = self.result_for(seat.index, quit=True)
            self.close()
            return
        seat.left = True
        if counts(self.options, sum(seat.human for seat in self.seats)):
            self._forfeited_by(seat)
            return
        seat.computer_plays = True
        seat.settled()
        self.announce(f"{seat.name} left the game: the computer plays for {seat.name}.")
        self._end_if_nobody_plays()
        self.changed()

    def _forfeited_by(self, seat: Seat) -> None:
        """``seat``'s caller left a game that counts: the game in play is their loss, a
        match goes to the other player whole, and the table ends (door/table/forfeits.py)."""
        other = next(other for other in self.seats if other is not seat)
        self.forfeit_text = forfeit_line(self.options, seat.name, other.name)
        if not is_over(self.game):  # (not between two games of a match)
            self.game.forfeit(seat.index)  # a saved game records it as its last action
            outcome = self.game.outcome()
            if self.match is not None and outcome is not None:
                self.match = self.match.add(outcome)
            self.panel = self.game_over_panel()
            self.listener.game_over(self, self.result_for(None))  # rated, or into the tournament
        self.announce(self.forfeit_text, theme.TITLE)
        self.close()

    def _fail_request(self, person: Person) -> None:
        requests, person.requests = person.requests, []
        for request in requests:
            if not request.future.done():
                request.future.set_exception(SeatAway(person.name))
                # The host may have stopped waiting for this answer (someone else dealt):
                # mark the exception seen so asyncio does not log it as lost.
                request.future.exception()

    def let_go(self, person: Person) -> None:
        """``person`` is done with the ended game: the table no longer holds them, as
        when someone quits, so that they and the table are no cycle once both are
        forgotten (the door freezes what lives long: door/gc_policy.py)."""
        if person.seat is None:
            if person in self.watchers:
                self.watchers.remove(person)
        elif person.seat.person is person:
            person.seat.person = None

    def _remove_watcher(self, person: Person) -> None:
        if person in self.watchers:
            self.watchers.remove(person)
        if self.exhibition and not self.watchers:
            self.abandoned = True
            self.close()  # the computer does not play itself to an empty room
        self.changed()

    def change_speed(self, faster: bool) -> str:
        """``+`` and ``-`` while the computer plays itself: the pause after each move."""
        steps = EXHIBITION_PAUSES
        nearest = min(range(len(steps)), key=lambda index: abs(steps[index] - self.pause_seconds))
        index = max(0, nearest - 1) if faster else min(len(steps) - 1, nearest + 1)
        self.pause_seconds = steps[index]
        return f"Speed: {self.pause_seconds:g} seconds a move (+ faster, - slower)."

    def _end_if_nobody_plays(self) -> None:
        if not any(seat.human and not seat.left for seat in self.seats):
            self.abandoned = True
            self.close()

    # --- running the game -------------------------------------------------------------

    def start(self) -> None:
        """Begin the game in the background (the host coroutine)."""
        if self._host is None:
            self._host = asyncio.get_running_loop().create_task(self._run())

    def close(self) -> None:
        """Stop the game if it is still going, and let everyone at the table go."""
        if self._host is not None and not self._host.done():
            self._host.cancel()
        for future in list(self._thinking):
            future.cancel()
        self._finish()

    def _finish(self) -> None:
        if self.over:
            return
        self.over = True
        if self.abandoned:
            self.listener.abandoned(self)
        for person in self.people():
            person.inbox.wake()
        self.changed()

    async def _run(self) -> None:
        try:
            await self.play_games()
        except GameAbandoned:
            self.abandoned = True
        except asyncio.CancelledError:
            pass
        except Exception as error:
            logger.exception("the game at table %s failed", self.title)
            self.failure = error
        finally:
            self._finish()

    async def play_games(self) -> None:
        game = self.game
        while True:
            self.game = game
            await self.play_game(game)
            outcome = game.outcome()
            if self.match is not None and outcome is not None:
                self.match = self.match.add(outcome)
                self.announce(f"{self.match.line()}.", theme.TITLE)
            self.panel = self.game_over_panel()
            result = self.result_for(0 if self.solo else None)
            self.listener.game_over(self, result)
            match_goes_on = self.match is not None and not self.match.decided
            if self.exhibition:
                # The computer plays itself for as long as someone watches.
                await asyncio.sleep(EXHIBITION_BREAK * max(self.pause_seconds, 0.5))
            elif match_goes_on and not self.solo:
                await self.everyone_goes_on(game, f"game {self.match_game_number()} of the match")
            elif not self.solo or not await self.decide(
                self.seats[0], Person.play_again, _never_computer, "answer"
            ):
                return
            if self.match is not None and self.match.decided:
                self.match = Match(side_names(self.names, game.sides), self.options.best_of)
            game = game.next_game()
            self.game = game
            self.panel = None
            if self.match is not None and self.match.wins != (0, 0):
                number = self.match_game_number()
                self.announce(
                    f"Game {number} of the match: the loser of the last one deals first.",
                    theme.TITLE,
                )
            else:
                self.announce("A new game: the loser of the last one deals first.", theme.TITLE)

    def win_bar_agreed(self) -> bool:
        """Every caller seated at the table asked for the win bar."""
        return all(person.wants_win_bar for person in self.players_present())

    def win_bar_allowed(self, person: Person) -> bool:
        """Whether ``person`` may see the win bar now. Against the computer, always. A
        watcher's bar knows every hand, so between callers watchers get none (it could
        be passed on in the chat); players, once they have all asked for it."""
        if self.solo:
            return True
        if person.seat is None:
            return sum(seat.human for seat in self.seats) <= 1
        return self.win_bar_agreed()

    def match_game_number(self) -> int:
        assert self.match is not None
        return sum(self.match.wins) + 1

    def next_question(self) -> str:
        """What a caller playing the computer is asked at a game's end."""
        if self.match is not None and not self.match.decided:
            return f"On to game {self.match_game_number()} of the match? Press y or n."
        if self.match is not None:
            return "A new match? Press y or n."
        return PLAY_AGAIN

    async def play_game(self, game: Game) -> None:
        """Play ``game`` to its end from whatever phase it is in: a new game starts with
        the cut for deal, a resumed one goes on mid-hand (each step below copes with a
        discard half made, a count half played or a show half counted)."""
        if game.phase not in (Phase.CUT_FOR_DEAL, Phase.DEAL):
            self.set_header(game)
        while not is_over(game):
            phase = game.phase
            if phase is Phase.CUT_FOR_DEAL:
                self.cut_for_deal(game)
            elif phase is Phase.DEAL:
                await self.before_deal(game)
                for person in self.people():
                    person.thrown = ()
                self.log(game.deal())
                self.panel = None
            elif phase is Phase.DISCARD:
                await self.discard(game)
            elif phase is Phase.CUT:
                await self.cut(game)
                if is_over(game):  # two for his heels took the dealer to 121
                    await self.pause()
            elif phase is Phase.PLAY:
                await self.pegging(game)
            elif phase is Phase.SHOW:
                await self.show(game)

    def cut_for_deal(self, game: Game) -> None:
        events = game.cut_for_deal()
        self.log(events)
        last = [event for event in events if isinstance(event, CutForDeal)][-1]
        assert last.dealer is not None
        self.panel = CutForDealPanel(last.draws, last.dealer)

    async def before_deal(self, game: Game) -> None:
        """Everyone is in chat mode; the dealer deals with RETURN on a blank line. When
        the computer deals, it deals once every caller has said they are ready."""
        self.set_header(game, upcoming=True)
        dealer = self.seats[game.dealer]
        while True:
            if dealer.away and not dealer.computer_plays:
                await self.wait_for_return(dealer)
                continue
            asked = {person: person.ask(Person.before_deal) for person in self.players_present()}
            self.waits = {dealer.index: "deal"}
            try:
                if dealer.person is not None:
                    with contextlib.suppress(SeatAway):
                        await asked[dealer.person]
                        return
                else:
                    self.waits = {person.seat.index: "be ready" for person in asked if person.seat}
                    await _settle_all(asked.values())
                    return
            finally:
                self.waits = {}
                for person, future in asked.items():
                    person.withdraw(future)

    async def discard(self, game: Game) -> None:
        """Everyone chooses at once. Callers' throws land as they are made; the computer
        thinks meanwhile and throws once the callers have, as a player across the table
        waits for the others before pushing their cards over."""
        self.set_header(game)
        self.changed()
        # A resumed game may have some throws in the crib already.
        throwing = [seat for seat in self.seats if not game.has_discarded(seat.index)]
        computers = [seat for seat in throwing if seat.computer_plays]
        thoughts = {
            seat: asyncio.ensure_future(self.think(seat.computer.discard, game, seat.index))
            for seat in computers
        }
        try:
            await _all(*(self.discard_for(seat) for seat in throwing if seat not in thoughts))
            for seat, thought in thoughts.items():
                thrown = _checked_throw(await thought, game, seat.index)
                self.log(game.discard(seat.index, thrown))
        finally:
            for thought in thoughts.values():
                thought.cancel()
        self.waits = {}

    async def discard_for(self, seat: Seat) -> None:
        game = self.game

        async def computer_throw() -> list[Card]:
            thrown = await self.think(seat.computer.discard, game, seat.index)
            return list(_checked_throw(thrown, game, seat.index))

        cards = await self.decide(seat, Person.discard, computer_throw, "throw to the crib")
        events = game.discard(seat.index, cards)
        if seat.person is not None:
            whose = self.crib_owner(seat.index)
            seat.person.log(f"You throw {faces(cards)} to {whose}.")
        self.log(events)

    async def cut(self, game: Game) -> None:
        size = game.stock_size
        cutter = self.seats[game.cutter]
        self.panel = CutPanel(size)

        async def computer_cut() -> int:
            chosen = await self.think(cutter.computer.cut, game, cutter.index)
            valid = isinstance(chosen, int) and 1 <= chosen <= size
            position = chosen if chosen is not None and valid else self.rng.randint(1, size)
            self.panel = CutPanel(size, position)
            self.tell(f"{cutter.name} cuts the deck at card {position}.", "Please wait")
            await self.pause()
            return position

        position = await self.decide(cutter, Person.cut, computer_cut, "cut the deck")
        self.log(game.cut(position))
        self.panel = None
        assert game.starter is not None
        self.tell(f"The starter is {card_face(game.starter)}.")

    async def pegging(self, game: Game) -> None:
        while game.phase is Phase.PLAY:
            assert game.turn is not None
            seat = self.seats[game.turn]

            async def computer_play(seat: Seat = seat) -> Card:
                self.tell(f"{seat.name} is playing...", "Please wait: the computer plays")
                await self.pause()
                card = await self.think(seat.computer.play, game, seat.index)
                if card is None or card not in game.playable(seat.index):
                    card = game.playable(seat.index)[0]
                return card

            card = await self.decide(seat, Person.play, computer_play, "play")
            self.log(game.play(seat.index, card))
        await self.pause()

    async def show(self, game: Game) -> None:
        assert game.starter is not None
        while game.phase is Phase.SHOW and game.showing is not None:
            index, is_crib = game.showing
            seat = self.seats[index]
            cards = sorted(game.crib if is_crib else game.kept(index), key=display_order)
            self.panel = ShowPanel(index, is_crib, tuple(cards), game.starter)
            if game.counting == "auto":
                events = game.count_hand()
            else:

                async def computer_claim(seat: Seat = seat) -> int:
                    claim = await self.think(seat.computer.claim, game, seat.index)
                    return claim if isinstance(claim, int) else 0

                what = "count the crib" if is_crib else "count the hand"
                claim = await self.decide(seat, Person.count, computer_claim, what)
                events = game.count_hand(claim)
            scored = next(event for event in events if isinstance(event, ShowScored))
            self.panel = ShowPanel(index, is_crib, tuple(cards), game.starter, scored)
            self.log(events)
            await self.everyone_goes_on(game)
        self.panel = None

    async def everyone_goes_on(self, game: Game, then: str = "") -> None:
        """Each caller reads the show (or the game's end) and presses RETURN; the game
        goes on when all have. ``then`` names what comes next, if not the game's own
        next step."""

        def prompt_for(person: Person) -> str:
            if then:
                next_step = then
            elif is_over(game):
                next_step = "the end of the game"
            elif game.showing is None:
                next_step = "the next hand"
            else:
                title = show_title(*game.showing, self.names, person.index)
                next_step = "your" + title[4:] if title.startswith("Your") else title
            return f"RETURN: on to {next_step}."

        asked = {
            person: person.ask(lambda person: person.go_on(prompt_for(person)))
            for person in self.players_present()
        }
        self.waits = {person.seat.index: "go on" for person in asked if person.seat is not None}
        try:
            await _settle_all(asked.values(), on_each=lambda: self._drop_done_waits(asked))
        finally:
            self.waits = {}

    def _drop_done_waits(self, asked: dict[Person, asyncio.Future[Any]]) -> None:
        for person, future in asked.items():
            if future.done() and person.seat is not None:
                self.waits.pop(person.seat.index, None)
        self.changed()

    # --- asking a seat -------------------------------------------------------------

    async def decide(
        self,
        seat: Seat,
        step: Callable[[Person], Awaitable[Result]],
        computer_move: Callable[[], Awaitable[Result]],
        waiting_for: str,
    ) -> Result:
        """A decision for ``seat``: its caller's answer to ``step``, or the computer's
        move if the computer plays the seat. Waits (boundedly) for a caller whose line
        dropped."""
        while True:
            if seat.computer_plays:
                return await computer_move()
            if seat.person is None and not seat.away:
                # Its caller left a game that counts and nobody plays the seat: the table
                # is closing (_forfeited_by). Waiting for their return would return at
                # once, a loop with no await that froze the whole door.
                raise GameAbandoned
            if seat.person is None:
                self.waits[seat.index] = waiting_for
                await self.wait_for_return(seat)
                continue
            person = seat.person
            self.waits[seat.index] = waiting_for
            self.changed()
            try:
                if waiting_for in TIMED_DECISIONS and self.options.turn_seconds:
                    return await self._timed(person, step, computer_move)
                return await person.ask(step)
            except SeatAway:
                continue
            finally:
                person.timer = None
                self.waits.pop(seat.index, None)
                self.changed()

    async def _timed(
        self,
        person: Person,
        step: Callable[[Person], Awaitable[Result]],
        computer_move: Callable[[], Awaitable[Result]],
    ) -> Result:
        """The person's answer within the turn timer, or the computer's best move for
        them when it runs out (the clock is on their screen meanwhile)."""
        seconds = self.options.turn_seconds
        loop = asyncio.get_running_loop()
        person.timer = TurnTimer.start(seconds, loop.time())
        answer = person.ask(step)
        try:
            return await asyncio.wait_for(asyncio.shield(answer), seconds)
        except TimeoutError:
            person.withdraw(answer)
            self.announce(
                f"{person.name}'s time ran out: the computer moves for them.", exclude=person
            )
            person.log("Your time ran out: the computer moves for you.", theme.TITLE)
            return await computer_move()

    async def wait_for_return(self, seat: Seat) -> None:
        """``seat``'s caller is away: ask the others whether to wait for them; the
        computer takes the seat when one says so, or when the wait runs out."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_wait
        minutes = duration(self.reconnect_wait)
        self.waits[seat.index] = "call back"
        choice: str | None = None
        while seat.away and not seat.computer_plays:
            asked = {
                person: person.ask(lambda person: person.absent(seat, minutes), urgent=True)
                for person in self.players_present()
            }
            back = asyncio.ensure_future(seat.until_settled())
            try:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    break
                answers: set[asyncio.Future[Any]] = {back, *asked.values()}
                done, _ = await asyncio.wait(
                    answers, timeout=remaining, return_when=asyncio.FIRST_COMPLETED
                )
                for future in done:
                    if future is not back and not future.cancelled() and not future.exception():
                        choice = future.result()
                if choice is not None or not done:
                    break
            finally:
                back.cancel()
                for person, future in asked.items():
                    person.withdraw(future)
        self.waits.pop(seat.index, None)
        if not seat.away:
            return
        if not self.players_present():
            raise GameAbandoned
        seat.computer_plays = True
        why = "as asked" if choice else "as the wait is over"
        self.announce(f"The computer plays for {seat.name} from here, {why}.", theme.TITLE)
        self.changed()

    # --- what everyone sees --------------------------------------------------------

    def log(self, events: Sequence[Event]) -> None:
        for person in self.people():
            person.log(narrate(events, self.names, person.index))

    def announce(
        self, text: str, style: Style = theme.TITLE, *, exclude: Person | None = None
    ) -> None:
        for person in self.people():
            if person is not exclude:
                person.log(text, style)

    def chat(self, speaker: str, text: str, style: Style) -> None:
        """A chat line for everyone at the table (and a word back from the computer when
        it is the caller's only company)."""
        line = clean_chat(text)
        if not line:
            return
        name = sanitize(speaker, MAX_NAME_LENGTH)
        for person in self.people():
            person.view.log.chat(name, line, style)
            person.inbox.wake()
        if self.solo and any(
            seat.person is not None and seat.person.name == speaker for seat in self.seats
        ):
            reply = self.last_reply = canned_reply(self.chat_rng, self.last_reply)
            computer = next(seat for seat in self.seats if not seat.human)
            computer_style = theme.PLAYER_STYLES[self.game.side_of(computer.index)]
            for person in self.people():
                person.view.log.chat(computer.name, reply, computer_style)

    def tell(self, message: str, status: str | None = None) -> None:
        """What everyone who is not answering a question reads on the message line."""
        self.message = message
        if status is not None:
            self.status = status
        self.changed()

    def waiting_text(self) -> str:
        if not self.waits:
            return self.message
        by_action: dict[str, list[str]] = {}
        for index, action in self.waits.items():
            by_action.setdefault(action, []).append(self.names[index])
        action, names = next(iter(by_action.items()))
        return f"Waiting for {and_list(names)} to {action}."

    def set_header(self, game: Game, *, upcoming: bool = False) -> None:
        number = game.hand_number + (1 if upcoming else 0)
        runs = "exact runs" if self.options.runs == "exact" else "free runs"
        counting = f"{self.options.counting} count"
        # The computer's level says something only where the computer plays.
        level = f" · {self.options.level}" if not all(s.human for s in self.seats) else ""
        match = (
            f"Game {self.match_game_number()} of {self.options.best_of} · " if self.match else ""
        )
        self.header = (
            f"{match}Hand {number} · {runs} · {counting}{level}",
            f"{match}Hand {number} · {runs} · {counting}",
            f"{match}Hand {number} · {runs}",  # the rule that changes the play most
            f"{match}Hand {number}",
            f"Hand {number}",
        )

    def crib_owner(self, seat: int) -> str:
        """``your crib`` or ``Bob's crib``, for the caller at ``seat``."""
        dealer = self.game.dealer
        return "your crib" if dealer == seat else f"{self.names[dealer]}'s crib"

    def sorted_hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(sorted(self.game.hand(seat), key=display_order))

    def game_over_panel(self, question: str = "") -> GameOverPanel:
        outcome = self.game.outcome()
        assert outcome is not None
        match_line = f"{self.match.line()}." if self.match is not None else ""
        match_line = self.forfeit_text or match_line
        return GameOverPanel(outcome, question or self.next_question(), match_line, self.saved_as())

    def changed(self) -> None:
        """Something at the table changed: everyone redraws."""
        for person in self.people():
            person.inbox.wake()
        self.listener.changed(self)

    def saved_as(self) -> int | None:
        """The game's number in the store, if its keeper saved it (TableListener)."""
        return self.listener.saved_as()

    async def until_saved(self) -> None:
        """Until the game as it stands is in the store, if its keeper saves it."""
        await self.listener.until_saved()

    async def pause(self) -> None:
        """Hold the screens a moment so everyone can follow the computer's moves."""
        self.changed()
        await asyncio.sleep(self.pause_seconds if self.pause_seconds > 0 else 0)

    async def think(self, decide: Callable[..., Result], *args: object) -> Result | None:
        """The computer's decision: a quick one at once, on the live game (nothing can
        move it meanwhile), a slow one off the event loop on a snapshot; None if it
        failed.

        A failure is a bug in the computer player; it is logged, and the game goes on
        with a legal stand-in move rather than ending."""
        # A quick decision is made before anything else runs: no snapshot (copying the
        # shuffler's state cost more than most decisions) and no task. A worker decides
        # on a snapshot: the live game may move on meanwhile (a person's discard), and
        # nothing the computer does can reach it.
        quick = is_quick(decide)
        if not quick:
            args = tuple(arg.snapshot() if isinstance(arg, Game) else arg for arg in args)
        try:
            if quick:
                return decide(*args)
            future = asyncio.ensure_future(think(decide, *args))
            self._thinking.append(future)
            try:
                return await future
            finally:
                self._thinking.remove(future)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("the computer player failed in %r", decide)
            return None

    # --- results --------------------------------------------------------------------

    def result_for(self, seat: int | None, *, quit: bool = False) -> GameResult:
        """The game as it ended (or stands) for ``seat``'s side; seat None: side 0.
        ``quit``: the seat's caller left; unless the game forfeited for them, it was
        given up."""
        if quit and self.quit_result is not None and self.solo:
            return self.quit_result
        game = self.game
        side = game.side_of(seat) if seat is not None else 0
        outcome = game.outcome()
        if quit and (outcome is None or outcome.forfeited_by != side):
            outcome = None
        return GameResult(outcome, side, tuple(game.scores))


def _make_seats(
    names: Sequence[str | None],
    level: str,
    rng: random.Random,
    account_ids: Sequence[int | None] | None = None,
) -> list[Seat]:
    accounts = list(account_ids) if account_ids is not None else [None] * len(names)
    seats = []
    computers = 0
    for index, name in enumerate(names):
        # The computer gets its own stream so its choices never shift the deck's shuffles.
        computer = ComputerPlayer(level, light_random(rng))
        if name is None:
            computers += 1
            shown = COMPUTER_NAME if computers == 1 else f"{COMPUTER_NAME} {computers}"
            seats.append(Seat(index, shown, False, computer))
        else:
            shown = sanitize(name, MAX_NAME_LENGTH).strip() or f"Player {index + 1}"
            seats.append(Seat(index, shown, True, computer, accounts[index]))
    return seats


async def _never_computer() -> bool:
    """The "play again?" answer when the caller is gone: no."""
    return False


async def _all(*steps: Coroutine[Any, Any, None]) -> None:
    """Run ``steps`` together; the first failure cancels the rest and is raised."""
    tasks = [asyncio.ensure_future(step) for step in steps]
    if not tasks:  # a resumed discard in which every caller has thrown already
        return
    try:
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            if task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
    finally:
        for task in tasks:
            task.cancel()


async def _settle_all(futures: Any, on_each: Callable[[], None] | None = None) -> None:
    """Wait until every future is answered or its person has gone (SeatAway)."""
    pending = {future for future in futures if not future.done()}
    while pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for future in done:
            if not future.cancelled() and future.exception() is not None:
                error = future.exception()
                if not isinstance(error, SeatAway):
                    raise error
        if on_each is not None:
            on_each()


def _checked_throw(thrown: Sequence[Card] | None, game: Game, seat: int) -> Sequence[Card]:
    """The computer's throw, or a legal stand-in if its answer is not one (a bug there
    must not stop the caller's game)."""
    hand = game.hand(seat)
    if (
        thrown is not None
        and len(set(thrown)) == len(thrown) == game.discard_count
        and all(card in hand for card in thrown)
    ):
        return thrown
    logger.error("the computer threw %r from %r; throwing the first cards instead", thrown, hand)
    return hand[: game.discard_count]
