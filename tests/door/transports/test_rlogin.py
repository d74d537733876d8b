"""RLogin from linked BBSes: the handshake, window sizes, listed addresses only, and a
whole game by a linked BBS's caller, whose record is kept under the BBS's tag."""

from __future__ import annotations

import asyncio
import doctest
import logging
import re
import select
import socket
from pathlib import Path

import pytest

import door.transports.rlogin
from door.config import config_from_mapping
from door.serve import Listening, run_server
from door.transports.rlogin import (
    HandshakeError,
    RloginInput,
    handshake,
    parse_handshake,
    window_size,
)
from tests.door.app.test_accounts_server import running
from tests.door.netclients import Caller, free_port
from tests.door.test_end_to_end import play_one_game
from tests.door.waiting import until


def test_module_examples_run() -> None:
    assert doctest.testmod(door.transports.rlogin).failed == 0


def test_a_handshake_reads_back() -> None:
    data = handshake("sysop", "[FRIEND]Zed", "ansi-bbs", 38400) + b"keys"
    for cut in range(len(data) - 4):
        assert parse_handshake(data[:cut]) is None  # not whole yet: wait for more
    start, rest = parse_handshake(data)  # type: ignore[misc]
    assert (start.local_user, start.remote_user, start.terminal_type, start.speed) == (
        "sysop",
        "[FRIEND]Zed",
        "ansi-bbs",
        "38400",
    )
    assert start.alias == "Zed" and rest == b"keys"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"x\0y\0z\0", "starts with a NUL"),
        (b"\0" + b"a" * 300, "too long"),
        (b"\0a\0" + b"b" * 70 + b"\0c\0", "too long"),
        (b"\0a\0\0xterm/9600\0", "names no user"),
        (b"\0a\0\x1b[2J\0xterm/9600\0", "names no user"),
    ],
)
def test_a_bad_handshake_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(HandshakeError, match=message):
        parse_handshake(data)


def test_window_sizes_are_taken_out_of_the_keys_wherever_they_are_cut() -> None:
    stream = b"ab" + window_size(132, 37) + b"c\xffd" + window_size(80, 25)
    for cut in range(len(stream)):
        split = RloginInput()
        first, sizes_a = split.feed(stream[:cut])
        second, sizes_b = split.feed(stream[cut:])
        assert first + second == b"abc\xffd"
        assert sizes_a + sizes_b == [(132, 37), (80, 25)]


class RloginCaller(Caller):
    async def connect(self, port: int, alias: str, local_address: str = "127.0.0.1") -> None:
        self.reader, self.writer = await asyncio.open_connection(
            "127.0.0.1", port, local_addr=(local_address, 0)
        )
        self.writer.write(handshake("bbs", alias, "xterm") + window_size(80, 24))
        self.pump = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        while True:
            try:
                data = await self.reader.read(4096)
            except ConnectionError:  # a reset: the door closed on keys it never read
                data = b""
            if not data:
                self.closed = True
                return
            self.feed(data)

    async def send(self, data: bytes | str) -> None:
        self.writer.write(data.encode() if isinstance(data, str) else data)
        await self.writer.drain()


def rlogin_config(tmp_path: Path) -> object:
    return config_from_mapping(
        {
            "server": {"telnet_port": 0, "ssh_port": 0, "data_dir": str(tmp_path)},
            "game": {"computer_pause_seconds": 0},
            "rlogin": {"port": free_port(), "systems": {"127.0.0.1": "FRIEND"}},
        }
    )


def test_a_linked_bbss_caller_plays_a_whole_game_and_keeps_a_record(tmp_path: Path) -> None:
    config = rlogin_config(tmp_path)

    async def scenario() -> tuple[str, object]:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        door_opened: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(
            run_server(config, stop=stop, on_ready=ready.set_result, on_door=door_opened.set_result)  # type: ignore[arg-type]
        )
        listening = await asyncio.wait_for(ready, 10)
        assert listening.rlogin is not None
        caller = RloginCaller()
        await caller.connect(listening.rlogin[1], "[FRIEND]Zed")
        await caller.wait_for("Welcome, Zed!", timeout=20)
        screen = await asyncio.wait_for(play_one_game(caller), 600)
        door = await door_opened
        stats = await door.records.store.stats_for("Zed")  # type: ignore[attr-defined]
        stop.set()
        await asyncio.wait_for(server, 10)
        return screen, stats

    screen, stats = asyncio.run(scenario())
    assert re.search(r"(You|Computer) wins?, 121 to \d+", screen), screen
    assert stats is not None and stats.total.games == 1  # type: ignore[attr-defined]


def test_a_linked_bbss_member_who_drops_the_line_is_named_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # By hand: "rlogin caller from FRIEND (127.0.0.1) disconnected", no name: a sysop
    # reading the log could not tell which of a BBS's callers dropped.
    config = rlogin_config(tmp_path)

    async def scenario() -> None:
        async with running(config) as listening:  # type: ignore[arg-type]
            assert listening.rlogin is not None
            caller = RloginCaller()
            await caller.connect(listening.rlogin[1], "[FRIEND]Zed")
            await caller.wait_for("Welcome, Zed!", timeout=20)
            caller.writer.close()
            await until(
                lambda: any("disconnected" in r.getMessage() for r in caplog.records),
                what="the disconnect line",
            )

    with caplog.at_level(logging.INFO, logger="door.app.call"):
        asyncio.run(scenario())
    lines = [r.getMessage() for r in caplog.records if "disconnected" in r.getMessage()]
    assert lines == ["rlogin caller Zed from FRIEND (127.0.0.1) disconnected"]


def test_an_unlisted_address_is_closed_at_once(tmp_path: Path) -> None:
    config = rlogin_config(tmp_path)

    async def scenario() -> tuple[bool, int]:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))  # type: ignore[arg-type]
        listening = await asyncio.wait_for(ready, 10)
        assert listening.rlogin is not None
        caller = RloginCaller()
        await caller.connect(listening.rlogin[1], "Mallory", local_address="127.0.0.2")
        await caller.wait_for_close(timeout=5)
        stop.set()
        await asyncio.wait_for(server, 10)
        return caller.closed, caller.received

    closed, received = asyncio.run(scenario())
    assert closed and received == 0


class StormDoor:
    """Stands in for the door: takes the caller's terminal and records every window size
    the transport applies to it, as sent (rows carry a message's number)."""

    terminal_limits = staticmethod(dict)
    shares_ports = False

    def __init__(self) -> None:
        self.records = type("Records", (), {"store": None})()
        self.sizes: list[tuple[int, int]] = []
        self.seated = asyncio.Event()

    async def serve_caller(self, terminal: object, caller: object) -> None:
        terminal.resize = lambda cols, rows: self.sizes.append((cols, rows))  # type: ignore[attr-defined]
        self.seated.set()
        await asyncio.Event().wait()  # the caller stays until the line goes


def test_window_size_storms_are_held_to_telnets_input_rate_and_coalesced() -> None:
    async def scenario() -> list[tuple[int, int]]:
        door_ = StormDoor()
        port = free_port()
        server = await door.transports.rlogin.start_rlogin(
            door_, "127.0.0.1", port, {"127.0.0.1": "STORM"}
        )
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(handshake("bbs", "Stormer", "ansi"))
            await asyncio.wait_for(door_.seated.wait(), 10)
            # 20,000 window sizes (240 KB) at once, numbered in their rows.
            writer.write(b"".join(window_size(80, 1 + n) for n in range(20_000)))
            await asyncio.sleep(1.0)  # the point: a second of the storm, at the input rate
            writer.transport.abort()
            return list(door_.sizes)
        finally:
            server.close()

    sizes = asyncio.run(scenario())
    # In its first second the door reads at most the burst and a second of the rate
    # (64 KiB + 16 KiB, some 6,800 messages), not all 20,000 ...
    assert sizes and sizes[-1][1] < 8_000
    # ... and applies one size a read, not one a message.
    assert len(sizes) < 40


def test_the_door_asks_for_the_window_size_with_the_urgent_byte() -> None:
    """RFC 1282 clients (rsh-redone's rlogin) send their window size, and its changes,
    only after the urgent byte 0x80; without it a caller's resize never reaches the door."""

    async def scenario() -> bytes:
        door_ = StormDoor()
        port = free_port()
        server = await door.transports.rlogin.start_rlogin(
            door_, "127.0.0.1", port, {"127.0.0.1": "ASK"}
        )
        try:
            return await asyncio.to_thread(_urgent_byte_after_handshake, port)
        finally:
            server.close()

    assert asyncio.run(scenario()) == b"\x80"


def _urgent_byte_after_handshake(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(handshake("bbs", "Winder", "xterm"))
        assert sock.recv(1) == b"\0"
        # Urgent data pending is select's exceptional condition, as the client waits for it.
        _, _, urgent = select.select([], [], [sock], 5)
        if not urgent:
            return b""
        sock.setblocking(False)  # with a timeout, Python would wait for ordinary data first
        return sock.recv(1, socket.MSG_OOB)


def test_unlisted_addresses_knocking_again_and_again_are_one_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def scenario() -> None:
        port = free_port()
        server = await door.transports.rlogin.start_rlogin(
            StormDoor(), "127.0.0.1", port, {"127.0.0.1": "FRIEND"}
        )
        try:
            for _ in range(30):
                caller = RloginCaller()
                await caller.connect(port, "Mallory", local_address="127.0.0.2")
                await caller.wait_for_close(timeout=5)
        finally:
            server.close()

    with caplog.at_level(logging.INFO, logger="door.transports.rlogin"):
        asyncio.run(scenario())
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert refusals == ["127.0.0.2: rlogin refused: not a listed system"]
