"""The room a wide terminal has beside the 80-column screens: the whole game log and
chat (or the lobby's chat) in a pane of its own, as tall as the terminal.

At ``WIDE_COLS`` columns or more a screen draws its usual 80x24 picture on the left
(in the middle of a taller window: door/term/canvas.py's ``picture``) and this pane to
the right of it, from column 81 to the terminal's edge and from the top row to the
bottom one; lines that were wrapped for the 80-column log are joined and wrapped again
for the pane. Narrower terminals get the 80x24 picture alone (the renderer centres it
in a taller window).

>>> from door.screens.chat import PaneLog
>>> log = PaneLog()
>>> log.add("Ada plays 5♥ (count 5). Computer plays K♣ (count 15). Fifteen two.")
>>> canvas = Canvas(120, 30)
>>> draw_side_pane(canvas, "Game log and chat", log.lines)
>>> [canvas.text(row)[82:].rstrip() for row in (1, 2, 3)]
['Ada plays 5♥ (count 5). Computer', '  plays K♣ (count 15). Fifteen two.', '']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from door.screens import theme
from door.screens.chat import LogLine, wrap_log_text
from door.screens.layout import SCREEN_COLS, SCREEN_ROWS
from door.term.canvas import Canvas, Style

WIDE_COLS: Final = 110
"""From this width on, a screen has a side pane."""
PANE_LEFT: Final = SCREEN_COLS + 1


def canvas_size(size: tuple[int, int]) -> tuple[int, int]:
    """The (cols, rows) a screen draws on for a terminal of ``size``: the whole terminal
    when it is wide enough for a side pane, else the 80x24 screen."""
    cols, rows = size
    if cols >= WIDE_COLS:
        return cols, max(rows, SCREEN_ROWS)
    return SCREEN_COLS, SCREEN_ROWS


def canvas_for(size: tuple[int, int]) -> Canvas:
    """A blank canvas of ``canvas_size(size)``."""
    return Canvas(*canvas_size(size))


def has_pane(canvas: Canvas) -> bool:
    return canvas.cols >= WIDE_COLS


def draw_side_pane(canvas: Canvas, title: str, lines: Sequence[LogLine]) -> None:
    """The pane: a rule down its left edge, ``title`` at its top, and the last of
    ``lines`` that fit, each wrapped to the pane's width."""
    width = canvas.cols - PANE_LEFT - 1
    for row in range(canvas.rows):
        canvas.put(row, SCREEN_COLS, "│", theme.DIM)
    canvas.put(0, PANE_LEFT + 1, f" {title} "[:width], theme.LABEL)
    room = canvas.rows - 1
    wrapped: list[list[tuple[str, Style]]] = []
    for line in reversed(unwrapped(lines)):
        wrapped[:0] = rewrap(line, width - 1)
        if len(wrapped) >= room:
            break
    for offset, segments in enumerate(wrapped[-room:]):
        col = PANE_LEFT + 1
        for text, style in segments:
            col = canvas.put(1 + offset, col, text, style)


CONTINUED: Final = "  "
"""How the log starts a line that carries on the one before (``wrap_log_text``)."""


def unwrapped(lines: Sequence[LogLine]) -> list[LogLine]:
    """The log's lines as they were said: a line wrapped for the 80-column log (its
    later pieces indented) joined again, so that the pane wraps it to its own width
    rather than showing pieces narrower than itself."""
    joined: list[list[tuple[str, Style]]] = []
    for line in lines:
        segments = list(line.pieces())
        first = segments[0][0] if segments else ""
        if joined and first.startswith(CONTINUED) and first.strip():
            text, style = segments[0]
            joined[-1].append((" ", joined[-1][-1][1] if joined[-1] else style))
            joined[-1].append((text.lstrip(" "), style))
            joined[-1].extend(segments[1:])
        else:
            joined.append(segments)
    return [LogLine(segments) for segments in joined]


def rewrap(line: LogLine, width: int) -> list[list[tuple[str, Style]]]:
    """``line`` wrapped to ``width``, each piece keeping the styles of its characters."""
    styles = [style for text, style in line.segments for _ in text]
    text = line.text
    if len(text) <= width:
        return [list(line.segments)]
    pieces = wrap_log_text(text, width)
    result: list[list[tuple[str, Style]]] = []
    position = 0
    for piece in pieces:
        body = piece.lstrip(" ") if result else piece
        start = text.find(body, position) if body else position
        if start < 0:  # cannot happen for textwrap's own pieces; plain style then
            result.append([(piece, styles[0] if styles else theme.TEXT)])
            continue
        indent = piece[: len(piece) - len(body)]
        segments: list[tuple[str, Style]] = [(indent, theme.TEXT)] if indent else []
        for index in range(start, start + len(body)):
            style = styles[index]
            if segments and segments[-1][1] == style:
                segments[-1] = (segments[-1][0] + text[index], style)
            else:
                segments.append((text[index], style))
        result.append(segments)
        position = start + len(body)
    return result
