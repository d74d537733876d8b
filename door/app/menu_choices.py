"""What a caller has chosen in the lobby for their next game, and the lines that say
how their games of this call went."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from door.screens.fit import shortened
from door.screens.layout import SCREEN_COLS
from door.table.options import GameOptions, GameResult

RESULT_WIDTH: Final = SCREEN_COLS - 2
"""The lobby's message row, where the line is shown."""
SHORTEST_NAME: Final = 8
"""A name is shortened to fit the row down to this many cells (a '…' the last), no
fewer: past that the line wraps to the second message row rather than lose the name."""


@dataclass
class MenuChoices:
    """The game options a caller has chosen, and what happened in this call."""

    options: GameOptions = field(default_factory=GameOptions)
    notes: list[str] = field(default_factory=list)

    def count(self, result: GameResult, sides: Sequence[str], *, spoken: bool = False) -> None:
        """Keep a line about how the game went, for the lobby; ``sides`` are the
        names of the game's sides, in order. ``spoken``: for a screen reader, which has
        no row to fit, so hears every name whole."""
        if result.quit:
            self.notes.append("Game abandoned.")
            return
        self.notes.append(result_line(result, sides, None if spoken else RESULT_WIDTH))


def result_line(result: GameResult, sides: Sequence[str], width: int | None = RESULT_WIDTH) -> str:
    """How the game went, in one line: who won, and every side's score, a skunk beside
    the score it marks: "You won 121 to 98.", "Computer 2 won 121; you 73 (skunk),
    Computer 95." (A three-handed loss said "The computer won 121 to 73": not which of
    two computers, nor the third score.) Three sides are listed, not told in a sentence.
    Within ``width`` cells: past it the longest of the other sides' names gives way, a
    cell at a time, with a '…' (two double skunks and handles of 20 letters made 92
    columns, wrapping onto the second message row), never a score: "Bartholomew S… won
    121; you 60 (double skunk), Maximiliana… 59 (double skunk)." ``width`` None: no
    limit, every name whole.
    """
    cells = {side: len(name) for side, name in enumerate(sides) if side != result.side}
    line = _result_line(result, sides)
    while width is not None and len(line) > width and cells and max(cells.values()) > SHORTEST_NAME:
        longest = max(cells, key=lambda side: (cells[side], side))
        cells[longest] -= 1
        named = [shortened(name, cells.get(side, len(name))) for side, name in enumerate(sides)]
        line = _result_line(result, named)
    return line


def _result_line(result: GameResult, sides: Sequence[str]) -> str:
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
