"""What a caller has chosen in the lobby for their next game, and the lines that say
how their games of this call went."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from door.table.options import GameOptions, GameResult


@dataclass
class MenuChoices:
    """The game options a caller has chosen, and what happened in this call."""

    options: GameOptions = field(default_factory=GameOptions)
    notes: list[str] = field(default_factory=list)

    def count(self, result: GameResult, sides: Sequence[str]) -> None:
        """Keep a line about how the game went, for the lobby; ``sides`` are the
        names of the game's sides, in order."""
        if result.quit:
            self.notes.append("Game abandoned.")
            return
        self.notes.append(result_line(result, sides))


def result_line(result: GameResult, sides: Sequence[str]) -> str:
    """How the game went, in one line: who won, and every side's score, a skunk beside
    the score it marks: "You won 121 to 98.", "Computer 2 won 121; you 73 (skunk),
    Computer 95." (A three-handed loss said "The computer won 121 to 73": not which of
    two computers, nor the third score.) Three sides are listed, not told in a sentence:
    with handles of 20 letters and a double skunk it still fits one row of 80 (two double
    skunks take the lobby's second message row)."""
    outcome, own = result.outcome, result.side
    winner = outcome.winner_side if outcome is not None else own
    scores = result.scores

    def score(side: int) -> str:
        skunk = outcome.skunk_of(side) if outcome is not None else None
        return f"{scores[side]}{f' ({skunk})' if skunk else ''}"

    who = "You" if winner == own else sides[winner]
    losers = [side for side in range(len(scores)) if side != winner]
    if len(losers) == 1:
        return f"{who} won {scores[winner]} to {score(losers[0])}."
    losers.sort(key=lambda side: (side != own, -scores[side]))  # one's own first
    beaten = ", ".join(f"{'you' if side == own else sides[side]} {score(side)}" for side in losers)
    return f"{who} won {scores[winner]}; {beaten}."
