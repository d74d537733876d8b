"""The key decoder: every sequence real clients send, split anywhere, and fuzzed."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import door.term.keys
from door.term.keys import (
    DESELECT_KEYS,
    MAX_SEQUENCE_LENGTH,
    Key,
    KeyDecoder,
    KeyName,
    encode_key,
)

SEQUENCES: list[tuple[bytes, list[Key]]] = [
    (b"\x1b[A", [Key.UP]),
    (b"\x1b[B", [Key.DOWN]),
    (b"\x1b[C", [Key.RIGHT]),
    (b"\x1b[D", [Key.LEFT]),
    (b"\x1bOA", [Key.UP]),
    (b"\x1bOB", [Key.DOWN]),
    (b"\x1bOC", [Key.RIGHT]),
    (b"\x1bOD", [Key.LEFT]),
    (b"\x1b[1~", [Key.HOME]),
    (b"\x1b[7~", [Key.HOME]),
    (b"\x1b[H", [Key.HOME]),
    (b"\x1bOH", [Key.HOME]),
    (b"\x1b[4~", [Key.END]),
    (b"\x1b[8~", [Key.END]),
    (b"\x1b[F", [Key.END]),
    (b"\x1bOF", [Key.END]),
    (b"\x1b[K", [Key.END]),  # SyncTERM
    (b"\x1b[2~", [Key.INSERT]),
    (b"\x1b[@", [Key.INSERT]),  # SyncTERM
    (b"\x1b[3~", [Key.DELETE]),
    (b"\x1b[5~", [Key.PGUP]),
    (b"\x1b[V", [Key.PGUP]),  # SyncTERM
    (b"\x1b[6~", [Key.PGDN]),
    (b"\x1b[U", [Key.PGDN]),  # SyncTERM
    (b"\x1bOP", [Key.F1]),
    (b"\x1b[11~", [Key.F1]),
    (b"\x1b[[A", [Key.F1]),  # Linux console
    (b"\x7f", [Key.BACKSPACE]),
    (b"\x08", [Key.BACKSPACE]),
    (b"\r", [Key.ENTER]),
    (b"\r\n", [Key.ENTER]),
    (b"\r\x00", [Key.ENTER]),
    (b"\n", [Key.ENTER]),
    (b"\r\r", [Key.ENTER, Key.ENTER]),
    (b"\r\n\r\n", [Key.ENTER, Key.ENTER]),
    (b"\n\n", [Key.ENTER, Key.ENTER]),
    (b"\r\n\n", [Key.ENTER, Key.ENTER]),
    (b"\x13", [Key.CTRL_S]),
    (b"\x11", [Key.CTRL_Q]),
    (b"\x0c", [Key.CTRL_L]),
    (b"\x03", [Key.CTRL_C]),
    (b"\t", [Key.TAB]),
    (b"a", [Key.printable("a")]),
    (b" ", [Key.printable(" ")]),
    (b"~", [Key.printable("~")]),
    (b"\x1b\x1b", [Key.ESCAPE]),  # the second ESC is still pending
    (b"\x1bx", [Key.ESCAPE, Key.printable("x")]),
    (b"\x1b\r", [Key.ESCAPE, Key.ENTER]),
    ("é".encode(), [Key.printable("é")]),
    ("♠".encode(), [Key.printable("♠")]),
    ("😀".encode(), [Key.printable("😀")]),
    # Swallowed whole: modified keys, unknown finals, urxvt mouse reports, other controls.
    (b"\x1b[1;5A", []),
    (b"\x1b[99~", []),
    (b"\x1b[Z", []),
    (b"\x1bOQ", []),
    (b"\x1bO5P", []),
    (b"\x1b[32;12;7M", []),  # urxvt mouse
    (b"\x1b[?1;2c", []),  # a device-attributes reply
    (b"\x1b[" + b"1;" * 500 + b"R", []),  # overlong garbage
    (b"\x00\x01\x02\x04\x1a\x1c\x1f", []),
    # Not UTF-8: stray continuation, bad lead bytes, overlong form, surrogate, C1, U+FFFD.
    (b"\x80\xbf\xc0\xc1\xf5\xff", []),
    (b"\xc0\xaf", []),
    (b"\xed\xa0\x80", []),
    (b"\xc2\x9b", []),
    ("\ufffd".encode(), []),
    ("\u202e\u200b".encode(), []),  # bidi override and zero-width space: not printable
]


@pytest.mark.parametrize(("data", "expected"), SEQUENCES, ids=[repr(d) for d, _ in SEQUENCES])
def test_sequence_decodes_to_keys(data: bytes, expected: list[Key]) -> None:
    assert KeyDecoder().feed(data) == expected


@pytest.mark.parametrize(("data", "expected"), SEQUENCES, ids=[repr(d) for d, _ in SEQUENCES])
def test_sequence_split_at_every_point_decodes_the_same(data: bytes, expected: list[Key]) -> None:
    for cut in range(1, len(data)):
        decoder = KeyDecoder()
        assert decoder.feed(data[:cut]) + decoder.feed(data[cut:]) == expected, cut


@pytest.mark.parametrize(("data", "expected"), SEQUENCES, ids=[repr(d) for d, _ in SEQUENCES])
def test_sequence_fed_one_byte_at_a_time_decodes_the_same(data: bytes, expected: list[Key]) -> None:
    decoder = KeyDecoder()
    keys = [key for byte in data for key in decoder.feed(bytes([byte]))]
    assert keys == expected


@pytest.mark.parametrize("second", [b"\n", b"\x00"])
def test_carriage_return_and_its_partner_in_separate_feeds_make_one_enter(second: bytes) -> None:
    decoder = KeyDecoder()
    assert decoder.feed(b"\r") == [Key.ENTER]
    assert decoder.feed(second) == []
    assert decoder.feed(b"\n") == [Key.ENTER]


def test_a_key_between_cr_and_lf_makes_the_lf_its_own_enter() -> None:
    assert KeyDecoder().feed(b"\rx\n") == [Key.ENTER, Key.printable("x"), Key.ENTER]


def test_lone_escape_waits_for_flush() -> None:
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b") == []
    assert decoder.pending_escape
    assert decoder.flush() == [Key.ESCAPE]
    assert not decoder.pending_escape
    assert decoder.flush() == []
    assert decoder.feed(b"[A") == [Key.printable("["), Key.printable("A")]


def test_escape_sequence_split_across_feeds_is_one_key() -> None:
    decoder = KeyDecoder()
    assert decoder.feed(b"x\x1b") == [Key.printable("x")]
    assert decoder.pending_escape
    assert decoder.feed(b"[") == []
    assert not decoder.pending_escape
    assert decoder.feed(b"5~y") == [Key.PGUP, Key.printable("y")]


def test_flush_keeps_a_longer_unfinished_sequence() -> None:
    decoder = KeyDecoder()
    decoder.feed(b"\x1b[1")
    assert decoder.flush() == []
    assert decoder.feed(b"~") == [Key.HOME]


def test_control_byte_inside_a_sequence_ends_it_and_still_counts() -> None:
    assert KeyDecoder().feed(b"\x1b[12\r") == [Key.ENTER]
    assert KeyDecoder().feed(b"\x1b[1\x1b[B") == [Key.DOWN]


def test_utf8_character_split_across_feeds() -> None:
    decoder = KeyDecoder()
    encoded = "€".encode()
    assert decoder.feed(encoded[:1]) == []
    assert decoder.feed(encoded[1:2]) == []
    assert decoder.feed(encoded[2:]) == [Key.printable("€")]


def test_truncated_utf8_character_is_dropped_and_next_byte_kept() -> None:
    assert KeyDecoder().feed(b"\xe2\x82a") == [Key.printable("a")]


def test_text_input_is_decoded_like_its_utf8_bytes() -> None:
    assert KeyDecoder().feed("a\x1b[Bé\ud800\r\n") == [
        Key.printable("a"),
        Key.DOWN,
        Key.printable("é"),
        Key.ENTER,
    ]


def test_overlong_sequence_never_grows_the_buffer() -> None:
    decoder = KeyDecoder()
    for _ in range(1000):
        assert decoder.feed(b"\x1b[" + b"9" * 100) == []
        assert len(decoder.pending) <= MAX_SEQUENCE_LENGTH
    assert decoder.feed(b"mq") == [Key.printable("q")]


NAMED_KEYS = [name for name in KeyName if name not in (KeyName.CHAR, KeyName.MOUSE)]


@pytest.mark.parametrize("key", [Key(name) for name in NAMED_KEYS])
def test_every_named_key_round_trips_through_its_bytes(key: Key) -> None:
    decoder = KeyDecoder()
    keys = decoder.feed(encode_key(key)) + decoder.flush()
    assert keys == [key]


@pytest.mark.parametrize("char", ["a", "Z", "5", " ", "é", "♣", "漢"])
def test_printable_keys_round_trip_through_their_bytes(char: str) -> None:
    key = Key.printable(char)
    assert KeyDecoder().feed(encode_key(key)) == [key]


def test_named_key_constants_cover_every_name() -> None:
    for name in NAMED_KEYS:
        assert getattr(Key, name.name) == Key(name)
        assert repr(getattr(Key, name.name)) == f"Key.{name.name}"


def test_repr_is_the_call_that_rebuilds_the_key() -> None:
    for key in [Key.UP, Key.printable("x"), Key.printable("'")]:
        assert eval(repr(key), {"Key": Key}) == key


@pytest.mark.parametrize("bad", ["", "ab", "\x1b", "\n", "\u202e"])
def test_printable_key_rejects_what_cannot_be_typed(bad: str) -> None:
    with pytest.raises(ValueError):
        Key.printable(bad)


def test_named_key_cannot_carry_a_character() -> None:
    with pytest.raises(ValueError):
        Key(KeyName.UP, "u")


def test_backspace_and_delete_both_deselect() -> None:
    assert Key.BACKSPACE in DESELECT_KEYS
    assert Key.DELETE in DESELECT_KEYS
    assert Key.ESCAPE not in DESELECT_KEYS


def test_module_examples_run() -> None:
    results = doctest.testmod(door.term.keys)
    assert results.attempted > 0
    assert results.failed == 0


@st.composite
def split_stream(draw: st.DrawFn) -> tuple[bytes, list[bytes]]:
    data = draw(st.binary(max_size=400))
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=20)))
    bounds = [0, *cuts, len(data)]
    return data, [data[start:end] for start, end in zip(bounds, bounds[1:], strict=False)]


@given(split_stream())
def test_any_bytes_split_anywhere_decode_without_error_and_as_if_whole(
    stream: tuple[bytes, list[bytes]],
) -> None:
    data, pieces = stream
    whole = KeyDecoder().feed(data)
    decoder = KeyDecoder()
    split: list[Key] = []
    for piece in pieces:
        split += decoder.feed(piece)
        assert len(decoder.pending) <= MAX_SEQUENCE_LENGTH
    assert split == whole
    assert all(isinstance(key, Key) for key in whole)
    assert all(key.char.isprintable() for key in whole if key.is_printable)
    assert decoder.flush() in ([], [Key.ESCAPE])


_UNKNOWN_SEQUENCES = st.builds(
    lambda parameters, final: b"\x1b[" + parameters + final,
    st.binary(min_size=1, max_size=60).map(lambda raw: bytes(0x30 + b % 16 for b in raw)),
    st.sampled_from([bytes([b]) for b in range(0x40, 0x7F) if b != ord("~")]),
)


@given(st.lists(st.one_of(st.text("abcxyz019 ", min_size=1), _UNKNOWN_SEQUENCES), max_size=30))
def test_unknown_sequences_never_leak_as_characters(parts: list[str | bytes]) -> None:
    data = b"".join(part.encode() if isinstance(part, str) else part for part in parts)
    typed = "".join(part for part in parts if isinstance(part, str))
    assert "".join(key.char for key in KeyDecoder().feed(data)) == typed


# Reads of one whole key are looked up rather than decoded a byte at a time: whatever
# came before them (a CR, an unfinished sequence), they must decode as the bytes do.
_READS = st.sampled_from(
    [bytes([byte]) for byte in range(0x20, 0x7F)]
    + [encode_key(Key(name)) for name in NAMED_KEYS]
    + [b"\r", b"\r\x00", b"\r\n", b"\n", b"\x00", b"\x1b", b"\x1b[", b"\x1bO", b"\x1b[1", b"\xc3"]
)


@given(st.lists(_READS, max_size=40))
def test_reads_of_whole_keys_decode_as_their_bytes_one_at_a_time(reads: list[bytes]) -> None:
    decoder = KeyDecoder()
    by_reads = [key for read in reads for key in decoder.feed(read)]
    bytewise = KeyDecoder()
    by_bytes = [key for byte in b"".join(reads) for key in bytewise.feed(bytes([byte]))]
    assert by_reads == by_bytes
    assert decoder.flush() == bytewise.flush()
