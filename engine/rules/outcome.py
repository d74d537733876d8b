"""How a game ended, as one value: ``Game.outcome()``.

Screens, records, statistics and replays all read the result from this, so a game won
in the show reads "121 to 65" everywhere (nobody pegs past the game hole), and a game
left before the end is a forfeit everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

WINNING_SCORE: Final = 121
SKUNK_LINE: Final = 91
DOUBLE_SKUNK_LINE: Final = 61

SkunkKind = Literal["skunk", "double skunk"]


def skunk_kind(score: int) -> SkunkKind | None:
    """What a losing side's final score makes of the loss."""
    if score < DOUBLE_SKUNK_LINE:
        return "double skunk"
    if score < SKUNK_LINE:
        return "skunk"
    return None


@dataclass(frozen=True)
class Outcome:
    """The end of a game.

    ``scores`` are per side (a partnership is one side), as pegged and never past 121.
    ``skunks`` names each losing side left under 91 ("skunk") or 61 ("double skunk");
    a forfeit skunks nobody. ``forfeited_by`` is the side that left the game, if it
    ended that way rather than at 121; ``claimed``, that the other side claimed it from
    them because they did not move, rather than their leaving it.
    """

    winner_side: int
    scores: tuple[int, ...]
    skunks: tuple[tuple[int, SkunkKind], ...] = ()
    forfeited_by: int | None = None
    claimed: bool = False

    @property
    def forfeit(self) -> bool:
        return self.forfeited_by is not None

    @property
    def sides(self) -> int:
        return len(self.scores)

    def won(self, side: int) -> bool:
        return side == self.winner_side

    def skunk_of(self, side: int) -> SkunkKind | None:
        """The skunk ``side`` suffered, if any."""
        return dict(self.skunks).get(side)

    def best_other(self, side: int) -> int:
        """The highest score among the sides other than ``side``."""
        return max(score for other, score in enumerate(self.scores) if other != side)

    def describe(self, names: tuple[str, ...] | list[str]) -> str:
        """One line such as "Ada won 121 to 65 (a skunk)", ``names`` given per side."""
        winner = names[self.winner_side]
        mine = self.scores[self.winner_side]
        theirs = self.best_other(self.winner_side)
        if self.forfeit:
            assert self.forfeited_by is not None
            how = "had the game claimed from them" if self.claimed else "left the game"
            return (
                f"{winner} won by forfeit: {names[self.forfeited_by]} {how} "
                f"at {self.scores[self.forfeited_by]} to {mine}"
            )
        kinds = [kind for _, kind in self.skunks]
        note = f" (a {kinds[0]})" if len(kinds) == 1 else ""
        if len(kinds) > 1:
            note = " (" + ", ".join(f"{names[side]}: {kind}" for side, kind in self.skunks) + ")"
        return f"{winner} won {mine} to {theirs}{note}"
