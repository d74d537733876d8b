"""The session's one renderer: it sends each frame as the difference from the last one.

Screens draw whole frames into a ``Canvas`` (door/term/canvas.py) and the session hands
the composed frame here; the renderer compares it with the last frame the caller was sent
and writes just the cursor moves, colour changes and characters that make the difference.
A full repaint happens on the first frame, after ``invalidate()`` (Ctrl-L, line noise),
after a resize, and when the caller switches character set or colour mode. One renderer
per caller, so a resize is one repaint.

>>> from tests.door.fake_terminal import FakeTerminal
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
import textwrap
from bisect import bisect_left
from collections.abc import Callable
from itertools import compress, repeat
from operator import lt, ne, or_, sub
from typing import Final, TypeVar

from door.term.ansi import (
    CLEAR_SCREEN,
    CLEAR_TO_END_OF_LINE,
    HIDE_CURSOR,
    RESET,
    SHOW_CURSOR,
    Palette,
    at,
)
from door.term.canvas import (
    PLAIN,
    SCREEN_COLS,
    SCREEN_ROWS,
    STYLES,
    Canvas,
    style_number,
    too_small,
)
from door.term.terminal import Disconnected, Terminal

RowT = TypeVar("RowT", str, bytes)

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

    def __init__(self, terminal: Terminal) -> None:
        self._terminal = terminal
        self._sent: Canvas | None = None
        """What the caller's screen shows now (as far as this renderer knows)."""
        self._last: tuple[Canvas, tuple[int, int] | None] | None = None
        self._sent_for: tuple[object, object] | None = None
        self._cursor_shown: bool | None = None
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
        self._last = (canvas, cursor)
        if self._terminal.backlogged:
            self._behind = True
            self._send_in_background()
            return
        self._paint(canvas, cursor)

    def _paint(self, canvas: Canvas, cursor: tuple[int, int] | None) -> None:
        terminal = self._terminal
        self._last = (canvas, cursor)
        # A frame laid out for a larger window than the one there now (just shrunk) is
        # shown cut to the window, if that still holds the 80x24 screen; the screen then
        # draws itself again for the new size.
        if too_small(terminal.size, (min(canvas.cols, SCREEN_COLS), min(canvas.rows, SCREEN_ROWS))):
            self._ask_to_grow(terminal, canvas)
            return
        palette = Palette(terminal.color_mode)
        if self._sent_for != (terminal.charset, terminal.color_mode):
            self.invalidate()
            self._sent_for = (terminal.charset, terminal.color_mode)
        out: list[str] = []
        sent = self._sent
        if sent is None or (sent.cols, sent.rows) != (canvas.cols, canvas.rows):
            if palette.enabled:
                out.append(RESET)
            out.append(CLEAR_SCREEN)
            sent = Canvas(canvas.cols, canvas.rows)
        term_cols, term_rows = terminal.size
        rows = min(canvas.rows, term_rows)
        cols = min(canvas.cols, term_cols)
        whole_rows = cols == canvas.cols
        # The bottom-right cell is never written (some clients scroll when it is). It is
        # the last column drawn or beyond, so no span of changes ever runs over it.
        forbidden = {(term_rows - 1, term_cols - 1), (canvas.rows - 1, canvas.cols - 1)}
        colour = palette.enabled
        escapes = _escapes_for(palette)
        # After CLEAR_SCREEN or RESET the terminal draws in the default style.
        current: int | None = PLAIN_NUMBER if out else None
        position: tuple[int, int] | None = (0, 0) if out else None
        columns = range(cols)
        new_chars, new_styles = canvas.chars, canvas.styles
        sent_chars, sent_styles = sent.chars, sent.styles
        for y in range(rows):
            chars, styles = new_chars[y], new_styles[y]
            old_chars, old_styles = sent_chars[y], sent_styles[y]
            if chars == old_chars and styles == old_styles:
                continue  # most rows of most frames: two comparisons (often of one object)
            # Which cells differ, compared in C: rows are strings and bytes.
            changed = list(
                compress(columns, map(or_, map(ne, chars, old_chars), map(ne, styles, old_styles)))
            )
            skipped = changed[-1] if changed and (y, changed[-1]) in forbidden else None
            if skipped is not None:
                changed.pop()
            # Erasing to the end of the line pays only for more than a gap of blanks.
            erase = False
            if len(changed) > _MAX_GAP:
                blank_from = max(len(chars[:cols].rstrip(" ")), len(styles[:cols].rstrip(b"\0")))
                erase = len(changed) - bisect_left(changed, blank_from) > _MAX_GAP
                if erase:
                    changed = changed[: bisect_left(changed, blank_from)]
            for start, end in _spans(changed):
                if position != (y, start):
                    out.append(at(y + 1, start + 1))
                text = chars[start : end + 1]
                if colour:
                    numbers = styles[start : end + 1]
                    if numbers[0] != current:
                        out.append(escapes.get(numbers[0]) or _escape(escapes, palette, numbers[0]))
                    # Where the style changes inside the span, found in C.
                    cut = 0
                    for change in compress(range(1, len(numbers)), map(ne, numbers[1:], numbers)):
                        out.append(text[cut:change])
                        number = numbers[change]
                        out.append(escapes.get(number) or _escape(escapes, palette, number))
                        cut = change
                    out.append(text[cut:])
                    current = numbers[-1]
                else:
                    out.append(text)
                # Writing the last column leaves the cursor in a pending-wrap state
                # that terminals disagree about: treat the position as unknown.
                position = (y, end + 1) if end + 1 < term_cols else None
            if erase:
                # Erasing the rest of the line is three bytes, not a space per cell.
                if position != (y, blank_from):
                    out.append(at(y + 1, blank_from + 1))
                    position = (y, blank_from)
                if colour and current != PLAIN_NUMBER:
                    out.append(RESET)  # erased cells take the current background
                    current = PLAIN_NUMBER
                out.append(CLEAR_TO_END_OF_LINE)
            # What the caller now has: this row, but for a cell not written or beyond
            # the window (rows are strings, so keeping the row is keeping a reference).
            if skipped is None and whole_rows:
                sent_chars[y], sent_styles[y] = chars, styles
            else:
                sent_chars[y] = _as_sent(chars, old_chars, cols, skipped)
                sent_styles[y] = _as_sent(styles, old_styles, cols, skipped)
        if colour and current not in (None, PLAIN_NUMBER):
            out.append(RESET)
        self._place_cursor(out, cursor, palette, position)
        self._sent = sent
        if (rows, cols) == (canvas.rows, canvas.cols):
            # What was sent is the frame: keep that for a repaint after a resize (the
            # canvas given belongs to its screen, and changes with the next frame).
            self._last = (sent.copy(), cursor)
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
        palette: Palette,
        position: tuple[int, int] | None,
    ) -> None:
        if cursor is not None:
            if position != cursor:
                out.append(at(cursor[0] + 1, cursor[1] + 1))
            if palette.enabled and self._cursor_shown is not True:
                out.append(SHOW_CURSOR)
                self._cursor_shown = True
        elif palette.enabled and self._cursor_shown is not False:
            # ANSI.SYS-era terminals ignore this; there the cursor just stays put.
            out.append(HIDE_CURSOR)
            self._cursor_shown = False


PLAIN_NUMBER: Final = style_number(PLAIN)

_ESCAPES: dict[Palette, dict[int, str]] = {}


def _escapes_for(palette: Palette) -> dict[int, str]:
    """The escape that sets each style, by the style's number, for this palette."""
    return _ESCAPES.setdefault(palette, {})


def _escape(escapes: dict[int, str], palette: Palette, number: int) -> str:
    style = STYLES[number]
    text = escapes[number] = palette.style(style.fg, style.bg, bold=style.bold)
    return text


def _as_sent(new: RowT, old: RowT, cols: int, skipped: int | None) -> RowT:
    """The row the caller has once ``new`` is sent over ``old`` within ``cols``, but
    for the cell ``skipped`` (not written)."""
    row = new[:cols] + old[cols:]
    if skipped is not None:
        row = row[:skipped] + old[skipped : skipped + 1] + row[skipped + 1 :]
    return row


def _spans(columns: list[int]) -> list[tuple[int, int]]:
    """Group sorted changed columns into (first, last) spans, bridging short gaps.

    Worked out in C over the gaps between neighbours: a changed row is often most of
    its 80 cells, and a step per cell here was a fifth of the renderer's time."""
    if not columns:
        return []
    gaps = map(sub, columns[1:], columns)
    breaks = list(compress(range(1, len(columns)), map(lt, repeat(_MAX_GAP + 1), gaps)))
    return [
        (columns[first], columns[end - 1])
        for first, end in zip([0, *breaks], [*breaks, len(columns)], strict=True)
    ]
