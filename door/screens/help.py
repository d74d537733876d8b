"""The help overlay: the help text (door/texts.py) in a frame over the game, page by page.

The text lives in a file so the sysop can edit it without touching code. A line holding
only ``---`` starts a new page.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Final

from door.screens import theme
from door.term.canvas import Canvas
from door.term.keys import Key
from door.texts import HELP_TEXT, MOUSE_HELP_TEXT, load_text

PAGE_BREAK: Final = "---"

TOP, LEFT, HEIGHT, WIDTH = 1, 2, 21, 76
TEXT_LINES: Final = HEIGHT - 2
TEXT_WIDTH: Final = WIDTH - 4


def default_help() -> str:
    """help.txt, the sysop's copy or the packaged one, read once per process."""
    return load_text(HELP_TEXT, "Help is not available: this install has no help.txt.")


def with_mouse_help(text: str, mouse: bool) -> str:
    """``text`` with the page on clicking after it, for a caller whose mouse is on."""
    if not mouse:
        return text
    return text.rstrip("\n") + "\n" + load_text(MOUSE_HELP_TEXT, "")


def paginate(text: str, width: int = TEXT_WIDTH, lines: int = TEXT_LINES) -> list[list[str]]:
    """Wrap ``text`` to ``width`` and cut it into pages of ``lines``."""
    pages: list[list[str]] = [[]]
    for raw in text.expandtabs(4).splitlines():
        if raw.strip() == PAGE_BREAK:
            if pages[-1]:
                pages.append([])
            continue
        indent = raw[: len(raw) - len(raw.lstrip())]
        wrapped = textwrap.wrap(raw, width, subsequent_indent=indent) or [""]
        for line in wrapped:
            if len(pages[-1]) == lines:
                pages.append([])
            if line or pages[-1]:  # no blank line at the top of a page
                pages[-1].append(line)
    if not pages[-1] and len(pages) > 1:
        pages.pop()
    return pages


@dataclass(frozen=True)
class HelpOverlay:
    pages: tuple[tuple[str, ...], ...]
    page: int = 0
    title: str = "Help"

    @classmethod
    def from_text(cls, text: str, title: str = "Help") -> HelpOverlay:
        return cls(tuple(tuple(page) for page in paginate(text)), title=title)

    def turned(self, by: int) -> HelpOverlay:
        return HelpOverlay(self.pages, max(0, min(len(self.pages) - 1, self.page + by)))

    @property
    def last_page(self) -> bool:
        return self.page >= len(self.pages) - 1

    def after(self, key: Key) -> HelpOverlay | None:
        """The overlay once ``key`` is pressed: a page on or back, or None to close it
        (RETURN or space on the last page, or any key that does not turn pages)."""
        if key in _PAGE_ON:
            if self.last_page and key in _CLOSE_ON_LAST_PAGE:
                return None
            return self.turned(1)
        if key in _PAGE_BACK:
            return self.turned(-1)
        return None

    def status(self, back_to: str) -> str:
        """The status line while the help is open."""
        turn = "PgUp back" if self.last_page else "PgDn/RETURN next page  PgUp back"
        return f"{turn}  any other key: back to {back_to}"


_PAGE_ON: Final = (Key.PGDN, Key.DOWN, Key.RIGHT, Key.ENTER, Key.printable(" "))
_CLOSE_ON_LAST_PAGE: Final = (Key.ENTER, Key.printable(" "))
_PAGE_BACK: Final = (Key.PGUP, Key.UP, Key.LEFT)


def draw_help(canvas: Canvas, overlay: HelpOverlay) -> None:
    canvas.clear(TOP, LEFT, HEIGHT, WIDTH, theme.OVERLAY)
    title = f"{overlay.title}: page {overlay.page + 1} of {len(overlay.pages)}"
    canvas.box(
        TOP,
        LEFT,
        HEIGHT,
        WIDTH,
        theme.OVERLAY,
        title=title,
        title_style=theme.OVERLAY_TITLE,
        double=True,
    )
    for offset, line in enumerate(overlay.pages[overlay.page]):
        canvas.put(TOP + 1 + offset, LEFT + 2, line, theme.OVERLAY)
