"""A virtual screen that screens draw whole frames into.

Screens never write escape sequences themselves: they draw the complete frame into a
``Canvas`` (a grid of cells, each one character and a ``Style``); the session's renderer
(door/ui/renderer.py) sends the caller only what changed.

>>> canvas = Canvas(20, 3)
>>> _ = canvas.put(1, 2, "5♥ J♣", Style(fg=Color.RED))
>>> canvas.text(1)
'  5♥ J♣             '
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from typing import Final, NamedTuple

from door.term.ansi import (
    Color,
)

SCREEN_COLS: Final = 80
SCREEN_ROWS: Final = 24

# Re-exported so screens import their colours from one place.
__all__ = ["Canvas", "Cell", "Color", "PLAIN", "SCREEN_COLS", "SCREEN_ROWS", "Style"]


class Style(NamedTuple):
    """How a cell is drawn; ``None`` colours are the terminal's defaults.

    A tuple, not a dataclass, so that comparing two cells (done for every cell
    of every changed row) stays in C instead of calling a Python ``__eq__``.
    """

    fg: Color | None = None
    bg: Color | None = None
    bold: bool = False

    def on(self, bg: Color | None) -> Style:
        """The same style over another background."""
        return Style(self.fg, bg, self.bold)


PLAIN: Final = Style()

Cell = tuple[str, Style]
BLANK: Final[Cell] = (" ", PLAIN)


@functools.lru_cache(maxsize=4096)
def _one_cell(char: str) -> str:
    """``char`` if a terminal draws it in exactly one cell, else ``?``.

    Wide (CJK, emoji) and zero-width (combining, control) characters would push every
    later cell of the row out of line, and the renderer's idea of the cursor with them.
    """
    if char.isascii():
        return char if char.isprintable() else "?"
    if unicodedata.combining(char) or unicodedata.east_asian_width(char) in ("W", "F"):
        return "?"
    return char if char.isprintable() else "?"


@functools.lru_cache(maxsize=4096)
def _one_cell_each(text: str) -> str:
    """``text`` with every character that would not take exactly one cell made ``?``
    (cached: frames redraw the same rails, lanes and card edges every time)."""
    return "".join(map(_one_cell, text))


_INTERNED_CELLS: dict[Cell, Cell] = {}
_MAX_INTERNED_CELLS: Final = 50_000


def _interned(cell: Cell) -> Cell:
    if len(_INTERNED_CELLS) >= _MAX_INTERNED_CELLS:
        _INTERNED_CELLS.clear()  # a flood of rare characters; start over
    return _INTERNED_CELLS.setdefault(cell, cell)


@functools.lru_cache(maxsize=8192)
def _cells(text: str, style: Style) -> tuple[Cell, ...]:
    """The cells that draw ``text`` in ``style``, each one shared by every canvas.

    Every session keeps whole screens of cells (the frame being drawn, the frame
    last sent). Were each cell its own tuple, hundreds of sessions would hold
    millions of objects for the garbage collector to walk, and a full collection
    would stall every caller for a tenth of a second. Shared, there are only as
    many cells as distinct characters and styles in use.
    """
    return tuple(_interned((char, style)) for char in text)


class Canvas:
    """A grid of cells, ``rows`` by ``cols``, counted from 0. Drawing off the edge clips."""

    def __init__(self, cols: int = SCREEN_COLS, rows: int = SCREEN_ROWS) -> None:
        self.cols = cols
        self.rows = rows
        self.cells: list[list[Cell]] = [[BLANK] * cols for _ in range(rows)]

    @classmethod
    def over(cls, cells: list[list[Cell]]) -> Canvas:
        """A canvas whose rows are ``cells`` themselves, not copies."""
        canvas = cls.__new__(cls)
        canvas.rows, canvas.cols = len(cells), len(cells[0]) if cells else 0
        canvas.cells = cells
        return canvas

    def copy(self) -> Canvas:
        """A canvas with the same cells, to draw an overlay on without touching this one."""
        twin = Canvas(self.cols, self.rows)
        twin.cells = [row[:] for row in self.cells]
        return twin

    def put(self, row: int, col: int, text: str, style: Style = PLAIN) -> int:
        """Write ``text`` from ``row``, ``col``; returns the column after it."""
        start, end = max(col, 0), min(col + len(text), self.cols)
        if 0 <= row < self.rows and start < end:
            chunk = text[start - col : end - col]
            if not (chunk.isascii() and chunk.isprintable()):
                chunk = _one_cell_each(chunk)
            # One slice assignment: screens redraw every cell of every frame.
            self._store(row, start, _cells(chunk, style))
        return col + len(text)

    def _store(self, row: int, start: int, cells: tuple[Cell, ...]) -> None:
        """Lay ``cells`` on ``row`` from ``start`` (already clipped to the canvas)."""
        self.cells[row][start : start + len(cells)] = cells

    def fill(self, row: int, col: int, width: int, char: str = " ", style: Style = PLAIN) -> None:
        self.put(row, col, char * max(width, 0), style)

    def clear(self, top: int, left: int, height: int, width: int, style: Style = PLAIN) -> None:
        """Blank a rectangle (used under overlays so nothing shows through)."""
        for row in range(top, top + height):
            self.fill(row, left, width, " ", style)

    def box(
        self,
        top: int,
        left: int,
        height: int,
        width: int,
        style: Style = PLAIN,
        *,
        title: str = "",
        title_style: Style | None = None,
        double: bool = False,
    ) -> None:
        """A frame ``height`` by ``width`` with an optional title in its top edge."""
        if height < 2 or width < 2:
            return
        h, v, tl, tr, bl, br = "═║╔╗╚╝" if double else "─│┌┐└┘"
        self.put(top, left, tl + h * (width - 2) + tr, style)
        for row in range(top + 1, top + height - 1):
            self.put(row, left, v, style)
            self.put(row, left + width - 1, v, style)
        self.put(top + height - 1, left, bl + h * (width - 2) + br, style)
        if title:
            self.put(top, left + 2, f" {title[: width - 6]} ", title_style or style)

    def paste(self, top: int, rows: Sequence[Sequence[Cell]]) -> None:
        """Copy whole rows of cells (a drawing cached elsewhere) in from row ``top``."""
        for offset, cells in enumerate(rows):
            row = top + offset
            if 0 <= row < self.rows:
                width = min(len(cells), self.cols)
                self._store(row, 0, tuple(cells[:width]))

    def cell(self, row: int, col: int) -> Cell:
        return self.cells[row][col]

    def text(self, row: int) -> str:
        """The characters of one row, for tests and logs."""
        return "".join(char for char, _ in self.cells[row])


def too_small(size: tuple[int, int], needed: tuple[int, int] = (SCREEN_COLS, SCREEN_ROWS)) -> bool:
    """Whether a terminal of ``size`` (cols, rows) cannot show a screen of ``needed``."""
    return size[0] < needed[0] or size[1] < needed[1]
