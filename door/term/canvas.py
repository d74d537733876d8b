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
from typing import Any, Final, NamedTuple, Protocol

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


STYLES: list[Style] = []
"""Every style numbered so far, by its number (kept text names its styles by number)."""
_STYLE_NUMBERS: dict[Style, int] = {}
_MAX_STYLES: Final = 256


def style_number(style: Style) -> int:
    """A small number that stands for ``style`` (the same for the whole process). A
    kept log line writes it as one character (door/screens/chat.py): under 256, one
    that keeps a line of plain text one byte a character."""
    number = _STYLE_NUMBERS.get(style)
    return _numbered(style) if number is None else number


def _numbered(style: Style) -> int:
    if len(STYLES) >= _MAX_STYLES:  # 9 x 9 colours x bold is 162: never in practice
        raise ValueError(f"more than {_MAX_STYLES} styles")
    number = _STYLE_NUMBERS[style] = len(STYLES)
    STYLES.append(style)
    return number


class _CellsOf(dict[str, Cell]):
    """The cell of each character in one style, made once: ``cells.__getitem__`` maps a
    whole string to its cells in C."""

    def __init__(self, style: Style) -> None:
        super().__init__()
        self.style = style

    def __missing__(self, char: str) -> Cell:
        if len(self) >= _MAX_CELLS_PER_STYLE:
            self.clear()  # a flood of rare characters; start over
        cell = self[char] = (char, self.style)
        return cell


_MAX_CELLS_PER_STYLE: Final = 4096
_CELLS_BY_STYLE: dict[Style, _CellsOf] = {}


def cells_of(style: Style) -> _CellsOf:
    """Every cell in ``style``, shared by every canvas.

    Every session keeps whole screens of cells (the frame being drawn, the frame last
    sent). Were each cell its own tuple, hundreds of sessions would hold millions of
    objects for the garbage collector to walk. Shared, there are only as many cells as
    distinct characters and styles in use; and a drawing is kept as its text and style
    (door/term/layers.py), not as a tuple of cells the young collections must walk.
    """
    table = _CELLS_BY_STYLE.get(style)
    if table is None:
        table = _CELLS_BY_STYLE[style] = _CellsOf(style)
        if style == PLAIN:
            table[" "] = BLANK
    return table


class FrameKeeper(Protocol):
    @property
    def generation(self) -> int:
        """How many frames it has made: its rows are as the last one left them."""
        ...


class History(NamedTuple):
    """How a frame kept from one to the next (door/term/layers.py) came from the one
    before it: the renderer, which sent that one, then keeps no copy of its own of what
    the caller's screen shows and compares only the rows that changed."""

    owner: FrameKeeper
    """What keeps the frame (a ``Layers``)."""
    generation: int
    """Counts the owner's frames: this one is the one after ``generation - 1``."""
    rows: list[list[Cell]]
    """The owner's rows: the same list every frame, its rows changed in place."""
    before: dict[int, list[Cell]]
    """Each row this frame changed, as it was in the frame before."""


class Canvas:
    """A grid of cells, ``rows`` by ``cols``, counted from 0. Drawing off the edge clips."""

    history: History | None = None
    """Set on a frame kept from one to the next, and on copies of it (an overlay's)."""

    def __init__(self, cols: int = SCREEN_COLS, rows: int = SCREEN_ROWS) -> None:
        self.cols = cols
        self.rows = rows
        self.cells: list[list[Cell]] = [[BLANK] * cols for _ in range(rows)]

    @classmethod
    def over(cls, cells: list[list[Cell]], history: History | None = None) -> Canvas:
        """A canvas whose rows are ``cells`` themselves, not copies."""
        canvas = cls.__new__(cls)
        canvas.rows, canvas.cols = len(cells), len(cells[0]) if cells else 0
        canvas.cells = cells
        if history is not None:
            canvas.history = history
        return canvas

    def copy(self) -> Canvas:
        """A canvas with the same cells, to draw an overlay on without touching this one."""
        twin = Canvas(self.cols, self.rows)
        twin.cells = [row[:] for row in self.cells]
        if self.history is not None:
            twin.history = self.history  # the renderer still learns what it sent from it
        return twin

    def put(self, row: int, col: int, text: str, style: Style = PLAIN) -> int:
        """Write ``text`` from ``row``, ``col``; returns the column after it."""
        start, end = max(col, 0), min(col + len(text), self.cols)
        if 0 <= row < self.rows and start < end:
            chunk = text[start - col : end - col]
            if not (chunk.isascii() and chunk.isprintable()):
                chunk = _one_cell_each(chunk)
            self._store(row, start, chunk, style)
        return col + len(text)

    def _store(self, row: int, start: int, text: str, style: Style) -> None:
        """Lay ``text`` in ``style`` on ``row`` from ``start`` (already clipped to the
        canvas, and made of characters that take one cell each)."""
        # One slice assignment, each cell looked up in C.
        self.cells[row][start : start + len(text)] = map(cells_of(style).__getitem__, text)

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

    def replay(self, runs: Runs) -> None:
        """Lay what a ``Recorder`` kept, as it was drawn."""
        items = iter(runs)
        for row, start, text, style in zip(items, items, items, items, strict=True):
            if 0 <= row < self.rows and start < self.cols:
                self._store(row, start, text[: self.cols - start], style)

    def cell(self, row: int, col: int) -> Cell:
        return self.cells[row][col]

    def text(self, row: int) -> str:
        """The characters of one row, for tests and logs."""
        return "".join(char for char, _ in self.cells[row])


Runs = tuple[Any, ...]
"""What a ``Recorder`` kept, flat: row, first column, text, style, row, ... (one tuple,
not one per ``put``, and text rather than cells: a tuple of cells is a reference per
cell that every young garbage collection walks; a string is none)."""


class Recorder(Canvas):
    """A canvas that keeps what is drawn on it, in order, rather than a grid of cells
    (door/term/layers.py keeps each layer so; a cached drawing is kept so)."""

    def __init__(self, cols: int = SCREEN_COLS, rows: int = SCREEN_ROWS) -> None:
        self.cols, self.rows = cols, rows
        self.runs: list[Any] = []

    def _store(self, row: int, start: int, text: str, style: Style) -> None:
        self.runs += (row, start, text, style)


def too_small(size: tuple[int, int], needed: tuple[int, int] = (SCREEN_COLS, SCREEN_ROWS)) -> bool:
    """Whether a terminal of ``size`` (cols, rows) cannot show a screen of ``needed``."""
    return size[0] < needed[0] or size[1] < needed[1]
