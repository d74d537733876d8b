"""The people at a table and what they all see: the seats and who sits in them, the
watchers, arrivals and departures, the log, the chat and the message line, the results.

``Company`` is the half of a table that does not run the game: door/table/flow.py's
``Table`` adds the host that does. It knows whoever sits at the table only as a
``Participant`` (door/table/seats.py), made from a caller's session by ``admit``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final, Generic

from door.competition.match import Match
from door.screens import theme
from door.screens.chat import canned_reply, clean_chat
from door.screens.game_over import GameOverPanel
from door.screens.game_screen import Panel
from door.screens.help import default_help
from door.screens.narration import narrate, side_names
from door.table import forfeits, words
from door.table.before_deal import BeforeDeal, before_deal
from door.table.counted_ends import CountedEnds
from door.table.light_random import light_random
from door.table.listener import TableListener
from door.table.options import GameOptions, GameResult
from door.table.question import PlayAgain
from door.table.seats import (
    DEFAULT_PAUSE,
    DEFAULT_RECONNECT_WAIT,
    MAX_NAME_LENGTH,
    Admit,
    Participant,
    Seat,
    Someone,
    display_order,
    make_seats,
)
from door.table.win_bars import WIN_BAR_SETTINGS, WinBars
from door.term.ansi import sanitize
from door.term.canvas import Style
from door.ui.session import Session
from engine.rules.cards import Card
from engine.rules.events import Event, GameOver
from engine.rules.game import Game
from engine.rules.outcome import Outcome

EXHIBITION_PAUSES: Final = (0.0, 0.2, 0.5, 0.8, 1.5, 3.0)
"""The speeds a watcher of the computer playing itself steps through, in seconds a move."""


class Company(CountedEnds, Generic[Someone]):
    """The seats of one game and the people at it (the game is ``game``); see
    door/table/flow.py's ``Table`` for the arguments."""

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
        self.admit = admit
        self.pause_seconds = pause
        self.reconnect_wait = reconnect_wait
        self.help_text = help_text if help_text is not None else default_help()
        self.listener: TableListener[Any] = listener or TableListener()
        """Whoever keeps the table (saves its game, rates it): door/table/listener.py."""
        self.chat_rng = light_random(rng)
        self.last_reply = ""
        self.seats = make_seats(names, options.level, rng, account_ids)
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
        self.watchers: list[Participant] = []
        self.win_bars = WinBars()
        """Everyone's win bar, worked out once per moment of the game and view, after
        the frame answering the key that moved the game (door/table/win_bars.py)."""
        self.win_bar_setting = win_bar
        self.watching_status = words.watching_status(
            exhibition=self.exhibition, win_bar_never=win_bar == "never"
        )
        self.header: tuple[str, ...] = ()
        self.panel: Panel | None = None
        self.message = ""
        self.status = "Please wait"
        self._waits: dict[int, str] = {}
        self.over = False
        self.abandoned = False
        self.failure: BaseException | None = None
        self.quit_result: GameResult | None = None
        self.forfeit_text = ""
        """Set when a game that counts ended early: a caller forfeited it by leaving, or
        left it while the other's line was down (forfeits.py)."""
        self.claimed = False  # ... or when it was claimed from them (stalls.py)
        self.won_while_away = ""
        """The dropped caller for whom the computer won a game that counts: not their
        win (forfeits.py), and ``counted`` the end that counts in its place, if any."""
        self.counted: Outcome | None = None
        self.stopped = False
        """The door closed the table as it stopped (the game is not over)."""
        self.back_text = "You are back at the table, where the game stands."
        """What a caller reads on coming back to their seat."""

    # --- who is here ----------------------------------------------------------------

    @property
    def title(self) -> str:
        """``Alice vs Bob`` (``Alice & Carol vs Bob & Computer`` for partners)."""
        return words.title(self.names)

    def players_present(self) -> list[Participant]:
        return [seat.person for seat in self.seats if seat.person is not None]

    def people(self) -> list[Participant]:
        """Everyone looking at the table: the players here, then the watchers."""
        return [*self.players_present(), *self.watchers]

    def people_deciding(self) -> bool:
        """Whether a player here has a question to answer, or a seat the table waits for
        is away. Asked at every frame and settle turn of every person at the table: a
        loop over the seats, where generators over a list built each time took 0.63 us
        at a table of two (now 0.2, timeit)."""
        for seat in self.seats:
            person = seat.person
            if person is not None and person.deciding:
                return True
        waits = self.waits
        return bool(waits) and any(seat.away for seat in self.seats if seat.index in waits)

    @property
    def waits(self) -> Mapping[int, str]:
        """Seats the game is waiting for, and what for ("play", "cut the deck"); the
        table's flow changes them (``Table.set_waits``), and tells the players."""
        return self._waits

    def waits_on_others_of(self, seat: Seat) -> bool:
        """Whether the game waits on someone's decision, and not on ``seat``'s."""
        return bool(self._waits) and seat.index not in self._waits

    def first_opponent_name(self) -> str:
        return self.names[1]

    back_to = "the lobby"
    """Where RETURN takes the players once the game is over for them."""

    def end_text(self) -> str:
        """What the players read once the game is over for them."""
        abandoned = self.abandoned and not self.won_while_away  # the game was played out
        return words.end_text(abandoned=abandoned, stopped=self.stopped)

    def quit_consequence(self, person: Participant | None = None) -> str:
        """What leaving now means for ``person``, for the quit dialog."""
        if self.solo:
            return f"Leave now and {self.first_opponent_name()} is given the game."
        if forfeits.counts(self.options, sum(seat.human for seat in self.seats)):
            other = next(s for s in self.seats if person is None or s is not person.seat)
            return forfeits.quit_warning(self.options, other, self.reconnect_wait, self.game)
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

    def win_bar_agreed(self) -> bool:
        """Every caller seated at the table asked for the win bar."""
        return all(person.wants_win_bar for person in self.players_present())

    def toggle_win_bar(self, person: Participant) -> bool:
        """``w`` from ``person``: their bar on or off; between callers, a request to the
        others until all agree. False: the bar may not be asked for here (told why)."""
        if refusal := self.win_bar_refusal():
            person.tell(refusal, theme.DIM)
            return False
        person.wants_win_bar = not person.wants_win_bar
        if self.solo or person.seat is None:
            self.changed()
            return True
        # Said in everyone's log: the message line is a prompt's while they decide.
        if not person.wants_win_bar:
            person.tell("Win bar off: w asks for it again.", theme.LABEL)
            self.announce(f"{person.name} turned the win bar off.", theme.LABEL, exclude=person)
        elif self.win_bar_agreed():
            self.announce("Every player asked for the win bar: here it is (w: off).", theme.LABEL)
        else:
            players = self.players_present()  # (watchers have no say)
            waiting = words.and_list([other.name for other in players if not other.wants_win_bar])
            person.tell(f"Asked {waiting} for the win bar: it shows when they agree.", theme.LABEL)
            # At three or four, whoever asked already reads an agreement, not a request
            # to press the w they pressed.
            asked = f"{person.name} asks for the win bar: press w to agree."
            agreed = f"{person.name} agrees to the win bar: waiting for {waiting}."
            for other in players:
                if other is not person:
                    other.tell(agreed if other.wants_win_bar else asked, theme.LABEL)
        return True

    def win_bar_allowed(self, person: Participant) -> bool:
        """Whether ``person`` may see the win bar now. Against the computer, always. A
        watcher's bar knows every hand, so between callers watchers get none (it could
        be passed on in the chat); players, once they have all asked for it."""
        if self.solo:
            return True
        if person.seat is None:
            return sum(seat.human for seat in self.seats) <= 1
        return self.win_bar_agreed()

    @property
    def given_up(self) -> bool:
        """The caller of a game against the computer chose to quit it: not a dropped
        line, nor the door closing (those leave a saved game to resume)."""
        return self.quit_result is not None

    def sit(self, index: int, session: Session) -> Someone:
        """The caller of seat ``index`` sits down, seeing the table on ``session``."""
        seat = self.seats[index]
        if not seat.human:
            raise ValueError(f"seat {index} is the computer's")
        person = self.admit(self, seat.name, session, seat)
        seat.person = person
        seat.sat_down = True
        seat.settled()
        person.waiting_on_others(self.waits_on_others_of(seat))  # back while others decide
        return person

    def waits_for(self, name: str, account_id: int | None = None) -> Seat | None:
        """The seat ``name`` may take back: a caller's seat whose caller is gone, of that
        name for a guest's, of the same account (whatever its handle now: the sysop may
        have renamed it) for a member's."""
        key = name.casefold()
        for seat in self.seats:
            if seat.human and not seat.left and seat.person is None:
                if seat.account_id is None and seat.name.casefold() == key:
                    return seat
                if seat.account_id is not None and seat.account_id == account_id:
                    return seat
        return None

    def seat_renamed(self, seat: Seat, name: str) -> None:
        """The sysop renamed the member of ``seat`` to ``name``: the table calls them so
        from now on, and says it; a wait for their call back is asked again in the new
        name (door/app/member_watch.py)."""
        old, seat.name = seat.name, name
        self.names = tuple(seat.name for seat in self.seats)
        if self.match is not None:  # the match's line ("Ada leads 1-0") says it too
            self.match = replace(self.match, names=side_names(self.names, 2))
        if seat.away:
            self.announce(
                f"The sysop renamed {old} to {name}: the seat waits for {name} to call back.",
                theme.ERROR,
            )
            seat.settled()  # whoever waits asks again, in the new name
            seat.went_away()
        else:
            self.announce(f"The sysop renamed {old} to {name}.", theme.TITLE)
        self.changed()

    def seat_refused(self, seat: Seat, why: str) -> None:
        """The sysop locked or removed the member of ``seat`` and the door hung up on
        them: they cannot call back, so nobody waits the reconnect wait out for them; the
        computer plays the seat from here, as when that wait runs out, and the table
        says why (``why``: "The sysop locked Ada's account")."""
        if not seat.away or seat.computer_plays or self.over:
            return
        seat.computer_plays = True
        seat.settled()  # a wait for their call back ends now
        self.announce(f"{why}: the computer plays for {seat.name} from here.", theme.TITLE)
        self.changed()

    def rejoin(self, name: str, session: Session, account_id: int | None = None) -> Someone | None:
        """The caller ``name`` (logged in to ``account_id``, if any) is back after their
        line dropped: their seat again, where the game stands; None if no seat here is
        waiting for them."""
        seat = self.waits_for(name, account_id)
        if seat is None or self.over:
            return None
        if seat.account_id is not None and seat.name != name:
            self.seat_renamed(seat, name)  # renamed, and back before the watch told the table
        was_computer = seat.computer_plays
        seat.computer_plays = False
        first_time = not seat.sat_down
        person = self.sit(seat.index, session)
        if first_time:
            person.tell("You sit down at the table.")
            back = f"{seat.name} sits down."
        else:
            person.tell(self.back_text)
            back = f"{seat.name} is back."
        if was_computer:
            back += f" {seat.name} plays from the next decision on."
        self.announce(back, exclude=person)
        self.changed()
        return person

    def watch(self, name: str, session: Session) -> Someone:
        person = self.admit(self, name, session, None)
        person.tell(f"You are watching {self.title}. Press c to chat.", theme.TITLE)
        self.watchers.append(person)
        self.announce(f"{name} is watching.", exclude=person)
        return person

    def person_dropped(self, person: Participant, *, idle: bool = False) -> None:
        """A line dropped (``idle``: the idle guard closed it): tell the others; the game
        waits for the seat when it needs it."""
        person.gone()
        if person.seat is None:
            self._remove_watcher(person)
            return
        seat = person.seat
        if seat.person is person:
            seat.person = None
            seat.dropped()
        if self.over:
            return
        if self.solo:
            self.close()
            return
        dropped = "was closed: no key pressed for a long time" if idle else "has dropped"
        self.announce(f"{seat.name}'s line {dropped}.", theme.ERROR)
        self._end_if_nobody_plays()
        self.changed()

    def person_quit(self, person: Participant) -> None:
        person.gone()
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
        if forfeits.counts(self.options, sum(seat.human for seat in self.seats)):
            other = next(other for other in self.seats if other is not seat)
            if other.away:  # they left first: not a forfeit to them (forfeits.py)
                self._left_while_away(seat, other)
            else:
                self.forfeited_by(seat)
            return
        seat.computer_plays = True
        seat.settled()
        self.announce(f"{seat.name} left the game: the computer plays for {seat.name}.")
        self._end_if_nobody_plays()
        self.changed()

    def tournament_match_settled(self, text: str) -> None:
        """The sysop settled this game's tournament match without it (tell everyone
        ``text``): it goes on as a game that does not count there, so leaving it is no
        longer a forfeit in the tournament, and its end records nothing there."""
        self.options = self.options.with_(tournament=0)
        self.announce(text)
        self.changed()

    def let_go(self, person: Participant) -> None:
        """``person`` is done with the ended game: the table no longer holds them, as
        when someone quits, so that they and the table are no cycle once both are
        forgotten (the door freezes what lives long: door/gc_policy.py)."""
        if person.seat is None:
            if person in self.watchers:
                self.watchers.remove(person)
        elif person.seat.person is person:
            person.seat.person = None

    def _remove_watcher(self, person: Participant) -> None:
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

    # --- what everyone sees --------------------------------------------------------

    def log(self, events: Sequence[Event]) -> None:
        """Tell everyone what an action did, in their own words: narrated once a way of
        seeing it (each seat, the watchers), not once a person, so a crowd watching a
        table costs one line for them all."""
        told: dict[int | None, str] = {}
        for person in self.people():
            index = person.index
            line = told.get(index)
            if line is None:
                line = told[index] = narrate(events, self.names, index)
            person.tell(line)
        if any(isinstance(event, GameOver) for event in events):
            self.game_ended()  # at once: the end is written on the loop's next turn

    def announce(
        self, text: str, style: Style = theme.TITLE, *, exclude: Participant | None = None
    ) -> None:
        for person in self.people():
            if person is not exclude:
                person.tell(text, style)

    def chat(self, speaker: str, text: str, style: Style) -> str | None:
        """A chat line for everyone at the table (and a word back from the computer when
        it is the caller's only company), as the table's keeper lets it go out (masked);
        or why ``speaker`` may not chat (muted), said to nobody."""
        line = clean_chat(text)
        if not line:
            return None
        refusal = self.listener.chat_refusal(self, speaker)
        if refusal is not None:
            return refusal
        line = self.listener.chat_heard(self, speaker, line)
        name = sanitize(speaker, MAX_NAME_LENGTH)
        for person in self.people():
            person.hear(name, line, style)
        if self.solo and any(
            seat.person is not None and seat.person.name == speaker for seat in self.seats
        ):
            reply = self.last_reply = canned_reply(self.chat_rng, self.last_reply)
            computer = next(seat for seat in self.seats if not seat.human)
            computer_style = theme.PLAYER_STYLES[self.game.side_of(computer.index)]
            for person in self.people():
                person.hear(computer.name, reply, computer_style)
        return None

    def tell(self, message: str, status: str | None = None) -> None:
        """What everyone who is not answering a question reads on the message line."""
        self.message = message
        if status is not None:
            self.status = status
        self.changed()

    def waiting_text(self) -> str:
        return words.waiting_text(self.waits, self.names) or self.message

    def set_header(self, game: Game, *, upcoming: bool = False) -> None:
        self.header = words.header(
            self.options,
            game.hand_number + (1 if upcoming else 0),
            computer_plays=not all(seat.human for seat in self.seats),
            match_game=self.match_game_number() if self.match else None,
        )

    def crib_owner(self, seat: int) -> str:
        """``your crib`` or ``Bob's crib``, for the caller at ``seat``."""
        return words.crib_owner(self.game.dealer, seat, self.names)

    def sorted_hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(sorted(self.game.hand(seat), key=display_order))

    def match_game_number(self) -> int:
        assert self.match is not None
        return sum(self.match.wins) + 1

    def next_question(self) -> str:
        """What a caller playing the computer is asked at a game's end."""
        match_game = self.match_game_number() if self.match is not None else 0
        return words.next_question(self.match, match_game)

    def game_over_panel(self, question: str = "") -> GameOverPanel:
        outcome = self.outcome()
        assert outcome is not None
        match_line = f"{self.match.line()}." if self.match is not None else ""
        match_line = self.forfeit_text or match_line
        question = question or self.next_question()
        claimed = outcome.forfeit and self.claimed
        return GameOverPanel(outcome, question, match_line, self.saved_as(), claimed=claimed)

    def play_again(self) -> PlayAgain:
        match_on = self.match is not None and not self.match.decided
        return PlayAgain(self.next_question(), self.game_over_panel(), match_on)

    def before_deal_words(self, game: Game, person: Participant) -> BeforeDeal:
        dealer = self.seats[game.dealer]
        return before_deal(
            game.hand_number + 1,
            dealer.name,
            i_deal=dealer is person.seat,
            computer_deals=dealer.computer_plays,
            alone=len(self.players_present()) == 1,
            coach=self.solo,
        )

    def changed(self) -> None:
        """Something at the table changed: everyone redraws."""
        for person in self.people():
            person.wake()
        self.listener.changed(self)

    def saved_as(self) -> int | None:
        """The game's number in the store, if its keeper saved it (TableListener)."""
        return self.listener.saved_as()

    async def until_saved(self) -> None:
        """Until the game as it stands is in the store, if its keeper saves it."""
        await self.listener.until_saved()

    def saved_whole(self) -> bool:
        """Whether the game as it stands is in the store (TableListener)."""
        return self.listener.saved_whole()

    # --- results --------------------------------------------------------------------

    def close(self) -> None:
        """Stop the game if it is still going, and let everyone at the table go (the
        host does: door/table/flow.py)."""
        raise NotImplementedError

    def result_for(self, seat: int | None, *, quit: bool = False) -> GameResult:
        """The game as it ended (or stands) for ``seat``'s side; seat None: side 0.
        ``quit``: the seat's caller left; unless the game forfeited for them, it was
        given up."""
        if quit and self.quit_result is not None and self.solo:
            return self.quit_result
        game = self.game
        side = game.side_of(seat) if seat is not None else 0
        outcome = self.outcome()
        if quit and (outcome is None or outcome.forfeited_by != side):
            outcome = None
        return GameResult(outcome, side, tuple(game.scores))
