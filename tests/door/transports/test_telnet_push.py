"""A telnet caller's key reaches the key queue in the protocol's own callback: no
reading task is woken between the socket's bytes and the screen (issue #48). The key
rate then holds the caller back by pausing the socket itself, and a lone ESC still
becomes the Escape key after its timeout."""

from __future__ import annotations

import asyncio

import pytest

from door.term.keys import Key
from door.term.terminal import Disconnected, StreamTerminal
from door.transports.telnet import DoorTelnetServer, terminal_for
from tests.door.waiting import until


class _Socket(asyncio.Transport):
    """A socket that takes every write and records whether reading is paused."""

    def __init__(self) -> None:
        super().__init__()
        self.reading = True
        self.pauses = 0
        self.closing = False

    def get_extra_info(self, name: str, default: object = None) -> object:
        return ("127.0.0.1", 4000) if name == "peername" else default

    def write(self, data: bytes | bytearray | memoryview) -> None:
        pass

    def is_closing(self) -> bool:
        return self.closing

    def pause_reading(self) -> None:
        self.reading = False
        self.pauses += 1

    def resume_reading(self) -> None:
        self.reading = True

    def get_write_buffer_size(self) -> int:
        return 0

    def close(self) -> None:
        self.closing = True


def _connected(**limits: float) -> tuple[DoorTelnetServer, _Socket, StreamTerminal]:
    protocol = DoorTelnetServer(encoding=False, timeout=False)
    socket = _Socket()
    protocol.connection_made(socket)
    terminal = terminal_for(protocol.reader, protocol.writer, **limits)
    return protocol, socket, terminal


def test_a_key_is_there_to_take_as_soon_as_its_bytes_are_received() -> None:
    async def scenario() -> list[Key | None]:
        protocol, _, terminal = _connected()
        protocol.data_received(b"a\x1b[C")
        # Taken without the event loop turning once: nothing ran in between.
        taken = [await terminal.take_key(), await terminal.take_key()]
        terminal.close()
        return taken

    assert asyncio.run(scenario()) == [Key.printable("a"), Key.RIGHT]


def test_what_arrived_before_the_terminal_was_made_is_its_first_input() -> None:
    async def scenario() -> list[Key]:
        protocol = DoorTelnetServer(encoding=False, timeout=False)
        protocol.connection_made(_Socket())
        protocol.data_received(b"xy")  # during the negotiation, before the shell
        terminal = terminal_for(protocol.reader, protocol.writer)
        protocol.data_received(b"z")
        keys = [await asyncio.wait_for(terminal.read_key(), 1) for _ in range(3)]
        terminal.close()
        return keys

    assert asyncio.run(scenario()) == [Key.printable(c) for c in "xyz"]


def test_keys_past_the_rate_pause_the_socket_until_the_bucket_refills() -> None:
    async def scenario() -> None:
        protocol, socket, terminal = _connected(key_rate=100, key_burst=10)
        protocol.data_received(b"k" * 50)
        assert terminal.keys_dropped == 40
        # Held: the caller's further input waits in their own TCP window.
        assert not socket.reading
        await until(lambda: socket.reading, 2.0, what="reading resumed")
        protocol.data_received(b"k")
        assert terminal.keys_dropped == 40
        terminal.close()

    asyncio.run(scenario())


def test_a_key_hold_and_the_byte_rates_hold_share_one_pause() -> None:
    async def scenario() -> None:
        protocol, socket, terminal = _connected(key_rate=100, key_burst=10)
        protocol.hold_input(0.5)
        protocol.data_received(b"k" * 50)  # a shorter hold: the longer one stands
        assert socket.pauses == 1
        loop = asyncio.get_running_loop()
        held_from = loop.time()
        await until(lambda: socket.reading, 2.0, what="reading resumed")
        assert loop.time() - held_from > 0.3
        terminal.close()

    asyncio.run(scenario())


def test_a_lone_escape_becomes_the_escape_key_after_its_timeout() -> None:
    async def scenario() -> list[Key | None]:
        protocol, _, terminal = _connected(escape_timeout=0.05)
        protocol.data_received(b"\x1b")
        at_once = await terminal.take_key()  # it may yet begin an arrow
        later = await asyncio.wait_for(terminal.read_key(), 1)
        protocol.data_received(b"\x1b")
        protocol.data_received(b"[A")  # the rest of an arrow, in time
        arrow = await asyncio.wait_for(terminal.read_key(), 1)
        terminal.close()
        return [at_once, later, arrow]

    assert asyncio.run(scenario()) == [None, Key.ESCAPE, Key.UP]


def test_the_caller_hanging_up_ends_the_terminals_reads() -> None:
    async def scenario() -> None:
        protocol, _, terminal = _connected()
        protocol.data_received(b"a")
        protocol.connection_lost(None)
        assert await terminal.read_key() == Key.printable("a")  # what came before it
        with pytest.raises(Disconnected):
            await asyncio.wait_for(terminal.read_key(), 1)

    asyncio.run(scenario())
