"""A virtual screen that screens draw whole frames into.

Screens never write escape sequences themselves: they draw the complete frame into a
``Canvas`` (a grid of cells, each one character and a ``Style``, kept a row at a time
as two strings); the session's renderer (door/ui/renderer.py) sends the caller only
what changed.

>>> canvas = Canvas(20, 3)
>>> _ = canvas.put(1, 2, "5♥ J♣", Style(fg=Color.RED))
>>> canvas.text(1)
'  5♥ J♣             '
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from compiled_parts import Twin
from door.term.ansi import (
    Color,
)

SCREEN_COLS: Final = 80
SCREEN_ROWS: Final = 24

# Re-exported so screens import their colours from one place.
__all__ = [
    "Canvas",
    "Cell",
    "Color",
    "PLAIN",
    "SCREEN_COLS",
    "SCREEN_ROWS",
    "Shifted",
    "Style",
    "centred",
    "picture",
]


class Style(NamedTuple):
    """How a cell is drawn; ``None`` colours are the terminal's defaults.

    A tuple, not a dataclass: hashed and compared in C, as the key that numbers it
    (``style_number``).
    """

    fg: Color | None = None
    bg: Color | None = None
    bold: bool = False

    def on(self, bg: Color | None) -> Style:
        """The same style over another background."""
        return Style(self.fg, bg, self.bold)


PLAIN: Final = Style()

Cell = tuple[str, Style]


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


DRAWN_GLYPHS: Final = "─│┌┐└┘═║╔╗╚╝▒░█·•…♠♥♦♣←→"
"""The characters beyond ASCII the door draws with itself (rules, frames, cards, the
board, the win bar), each one cell wide (a test checks): text made of these and
printable ASCII needs no look at each character."""

_NEEDS_A_LOOK: Final = re.compile(f"[^ -~{DRAWN_GLYPHS}]")
"""A character that is neither printable ASCII nor one of the door's own glyphs."""


def one_cell_text(text: str) -> str:
    """``text`` with every character that would not take exactly one cell made ``?``:
    at once for printable ASCII and the door's glyphs (one scan in C), else a character
    at a time (a name, a chat line)."""
    if (text.isascii() and text.isprintable()) or not _NEEDS_A_LOOK.search(text):
        return text
    return _one_cell_each(text)


@functools.lru_cache(maxsize=4096)
def _one_cell_each(text: str) -> str:
    """``text`` with every character that would not take exactly one cell made ``?``
    (cached: frames redraw the same rails, lanes and card edges every time)."""
    return "".join(map(_one_cell, text))


STYLES: list[Style] = []
"""Every style numbered so far, by its number (kept text names its styles by number)."""
_STYLE_NUMBERS: dict[Style, int] = {}
MAX_STYLES: Final = 256


def style_number(style: Style) -> int:
    """A small number that stands for ``style`` (the same for the whole process). A
    kept log line writes it as one character (door/screens/chat.py), and so does a
    canvas row (``Canvas.styles``): under 256, one that keeps a string of them one byte
    a character."""
    number = _STYLE_NUMBERS.get(style)
    return _numbered(style) if number is None else number


def _numbered(style: Style) -> int:
    if len(STYLES) >= MAX_STYLES:  # 9 x 9 colours x bold is 162: never in practice
        raise ValueError(f"more than {MAX_STYLES} styles")
    number = _STYLE_NUMBERS[style] = len(STYLES)
    STYLES.append(style)
    _STYLE_CHARS[style] = chr(number)
    return number


_STYLE_CHARS: dict[Style, str] = {}


def style_char(style: Style) -> str:
    """``style``'s number as the one character a canvas row of styles holds for it."""
    char = _STYLE_CHARS.get(style)
    if char is None:
        char = chr(_numbered(style))
    return char


def style_of_char(char: str) -> Style:
    return STYLES[ord(char)]


PLAIN_CHAR: Final = style_char(PLAIN)
"""The plain style's character: number 0, the first style numbered."""


@functools.lru_cache(maxsize=64)
def blank_row(cols: int) -> tuple[str, str]:
    """A blank row of ``cols`` cells: its characters and its styles."""
    return " " * cols, PLAIN_CHAR * cols


class Canvas:
    """A grid of cells, ``rows`` by ``cols``, counted from 0. Drawing off the edge clips.

    Each row is kept as two strings of ``cols`` characters: ``chars``, what each cell
    shows, and ``styles``, each cell's style as one character (``style_char``). Strings
    hold no references, so the garbage collector never walks a screen, and a row that
    did not change is the very same string from one frame to the next: the renderer
    (door/ui/renderer.py) passes over it with one comparison of identity, and compares a
    changed one in C.
    """

    settled = False
    """Whether this canvas's lists of rows will never change again (a frame a screen
    has finished with, such as ``Layers.frame``'s): the renderer then keeps the lists
    themselves as what the caller's screen shows, rather than copies of them."""

    log_rows: range = range(0)
    """The rows holding a log whose lines scroll up as lines are added (the table's game
    log): a renderer of plain lines prints each of its lines once, not again as it
    scrolls (door/ui/line_renderer.py). Empty by default (an overlay's copy too)."""

    pane_cols: range = range(0)
    """The columns of a pane beside the picture that shows its log again, whole (the
    side pane from 110 columns): a renderer of plain lines leaves them out, the log's
    lines being printed once from the picture's ``log_rows``. Kept in an overlay's copy
    (an overlay is drawn over the picture, not the pane)."""

    def __init__(self, cols: int = SCREEN_COLS, rows: int = SCREEN_ROWS) -> None:
        self.cols = cols
        self.rows = rows
        blank_chars, blank_styles = blank_row(cols)
        self.chars: list[str] = [blank_chars] * rows
        self.styles: list[str] = [blank_styles] * rows

    @classmethod
    def over(cls, chars: list[str], styles: list[str], cols: int) -> Canvas:
        """A canvas whose rows are the lists ``chars`` and ``styles`` themselves."""
        canvas = cls.__new__(cls)
        canvas.rows, canvas.cols = len(chars), cols
        canvas.chars, canvas.styles = chars, styles
        return canvas

    def copy(self) -> Canvas:
        """A canvas with the same cells, to draw an overlay on without touching this one."""
        copy = Canvas.over(list(self.chars), list(self.styles), self.cols)
        copy.pane_cols = self.pane_cols
        return copy

    def put(self, row: int, col: int, text: str, style: Style = PLAIN) -> int:
        """Write ``text`` from ``row``, ``col``; returns the column after it."""
        end = col + len(text)
        if 0 <= row < self.rows:
            if col < 0 or end > self.cols:  # clipped (rarely: most text fits)
                text = text[max(-col, 0) : max(self.cols - col, 0)]
            if not text:
                return end
            self.lay_run(row, max(col, 0), one_cell_text(text), style_char(style) * len(text))
        return end

    def put_styled(self, row: int, col: int, text: str, styles: str) -> int:
        """Write ``text`` from ``row``, ``col``, each character in its own style:
        ``styles`` holds a style's character (``style_char``) for each character of
        ``text``. A row of cards in their colours is one put, not one a piece."""
        end = col + len(text)
        if 0 <= row < self.rows:
            if col < 0 or end > self.cols:
                first, last = max(-col, 0), max(self.cols - col, 0)
                text, styles = text[first:last], styles[first:last]
            if not text:
                return end
            self.lay_run(row, max(col, 0), one_cell_text(text), styles)
        return end

    def lay_run(self, row: int, start: int, text: str, styles: str) -> None:
        """Lay ``text`` with its ``styles`` (a style's character a cell) on ``row``
        from ``start`` (already clipped to the canvas, and made of characters that take
        one cell each)."""
        end = start + len(text)
        chars, kept = self.chars[row], self.styles[row]
        self.chars[row] = chars[:start] + text + chars[end:]
        self.styles[row] = kept[:start] + styles + kept[end:]

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
                room = self.cols - start
                self.lay_run(row, start, text[:room], style[:room])

    def cell(self, row: int, col: int) -> Cell:
        return self.chars[row][col], style_of_char(self.styles[row][col])

    @property
    def cells(self) -> list[list[Cell]]:
        """Every cell, row by row (for tests: drawing and sending never make these)."""
        return [
            list(zip(chars, map(style_of_char, styles), strict=True))
            for chars, styles in zip(self.chars, self.styles, strict=True)
        ]

    def text(self, row: int) -> str:
        """The characters of one row, for tests and logs."""
        return self.chars[row]


class Shifted(Canvas):
    """Another canvas seen ``top`` rows down: a screen laid out for 24 rows draws on it
    as on its own, and lands lower on a taller frame (see ``picture``)."""

    def __init__(self, canvas: Canvas, top: int) -> None:
        self.inner, self.top = canvas, top
        self.cols, self.rows = canvas.cols, max(0, min(SCREEN_ROWS, canvas.rows - top))

    def put(self, row: int, col: int, text: str, style: Style = PLAIN) -> int:
        return self.inner.put(row + self.top, col, text, style)

    def put_styled(self, row: int, col: int, text: str, styles: str) -> int:
        return self.inner.put_styled(row + self.top, col, text, styles)

    def cell(self, row: int, col: int) -> Cell:
        return self.inner.cell(row + self.top, col)

    def text(self, row: int) -> str:
        return self.inner.text(row + self.top)


def picture_top(rows: int) -> int:
    """The first row of the 24-row picture in a frame ``rows`` tall: centred, so that a
    taller window shows it in the middle rather than the top with the rows below empty."""
    return max(0, (rows - SCREEN_ROWS) // 2)


def picture(canvas: Canvas) -> Canvas:
    """Where a screen laid out for 24 rows draws on ``canvas`` (see ``picture_top``)."""
    top = picture_top(canvas.rows)
    return Shifted(canvas, top) if top else canvas


def centred(canvas: Canvas, rows: int) -> tuple[Canvas, int]:
    """``canvas`` (a 24-row frame) in a frame ``rows`` tall, and how far down it went. The
    rows are the very strings of ``canvas``: a row that did not change stays the same
    object for the renderer."""
    top = picture_top(rows) if canvas.rows == SCREEN_ROWS else 0
    if not top:
        return canvas, 0
    blank_chars, blank_styles = blank_row(canvas.cols)
    below = rows - top - canvas.rows
    frame = Canvas.over(
        [blank_chars] * top + list(canvas.chars) + [blank_chars] * below,
        [blank_styles] * top + list(canvas.styles) + [blank_styles] * below,
        canvas.cols,
    )
    frame.settled = True
    return frame, top


Runs = tuple[Any, ...]
"""What a ``Recorder`` kept, flat: row, first column, text, styles (a style's character,
``style_char``, for each character of the text), row, ... (one tuple, not one per
``put``, and strings rather than cells: a tuple of cells is a reference per cell that
every young garbage collection walks; a string is none)."""


class Recorder(Canvas):
    """A canvas that keeps what is drawn on it, in order, rather than a grid of cells
    (door/term/layers.py keeps each layer so; a cached drawing is kept so)."""

    def __init__(self, cols: int = SCREEN_COLS, rows: int = SCREEN_ROWS) -> None:
        self.cols, self.rows = cols, rows
        self.runs: list[Any] = []
        puts = RECORDING.chosen
        if puts is not None:
            # The two puts, in C (door/term/_record.c), each given this recorder's runs
            # and size once here: a drawing is a few dozen puts.
            put, put_styled = puts
            self.put = functools.partial(put, self.runs, rows, cols)  # type: ignore[method-assign]
            self.put_styled = functools.partial(put_styled, self.runs, rows, cols)  # type: ignore[method-assign]

    def lay_run(self, row: int, start: int, text: str, styles: str) -> None:
        runs = self.runs
        if runs and runs[-4] == row and runs[-3] + len(runs[-2]) == start:
            # Text that carries on where the last left off (a header's parts, a line
            # of the log, a card's face between its sides) is one run: laying a row
            # again and replaying a drawing cost a step a run.
            runs[-2] += text
            runs[-1] += styles
        else:
            runs += (row, start, text, styles)


def drawn_once(draw: Callable[..., Any], maxsize: int = 256) -> Callable[..., Any]:
    """``draw(canvas, *args)`` whose runs on a ``Recorder`` are kept, by the recorder's
    size and ``args`` (values, as a layer's key holds them), in a bounded cache: asked
    again with the same arguments on a Recorder, it adds what it kept to the recorder's
    runs rather than drawing (a status line, a message or a cut comes back again and
    again, for every caller). On any other canvas it draws. ``draw`` must draw from
    nothing but its arguments, and return nothing or a value never changed."""

    @functools.lru_cache(maxsize=maxsize)
    def recorded(cols: int, rows: int, *args: Any) -> tuple[Runs, Any]:
        recorder = Recorder(cols, rows)
        result = draw(recorder, *args)
        return tuple(recorder.runs), result

    @functools.wraps(draw)
    def drawing(canvas: Canvas, *args: Any) -> Any:
        if type(canvas) is not Recorder:
            return draw(canvas, *args)
        try:
            runs, result = recorded(canvas.cols, canvas.rows, *args)
        except TypeError:  # an argument that cannot be a cache's key: drawn, not kept
            return draw(canvas, *args)
        canvas.runs += runs
        return result

    return drawing


Puts = tuple[Callable[..., int], Callable[..., int]]


def _record_puts(module: Any) -> Puts:
    """door/term/_record.c's two puts, given what every recorder's are: the door's glyphs,
    the Python for other text and for styles not numbered yet, and the plain style (a
    recorder adds its runs and size: partials of partials are one call)."""
    bound = (DRAWN_GLYPHS, one_cell_text, _STYLE_CHARS, style_char, PLAIN)
    return (
        functools.partial(module.record_put, *bound),
        functools.partial(module.record_put_styled, *bound),
    )


RECORDING: Final = Twin[Puts | None]("door.term._record", python=None, compiled=_record_puts)
"""A Recorder's two puts, in C where door/term/_record.c was built: the same runs. The
Python twin (None) is the puts a Recorder has as a Canvas."""


def too_small(size: tuple[int, int], needed: tuple[int, int] = (SCREEN_COLS, SCREEN_ROWS)) -> bool:
    """Whether a terminal of ``size`` (cols, rows) cannot show a screen of ``needed``."""
    return size[0] < needed[0] or size[1] < needed[1]
