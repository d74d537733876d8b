"""The session's one renderer: it sends each frame as the difference from the last one.

Screens draw whole frames into a ``Canvas`` (door/term/canvas.py) and the session hands
the composed frame here; the renderer compares it with the last frame the caller was sent
and writes just the cursor moves, colour changes and characters that make the difference.
A full repaint happens on the first frame, after ``invalidate()`` (Ctrl-L, line noise),
after a resize, and when the caller switches character set or colour mode. One renderer
per caller, so a resize is one repaint.

What the caller's screen shows is kept as rows of cells, but not twice: after a frame
that its owner keeps from one to the next (the table's layers) is sent whole, the
renderer holds those very rows, and the next frame says which rows it changed and how
they were (``Canvas.history``). Only those rows are compared, and a session keeps one
screen of cells rather than two (16 KiB of the ~120 each caller costs the server).

>>> from tests.door.fake_terminal import FakeTerminal
>>> from door.term.canvas import Color
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
from itertools import compress, count, groupby, repeat
from operator import is_not, itemgetter, lt, sub
from typing import Final

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
    BLANK,
    PLAIN,
    SCREEN_COLS,
    SCREEN_ROWS,
    Canvas,
    Cell,
    FrameKeeper,
    Style,
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

    def __init__(self, terminal: Terminal) -> None:
        self._terminal = terminal
        self._sent: list[list[Cell]] | None = None
        """What the caller's screen shows: rows of the renderer's own, or the rows of
        the last frame sent, when that frame is kept by its owner (``_sent_from``)."""
        self._sent_from: tuple[FrameKeeper, int] | None = None
        """Whose kept frame ``_sent`` is, and which (the owner changes those rows in
        place at its next frame, saying how they were: ``Canvas.history``); None: rows
        of its own. Not the frame's history itself, which holds rows as they were."""
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
        self._sent_from = None
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
            if self._sent_from is not None:
                # The kept frame last sent is about to change again: keep what it was.
                shown = self._shown(canvas)[0]
                self._sent = None if shown is None else [row[:] for row in shown]
                self._sent_from = None
            self._send_in_background()
            return
        self._paint(canvas, cursor)

    def _shown(self, canvas: Canvas) -> tuple[list[list[Cell]] | None, list[int] | None]:
        """What the caller's screen shows (None: not known, paint whole), and the only
        rows ``canvas`` can differ from it in (None: any)."""
        sent, kept = self._sent, self._sent_from
        if kept is None or sent is None:
            return sent, None
        owner, generation = kept
        if owner.generation == generation:
            return sent, None  # the frame sent has not changed since
        history = canvas.history
        if (
            history is not None
            and history.owner is owner
            and history.rows is sent
            and history.generation == generation + 1
        ):
            shown = [history.before.get(y, row) for y, row in enumerate(sent)]
            # This frame, if it is the kept one itself, changed only those rows.
            return shown, (sorted(history.before) if canvas.cells is sent else None)
        return None, None  # the kept frame moved on unseen: what shows is not known

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
        term_cols, term_rows = terminal.size
        rows = min(canvas.rows, term_rows)
        cols = min(canvas.cols, term_cols)
        shown, candidates = self._shown(canvas)
        same_shape = shown is not None and (len(shown), len(shown[0])) == (
            canvas.rows,
            canvas.cols,
        )
        # A kept frame sent whole is what the screen then shows: no copy is kept of it.
        history = canvas.history
        whole = (rows, cols) == (canvas.rows, canvas.cols)
        if history is not None and not (whole and canvas.cells is history.rows):
            history = None  # a copy (an overlay's), or a frame cut to a smaller window
        kept = history is not None
        if not kept:
            candidates = None
        if shown is None or not same_shape:
            if palette.enabled:
                out.append(RESET)
            out.append(CLEAR_SCREEN)
            previous = [[BLANK] * canvas.cols for _ in range(canvas.rows)]
            candidates = None
        elif kept or self._sent_from is None:
            previous = shown
        else:
            previous = [row[:] for row in shown]  # the rows it shows become the renderer's
        # The bottom-right cell is never written (some clients scroll when it is). It is
        # the last column drawn or beyond, so no span of changes ever runs over it.
        forbidden = {(term_rows - 1, term_cols - 1), (canvas.rows - 1, canvas.cols - 1)}
        colour = palette.enabled
        sgr = _sgr_for(palette) if colour else {}
        # After CLEAR_SCREEN or RESET the terminal draws in the default style.
        current_style: Style | None = PLAIN if out else None
        position: tuple[int, int] | None = (0, 0) if out else None
        columns = range(cols)
        # Rows of the renderer's own are brought up to this frame in place: a new list
        # per changed row per frame, kept until the next, was most of what the garbage
        # collector walked in its young collections with hundreds of callers.
        sent = previous
        for y in range(rows) if candidates is None else candidates:
            new_row, sent_row = canvas.cells[y], previous[y]
            if new_row == sent_row:
                continue  # most rows of most frames: one comparison, no per-cell work
            # Which cells differ, compared in C (a frame changes a few rows, of 80 cells)
            # by identity: every canvas takes its cells from one table per style
            # (door/term/canvas.py: cells_of), so a cell that is the same is the same
            # object. Comparing by value reads both cells, and with hundreds of callers
            # their screens are not in the processor's cache: that was the renderer's
            # costliest line. (A cell equal but not identical is only sent again.)
            changed = list(compress(columns, map(is_not, new_row, sent_row)))
            if (y, changed[-1] if changed else -1) in forbidden:
                changed.pop()
            # Erasing to the end of the line pays only for more than a gap of blanks.
            erase = False
            if len(changed) > _MAX_GAP:
                blank_from = _trailing_blanks_start(new_row, cols)
                erase = len(changed) - bisect_left(changed, blank_from) > _MAX_GAP
            if erase:
                changed = [x for x in changed if x < blank_from]
            for start, end in _spans(changed):
                if position != (y, start):
                    out.append(at(y + 1, start + 1))
                span = new_row[start : end + 1]
                if colour:
                    # Cells grouped by style in C: a step per style change, not per cell.
                    for style, cells in groupby(span, _style_of):
                        if style is not current_style and style != current_style:
                            out.append(sgr.get(style) or _remember_sgr(sgr, palette, style))
                            current_style = style
                        out.append("".join(map(_char_of, cells)))
                else:
                    out.append("".join(map(_char_of, span)))
                if not kept:
                    sent_row[start : end + 1] = span
                # Writing the last column leaves the cursor in a pending-wrap state
                # that terminals disagree about: treat the position as unknown.
                position = (y, end + 1) if end + 1 < term_cols else None
            if erase:
                # Erasing the rest of the line is three bytes, not a space per cell.
                if position != (y, blank_from):
                    out.append(at(y + 1, blank_from + 1))
                    position = (y, blank_from)
                if colour and current_style != PLAIN:
                    out.append(RESET)  # erased cells take the current background
                    current_style = PLAIN
                out.append(CLEAR_TO_END_OF_LINE)
                if not kept:
                    sent_row[blank_from:cols] = [BLANK] * (cols - blank_from)
        if colour and current_style not in (None, PLAIN):
            out.append(RESET)
        self._place_cursor(out, cursor, palette, position)
        if history is not None:
            # (The bottom-right cell is never written, but then never read either.)
            self._sent, self._sent_from = canvas.cells, (history.owner, history.generation)
        else:
            self._sent, self._sent_from = sent, None
        if whole:
            # What was sent is the frame: keep that for a repaint after a resize, and
            # let the canvas it was drawn on go at once (and a kept frame's rows as they
            # were before it: copies that would otherwise live until the next frame).
            self._last = (Canvas.over(self._sent), cursor)
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
        self._sent_from = None
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


_char_of = itemgetter(0)
_style_of = itemgetter(1)

_SGR_BY_PALETTE: dict[Palette, dict[Style, str]] = {}


def _sgr_for(palette: Palette) -> dict[Style, str]:
    """The escape that sets each style (by identity or equality), for this palette."""
    return _SGR_BY_PALETTE.setdefault(palette, {})


def _remember_sgr(sgr: dict[Style, str], palette: Palette, style: Style) -> str:
    text = sgr[style] = palette.style(style.fg, style.bg, bold=style.bold)
    return text


def _trailing_blanks_start(row: list[Cell], cols: int) -> int:
    """The first column from which ``row`` is blank to its end (``cols`` if none is).
    Blank cells are the one ``BLANK`` (door/term/canvas.py: cells_of), so compared by
    identity, in C; a blank cell that were not would only be written, not erased."""
    last = next(compress(count(cols - 1, -1), map(is_not, reversed(row[:cols]), repeat(BLANK))), -1)
    return last + 1


def _spans(columns: list[int]) -> list[tuple[int, int]]:
    """Group sorted changed columns into (first, last) spans, bridging short gaps.

    Worked out in C over the gaps between neighbours: a changed row is often most of
    its 80 cells, and a step per cell here was a fifth of the renderer's time."""
    if not columns:
        return []
    first, last = columns[0], columns[-1]
    if last - first < len(columns) + _MAX_GAP:
        return [(first, last)]  # no gap can be wider than a bridged one: one span
    gaps = map(sub, columns[1:], columns)
    breaks = list(compress(range(1, len(columns)), map(lt, repeat(_MAX_GAP + 1), gaps)))
    return [
        (columns[first], columns[end - 1])
        for first, end in zip([0, *breaks], [*breaks, len(columns)], strict=True)
    ]
