"""What a game reports after each action: screens render these, logs replay them.

Every event is an immutable value. Seats are numbered from 0 in turn order
(play passes from seat n to seat n+1); a side is a seat, or in the four-player
game a partnership (seats 0 and 2 are side 0, seats 1 and 3 side 1).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules.cards import Card
from engine.rules.outcome import Outcome, SkunkKind
from engine.rules.scoring import ScoreItem, ShowScore


@dataclass(frozen=True)
class CutForDeal:
    """One round of cutting for first deal; ``dealer`` is None when the low cards tied."""

    draws: tuple[tuple[int, Card], ...]
    dealer: int | None


@dataclass(frozen=True)
class HandDealt:
    dealer: int
    hand_number: int
    cards_each: int


@dataclass(frozen=True)
class Discarded:
    seat: int
    count: int


@dataclass(frozen=True)
class StarterCut:
    cutter: int
    position: int
    card: Card


@dataclass(frozen=True)
class CardPlayed:
    seat: int
    card: Card
    count: int
    play_number: int


@dataclass(frozen=True)
class GoSaid:
    """The seat could not play without passing 31, and was passed over."""

    seat: int


@dataclass(frozen=True)
class CountReset:
    """A new count starts at zero; ``leader`` plays first (None when no cards are left)."""

    leader: int | None


@dataclass(frozen=True)
class Pegged:
    """Points moved a peg. ``reason`` is a short phrase such as "fifteen two" or "his heels".
    ``points`` are those the peg moved: a count that would pass 121 stops in the game hole."""

    seat: int
    side: int
    points: int
    reason: str
    items: tuple[ScoreItem, ...]
    score: int
    previous_score: int


@dataclass(frozen=True)
class ShowScored:
    """A hand or crib counted. ``claim`` is None in automatic counting.

    ``awarded`` went to ``seat``; ``muggins`` points went to ``muggins_seat``,
    the next player in turn order, for a count missed or over-claimed.
    """

    seat: int
    is_crib: bool
    score: ShowScore
    claim: int | None
    awarded: int
    muggins: int
    muggins_seat: int | None
    remark: str


@dataclass(frozen=True)
class HandOver:
    next_dealer: int


@dataclass(frozen=True)
class GameOver:
    """``skunks`` names each losing side left under 91 ("skunk") or 61 ("double skunk").
    ``scores`` never pass 121. ``forfeited_by`` is the side that left the game, when it
    ended that way; ``winner_seat`` is then the winning side's first seat, and
    ``claimed_by`` the seat that claimed the game from a player who kept it waiting, if it
    was claimed (``Game.forfeit``)."""

    winner_side: int
    winner_seat: int
    scores: tuple[int, ...]
    skunks: tuple[tuple[int, SkunkKind], ...]
    forfeited_by: int | None = None
    claimed_by: int | None = None

    @property
    def outcome(self) -> Outcome:
        """The same end as ``Game.outcome()`` gives."""
        claimed = self.claimed_by is not None
        return Outcome(self.winner_side, self.scores, self.skunks, self.forfeited_by, claimed)


Event = (
    CutForDeal
    | HandDealt
    | Discarded
    | StarterCut
    | CardPlayed
    | GoSaid
    | CountReset
    | Pegged
    | ShowScored
    | HandOver
    | GameOver
)
