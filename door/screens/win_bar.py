"""The win bar: each side's chance to win, drawn on the rule above the game log.

Two sides get a bar between their names, each part in its side's colour; three get
their percentages side by side. The chances come from ``engine.odds.winbar`` (the caller's
view of the hand, or a watcher's); this module only draws them.

>>> from door.term.canvas import Canvas, style_char
>>> canvas = Canvas()
>>> draw_win_bar(canvas, ("You", "Computer"), (0.62, 0.38))
>>> canvas.text(16).strip("─ ")
'Win: You 62% ████████████░░░░░░░ 38% Computer'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from door.screens import theme
from door.screens.fit import shortened
from door.screens.layout import LOG_RULE_ROW, SCREEN_COLS
from door.term.canvas import Canvas, style_char

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
    # One put of the whole bar, each part's cells in its style (a bar is drawn at every
    # moment of the game, for every caller who has one).
    if len(names) == 2:
        filled = round(chances[0] * BAR_CELLS)
        first = f"{shortened(names[0], 14)} {percent(chances[0])} {FULL * filled}"
        second = f"{EMPTY * (BAR_CELLS - filled)} {percent(chances[1])} {shortened(names[1], 14)} "
        text = _WIN + first + second
        styles = _WIN_STYLES + _FIRST * len(first) + _SECOND * len(second)
    else:
        parts = [
            f"{shortened(name, 12)} {percent(chance)} "
            for name, chance in zip(names, chances, strict=True)
        ]
        text = _WIN + "".join(parts)
        styles = _WIN_STYLES + "".join(_SIDES[side] * len(part) for side, part in enumerate(parts))
    if not current:
        styles = _DIM * len(text)
    canvas.put_styled(LOG_RULE_ROW, max(0, SCREEN_COLS - 2 - len(text)), text, styles)


_WIN: Final = " Win: "
_WIN_STYLES: Final = style_char(theme.LABEL) * len(_WIN)
_FIRST, _SECOND = (style_char(style) for style in theme.PLAYER_STYLES[:2])
_SIDES: Final = tuple(style_char(style) for style in theme.PLAYER_STYLES)
_DIM: Final = style_char(theme.DIM)
