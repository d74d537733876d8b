"""The win bar: each side's chance to win, drawn on the rule above the game log.

Two sides get a bar between their names, each part in its side's colour; three get
their percentages side by side. The chances come from ``engine.odds.winbar`` (the caller's
view of the hand, or a watcher's); this module only draws them.

>>> from door.term.canvas import Canvas
>>> canvas = Canvas()
>>> draw_win_bar(canvas, ("You", "Computer"), (0.62, 0.38))
>>> canvas.text(16).strip("─ ")
'Win: You 62% ████████████░░░░░░░ 38% Computer'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from door.screens import theme
from door.screens.layout import LOG_RULE_ROW, SCREEN_COLS
from door.term.canvas import Canvas

BAR_CELLS: Final = 19
FULL, EMPTY = "█", "░"


def percent(chance: float) -> str:
    """A chance as a whole percentage that never says 100% or 0% before the end."""
    shown = round(chance * 100)
    if 0.0 < chance < 1.0:
        shown = min(max(shown, 1), 99)
    return f"{shown}%"


def draw_win_bar(
    canvas: Canvas, names: Sequence[str], chances: Sequence[float], current: bool = True
) -> None:
    """Right-aligned on the log's rule: ``Win: You 62% ██████░░░ 38% Computer``. Chances
    that are not ``current`` (an earlier moment's, while the new ones are worked out) are
    drawn dimmed: a figure the caller can read as old, never a wrong one in colour."""
    if len(names) == 2:
        filled = round(chances[0] * BAR_CELLS)
        parts = [
            (" Win: ", theme.LABEL),
            (f"{names[0][:14]} {percent(chances[0])} ", theme.PLAYER_STYLES[0]),
            (FULL * filled, theme.PLAYER_STYLES[0]),
            (EMPTY * (BAR_CELLS - filled), theme.PLAYER_STYLES[1]),
            (f" {percent(chances[1])} {names[1][:14]} ", theme.PLAYER_STYLES[1]),
        ]
    else:
        parts = [(" Win: ", theme.LABEL)]
        for side, (name, chance) in enumerate(zip(names, chances, strict=True)):
            parts.append((f"{name[:12]} {percent(chance)} ", theme.PLAYER_STYLES[side]))
    width = sum(len(text) for text, _ in parts)
    col = max(0, SCREEN_COLS - 2 - width)
    for text, style in parts:
        col = canvas.put(LOG_RULE_ROW, col, text, style if current else theme.DIM)
