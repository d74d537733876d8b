"""The character sets a caller's terminal can show, and text encoded for each.

Screens write Unicode (``♠``, ``─``, ``█``); ``encode`` turns it into what the terminal
displays. Every character becomes exactly one character on the far side (one byte in CP437
and ASCII), so a layout measured in ``len()`` stays aligned whatever the charset.

>>> encode("♠A ─┐", Charset.CP437)
b'\\x06A \\xc4\\xbf'
>>> encode("♠A ─┐", Charset.ASCII)
b'SA -+'
"""

from __future__ import annotations

import codecs
import enum
import functools
import re
import unicodedata
from typing import Any, Final


class Charset(enum.Enum):
    UTF8 = "utf-8"
    CP437 = "cp437"
    ASCII = "ascii"


# Python's cp437 codec reads bytes 0x00-0x1f as control characters, but a PC-ANSI terminal
# draws bytes 0x03-0x06 as the card suits, so they need a table of their own.
_CP437_SUITS: Final = {"♥": 0x03, "♦": 0x04, "♣": 0x05, "♠": 0x06}

# Box drawing, shading and dots. Python's codec agrees on these bytes; they are spelled out
# because the screens depend on them. BULLET goes to 0xF9 (a small centred dot) rather than
# to its CP437 glyph at 0x07, because terminals ring the bell for 0x07 instead of drawing it.
_CP437_SYMBOLS: Final = {
    "─": 0xC4,
    "│": 0xB3,
    "┌": 0xDA,
    "┐": 0xBF,
    "└": 0xC0,
    "┘": 0xD9,
    "├": 0xC3,
    "┤": 0xB4,
    "┬": 0xC2,
    "┴": 0xC1,
    "┼": 0xC5,
    "═": 0xCD,
    "║": 0xBA,
    "╔": 0xC9,
    "╗": 0xBB,
    "╚": 0xC8,
    "╝": 0xBC,
    "░": 0xB0,
    "▒": 0xB1,
    "▓": 0xB2,
    "█": 0xDB,
    "▀": 0xDF,
    "▄": 0xDC,
    "•": 0xF9,
    "·": 0xFA,
}

_ASCII_SYMBOLS: Final = {
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "─": "-",
    "│": "|",
    "┌": "+",
    "┐": "+",
    "└": "+",
    "┘": "+",
    "├": "+",
    "┤": "+",
    "┬": "+",
    "┴": "+",
    "┼": "+",
    "═": "=",
    "║": "|",
    "╔": "+",
    "╗": "+",
    "╚": "+",
    "╝": "+",
    "░": ".",
    "▒": ":",
    "▓": "#",
    "█": "#",
    "▀": "#",
    "▄": "#",
    "•": "*",
    "·": ".",
}

# Typography that phones and word processors put into names and chat.
_LOOKALIKES: Final = {
    "‘": "'",
    "’": "'",
    "‚": ",",
    "“": '"',
    "”": '"',
    "„": '"',
    "–": "-",
    "—": "-",
    "−": "-",
    "\u00a0": " ",
    # The ellipsis that ends a name cut to fit (door/screens/fit.py), and a phone's "...":
    # one cell, so a dot ("..." would push the rest of the row out of line). It was "?".
    "…": ".",
}

_CP437_ENCODING: Final[dict[str, int]] = {
    **{chr(byte): byte for byte in range(0x80)},
    **{bytes([byte]).decode("cp437"): byte for byte in range(0x80, 0x100)},
    **_CP437_SUITS,
    **_CP437_SYMBOLS,
}
_CP437_DECODING: Final[dict[int, str]] = {
    **{byte: char for char, byte in _CP437_ENCODING.items()},
    **{byte: char for char, byte in _CP437_SUITS.items()},
    **{byte: char for char, byte in _CP437_SYMBOLS.items()},
}

_ASCII_ENCODING: Final[dict[str, int]] = {
    **{chr(byte): byte for byte in range(0x80)},
    **{char: ord(plain) for char, plain in _ASCII_SYMBOLS.items()},
}


@functools.lru_cache(maxsize=1024)
def _plain_letter(char: str) -> int:
    """An ASCII stand-in for a character the charset lacks: é -> e, ’ -> ', else ?."""
    if char in _LOOKALIKES:
        return ord(_LOOKALIKES[char])
    decomposed = unicodedata.normalize("NFKD", char)
    base, marks = decomposed[0], decomposed[1:]
    if base.isascii() and base.isprintable() and all(unicodedata.combining(m) for m in marks):
        return ord(base)
    return ord("?")


def _encode_with_table(text: str, table: dict[str, int]) -> bytes:
    return bytes(table[char] if char in table else _plain_letter(char) for char in text)


def _encoding_map(table: dict[str, int]) -> Any:  # (typeshed's _EncodingMap)
    """A C encoding map (``codecs.charmap_build``) for the one character of each byte
    that ``table`` gives first for it; the characters that share a byte with it, and
    those the table lacks, are left to the errors handler (``_encoding_errors``)."""
    first: dict[int, str] = {}
    for char, byte in table.items():
        first.setdefault(byte, char)
    return codecs.charmap_build("".join(first.get(byte, "\ufffe") for byte in range(256)))


def _encoding_errors(name: str, table: dict[str, int]) -> str:
    """Registers, under ``name``, the errors handler giving the bytes for a run of
    characters the C map lacks: ``table``'s, or a plain letter."""

    def one_byte_each(error: UnicodeError) -> tuple[bytes, int]:
        assert isinstance(error, UnicodeEncodeError)
        run = error.object[error.start : error.end]
        return _encode_with_table(run, table), error.end

    codecs.register_error(name, one_byte_each)
    return name


# The suits first: a PC-ANSI screen shows them at 0x03-0x06, in place of control
# characters the door never sends (the handler still gives those their bytes).
_CP437_MAP: Final = _encoding_map({**_CP437_SUITS, **_CP437_ENCODING})
_CP437_ERRORS: Final = _encoding_errors("cribbage-door-cp437", _CP437_ENCODING)


def encode(text: str, charset: Charset) -> bytes:
    """``text`` as bytes for a terminal using ``charset``; never raises.

    CP437 is encoded in C but for the few characters that share a byte or stand in for
    another (a generator a character cost a PC-ANSI caller 50 us a frame of 400). An
    ASCII screen's box drawing and suits stand in for themselves a character at a time,
    unless the text is all ASCII."""
    if charset is Charset.UTF8:
        return text.encode("utf-8", "replace")
    if charset is Charset.CP437:
        return codecs.charmap_encode(text, _CP437_ERRORS, _CP437_MAP)[0]
    if text.isascii():
        return text.encode("ascii")
    return _encode_with_table(text, _ASCII_ENCODING)


def decode(data: bytes, charset: Charset) -> str:
    """What a terminal using ``charset`` shows for ``data``: the inverse of ``encode``.

    Control bytes other than CP437's suits stay control characters, so escape sequences
    survive for a terminal emulator to interpret.
    """
    if charset is Charset.UTF8:
        return data.decode("utf-8", "replace")
    if charset is Charset.CP437:
        return "".join(_CP437_DECODING[byte] for byte in data)
    return data.decode("ascii", "replace")


_CP437_TERMINAL_TYPES: Final = frozenset(
    {"ansi", "ansi-bbs", "pcansi", "syncterm", "netrunner", "cp437"}
)
_ASCII_TERMINAL_TYPES: Final = frozenset({"", "dumb", "unknown"})
_DEC_TERMINAL_TYPE: Final = re.compile(r"vt\d+.*")


def charset_for_terminal_type(term: str | None) -> Charset:
    """The charset to assume for a terminal type name as telnet TTYPE or SSH reports it.

    BBS clients (SyncTERM, NetRunner, ``ansi``) get CP437. A missing, dumb or unknown type
    gets ASCII. So do ``vt100``, ``vt220`` and the like: real DEC terminals and the
    conservative emulators that announce them are not UTF-8, and multi-byte characters on
    such a terminal show as several junk characters that push the layout out of line,
    while ASCII always lines up. Everything else (xterm*, linux, screen*, tmux*, putty,
    rxvt...) is a modern terminal and gets UTF-8. Case does not matter.
    """
    name = (term or "").strip().lower()
    if name in _CP437_TERMINAL_TYPES:
        return Charset.CP437
    if name in _ASCII_TERMINAL_TYPES or _DEC_TERMINAL_TYPE.fullmatch(name):
        return Charset.ASCII
    return Charset.UTF8
