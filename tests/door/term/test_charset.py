"""Output character sets: CP437's own table, ASCII stand-ins, and terminal-type guesses."""

from __future__ import annotations

import doctest
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import door.term.charset
from door.term.charset import Charset, charset_for_terminal_type, decode, encode

SUITS = "♠♥♦♣"
BOXES = "─│┌┐└┘├┤┬┴┼═║╔╗╚╝"
BLOCKS_AND_DOTS = "░▒▓█▀▄•·"
SYMBOLS = SUITS + BOXES + BLOCKS_AND_DOTS

CP437_BYTES = [
    ("♥", 0x03),
    ("♦", 0x04),
    ("♣", 0x05),
    ("♠", 0x06),
    ("─", 0xC4),
    ("│", 0xB3),
    ("┌", 0xDA),
    ("┐", 0xBF),
    ("└", 0xC0),
    ("┘", 0xD9),
    ("├", 0xC3),
    ("┤", 0xB4),
    ("┬", 0xC2),
    ("┴", 0xC1),
    ("┼", 0xC5),
    ("═", 0xCD),
    ("║", 0xBA),
    ("╔", 0xC9),
    ("╗", 0xBB),
    ("╚", 0xC8),
    ("╝", 0xBC),
    ("░", 0xB0),
    ("▒", 0xB1),
    ("▓", 0xB2),
    ("█", 0xDB),
    ("▀", 0xDF),
    ("▄", 0xDC),
    ("•", 0xF9),  # not 0x07, which rings the bell
    ("·", 0xFA),
    ("é", 0x82),
    ("½", 0xAB),
]


@pytest.mark.parametrize(("char", "byte"), CP437_BYTES)
def test_cp437_byte_for_symbol(char: str, byte: int) -> None:
    assert encode(char, Charset.CP437) == bytes([byte])


def test_cp437_suits_are_bytes_three_to_six() -> None:
    assert encode("♥♦♣♠", Charset.CP437) == b"\x03\x04\x05\x06"


@pytest.mark.parametrize("charset", [Charset.UTF8, Charset.CP437])
def test_symbols_round_trip(charset: Charset) -> None:
    text = f"A{SYMBOLS}z"
    assert decode(encode(text, charset), charset) == text


def test_cp437_decode_keeps_control_bytes_for_the_emulator() -> None:
    assert decode(b"\x1b[2J\r\n\x07", Charset.CP437) == "\x1b[2J\r\n\x07"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5♠ 6♥ 7♦ 8♣", b"5S 6H 7D 8C"),
        ("┌─┐│└┘├┤┬┴┼", b"+-+|+++++++"),
        ("╔═╗║╚╝", b"+=+|++"),
        ("░▒▓█▀▄•·", b".:####*."),
        ("José’s “deal” – ok", b'Jose\'s "deal" - ok'),
        ("漢字 ﬁ ł", b"?? ? ?"),
    ],
)
def test_ascii_stand_ins(text: str, expected: bytes) -> None:
    assert encode(text, Charset.ASCII) == expected


def test_a_name_cut_with_an_ellipsis_ends_with_a_dot_without_utf8() -> None:
    # A shortened name ("Bartholomew Smith…", door/screens/fit.py) read "Bartholomew
    # Smith?" on an ASCII or a PC-ANSI screen.
    assert encode("Bartholomew Smith… 55%", Charset.ASCII) == b"Bartholomew Smith. 55%"
    assert encode("Bartholomew Smith… 55%", Charset.CP437) == b"Bartholomew Smith. 55%"


def test_cp437_falls_back_to_plain_letters_then_question_mark() -> None:
    assert encode("Ńódź Ł漢", Charset.CP437) == b"N\xa2dz ??"


def test_utf8_is_plain_utf8() -> None:
    assert encode("♠ é ─", Charset.UTF8) == "♠ é ─".encode()


def test_utf8_replaces_lone_surrogates_instead_of_raising() -> None:
    assert encode("a\ud800b", Charset.UTF8) == b"a?b"


@given(st.text())
def test_ascii_output_never_has_high_bytes_and_keeps_one_byte_per_character(text: str) -> None:
    encoded = encode(text, Charset.ASCII)
    assert len(encoded) == len(text)
    assert all(byte < 0x80 for byte in encoded)


@given(st.text())
def test_cp437_output_keeps_one_byte_per_character(text: str) -> None:
    assert len(encode(text, Charset.CP437)) == len(text)


@given(st.binary())
def test_cp437_decode_reads_every_byte(data: bytes) -> None:
    assert len(decode(data, Charset.CP437)) == len(data)


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("ansi", Charset.CP437),
        ("ANSI", Charset.CP437),
        ("ansi-bbs", Charset.CP437),
        ("pcansi", Charset.CP437),
        ("syncterm", Charset.CP437),
        ("SyncTERM", Charset.CP437),
        ("netrunner", Charset.CP437),
        ("cp437", Charset.CP437),
        ("dumb", Charset.ASCII),
        ("unknown", Charset.ASCII),
        ("", Charset.ASCII),
        ("  ", Charset.ASCII),
        (None, Charset.ASCII),
        ("vt100", Charset.ASCII),
        ("VT220", Charset.ASCII),
        ("vt102", Charset.ASCII),
        ("xterm", Charset.UTF8),
        ("XTERM-256COLOR", Charset.UTF8),
        ("linux", Charset.UTF8),
        ("screen", Charset.UTF8),
        ("screen-256color", Charset.UTF8),
        ("tmux-256color", Charset.UTF8),
        ("rxvt-unicode", Charset.UTF8),
        ("putty", Charset.UTF8),
    ],
)
def test_charset_for_terminal_type(term: str | None, expected: Charset) -> None:
    assert charset_for_terminal_type(term) is expected


def test_module_examples_run() -> None:
    results = doctest.testmod(door.term.charset)
    assert results.attempted > 0
    assert results.failed == 0


def test_a_pc_ansi_frame_is_encoded_without_python_work_a_character() -> None:
    """A PC-ANSI caller's frame is encoded in C (issue #48: a generator a character was
    50 us a frame); only characters that share a byte or stand in for another call back."""
    frame = "\x1b[0;37;44m┌──────┐ 10♠ Q♥ 5♦ A♣ │ Alice plays 10♠ (count 10). █▀▄░▒▓\r\n" * 30
    calls = 0

    def hook(frame_: object, event: str, arg: object) -> None:
        nonlocal calls
        calls += event == "call"

    sys.setprofile(hook)
    try:
        encoded = encode(frame, Charset.CP437)
    finally:
        sys.setprofile(None)
    assert decode(encoded, Charset.CP437) == frame
    assert calls == 1  # encode itself
    # A bullet shares 0xF9 with its CP437 glyph; a letter the charset lacks stands in.
    assert encode("• é ∙", Charset.CP437) == b"\xf9 \x82 \xf9"
    assert encode("Ω ž", Charset.CP437) == b"\xea z"
