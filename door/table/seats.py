"""A table's seats, and the participant in each as the table sees them.

A seat is played by a caller or by the computer. A caller's seat holds their
``Participant`` while they are there (a caller's person: door/table/person.py; the table
asks them ``Question`` values, door/table/question.py), and none while their line is
down.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Coroutine, Sequence
from typing import Any, Final, Protocol, TypeVar

from door.competition.turn_timer import TurnTimer
from door.screens import theme
from door.table.light_random import light_random
from door.table.options import COMPUTER_NAME
from door.table.question import Answer, Question
from door.term.ansi import sanitize
from door.term.canvas import Style
from engine.computer.player import ComputerPlayer
from engine.rules.cards import FULL_DECK, Card
from engine.rules.game import Game, Phase

logger = logging.getLogger(__name__)

DEFAULT_PAUSE: Final = 0.8
"""Seconds the computer's moves stay on screen before the game goes on."""
DEFAULT_RECONNECT_WAIT: Final = 120.0
"""Seconds a game waits for a dropped caller before the computer takes their seat."""
MAX_NAME_LENGTH: Final = 20


class SeatAway(Exception):
    """The person asked has left the table (their line dropped, or they quit)."""


class GameAbandoned(Exception):
    """Nobody is left to play the game."""


class Seat:
    """One place at the table: played by a caller, or by the computer."""

    def __init__(
        self,
        index: int,
        name: str,
        human: bool,
        computer: ComputerPlayer,
        account_id: int | None = None,
    ) -> None:
        self.index = index
        self.name = name
        self.human = human
        """A caller's seat (even while the computer stands in for them)."""
        self.account_id = account_id
        """The account of the caller who sat down here, if they logged in: only that
        account may take the seat back after a dropped line."""
        self.computer = computer
        self.person: Participant | None = None
        self.sat_down = False
        """A caller has sat here: until then the seat waits for its caller's first
        arrival (from another worker, door/cluster/relay.py), not for a return."""
        self.computer_plays = not human
        """The computer decides for this seat: a computer seat, or a caller's seat handed
        over after their line dropped or they left."""
        self.left = False
        """The caller quit: the seat is the computer's to the end."""
        self.away_since = time.monotonic()
        """When its caller's line last dropped (until then, when the table was made: a
        seat waits for its caller from the start), for how long they have been away."""
        self._settled: asyncio.Event | None = None
        """Set when an away caller's absence ends: they sat down again, or left for good.
        Made for the first wait (an Event keeps room for 64 waiters, 0.6 KB, and most
        seats are never waited for)."""

    def settled(self) -> None:
        """The caller sat down again, or left for good: whoever waits for them goes on."""
        if self._settled is not None:
            self._settled.set()

    def dropped(self) -> None:
        """The caller's line dropped: away from now."""
        self.away_since = time.monotonic()
        self.went_away()

    def away_longer_than(self, seconds: float) -> bool:
        """Whether its caller has been away over ``seconds`` (asked while away)."""
        return time.monotonic() - self.away_since >= seconds

    def went_away(self) -> None:
        """The caller's line dropped (or they stood up): a wait for them may begin."""
        if self._settled is not None:
            self._settled.clear()

    def until_settled(self) -> Coroutine[Any, Any, bool]:
        """Waits until ``settled()``; called while the caller is away. The Event is made
        now, not when the wait first runs, so a return in between is not missed."""
        if self._settled is None:
            self._settled = asyncio.Event()
        return self._settled.wait()

    @property
    def away(self) -> bool:
        """A caller's seat whose caller is gone and may come back."""
        return self.human and self.person is None and not self.left


class Participant(Protocol):
    """Whoever sits in a seat (or watches) as the table sees them: what it asks and
    tells them, never how they answer."""

    name: str
    seat: Seat | None
    """None for a watcher."""
    wants_win_bar: bool
    """They asked for the win bar (w), or have it from the start."""

    @property
    def index(self) -> int | None: ...

    @property
    def deciding(self) -> bool:
        """A question is put to them and not yet answered."""
        ...

    def ask(self, question: Question[Answer]) -> asyncio.Future[Answer]:
        """Put ``question``; the future holds the answer, or raises ``SeatAway``."""
        ...

    def withdraw(self, answer: asyncio.Future[Any]) -> None:
        """The question is no longer asked (someone else answered, the game moved on)."""
        ...

    def tell(self, text: str, style: Style = theme.TEXT) -> None:
        """A line for their log."""
        ...

    def hear(self, speaker: str, line: str, style: Style) -> None:
        """A chat line said at the table (cleaned already)."""
        ...

    def wake(self) -> None:
        """Something at the table changed: they look again."""
        ...

    def clock(self, timer: TurnTimer | None) -> None:
        """The turn timer running on their decision (None: none runs)."""
        ...

    def waiting_on_others(self, waiting: bool) -> None:
        """The game starts (True) or stops waiting on someone else's decision: time
        spent so is not held against them as idleness."""
        ...

    def gone(self) -> None:
        """They have left (quit, or their line dropped): every question put to them and
        not yet answered fails with ``SeatAway``, and so does any later one."""
        ...


Someone = TypeVar("Someone", bound=Participant)
"""Whoever the door seats at a table (the table is generic in them: ``Table[Someone]``)."""
Someone_co = TypeVar("Someone_co", bound=Participant, covariant=True)


class Admit(Protocol[Someone_co]):
    """How a caller arriving with ``session`` takes ``seat`` (None: to watch) at
    ``table``: the participant the table will ask. The door passes the class of its
    people (door/table/person.py); the table never names it."""

    def __call__(self, table: Any, name: str, session: Any, seat: Seat | None) -> Someone_co: ...


def thrown_before(game: Game, seat: Seat | None) -> tuple[Card, ...]:
    """What someone sitting down at ``seat`` threw to this hand's crib before (a saved
    game resumed, a dropped line come back): their win bar and coach know those cards,
    as they did before they left. None for a watcher."""
    return () if seat is None else game.thrown_by(seat.index)


def is_over(game: Game) -> bool:
    # A function, not an inline test, because the phase changes behind the awaits.
    return game.phase is Phase.OVER


def _rank_then_suit_letter(card: Card) -> tuple[int, str]:
    return (int(card.rank), card.suit.value)


def _display_places() -> list[int]:
    places = [0] * len(FULL_DECK)
    for place, card in enumerate(sorted(FULL_DECK, key=_rank_then_suit_letter)):
        places[card.index] = place
    return places


_DISPLAY_PLACES: Final = _display_places()


def display_order(card: Card) -> int:
    """A card's place in a hand as shown: by rank, then clubs, diamonds, hearts, spades.
    Looked up by the card's index: a hand sorted so (a caller's hand at every frame and
    every turn) takes 0.8 us, where building a (rank, suit letter) tuple of enum values a
    card took 3.1 (timeit)."""
    return _DISPLAY_PLACES[card.index]


def make_seats(
    names: Sequence[str | None],
    level: str,
    rng: random.Random,
    account_ids: Sequence[int | None] | None = None,
) -> list[Seat]:
    """A table's seats, one a name (None: the computer's, named in turn), each with a
    computer of ``level`` to stand in for its caller."""
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
