"""A table's seats and the questions put to the people in them, and the small texts
the table and its people share."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

from door.screens import theme
from door.screens.cards import card_face
from door.term.keys import Key
from engine.computer.player import ComputerPlayer
from engine.rules.cards import Card
from engine.rules.game import Game, Phase

logger = logging.getLogger(__name__)

if TYPE_CHECKING:
    from door.table.person import Person

DEFAULT_PAUSE: Final = 0.8
"""Seconds the computer's moves stay on screen before the game goes on."""
DEFAULT_RECONNECT_WAIT: Final = 120.0
"""Seconds a game waits for a dropped caller before the computer takes their seat."""
MAX_NAME_LENGTH: Final = 20
WATCHER_STYLE: Final = theme.TITLE
"""Chat from someone who is not playing (the sysop breaking in, a watcher)."""

GO_ON_KEYS: Final = frozenset({Key.ENTER, Key.printable(" ")})
EVERYWHERE: Final = "c chat  ? help  ^L redraw  q quit"
"""The keys that work at every step, ending each status line."""
WAITING_STATUS: Final = f"Waiting  {EVERYWHERE}"
WATCHING_STATUS: Final = "Watching  c chat  ? help  ^L redraw  q stop watching"
EXHIBITION_STATUS: Final = "Watching  + faster  - slower  w win bar  c chat  ? help  q stop"
EXHIBITION_STATUS_NO_BAR: Final = EXHIBITION_STATUS.replace("  w win bar", "")
"""Where the sysop turned the win bar off (``[game] win_bar = "never"``)."""

Result = TypeVar("Result")


class SeatAway(Exception):
    """The person asked has left the table (their line dropped, or they quit)."""


class LeftTheGame(Exception):
    """The person confirmed leaving the game."""


class StepInterrupted(Exception):
    """What the person was doing is no longer asked of them: the game moved on."""


class GameAbandoned(Exception):
    """Nobody is left to play the game."""


# --- seats and the people at the table ---------------------------------------------------


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
        self.person: Person | None = None
        self.sat_down = False
        """A caller has sat here: until then the seat waits for its caller's first
        arrival (from another worker, door/cluster/relay.py), not for a return."""
        self.computer_plays = not human
        """The computer decides for this seat: a computer seat, or a caller's seat handed
        over after their line dropped or they left."""
        self.left = False
        """The caller quit: the seat is the computer's to the end."""
        self._settled: asyncio.Event | None = None
        """Set when an away caller's absence ends: they sat down again, or left for good.
        Made for the first wait (an Event keeps room for 64 waiters, 0.6 KB, and most
        seats are never waited for)."""

    def settled(self) -> None:
        """The caller sat down again, or left for good: whoever waits for them goes on."""
        if self._settled is not None:
            self._settled.set()

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


@dataclass
class Request(Generic[Result]):
    """A question the host puts to one person; ``step`` runs their key loop for it."""

    step: Callable[[Person], Awaitable[Result]]
    future: asyncio.Future[Result]
    urgent: bool = False
    """Asked before anything else (whether to wait for someone whose line dropped)."""


def is_over(game: Game) -> bool:
    # A function, not an inline test, because the phase changes behind the awaits.
    return game.phase is Phase.OVER


def display_order(card: Card) -> tuple[int, str]:
    return (int(card.rank), card.suit.value)


def faces(cards: Sequence[Card]) -> str:
    return " ".join(card_face(card) for card in cards)


def and_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def duration(seconds: float) -> str:
    if seconds >= 120:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds:.0f} seconds"


def wrong_key(key: Key, hint: str) -> str:
    name = repr(key.char) if key.is_printable else key.name.value
    return f"The {name} key does nothing here: {hint}."
