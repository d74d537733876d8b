"""What the table asks of a seat.

The table's flow (door/table/flow.py) never knows who sits in a seat: when the game needs
a decision it puts a ``Question`` to the seat's participant (door/table/seats.py) and
awaits the answer. A question is a value carrying what the seat needs to answer it (the
hand to throw from, the count, the size of the deck to cut), so whoever answers reads
nothing more of the table to do so. A caller's person (door/table/person.py) answers
with their keys (the key loops are in door/table/steps.py), whether they called this
worker or are relayed from another (door/cluster/relay.py gives them a terminal here
like any other); the computer's seats are answered by the table's own computer moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from door.screens.game_over import GameOverPanel
from door.table.before_deal import BeforeDeal
from engine.rules.cards import Card

Answer = TypeVar("Answer")


@dataclass(frozen=True)
class Question(Generic[Answer]):
    """Something the table asks of one seat. ``waiting_for`` is what the others read the
    game waits for ("Waiting for Ada to play.")."""

    timed: ClassVar[bool] = False
    """A turn timer runs on it, in a timed game (a count claim waits: counting is not
    racing)."""
    urgent: ClassVar[bool] = False
    """Asked before anything else already asked (whether to wait for someone whose line
    dropped): the other question is asked again after."""

    @property
    def waiting_for(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class ReadyToDeal(Question[str]):
    """The chat before a hand: the dealer deals (or a caller says they are ready) with
    RETURN on a blank line; the answer is "deal"."""

    words: BeforeDeal

    @property
    def waiting_for(self) -> str:
        return "deal"


@dataclass(frozen=True)
class Discard(Question[list[Card]]):
    """Throw ``need`` of ``cards`` (the hand, in display order) to ``whose`` crib
    ("your crib", "Bob's crib")."""

    cards: tuple[Card, ...]
    need: int
    whose: str
    timed: ClassVar[bool] = True

    @property
    def waiting_for(self) -> str:
        return "throw to the crib"


@dataclass(frozen=True)
class Cut(Question[int]):
    """Cut a deck of ``size`` cards: the answer is a position from 1 to ``size``."""

    size: int
    timed: ClassVar[bool] = True

    @property
    def waiting_for(self) -> str:
        return "cut the deck"


@dataclass(frozen=True)
class Play(Question[Card]):
    """Play one of ``playable`` from ``cards`` (the hand, in display order) onto a
    count of ``count``."""

    cards: tuple[Card, ...]
    playable: frozenset[Card]
    count: int
    timed: ClassVar[bool] = True

    @property
    def waiting_for(self) -> str:
        return "play"


@dataclass(frozen=True)
class Count(Question[int]):
    """Claim the points of the hand on show, ``title`` as the seat reads it ("Your
    crib"), in manual counting."""

    title: str
    is_crib: bool

    @property
    def waiting_for(self) -> str:
        return "count the crib" if self.is_crib else "count the hand"


@dataclass(frozen=True)
class GoOn(Question[None]):
    """Read the table (a show, a game's end) and press RETURN; ``prompt`` says what
    comes next."""

    prompt: str

    @property
    def waiting_for(self) -> str:
        return "go on"


@dataclass(frozen=True)
class PlayAgain(Question[bool]):
    """At the end of a game against the computer: another (game of the match)?"""

    prompt: str
    panel: GameOverPanel
    match_on: bool
    """A match goes on: the next game is of the same match."""

    @property
    def waiting_for(self) -> str:
        return "answer"


@dataclass(frozen=True)
class WaitForCaller(Question[str]):
    """``name``'s line dropped: wait up to ``wait`` ("2 minutes") for a call back, or let
    the computer play their seat (the answer "computer")."""

    name: str
    wait: str
    urgent: ClassVar[bool] = True

    @property
    def waiting_for(self) -> str:
        return "call back"


@dataclass(frozen=True)
class ClaimGame(Question[str]):
    """The game has waited on ``name``'s move for ``waited`` ("3 minutes"): the one asked
    may claim the game, which ``name`` then forfeits (door/table/stalls.py); the answer is
    "claim". Withdrawn when ``name`` moves."""

    name: str
    waited: str
    ready: bool = False
    """The wait was for ``name`` to say they are ready for the computer's deal, not for
    a move."""
    urgent: ClassVar[bool] = True

    @property
    def stalled(self) -> str:
        """What ``name`` has not done for ``waited``: ``has not moved``."""
        return "has not said they are ready" if self.ready else "has not moved"

    @property
    def waiting_for(self) -> str:
        return "claim the game"
