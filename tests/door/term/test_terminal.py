"""StreamTerminal through FakeTerminal: keys in, bytes and a pyte screen out."""

from __future__ import annotations

import asyncio
import doctest
import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from door.term.ansi import Color, ColorMode, Palette, at
from door.term.charset import Charset
from door.term.keys import Key
from door.term.terminal import (
    MAX_HELD_OUTPUT,
    MAX_TYPEAHEAD,
    Disconnected,
    StreamTerminal,
    Terminal,
)
from tests.door import fake_terminal
from tests.door.fake_terminal import FakeTerminal

TIMEOUT = 2.0


def run_async(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(asyncio.wait_for(test(*args, **kwargs), TIMEOUT))

    return run


async def read_keys(terminal: Terminal, count: int) -> list[Key]:
    return [await terminal.read_key() for _ in range(count)]


def test_fake_and_stream_terminals_satisfy_the_protocol() -> None:
    terminal: Terminal = FakeTerminal()
    assert isinstance(terminal, StreamTerminal)


@run_async
async def test_keys_arrive_in_order() -> None:
    terminal = FakeTerminal()
    terminal.push_keys("ab", Key.UP, Key.ENTER, Key.F1, Key.CTRL_C, Key.DELETE)
    assert await read_keys(terminal, 7) == [
        Key.printable("a"),
        Key.printable("b"),
        Key.UP,
        Key.ENTER,
        Key.F1,
        Key.CTRL_C,
        Key.DELETE,
    ]


@run_async
async def test_escape_sequence_split_across_reads_is_one_key() -> None:
    terminal = FakeTerminal()
    terminal.push_bytes(b"\x1b")
    terminal.push_bytes(b"[")
    terminal.push_bytes(b"6~")
    assert await terminal.read_key() == Key.PGDN


@run_async
async def test_lone_escape_becomes_escape_after_the_timeout() -> None:
    terminal = FakeTerminal(escape_timeout=0.01)
    terminal.push_bytes(b"\x1b")
    assert await terminal.read_key() == Key.ESCAPE
    terminal.push_bytes(b"[A")
    assert await read_keys(terminal, 2) == [Key.printable("["), Key.printable("A")]


@run_async
async def test_escape_followed_in_time_by_the_rest_is_not_escape() -> None:
    terminal = FakeTerminal(escape_timeout=10.0)
    terminal.push_bytes(b"\x1b")
    await terminal.settle()
    await asyncio.sleep(0.01)  # the point: the rest comes in a read of its own, later
    terminal.push_bytes(b"OP")
    assert await terminal.read_key() == Key.F1


@run_async
async def test_crlf_split_across_reads_is_one_enter() -> None:
    terminal = FakeTerminal()
    terminal.push_bytes(b"\r")
    terminal.push_bytes(b"\n")
    terminal.push_bytes(b"y")
    assert await read_keys(terminal, 2) == [Key.ENTER, Key.printable("y")]


@run_async
async def test_ctrl_s_holds_output_until_ctrl_q() -> None:
    terminal = FakeTerminal(cols=20, rows=3)
    terminal.write("before ")
    await terminal.flush()
    terminal.push_keys(Key.CTRL_S)
    await terminal.settle()
    assert terminal.paused

    terminal.write("during")
    await terminal.flush()  # returns at once while paused
    assert terminal.output == b"before "
    assert terminal.display[0].rstrip() == "before"

    terminal.push_keys(Key.CTRL_Q, "z")
    assert await terminal.read_key() == Key.printable("z")  # Ctrl-S/Ctrl-Q were consumed
    assert not terminal.paused
    assert terminal.output == b"before during"
    assert terminal.display[0].rstrip() == "before during"


@run_async
async def test_paused_output_past_its_limit_resumes_on_its_own() -> None:
    terminal = FakeTerminal()
    terminal.push_keys(Key.CTRL_S)
    await terminal.settle()
    terminal.write("x" * MAX_HELD_OUTPUT)
    assert terminal.output == b""
    terminal.write("y")
    assert not terminal.paused
    assert len(terminal.output) == MAX_HELD_OUTPUT + 1


@run_async
async def test_coloured_text_lands_in_the_right_cell_with_the_right_colour() -> None:
    terminal = FakeTerminal(cols=80, rows=25)
    palette = Palette(terminal.color_mode)
    terminal.write(at(3, 10) + palette.paint("5♥", fg=Color.RED, bg=Color.CYAN) + " J♣")
    await terminal.flush()
    five, heart, gap, jack = (terminal.screen.buffer[2][x] for x in (9, 10, 11, 12))
    assert (five.data, five.fg, five.bg) == ("5", "red", "cyan")
    assert (heart.data, heart.fg, heart.bg) == ("♥", "red", "cyan")
    assert (gap.data, gap.bg) == (" ", "default")
    assert jack.data == "J"
    assert terminal.display[2] == " " * 9 + "5♥ J♣" + " " * 66


@run_async
async def test_bbs_terminal_gets_cp437_and_the_fake_shows_it_decoded() -> None:
    terminal = FakeTerminal(cols=10, rows=2, term_type="SyncTERM")
    assert terminal.charset is Charset.CP437
    terminal.write("♠│█")
    assert terminal.output == b"\x06\xb3\xdb"
    assert terminal.display[0] == "♠│█       "


@run_async
async def test_switching_charset_changes_how_later_text_is_encoded() -> None:
    terminal = FakeTerminal(cols=10, rows=2, term_type="xterm")
    terminal.write("♠")
    terminal.charset = Charset.ASCII
    terminal.write("♠")
    terminal.charset = Charset.CP437
    terminal.write("♠")
    assert terminal.output == "♠".encode() + b"S\x06"
    assert terminal.display[0].startswith("♠S♠")


def test_dumb_terminal_gets_ascii_and_no_colour() -> None:
    terminal = FakeTerminal(term_type="dumb")
    assert terminal.charset is Charset.ASCII
    assert terminal.color_mode is ColorMode.NONE
    assert terminal.term_type == "dumb"


@run_async
async def test_hang_up_raises_disconnected_every_time() -> None:
    terminal = FakeTerminal()
    terminal.push_keys("q")
    terminal.hang_up()
    assert await terminal.read_key() == Key.printable("q")
    for _ in range(2):
        with pytest.raises(Disconnected):
            await terminal.read_key()
    assert not terminal.connected
    terminal.write("lost")  # does not raise
    assert terminal.output == b""
    with pytest.raises(Disconnected):
        await terminal.flush()


class _FailingSource:
    def __init__(self, error: Exception) -> None:
        self.error = error

    async def read(self) -> bytes:
        raise self.error


class _ListSink:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    async def drain(self) -> None:
        if self.closed:
            raise BrokenPipeError

    def close(self) -> None:
        self.closed = True


@run_async
async def test_connection_error_from_the_source_is_a_disconnect() -> None:
    terminal = StreamTerminal(_FailingSource(ConnectionResetError()), _ListSink())
    with pytest.raises(Disconnected):
        await terminal.read_key()


@run_async
async def test_unexpected_source_error_is_logged_and_ends_the_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    terminal = StreamTerminal(_FailingSource(RuntimeError("adapter bug")), _ListSink())
    with caplog.at_level(logging.ERROR), pytest.raises(Disconnected):
        await terminal.read_key()
    assert "reading the caller's input failed" in caplog.text


@run_async
async def test_drain_failure_is_a_disconnect() -> None:
    sink = _ListSink()
    terminal = StreamTerminal(_FailingSource(ConnectionResetError()), sink)
    sink.closed = True
    terminal.write("hello")
    assert sink.written == []  # written output waits for flush
    with pytest.raises(Disconnected):
        await terminal.flush()
    assert sink.written == [b"hello"]
    assert not terminal.connected


class _TextSource:
    """A transport that decodes for us, handing over text."""

    def __init__(self, chunks: list[str]) -> None:
        self.chunks = chunks

    async def read(self) -> str:
        return self.chunks.pop(0) if self.chunks else ""


@run_async
async def test_text_from_a_decoding_transport_is_read_like_bytes() -> None:
    terminal = StreamTerminal(_TextSource(["\x1b[", "Bé\r"]), _ListSink(), term_type="xterm")
    assert await read_keys(terminal, 3) == [Key.DOWN, Key.printable("é"), Key.ENTER]
    with pytest.raises(Disconnected):
        await terminal.read_key()


@run_async
async def test_close_sends_held_output_and_ends_reading() -> None:
    terminal = FakeTerminal()
    terminal.push_keys(Key.CTRL_S)
    await terminal.settle()
    terminal.write("Goodbye")
    terminal.close()
    terminal.close()
    assert terminal.output == b"Goodbye"
    assert terminal.sink_closed
    with pytest.raises(Disconnected):
        await terminal.read_key()
    with pytest.raises(Disconnected):
        await terminal.flush()


@run_async
async def test_excess_typeahead_is_dropped() -> None:
    terminal = FakeTerminal()
    terminal.push_bytes(b"k" * (MAX_TYPEAHEAD + 50))
    terminal.hang_up()
    await terminal.settle()
    keys: list[Key] = []
    with pytest.raises(Disconnected):
        while True:
            keys.append(await terminal.read_key())
    assert keys == [Key.printable("k")] * MAX_TYPEAHEAD


@run_async
async def test_idle_counts_from_the_last_key() -> None:
    now = [100.0]
    terminal = FakeTerminal(clock=lambda: now[0])
    now[0] = 130.0
    assert terminal.idle == 30.0
    terminal.push_keys("x")
    await terminal.settle()
    now[0] = 135.0
    assert terminal.idle == 5.0
    terminal.push_keys(Key.CTRL_S)  # a consumed key is still a sign of life
    await terminal.settle()
    assert terminal.idle == 0.0


def test_resize_notifies_listeners_until_they_stop() -> None:
    terminal = FakeTerminal(cols=80, rows=24)
    seen: list[tuple[int, int]] = []
    stop = terminal.on_resize(lambda cols, rows: seen.append((cols, rows)))
    terminal.resize(100, 30)
    assert terminal.size == (100, 30)
    assert len(terminal.display) == 30
    assert len(terminal.display[0]) == 100
    stop()
    terminal.resize(90, 25)
    assert seen == [(100, 30)]
    assert terminal.size == (90, 25)


def test_size_without_a_pty_falls_back_to_80_by_24() -> None:
    terminal = StreamTerminal(_TextSource([]), _ListSink(), size=(0, 0), term_type=None)
    assert terminal.size == (80, 24)
    assert terminal.charset is Charset.ASCII
    assert terminal.term_type is None


def test_module_examples_run() -> None:
    results = doctest.testmod(fake_terminal)
    assert results.attempted > 0
    assert results.failed == 0


def test_the_last_words_stay_on_top_of_a_screen_still_being_redrawn() -> None:
    terminal = FakeTerminal(cols=20, rows=2)
    terminal.write("the table")
    terminal.write_last("\r\nGoodbye!")
    terminal.write("\x1b[2Jthe game is over")  # a screen redrawn as the door closes
    assert terminal.display == ["the table           ", "Goodbye!            "]
