"""The session's one renderer: it sends each frame as the difference from the last one.

Screens draw whole frames into a ``Canvas`` (door/term/canvas.py) and the session hands
the composed frame here; the renderer compares it with the last frame the caller was sent
and writes just the cursor moves, colour changes and characters that make the difference.
A full repaint happens on the first frame, after ``invalidate()`` (Ctrl-L, line noise),
after a resize, and when the caller switches character set or colour mode. One renderer
per caller, so a resize is one repaint.

What the caller's screen shows is kept as the rows of the last frame sent: strings
(door/term/canvas.py), shared with whoever drew them, so keeping them costs a list of
references, and a row that a kept frame (the table's layers) did not change is the same
string object again, passed over with one comparison of identity. The rows that did
change are worked out in C (door/ui/_paint.c) where it was built; the Python beside it
(``_paint_rows``) keeps what a row's change sends process-wide (``_row_patch``): callers
at the same screen make the same changes, and a change another caller made just before
costs one lookup.

>>> from tests.door.fake_terminal import FakeTerminal
>>> from door.term.canvas import Color, Style
>>> terminal = FakeTerminal(cols=20, rows=3)
>>> renderer = Renderer(terminal)
>>> canvas = Canvas(20, 3)
>>> _ = canvas.put(1, 2, "5♥ J♣", Style(fg=Color.RED))
>>> renderer.render(canvas)
>>> terminal.display[1]
'  5♥ J♣             '
"""

from __future__ import annotations

import asyncio
import functools
import re
import textwrap
from collections.abc import Callable
from typing import Final

from compiled_parts import Twin
from door.term.ansi import (
    CLEAR_SCREEN,
    CLEAR_TO_END_OF_LINE,
    HIDE_CURSOR,
    RESET,
    SHOW_CURSOR,
    ColorMode,
    Palette,
    at,
)
from door.term.canvas import (
    MAX_STYLES,
    PLAIN_CHAR,
    SCREEN_COLS,
    SCREEN_ROWS,
    Canvas,
    centred,
    style_of_char,
    too_small,
)
from door.term.terminal import Disconnected, Terminal

REPAINT_INTERVAL: Final = 0.05
"""Seconds between repaints a caller's resizes cause: a storm of them is one repaint."""
_MAX_GAP: Final = 4
"""Unchanged cells between two changes that are rewritten rather than jumped over."""


class Renderer:
    """Sends canvases to one terminal, each as the difference from the last one sent.

    The bottom-right cell of the screen is never written: SyncTERM (and other BBS
    clients) scroll the whole screen up when it is. The renderer also repaints by itself
    when the terminal is resized, from the last canvas it was given.
    """

    # Slots: read at every frame, and cold among a thousand callers' sessions: the
    # attributes in the object, not in a values array beside it (#48).
    __slots__ = (
        "_terminal", "_sent", "_last", "_sent_for", "_cursor_shown", "hid_cursor",
        "_background", "_behind", "_stop_listening",
    )  # fmt: skip

    def __init__(self, terminal: Terminal) -> None:
        self._terminal = terminal
        self._sent: Canvas | None = None
        """What the caller's screen shows (a canvas over lists of the renderer's own,
        whose rows are the strings of the frames sent); None: not known, paint whole."""
        self._last: tuple[Canvas, tuple[int, int] | None] | None = None
        self._sent_for: tuple[object, object] | None = None
        self._cursor_shown: bool | None = None
        self.hid_cursor = False
        """The cursor was hidden last, as far as the caller's terminal knows (kept through
        ``invalidate``, which only forgets what the screen shows)."""
        self._background: asyncio.Task[None] | None = None
        """Flushes after a resize, and sends the newest frame once the caller reads."""
        self._behind = False
        """A frame (or a resize) is newer than what was sent."""
        self._stop_listening: Callable[[], None] | None = terminal.on_resize(self._resized)

    def invalidate(self) -> None:
        """Make the next ``render`` repaint everything (Ctrl-L, after line noise)."""
        self._sent = None
        self._cursor_shown = None

    def close(self) -> None:
        """Stop listening for resizes, and stop any repaint on its way."""
        if self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None
        if self._background is not None:
            self._background.cancel()
            self._background = None

    def _resized(self, cols: int, rows: int) -> None:
        self.invalidate()
        if self._last is None:
            return
        if self._background is not None:
            # A repaint is on its way already: it will send the newest frame, once.
            self._behind = True
            return
        self._paint(*self._last)
        # The screen is usually waiting for a key when a resize arrives, and a terminal
        # may hold written output until its next flush: flush now, in the background.
        self._send_in_background()

    def _send_in_background(self) -> None:
        """Start the one task that flushes, then sends the newest frame if it changed
        meanwhile: however many resizes or frames arrive, one task and one frame wait."""
        if self._background is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop (a test drawing by hand): nothing to flush
        self._background = loop.create_task(self._catch_up())

    async def _catch_up(self) -> None:
        try:
            while True:
                # Until the caller has taken what went before (or the line dropped).
                await self._terminal.flush()
                await asyncio.sleep(REPAINT_INTERVAL)  # a storm of resizes: one repaint
                if not self._behind or self._last is None:
                    return
                self._behind = False
                self._paint(*self._last)
        except Disconnected:
            return  # the screen hears of it at its next read_key
        finally:
            self._background = None

    def render(self, canvas: Canvas, cursor: tuple[int, int] | None = None) -> None:
        """Bring the caller's screen to ``canvas``; ``cursor`` (row, col) shows the cursor
        there, for typing; None hides it where the terminal can hide it.

        While the caller is not reading (output waits in the transport) only the newest
        frame is kept, and sent once the transport drains."""
        if self._terminal.backlogged:
            self._last = (canvas, cursor)
            self._behind = True
            self._send_in_background()
            return
        self._paint(canvas, cursor)

    def _paint(self, canvas: Canvas, cursor: tuple[int, int] | None) -> None:
        terminal = self._terminal
        self._last = (canvas, cursor)
        # The terminal's size, charset and colours read once a frame: each is a property
        # (of the idle guard, then of the terminal inside it), and frames come by the
        # thousand a second.
        size = terminal.size
        term_cols, term_rows = size
        # A 24-row frame in a taller window is shown in its middle, here rather than by
        # the screen, so that a resize repaints it centred for the new size at once.
        canvas, top = centred(canvas, term_rows)
        if cursor is not None and top:
            cursor = (cursor[0] + top, cursor[1])
        # A frame laid out for a larger window than the one there now (just shrunk) is
        # shown cut to the window, if that still holds the 80x24 screen; the screen then
        # draws itself again for the new size.
        if too_small(size, (min(canvas.cols, SCREEN_COLS), min(canvas.rows, SCREEN_ROWS))):
            self._ask_to_grow(terminal, canvas)
            return
        mode = terminal.color_mode
        sent_for = (terminal.charset, mode)
        if self._sent_for != sent_for:
            self.invalidate()
            self._sent_for = sent_for
        colour = mode is ColorMode.ANSI  # (Palette(mode).enabled)
        out: list[str] = []
        rows = min(canvas.rows, term_rows)
        cols = min(canvas.cols, term_cols)
        shown = self._sent
        if shown is None or (shown.rows, shown.cols) != (canvas.rows, canvas.cols):
            if colour:
                out.append(RESET)
            out.append(CLEAR_SCREEN)
            shown = Canvas(canvas.cols, canvas.rows)
        # The bottom-right cell is never written (some clients scroll when it is). It is
        # the last column drawn or beyond, so no span of changes ever runs over it.
        forbidden_cells = ((term_rows - 1, term_cols - 1), (canvas.rows - 1, canvas.cols - 1))
        # After CLEAR_SCREEN or RESET the terminal draws in the default style; the cursor
        # stands at the top left. Row -1: where it stands is not known.
        start = (PLAIN_CHAR, 0, 0) if out else (None, -1, 0)
        changes, current_style, at_row, at_col = PAINTING.chosen(
            canvas.chars, canvas.styles, shown.chars, shown.styles,
            rows, cols, term_cols, colour, forbidden_cells, *start,
        )  # fmt: skip
        out.append(changes)
        if colour and current_style not in (None, PLAIN_CHAR):
            out.append(RESET)
        self._place_cursor(out, cursor, colour, (at_row, at_col) if at_row >= 0 else None)
        # What the screen shows now: every row of the frame (rows cut off by a smaller
        # window are never compared before a resize paints all again). Lists of the
        # renderer's own, for whoever drew the canvas may draw on it again, unless it
        # is settled.
        self._sent = (
            canvas
            if canvas.settled
            else Canvas.over(list(canvas.chars), list(canvas.styles), canvas.cols)
        )
        # Kept for a repaint after a resize, rather than the canvas itself.
        self._last = (self._sent, cursor)
        text = "".join(out)
        if text:
            terminal.write(text)

    def _ask_to_grow(self, terminal: Terminal, canvas: Canvas) -> None:
        """A window under 80x24 cannot show the door: say so, in words that fit it, and
        repaint whole once it is large enough (keys wait meanwhile: door/term/inbox.py)."""
        cols, rows = terminal.size
        text = (
            f"Your window is {cols}x{rows}. Cribbage Door needs at least "
            f"{min(canvas.cols, SCREEN_COLS)}x{min(canvas.rows, SCREEN_ROWS)}: please make it "
            "larger. The game waits for you."
        )
        width = max(10, cols - 1)
        lines = textwrap.wrap(text, width)[: max(1, rows - 1)]
        reset = RESET if Palette(terminal.color_mode).enabled else ""
        terminal.write(reset + CLEAR_SCREEN + "\r\n".join(lines))
        self._sent = None  # the whole screen is painted again when it fits
        self._cursor_shown = None

    def _place_cursor(
        self,
        out: list[str],
        cursor: tuple[int, int] | None,
        colour: bool,
        position: tuple[int, int] | None,
    ) -> None:
        if cursor is not None:
            if position != cursor:
                out.append(_move_to(cursor[0] + 1, cursor[1] + 1))
            if colour and self._cursor_shown is not True:
                out.append(SHOW_CURSOR)
                self._cursor_shown = True
                self.hid_cursor = False
        elif colour and self._cursor_shown is not False:
            # ANSI.SYS-era terminals ignore this; there the cursor just stays put.
            out.append(HIDE_CURSOR)
            self._cursor_shown = False
            self.hid_cursor = True


_NO_COLUMN: Final[tuple[int, ...]] = ()


def _paint_rows(
    new_chars: list[str],
    new_styles: list[str],
    old_chars: list[str],
    old_styles: list[str],
    rows: int,
    cols: int,
    term_cols: int,
    colour: bool,
    forbidden_cells: tuple[tuple[int, int], ...],
    current_style: str | None,
    at_row: int,
    at_col: int,
) -> tuple[str, str | None, int, int]:
    """What brings the first ``rows`` rows, cut to ``cols`` columns, from the old rows
    to the new, never writing a ``forbidden_cells`` (row, column), with the cursor at
    ``at_row``, ``at_col`` (row -1: not known) and ``current_style`` the style in force
    (None: not known): the text to send, then the style in force and the cursor after it.
    (door/ui/_paint.c does the same in C, and is used where it was built.)"""
    out: list[str] = []
    append = out.append
    patch_of = _row_patch if cols > _KEPT_PATCH_COLS else _kept_row_patch
    forbidden_rows = {row for row, _ in forbidden_cells}
    for y in range(rows):
        chars, styles = new_chars[y], new_styles[y]
        was_chars, was_styles = old_chars[y], old_styles[y]
        if chars is was_chars and styles is was_styles:
            continue  # a row a kept frame did not touch: most rows of most frames
        if chars == was_chars and styles == was_styles:
            continue
        if cols < len(chars):
            chars, styles = chars[:cols], styles[:cols]
            was_chars, was_styles = was_chars[:cols], was_styles[:cols]
        forbidden = _NO_COLUMN
        if y in forbidden_rows:
            forbidden = tuple(column for row, column in forbidden_cells if row == y)
        patch = patch_of(colour, y, forbidden, chars, styles, was_chars, was_styles)
        if patch is None:
            continue
        first, lead_style, lead_escape, body, last_style, past = patch
        if at_row != y or at_col != first:
            append(_move_to(y + 1, first + 1))
        if lead_style is not None and lead_style != current_style:
            append(lead_escape)
        append(body)
        if last_style is not None:
            current_style = last_style
        # Writing the last column leaves the cursor in a pending-wrap state
        # that terminals disagree about: treat the position as unknown.
        at_row, at_col = (y, past) if past < term_cols else (-1, 0)
    return "".join(out), current_style, at_row, at_col


_PATCHES_KEPT: Final = 8192
"""Row changes kept, with what they send. Callers at the same screen make the same
changes to the same rows (the prompt, the count, the status, the board's pegs), so
one caller's change is mostly one that another made just before: bench/load.py at
1,200 callers found 57 % of changed rows among the last 8,192 changes (64 % among
32,768, for 25 KiB more a session). About 1 KiB each."""
_KEPT_PATCH_COLS: Final = 100
"""Rows wider than this (a window with a side pane, up to 400 columns) are not kept:
a caller's window must not make the kept rows take more memory."""

Patch = tuple[int, str | None, str, str, str | None, int]
"""What a changed row sends, wherever the cursor stands and whatever the style is
before it: (first column written, the style the first write needs, the escape that
sets it, the rest, the style at the end, the column after). None: the style does not
matter (no colour)."""


def _row_patch(
    colour: bool,
    y: int,
    forbidden: tuple[int, ...],
    chars: str,
    styles: str,
    was_chars: str,
    was_styles: str,
) -> Patch | None:
    """What brings row ``y`` from ``was_chars``/``was_styles`` to ``chars``/``styles``,
    never writing a ``forbidden`` column; None: nothing to send."""
    spans = _changed_spans(chars, styles, was_chars, was_styles)
    if not spans:
        return None
    last = spans[-1][1]
    if last in forbidden:
        start = spans.pop()[0]
        if last > start:
            spans.append((start, last - 1))
        if not spans:
            return None
        last = spans[-1][1]
    # Erasing to the end of the line pays only for more than a gap of blanks.
    # Blank cells are spaces in the plain style: both strings end in them.
    erase = False
    if chars[last] == " " and styles[last] == PLAIN_CHAR:  # else no change is blank
        blank_from = max(len(chars.rstrip(" ")), len(styles.rstrip(PLAIN_CHAR)))
        blanked = sum(end + 1 - max(start, blank_from) for start, end in spans if end >= blank_from)
        erase = blanked > _MAX_GAP
    if erase:
        spans = [(start, min(end, blank_from - 1)) for start, end in spans if start < blank_from]
    out: list[str] = []
    append = out.append
    first = spans[0][0] if spans else blank_from
    lead_style: str | None = None
    lead_escape = ""
    current_style: str | None = None
    at_col = first
    for start, end in spans:
        if at_col != start:
            append(_move_to(y + 1, start + 1))
        end += 1
        if colour:
            # One step per change of style, the runs found in C.
            for run in _STYLE_RUNS.finditer(styles, start, end):
                run_first, past = run.span()
                style = styles[run_first]
                if style != current_style:
                    escape = _SGR_BY_NUMBER[ord(style)] or _remember_sgr(style)
                    if current_style is None:
                        lead_style, lead_escape = style, escape
                    else:
                        append(escape)
                    current_style = style
                append(chars[run_first:past])
        else:
            append(chars[start:end])
        at_col = end
    if erase:
        # Erasing the rest of the line is three bytes, not a space per cell.
        if at_col != blank_from:
            append(_move_to(y + 1, blank_from + 1))
            at_col = blank_from
        if colour and current_style != PLAIN_CHAR:
            if current_style is None:
                lead_style, lead_escape = PLAIN_CHAR, RESET  # erased cells take the background
            else:
                append(RESET)
            current_style = PLAIN_CHAR
        append(CLEAR_TO_END_OF_LINE)
    return first, lead_style, lead_escape, "".join(out), current_style, at_col


_kept_row_patch: Final = functools.lru_cache(maxsize=_PATCHES_KEPT)(_row_patch)


_move_to: Final = functools.lru_cache(maxsize=8192)(at)
"""``at``, kept: frames move the cursor to the same few places again and again, and a
lookup is cheaper than formatting the sequence anew."""

_STYLE_RUNS: Final = re.compile(r"(.)\1*", re.DOTALL)
"""A run of cells in one style, in a row's string of styles."""

_COLOUR: Final = Palette(ColorMode.ANSI)
"""The one palette that writes colours (every other writes none)."""
_SGR_BY_NUMBER: list[str | None] = [None] * MAX_STYLES
"""The escape that sets each style, by its number (None: not made yet); the Python and
door/ui/_paint.c both read it."""


def _remember_sgr(char: str) -> str:
    style = style_of_char(char)
    text = _SGR_BY_NUMBER[ord(char)] = _COLOUR.style(style.fg, style.bg, bold=style.bold)
    return text


PAINTING: Final = Twin[Callable[..., tuple[str, str | None, int, int]]](
    "door.ui._paint",
    python=_paint_rows,
    compiled=lambda c: functools.partial(c.paint_rows, _SGR_BY_NUMBER, _remember_sgr, PLAIN_CHAR),
)
"""The row loop, in C where door/ui/_paint.c was built: the same text sent as
``_paint_rows`` sends, for about a third of the renderer's processor time (bench/load.py's
profile)."""


_GAP: Final = bytes(4 * (_MAX_GAP + 1))
"""The zero bytes that start a stretch of two rows' difference that may hold a gap
worth jumping over (found with ``bytes.find``, faster than a regular expression)."""


def _code(text: str) -> int:
    """``text`` as one number, 32 bits a character (its code), made in C."""
    return int.from_bytes(text.encode("utf-32-le"), "little")


def _changed_spans(
    chars: str, styles: str, was_chars: str, was_styles: str
) -> list[tuple[int, int]]:
    """The (first, last) columns of each stretch of a row that changed, bridging gaps
    of up to ``_MAX_GAP`` unchanged cells (rewriting them is shorter than a cursor move).

    Worked out in C, never a step per cell: as numbers (``_code``) the two rows differ
    only in the changed cells, whose first and last are the difference's lowest and
    highest bits, and whose gaps are its long runs of zero bytes. A character's code
    takes 21 bits of its 32 and a style's 8, so one difference holds both."""
    if styles == was_styles:
        diff = _code(chars) ^ _code(was_chars)
    elif chars == was_chars:
        diff = _code(styles) ^ _code(was_styles)
    else:
        diff = _code(chars) ^ _code(was_chars) | (_code(styles) ^ _code(was_styles)) << 24
    if not diff:
        return []
    first = ((diff & -diff).bit_length() - 1) >> 5
    last = (diff.bit_length() - 1) >> 5
    if last - first <= _MAX_GAP + 1:
        return [(first, last)]  # no room for a gap wider than a bridged one
    spans = []
    start = first
    data = diff.to_bytes(4 * (last + 1), "little")
    found = data.find(_GAP, 4 * first, 4 * last)
    while found >= 0:
        # The run of zero bytes ends at the difference's next set bit (there is one:
        # the last cell changed). The cells wholly inside the run are unchanged.
        past = found + len(_GAP)
        rest = diff >> 8 * past
        end = past + (((rest & -rest).bit_length() - 1) >> 3)
        gap_first, gap_end = (found + 3) >> 2, end >> 2
        if gap_end - gap_first > _MAX_GAP:
            spans.append((start, gap_first - 1))
            start = gap_end
        found = data.find(_GAP, end, 4 * last)
    spans.append((start, last))
    return spans
