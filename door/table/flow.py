"""A cribbage table: one game, several seats, each a person at a terminal or the computer.

``Table`` runs the game itself in one coroutine, the *host*: the cut for deal, then for
each hand a chat before the deal, the discard, the cut, the play and the show, until a
side reaches 121. Whenever a seat must decide something, the host asks: the computer
thinks on a worker thread, a person is put a *question*. Everyone at the table (each
player, and anyone watching) is a participant; a caller's own coroutine (``attend``, run
by their session) reads their keys, draws their view and answers the table's questions.
So two people choose their discards at the same time, and anyone may open a chat line
(``c``), read the help or redraw while someone else is thinking, without the game losing
its place.

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
the quit dialog are pushed over it. The table never knows who sits in a seat: it puts
``Question`` values (door/table/question.py) to each seat's ``Participant``
(door/table/seats.py), and is given how a caller becomes one (``admit``: the door gives
door/table/person.py's people). Its words are in door/table/words.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final

from door.competition.match import Match
from door.competition.turn_timer import TurnTimer
from door.screens import theme
from door.screens.cards import card_face
from door.screens.cut import CutForDealPanel, CutPanel
from door.screens.narration import side_names
from door.screens.show import ShowPanel, show_title
from door.table import words
from door.table.company import Company
from door.table.computer import ComputerSeat, Thoughts
from door.table.listener import TableListener
from door.table.options import GameOptions
from door.table.question import (
    Answer,
    Count,
    Cut,
    Discard,
    GoOn,
    Play,
    Question,
    ReadyToDeal,
    WaitForCaller,
)
from door.table.seats import (
    DEFAULT_PAUSE,
    DEFAULT_RECONNECT_WAIT,
    Admit,
    GameAbandoned,
    Participant,
    Seat,
    SeatAway,
    Someone,
    display_order,
    is_over,
)
from door.table.settling import settle_all
from door.table.stalls import DEFAULT_CLAIM_AFTER, Stalls
from engine.rules.cards import Card
from engine.rules.events import CutForDeal, ShowScored
from engine.rules.game import Game, Phase

logger = logging.getLogger(__name__)

EXHIBITION_BREAK: Final = 4
"""Pauses between two games of the computer against itself."""


class Table(Company[Someone]):
    """One game and the people at it. ``names`` holds a name for each seat taken by a
    caller and None for each seat the computer plays; seat 0 is "player 1".

    Call ``sit`` for each caller's seat (and ``watch`` for anyone watching) with their
    session, ``start`` to begin, and have each caller's session await their
    participant's ``attend()``. ``close`` stops the game if it is still going.
    ``admit`` makes a caller arriving with their session a participant at this table
    (door/table/seats.py's ``Admit``).

    ``game`` is the game to play (by default a new one shuffled by ``rng``); it may be
    one under way. ``account_ids`` holds, per seat, the account of the caller sitting
    there (None for a guest or the computer). ``win_bar`` is the sysop's setting for the
    win bar (``door.table.win_bars.WIN_BAR_SETTINGS``). ``claim_after`` is how long the
    game waits on one caller's move before the other side may claim it (0: never;
    door/table/stalls.py).
    """

    def __init__(
        self,
        options: GameOptions,
        names: Sequence[str | None],
        *,
        rng: random.Random,
        admit: Admit[Someone],
        pause: float = DEFAULT_PAUSE,
        help_text: str | None = None,
        reconnect_wait: float = DEFAULT_RECONNECT_WAIT,
        listener: TableListener[Any] | None = None,
        game: Game | None = None,
        account_ids: Sequence[int | None] | None = None,
        win_bar: str = "on",
        claim_after: float = DEFAULT_CLAIM_AFTER,
    ) -> None:
        super().__init__(
            options,
            names,
            rng=rng,
            admit=admit,
            pause=pause,
            help_text=help_text,
            reconnect_wait=reconnect_wait,
            listener=listener,
            game=game,
            account_ids=account_ids,
            win_bar=win_bar,
        )
        self._host: asyncio.Task[None] | None = None
        self.thoughts = Thoughts()
        """The computer's decisions the game waits for: closing the table stops them."""
        self.stalls = Stalls(self, claim_after)
        """The clocks on the callers the game waits on (door/table/stalls.py)."""
        self.pausing = False
        """The host holds the screens on the computer's move (``pause``)."""

    # --- running the game -------------------------------------------------------------

    def start(self) -> None:
        """Begin the game in the background (the host coroutine)."""
        if self._host is None:
            self._host = asyncio.get_running_loop().create_task(self._run())

    def close(self) -> None:
        """Stop the game if it is still going, and let everyone at the table go."""
        if self._host is not None and not self._host.done():
            self._host.cancel()
        self.thoughts.cancel()
        self._finish()

    def _finish(self) -> None:
        if self.over:
            return
        self.over = True
        self.stalls.stop_all()
        if self.abandoned:
            self.listener.abandoned(self)
        for person in self.people():
            person.wake()
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
            if self.over:  # ended by the table (counted_ends.py), told and kept there
                return
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
            elif not self.solo or not await self.decide(self.seats[0], self.play_again()):
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
            asked = {
                person: person.ask(ReadyToDeal(self.before_deal_words(game, person)))
                for person in self.players_present()
            }
            self.set_waits({dealer.index: "deal"})
            try:
                if dealer.person is not None:
                    with contextlib.suppress(SeatAway):
                        await asked[dealer.person]
                        return
                else:
                    self.set_waits(
                        {person.seat.index: words.BE_READY for person in asked if person.seat}
                    )
                    # Whoever is ready is waited on no more: they may claim the game from
                    # one who never is (door/table/stalls.py), as after a show.
                    ready = functools.partial(self._drop_done_waits, asked)
                    await settle_all(asked.values(), on_each=ready)
                    return
            finally:
                self.set_waits({})
                for person, future in asked.items():
                    person.withdraw(future)

    async def discard(self, game: Game) -> None:
        """Everyone chooses at once. Callers' throws land as they are made; the computer
        thinks meanwhile and throws once the callers have, as a player across the table
        waits for the others before pushing their cards over. A caller who calls back
        before the computer's throw for them has landed throws for themselves."""
        self.set_header(game)
        self.changed()
        # A resumed game may have some throws in the crib already.
        throwing = [seat for seat in self.seats if not game.has_discarded(seat.index)]
        thoughts = {
            seat: asyncio.ensure_future(self.computer(seat).answer(self.discard_of(seat), game))
            for seat in throwing
            if seat.computer_plays
        }
        throwers = [seat for seat in throwing if seat not in thoughts]
        # A seat the computer took when its caller's wait ran out: their call back ends
        # the computer's turn at this throw (until_settled is made now, while away).
        returns = {
            asyncio.ensure_future(seat.until_settled()): seat for seat in thoughts if seat.away
        }
        # One caller throwing (against the computer, as a rule) is awaited here: a task
        # of theirs and asyncio.wait took two turns of the loop more to the next frame.
        alone = throwers if len(throwers) == 1 and not returns else []
        callers = {
            seat: asyncio.ensure_future(self.discard_for(seat)) for seat in throwers if not alone
        }
        try:
            for seat in alone:
                await self.discard_for(seat)
            while pending := [task for task in callers.values() if not task.done()]:
                done, _ = await asyncio.wait(
                    [*pending, *returns], return_when=asyncio.FIRST_COMPLETED
                )
                for task in done:
                    if task in returns:
                        seat = returns.pop(task)
                        if not seat.computer_plays and seat.person is not None:
                            thoughts.pop(seat).cancel()
                            callers[seat] = asyncio.ensure_future(self.discard_for(seat))
                    elif task.exception() is not None:
                        raise task.exception()  # type: ignore[misc]
            for seat, thought in thoughts.items():
                cards = await thought
                self.log(game.discard(seat.index, cards))
                if seat.person is not None:
                    # Back as the computer's throw landed: the log leaves out a seat's
                    # own throw, so say which cards left their hand (their bar and
                    # coach know them from the game, as if they had thrown them).
                    whose = self.crib_owner(seat.index)
                    seat.person.tell(f"The computer threw {words.faces(cards)} to {whose} for you.")
        finally:
            for task in (*thoughts.values(), *callers.values(), *returns):
                task.cancel()
        self.set_waits({})

    async def discard_for(self, seat: Seat) -> None:
        game = self.game
        asked = self.discard_of(seat)
        cards = await self.decide(seat, asked)
        events = game.discard(seat.index, cards)
        if seat.person is not None:
            seat.person.tell(f"You throw {words.faces(cards)} to {asked.whose}.")
        self.log(events)

    async def cut(self, game: Game) -> None:
        size = game.stock_size
        cutter = self.seats[game.cutter]
        self.panel = CutPanel(size)

        async def computer_cut() -> int:
            position: int = await self.computer(cutter).answer(Cut(size), game)
            self.panel = CutPanel(size, position)
            self.tell(f"{cutter.name} cuts the deck at card {position}.", "Please wait")
            await self.pause()
            return position

        position = await self.decide(cutter, Cut(size), computer_cut)
        self.log(game.cut(position))
        self.panel = None
        assert game.starter is not None
        self.tell(f"The starter is {card_face(game.starter)}.")

    async def pegging(self, game: Game) -> None:
        while game.phase is Phase.PLAY:
            assert game.turn is not None
            seat = self.seats[game.turn]

            asked = Play(
                self.sorted_hand(seat.index), frozenset(game.playable(seat.index)), game.count
            )

            async def computer_play(seat: Seat = seat, asked: Play = asked) -> Card:
                self.tell(f"{seat.name} is playing...", "Please wait: the computer plays")
                await self.pause()
                card: Card = await self.computer(seat).answer(asked, game)
                return card

            card = await self.decide(seat, asked, computer_play)
            self.log(game.play(seat.index, card))
        if game.phase is Phase.SHOW:  # not the computer's "... is playing" through the pause
            self.tell("The play is over: the hands are counted next.", "Please wait")
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
                asked = Count(show_title(index, is_crib, self.names, index), is_crib)
                claim = await self.decide(seat, asked)
                events = game.count_hand(claim)
            scored = next(event for event in events if isinstance(event, ShowScored))
            self.panel = ShowPanel(index, is_crib, tuple(cards), game.starter, scored)
            self.log(events)
            await self.everyone_goes_on(game)
        self.panel = None

    async def everyone_goes_on(self, game: Game, then: str = "") -> None:
        """Each caller reads the show (or the game's end) and presses RETURN; the game goes
        on when all have. ``then`` names what comes next, if not the game's next step."""

        def prompt_for(person: Participant) -> GoOn:
            if then:
                next_step = then
            elif is_over(game):
                next_step = "the end of the game"
            elif game.showing is None:
                next_step = "the next hand"
            else:
                next_step = words.next_show(game.showing, self.names, person.index)
            return GoOn(words.go_on_prompt(next_step))

        asked = {person: person.ask(prompt_for(person)) for person in self.players_present()}
        self.set_waits({person.seat.index: "go on" for person in asked if person.seat is not None})
        try:
            await settle_all(asked.values(), on_each=lambda: self._drop_done_waits(asked))
        finally:
            self.set_waits({})

    def _drop_done_waits(self, asked: dict[Participant, asyncio.Future[Any]]) -> None:
        for person, future in asked.items():
            if future.done() and person.seat is not None:
                self.stop_waiting(person.seat.index)
        self.changed()

    def discard_of(self, seat: Seat) -> Discard:
        whose = self.crib_owner(seat.index)
        return Discard(self.sorted_hand(seat.index), self.game.discard_count, whose)

    def computer(self, seat: Seat) -> ComputerSeat:
        """The computer answering for ``seat``."""
        return ComputerSeat(seat.computer, seat.index, self.thoughts, self.rng)

    # --- whose decision the game waits for ------------------------------------------

    def set_waits(self, waits: dict[int, str]) -> None:
        self._waits = waits
        self._tell_who_waits()

    def wait_for(self, index: int, what: str) -> None:
        self._waits[index] = what
        self._tell_who_waits()

    def stop_waiting(self, index: int) -> None:
        if self._waits.pop(index, None) is not None:
            self._tell_who_waits()

    def _tell_who_waits(self) -> None:
        """Each player here learns whether the game now waits on someone else (their
        idle guard does not count that time against them). Told as the waits change, a
        few times a turn, so that no key has to ask. The clocks on the seats waited on
        start and stop here too."""
        for seat in self.seats:
            if seat.person is not None:
                seat.person.waiting_on_others(self.waits_on_others_of(seat))
        self.stalls.waits_changed()

    # --- asking a seat -------------------------------------------------------------

    async def decide(
        self,
        seat: Seat,
        question: Question[Answer],
        computer_move: Callable[[], Awaitable[Answer]] | None = None,
    ) -> Answer:
        """A decision for ``seat``: its caller's answer to ``question``, or the
        computer's if the computer plays the seat (``computer_move``, where the table
        shows the computer's move its own way). Waits (boundedly) for a caller whose
        line dropped."""
        if computer_move is None:
            computer_move = functools.partial(self.computer(seat).answer, question, self.game)
        waiting_for = question.waiting_for
        while True:
            if seat.computer_plays:
                return await computer_move()
            if seat.person is None and not seat.away:
                # Its caller left a game that counts and nobody plays the seat: the table
                # is closing (forfeited_by). Waiting for their return would return at
                # once, a loop with no await that froze the whole door.
                raise GameAbandoned
            if seat.person is None:
                self.wait_for(seat.index, waiting_for)
                await self.wait_for_return(seat)
                continue
            person = seat.person
            self.wait_for(seat.index, waiting_for)
            self.changed()
            try:
                if question.timed and self.options.turn_seconds:
                    return await self._timed(person, question, computer_move)
                return await person.ask(question)
            except SeatAway:
                continue
            finally:
                person.clock(None)
                self.stop_waiting(seat.index)
                self.changed()

    async def _timed(
        self,
        person: Participant,
        question: Question[Answer],
        computer_move: Callable[[], Awaitable[Answer]],
    ) -> Answer:
        """The person's answer within the turn timer, or the computer's best move for
        them when it runs out (the clock is on their screen meanwhile)."""
        seconds = self.options.turn_seconds
        loop = asyncio.get_running_loop()
        person.clock(TurnTimer.start(seconds, loop.time()))
        answer = person.ask(question)
        try:
            return await asyncio.wait_for(asyncio.shield(answer), seconds)
        except TimeoutError:
            person.withdraw(answer)
            self.announce(
                f"{person.name}'s time ran out: the computer moves for them.", exclude=person
            )
            person.tell("Your time ran out: the computer moves for you.", theme.TITLE)
            return await computer_move()

    async def wait_for_return(self, seat: Seat) -> None:
        """``seat``'s caller is away: ask the others whether to wait for them; the
        computer takes the seat when one says so, or when the wait runs out."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_wait
        minutes = words.duration(self.reconnect_wait)
        self.wait_for(seat.index, words.CALL_BACK)
        choice: str | None = None
        while seat.away and not seat.computer_plays:
            asked = {
                person: person.ask(WaitForCaller(seat.name, minutes))
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
        if not seat.away or seat.computer_plays:
            self.stop_waiting(seat.index)
            return  # back, or handed to the computer meanwhile (seat_refused), and said
        if not self.players_present():
            self.stop_waiting(seat.index)
            raise GameAbandoned
        # The computer takes the seat before the table stops waiting on it: the clock
        # held for its caller's stall is forgotten as the waits change (stalls.py), so a
        # caller back while the computer is on its move starts a clock of their own.
        seat.computer_plays = True
        self.stop_waiting(seat.index)
        why = "as asked" if choice else "as the wait is over"
        self.announce(f"The computer plays for {seat.name} from here, {why}.", theme.TITLE)
        self.changed()

    async def pause(self) -> None:
        """Hold the screens a moment so everyone can follow the computer's moves. The table
        does nothing meanwhile: a caller who has just answered draws at once (``pausing``,
        door/table/person.py). No pause is a turn of the loop, in which the table goes on."""
        self.changed()
        if self.pause_seconds <= 0:
            await asyncio.sleep(0)
            return
        self.pausing = True
        try:
            await asyncio.sleep(self.pause_seconds)
        finally:
            self.pausing = False
