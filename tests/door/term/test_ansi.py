"""ANSI helpers and sanitizing untrusted text."""

from __future__ import annotations

import doctest
import unicodedata

import pyte
import pytest
from hypothesis import given
from hypothesis import strategies as st

import door.term.ansi
from door.term.ansi import (
    CLEAR_SCREEN,
    CLEAR_TO_END_OF_LINE,
    HIDE_CURSOR,
    RESET,
    SHOW_CURSOR,
    Color,
    ColorMode,
    Palette,
    at,
    color_mode_for_terminal_type,
    sanitize,
)
from door.term.charset import Charset, encode


def render(text: str, cols: int = 20, rows: int = 5) -> pyte.Screen:
    screen = pyte.Screen(cols, rows)
    pyte.Stream(screen).feed(text)
    return screen


def test_at_moves_the_cursor_counting_from_one() -> None:
    screen = render(at(3, 7) + "X")
    assert screen.display[2][6] == "X"
    assert at(1, 1) == "\x1b[1;1H"


@pytest.mark.parametrize(("row", "col"), [(0, 1), (1, 0), (-1, 5)])
def test_at_rejects_zero_based_positions(row: int, col: int) -> None:
    with pytest.raises(ValueError):
        at(row, col)


def test_clear_screen_blanks_and_homes() -> None:
    screen = render("junk\r\nmore" + CLEAR_SCREEN + "A")
    assert screen.display[0].startswith("A ")
    assert screen.display[1].strip() == ""


def test_clear_to_end_of_line() -> None:
    screen = render("abcdef" + at(1, 3) + CLEAR_TO_END_OF_LINE)
    assert screen.display[0].rstrip() == "ab"


def test_cursor_visibility() -> None:
    screen = render(HIDE_CURSOR)
    assert screen.cursor.hidden
    pyte.Stream(screen).feed(SHOW_CURSOR)
    assert not screen.cursor.hidden


def test_paint_colours_the_cells_and_resets_after() -> None:
    palette = Palette(ColorMode.ANSI)
    screen = render(palette.paint("Hi", fg=Color.YELLOW, bg=Color.BLUE, bold=True) + "!")
    first, after = screen.buffer[0][0], screen.buffer[0][2]
    assert (first.data, first.fg, first.bg, first.bold) == ("H", "brown", "blue", True)
    assert (after.data, after.fg, after.bg, after.bold) == ("!", "default", "default", False)


def test_style_starts_from_a_reset_so_nothing_leaks() -> None:
    palette = Palette()
    screen = render(
        palette.style(Color.RED, Color.CYAN, bold=True) + "a" + palette.style(Color.GREEN) + "b"
    )
    cell = screen.buffer[0][1]
    assert (cell.fg, cell.bg, cell.bold) == ("green", "default", False)


def test_fg_and_bg_change_one_side_only() -> None:
    palette = Palette()
    screen = render(
        palette.bg(Color.CYAN)
        + palette.fg(Color.WHITE, bright=True)
        + "x"
        + palette.fg(Color.RED)
        + "y"
    )
    x, y = screen.buffer[0][0], screen.buffer[0][1]
    assert (x.fg, x.bg, x.bold) == ("white", "cyan", True)
    assert (y.fg, y.bg) == ("red", "cyan")


def test_no_colour_mode_produces_nothing() -> None:
    plain = Palette(ColorMode.NONE)
    assert plain.style(Color.RED, Color.BLUE, bold=True) == ""
    assert plain.fg(Color.RED, bright=True) == ""
    assert plain.bg(Color.RED) == ""
    assert plain.bold() == ""
    assert plain.reset() == ""
    assert plain.paint("5♠", fg=Color.RED) == "5♠"


def test_dumb_terminal_output_has_no_escape_and_no_high_byte() -> None:
    palette = Palette(color_mode_for_terminal_type("dumb"))
    text = palette.paint("Your hand: 5♠ J♦ ", fg=Color.CYAN) + palette.style(bold=True) + "┌─┐"
    encoded = encode(text, Charset.ASCII)
    assert encoded == b"Your hand: 5S JD +-+"
    assert b"\x1b" not in encoded
    assert all(byte < 0x80 for byte in encoded)


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("dumb", ColorMode.NONE),
        ("UNKNOWN", ColorMode.NONE),
        ("", ColorMode.NONE),
        (None, ColorMode.NONE),
        ("vt100", ColorMode.ANSI),
        ("ansi-bbs", ColorMode.ANSI),
        ("XTERM-256COLOR", ColorMode.ANSI),
    ],
)
def test_color_mode_for_terminal_type(term: str | None, expected: ColorMode) -> None:
    assert color_mode_for_terminal_type(term) is expected


def test_reset_constant() -> None:
    assert RESET == "\x1b[0m"


NASTY = (
    "Bob\x1b[2J\x1b[1;1H"  # clear the screen and home
    "\x1b]0;owned\x07"  # set the window title
    "\x9b31m"  # 8-bit CSI
    "\x9d0;t\x9c"  # 8-bit OSC
    "\x1bP+q\x1b\\"  # DCS
    "\x1bc"  # full reset
    "\u202eevil\u202c"  # right-to-left override
    "\u2066x\u2069\u200b\u200d\ufeff"  # isolates and zero-width characters
    "\x00\x07\x08\t\r\n\x7f\x85"  # C0, DEL, C1
    "é♠"
)


def test_sanitize_removes_sequences_and_controls_whole() -> None:
    assert sanitize(NASTY, 100) == "Bobevilxé♠"


def test_sanitize_unterminated_string_command_removes_the_rest() -> None:
    assert sanitize("ok\x1b]0;title never ends", 50) == "ok"


def test_sanitize_truncates_after_cleaning() -> None:
    assert sanitize("\x1b[31m" + "a" * 50, 10) == "a" * 10
    assert sanitize("abc", 0) == ""


def test_sanitize_ten_thousand_nasty_characters() -> None:
    hostile = (NASTY * 200)[:10_000]
    assert len(hostile) == 10_000
    cleaned = sanitize(hostile, 40)
    assert len(cleaned) == 40
    assert set(cleaned) <= set("Bobevilxé♠")


_FORBIDDEN = {chr(c) for c in [*range(0x20), *range(0x7F, 0xA0)]} | {
    chr(c) for c in [*range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
}


@given(st.text(), st.integers(0, 200))
def test_sanitize_output_is_always_safe(text: str, max_len: int) -> None:
    cleaned = sanitize(text, max_len)
    assert len(cleaned) <= max_len
    assert not set(cleaned) & _FORBIDDEN
    assert all(unicodedata.category(char) not in {"Cc", "Cf"} for char in cleaned)


def test_module_examples_run() -> None:
    results = doctest.testmod(door.term.ansi)
    assert results.attempted > 0
    assert results.failed == 0
