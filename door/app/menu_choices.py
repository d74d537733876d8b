"""What a caller has chosen in the lobby for their next game, and the lines that say
how their games of this call went."""

from __future__ import annotations

from dataclasses import dataclass, field

from door.table.options import GameOptions, GameResult


@dataclass
class MenuChoices:
    """The game options a caller has chosen, and what happened in this call."""

    options: GameOptions = field(default_factory=GameOptions)
    notes: list[str] = field(default_factory=list)

    def count(self, result: GameResult, opponent: str) -> None:
        """Keep a line about how the game went, for the lobby."""
        if result.quit:
            self.notes.append("Game abandoned.")
            return
        skunk = f" ({result.skunk})" if result.skunk else ""
        outcome = "You won" if result.caller_won else f"{opponent} won"
        high = max(result.caller_score, result.computer_score)
        low = min(result.caller_score, result.computer_score)
        self.notes.append(f"{outcome} {high} to {low}{skunk}.")
