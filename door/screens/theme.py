"""The door's colours in one place, so every screen agrees on what a colour means."""

from __future__ import annotations

from typing import Final

from door.term.canvas import PLAIN, Color, Style

CALLER_SEAT: Final = 0

# Each side's name, score and pegs share a colour, different from the others'. A side is
# a player, or in the four-handed game a partnership (seats 0 and 2, seats 1 and 3).
PLAYER_STYLES: Final = (
    Style(Color.GREEN, bold=True),
    Style(Color.MAGENTA, bold=True),
    Style(Color.CYAN, bold=True),
)

TEXT: Final = PLAIN
BRIGHT: Final = Style(Color.WHITE, bold=True)
DIM: Final = Style(Color.BLACK, bold=True)  # dark grey on PC and xterm palettes
LABEL: Final = Style(Color.CYAN)
TITLE: Final = Style(Color.YELLOW, bold=True)
ERROR: Final = Style(Color.RED, bold=True)
WOOD: Final = Style(Color.YELLOW)  # the board's frame: brown on PC terminals
HOLE: Final = Style(Color.WHITE)

CARD_EDGE: Final = Style(Color.WHITE)
RED_SUIT: Final = Style(Color.RED, bold=True)
BLACK_SUIT: Final = Style(Color.WHITE, bold=True)
CARD_BACK: Final = Style(Color.BLUE, bold=True)
UNPLAYABLE: Final = DIM

# The highlight bar is a cyan background; a card marked for the crib turns yellow.
BAR_BG: Final = Color.CYAN
BAR: Final = Style(Color.BLACK, BAR_BG)
MARKED: Final = Style(Color.YELLOW, bold=True)

STATUS: Final = Style(Color.WHITE, Color.BLUE, bold=True)
MESSAGE: Final = BRIGHT
OVERLAY: Final = Style(Color.WHITE, Color.BLUE)
OVERLAY_TITLE: Final = Style(Color.YELLOW, Color.BLUE, bold=True)
ART: Final = Style(Color.CYAN, bold=True)
"""The sysop's welcome art."""
HEADING: Final = BRIGHT
ENTRY: Final = BRIGHT
"""Text the caller is typing."""
COACH: Final = Style(Color.GREEN, bold=True)
"""The coach's lines in the log."""
