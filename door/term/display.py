"""How a caller's terminal shows what the door sends (``Display``): a screen painted in
place, lines of text as a teletype prints them, or lines for a screen reader, with the
text such a display is sent (no box drawing read out as noise)."""

from __future__ import annotations

import enum
import re
from typing import Final


class Display(enum.Enum):
    """How the caller's terminal shows what the door sends."""

    SCREEN = "screen"
    """A screen whose cursor the door moves (ANSI): frames are painted in place."""
    LINES = "lines"
    """A teletype, or a BBS caller on ASCII emulation: text line after line, ending CR LF,
    and no escape sequence at all (no cursor movement, clearing or colour)."""
    SPEECH = "speech"
    """A screen reader's: lines as for ``LINES``, and no box-drawing, block character or
    suit symbol either (read out, they are noise). At a table the caller is told events as sentences
    (door/table/reader.py), not shown a picture."""


PLAIN_DISPLAYS: Final = frozenset({Display.LINES, Display.SPEECH})
"""Displays that are sent lines of text and never an escape sequence."""


def display_mode_of(terminal: object) -> Display:
    """The terminal's ``display_mode``; one that says none (a relayed line) is a screen."""
    mode = getattr(terminal, "display_mode", Display.SCREEN)
    return mode if isinstance(mode, Display) else Display.SCREEN


def without_drawing(text: str) -> str:
    """``text`` with box-drawing and block characters (U+2500 to U+259F) and suit
    symbols (the art's, the cards' are named in words by then) as spaces."""
    if not _DRAWING.search(text):
        return text
    return _DRAWING.sub(" ", text)


_DRAWING: Final = re.compile("[\u2500-\u259f\u2660-\u2667]")
