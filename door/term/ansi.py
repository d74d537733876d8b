"""ANSI output: colours, cursor movement, and making untrusted text safe to print.

Only the sequences ANSI.SYS understood are used (SGR 0/1/30-37/40-47, CUP, ED, EL), so
the output works on SyncTERM and NetRunner as well as on xterm. Bright foreground colours
are bold (``ESC[1;3xm``), not ``ESC[9xm``, for the same reason.

>>> palette = Palette(ColorMode.ANSI)
>>> palette.paint("5♥", fg=Color.RED, bg=Color.WHITE)
'\\x1b[0;31;47m5♥\\x1b[0m'
>>> Palette(ColorMode.NONE).paint("5♥", fg=Color.RED)
'5♥'
"""

from __future__ import annotations

import enum
import re
import unicodedata
from dataclasses import dataclass
from typing import Final

CSI: Final = "\x1b["
RESET: Final = f"{CSI}0m"
CLEAR_SCREEN: Final = f"{CSI}2J{CSI}1;1H"
"""Clears the screen and homes the cursor (ANSI.SYS homes on ED 2, xterm does not)."""
CLEAR_TO_END_OF_LINE: Final = f"{CSI}K"
HIDE_CURSOR: Final = f"{CSI}?25l"
SHOW_CURSOR: Final = f"{CSI}?25h"
CLEAR_BELOW: Final = f"{CSI}J"


def last_words(text: str) -> str:
    """``text`` on a line of its own as the last thing a caller sees before the door closes
    their line, below what the screen showed: the colours reset and the screen below the
    cursor cleared first. A table leaves the cursor in its chat line, and a goodbye
    written there once read "Goodbye! *** the bar on it, RETURN.", the key line's end
    still beside it. A terminal showing lines gets it without the escapes (StreamTerminal)."""
    return f"\r\n{RESET}{CLEAR_BELOW}\r\n{text}\r\n"


def at(row: int, col: int) -> str:
    """Move the cursor to ``row``, ``col``, both counted from 1 as the terminal does."""
    if row < 1 or col < 1:
        raise ValueError(f"rows and columns count from 1, got row={row} col={col}")
    return f"{CSI}{row};{col}H"


class Color(enum.IntEnum):
    """The eight ANSI colours. YELLOW without bold is brown on PC terminals (and in pyte)."""

    BLACK = 0
    RED = 1
    GREEN = 2
    YELLOW = 3
    BLUE = 4
    MAGENTA = 5
    CYAN = 6
    WHITE = 7


class ColorMode(enum.Enum):
    ANSI = "ansi"
    NONE = "none"
    """A dumb terminal: colour helpers produce nothing, screens mark things with text."""


_MONOCHROME_TERMINAL_TYPES: Final = frozenset({"", "dumb", "unknown"})


def color_mode_for_terminal_type(term: str | None) -> ColorMode:
    """No colour for a missing, dumb or unknown terminal type; ANSI colour for any other.

    vt100-class terminals get colour: a real VT100 ignores SGR parameters it lacks, and
    the emulators that announce themselves as vt100 draw them.
    """
    name = (term or "").strip().lower()
    return ColorMode.NONE if name in _MONOCHROME_TERMINAL_TYPES else ColorMode.ANSI


@dataclass(frozen=True, slots=True)
class Palette:
    """Colour escapes for one terminal; with ``ColorMode.NONE`` every method yields ``""``."""

    mode: ColorMode = ColorMode.ANSI

    @property
    def enabled(self) -> bool:
        return self.mode is ColorMode.ANSI

    def style(self, fg: Color | None = None, bg: Color | None = None, *, bold: bool = False) -> str:
        """One SGR that resets, then sets exactly these attributes: no state leaks between
        calls, which keeps a redraw after line noise identical to the first draw."""
        if not self.enabled:
            return ""
        parameters = ["0"]
        if bold:
            parameters.append("1")
        if fg is not None:
            parameters.append(str(30 + fg))
        if bg is not None:
            parameters.append(str(40 + bg))
        return f"{CSI}{';'.join(parameters)}m"

    def fg(self, color: Color, *, bright: bool = False) -> str:
        """Set the foreground only, keeping the background; ``bright`` is bold."""
        if not self.enabled:
            return ""
        return f"{CSI}{'1;' if bright else ''}{30 + color}m"

    def bg(self, color: Color) -> str:
        """Set the background only, keeping the foreground."""
        return f"{CSI}{40 + color}m" if self.enabled else ""

    def bold(self) -> str:
        return f"{CSI}1m" if self.enabled else ""

    def reset(self) -> str:
        return RESET if self.enabled else ""

    def paint(
        self, text: str, fg: Color | None = None, bg: Color | None = None, *, bold: bool = False
    ) -> str:
        """``text`` in these colours, followed by a reset."""
        if not self.enabled:
            return text
        return f"{self.style(fg, bg, bold=bold)}{text}{RESET}"


# Everything a terminal would act on rather than print: CSI sequences (7- and 8-bit),
# string commands up to their terminator or the end of the text (OSC sets titles, DCS
# reprograms keys), and two- or three-byte ESC sequences such as ESC c (full reset).
_ESCAPE_SEQUENCE: Final = re.compile(
    r"""
      (?:\x1b\[|\x9b) [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]?
    | (?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]) .*? (?:\x07|\x1b\\|\x9c|\Z)
    | \x1b [\x20-\x2f]* [\x30-\x7e]?
    """,
    re.VERBOSE | re.DOTALL,
)


def without_escapes(text: str) -> str:
    """``text`` without its escape sequences, every other character kept (line ends,
    the bell, backspace), for a terminal that prints what it is sent.

    >>> without_escapes("\\x1b[0m\\r\\n\\x1b[2J*** Bye ***\\x1b[K\\r\\n\\x1b")
    '\\r\\n*** Bye ***\\r\\n'
    """
    return _ESCAPE_SEQUENCE.sub("", text).replace("\x1b", "")


# Cc: C0, DEL and C1 controls. Cf: zero-width and bidirectional controls (U+200B-U+200F,
# U+202A-U+202E, U+2066-U+2069, U+FEFF...). Zl/Zp: line and paragraph separators.
# Cs/Co: surrogates and private use, which no terminal draws the same way twice.
_UNPRINTABLE_CATEGORIES: Final = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co"})


def sanitize(text: str, max_len: int) -> str:
    """Untrusted ``text`` (a player's name, a chat line) made safe to print.

    Escape sequences are removed whole, then every control, format, bidirectional-override
    and zero-width character, then the result is cut to ``max_len`` characters.
    """
    if max_len <= 0:
        return ""
    without_sequences = _ESCAPE_SEQUENCE.sub("", text)
    printable = (
        char
        for char in without_sequences
        if unicodedata.category(char) not in _UNPRINTABLE_CATEGORIES
    )
    kept: list[str] = []
    for char in printable:
        kept.append(char)
        if len(kept) == max_len:
            break
    return "".join(kept)
