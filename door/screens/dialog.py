"""A small framed question over the game, such as "Quit this game?"."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from door.screens import theme
from door.term.canvas import Canvas

TOP = 9


@dataclass(frozen=True)
class Dialog:
    title: str
    lines: tuple[str, ...]


def draw_dialog(canvas: Canvas, dialog: Dialog) -> None:
    lines: Sequence[str] = dialog.lines
    width = max(len(dialog.title) + 8, *(len(line) + 6 for line in lines))
    height = len(lines) + 4
    left = (canvas.cols - width) // 2
    canvas.clear(TOP, left, height, width, theme.OVERLAY)
    canvas.box(
        TOP,
        left,
        height,
        width,
        theme.OVERLAY,
        title=dialog.title,
        title_style=theme.OVERLAY_TITLE,
        double=True,
    )
    for offset, line in enumerate(lines):
        canvas.put(TOP + 2 + offset, left + 3, line, theme.OVERLAY)
