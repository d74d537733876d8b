"""The web listener under attack (issue #52): a real aiohttp server on port 0, raw sockets
and aiohttp's client as the attacker. Hang-ups seen at once, frames parsed within bounds,
no error flood when a tunnel caller hangs up, connections refused and closed before any
handler, resizes coalesced."""

from __future__ import annotations

import asyncio
import base64
import gc
import logging
import os
import socket
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest

from door.app.door import Door
from door.config import config_from_mapping
from door.transports import web
from tests.door.caller import run_async
from tests.door.waiting import until

NAWS_400X200 = bytes([255, 250, 31, 1, 144, 0, 200, 255, 240])


@asynccontextmanager
async def web_door(
    web_settings: dict[str, Any] | None = None, **server: Any
) -> AsyncIterator[tuple[Door, int]]:
    config = config_from_mapping(
        {
            "server": {"telnet_port": 0, "ssh_port": 0, **server},
            "game": {"computer_pause_seconds": 0},
            "web": web_settings or {},
        }
    )
    door = Door(config)
    listener = await web.start_web(door, "127.0.0.1", 0, ())
    try:
        yield door, listener.sockets[0].getsockname()[1]
    finally:
        for terminal in list(door.terminals):
            terminal.close()
        await listener.wait_closed()


def ws_frame(payload: bytes, opcode: int = 2) -> bytes:
    """One masked client frame (the mask is zero: XOR with it leaves the payload)."""
    head = bytes([0x80 | opcode])
    if len(payload) < 126:
        head += bytes([0x80 | len(payload)])
    else:
        head += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    return head + b"\0\0\0\0" + payload


async def raw_websocket(
    port: int, protocol: str | None = "telnet"
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    offer = f"Sec-WebSocket-Protocol: {protocol}\r\n" if protocol else ""
    writer.write(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\n{offer}\r\n"
        ).encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


def reset(writer: asyncio.StreamWriter) -> None:
    """Hang up with a TCP reset, as a killed client or a dropped line does."""
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def closed_by_server(reader: asyncio.StreamReader, seconds: float) -> bytes | None:
    """Everything the server sent until it closed, or None if it kept the connection
    open for ``seconds``."""
    try:
        return await asyncio.wait_for(reader.read(), seconds)
    except TimeoutError:
        return None


# --- hang-ups ------------------------------------------------------------------------------


@run_async
async def test_a_tunnel_caller_who_floods_and_resets_leaves_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with web_door() as (door, port):
        _, writer = await raw_websocket(port, "telnet")
        await until(lambda: door.caller_count == 1, 10)
        keys = (b"abcdefghijklmnop" * 250)[:3991] + NAWS_400X200
        for _ in range(2000):  # 8 MB of keys and window sizes, none of the screen read
            writer.write(ws_frame(keys))
        await asyncio.sleep(1.0)  # the point: the reset comes while the door is in the flood
        reset(writer)
        # Before: listed until the idle timeout (281 s in the run).
        await until(lambda: door.caller_count == 0, 3)
        gc.collect()
        await asyncio.sleep(0.1)  # a task's error, were there one, is logged meanwhile
    # Before: hundreds of "Task exception was never retrieved", one per queued write.
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@run_async
async def test_a_page_caller_who_floods_and_resets_leaves_at_once() -> None:
    async with web_door() as (door, port):
        _, writer = await raw_websocket(port, None)
        await until(lambda: door.caller_count == 1, 10)
        for _ in range(2000):
            writer.write(ws_frame(b"x" * 4000))
        await asyncio.sleep(1.0)  # the point: the reset comes while the door is in the flood
        reset(writer)
        await until(lambda: door.caller_count == 0, 3)


# --- frames --------------------------------------------------------------------------------


@run_async
async def test_frames_that_are_not_window_sizes_are_dropped_with_one_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    async with (
        web_door() as (door, port),
        aiohttp.ClientSession() as client,
        client.ws_connect(f"http://127.0.0.1:{port}/ws") as ws,
    ):
        await until(lambda: door.caller_count == 1, 10)
        for bad in ('{"cols": Infinity, "rows": 24}', '{"cols": 1e400, "rows": 24}',
                    "[" * 3000, '{"cols": NaN, "rows": 24}', '{"cols": -5, "rows": 2}',
                    '"cols"', "{" * 100):  # fmt: skip
            await ws.send_str(bad)
        await ws.send_str('{"cols": 100, "rows": 30}')
        (terminal,) = door.terminals
        await until(lambda: terminal.size == (100, 30), 3)
        assert door.caller_count == 1  # the session goes on
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    dropped = [r for r in caplog.records if "not a window size" in r.getMessage()]
    assert len(dropped) == 1


@run_async
async def test_a_resize_storm_is_coalesced_and_the_last_size_wins() -> None:
    async with (
        web_door() as (door, port),
        aiohttp.ClientSession() as client,
        client.ws_connect(f"http://127.0.0.1:{port}/ws") as ws,
    ):
        await until(lambda: door.caller_count == 1, 10)
        (terminal,) = door.terminals
        applied: list[tuple[int, int]] = []
        terminal.on_resize(lambda cols, rows: applied.append((cols, rows)))
        started = asyncio.get_running_loop().time()
        for n in range(2000):
            await ws.send_str(f'{{"cols": {80 + n % 50}, "rows": {24 + n % 20}}}')
        await ws.send_str('{"cols": 131, "rows": 41}')
        await until(lambda: terminal.size == (131, 41), 3)
        seconds = asyncio.get_running_loop().time() - started
        # Ten a second at most, however many are sent (before: fifty at once, then
        # twenty a second, and the last size lost when it came over the rate).
        assert len(applied) <= 10 * seconds + 2


class FloodingWebSocket:
    """Hands out ``count`` frames of ``size`` bytes as fast as they are asked for."""

    def __init__(self, count: int, size: int, kind: aiohttp.WSMsgType) -> None:
        data: Any = "x" * size if kind == aiohttp.WSMsgType.TEXT else b"x" * size
        self.messages = [aiohttp.WSMessage(kind, data, None)] * count

    async def receive(self) -> aiohttp.WSMessage:
        await asyncio.sleep(0)
        if self.messages:
            return self.messages.pop()
        return aiohttp.WSMessage(aiohttp.WSMsgType.CLOSED, None, None)


class PausableSocket:
    def __init__(self) -> None:
        self.pauses = 0

    def is_closing(self) -> bool:
        return False

    def pause_reading(self) -> None:
        self.pauses += 1

    def resume_reading(self) -> None:
        pass


@pytest.mark.parametrize(
    ("count", "size", "handed_on"),
    [
        (3000, 1, 120),  # one-key frames: the burst of 120 frames, then 60 a second
        (300, 4000, 16),  # 4,000-byte frames: the burst of 64 KiB, then 16 KiB a second
    ],
)
@run_async
async def test_frames_and_bytes_beyond_the_rates_are_dropped(
    count: int, size: int, handed_on: int
) -> None:
    from door.defence.log_limit import SourceLog
    from door.transports.web_input import FrameReader

    taken: list[bytes] = []
    socket_ = PausableSocket()
    ws = FloodingWebSocket(count, size, aiohttp.WSMsgType.BINARY)
    reader = FrameReader(
        ws,  # type: ignore[arg-type]
        socket_,  # type: ignore[arg-type]
        "10.0.0.9",
        SourceLog(logging.getLogger("test")),
        lambda data: taken.append(data) or True,
    )
    await reader.run()
    # All read (so a hang-up is seen), but only those within the rates handed on (a
    # few more may come in as the rates refill while the test runs).
    assert handed_on <= len(taken) <= handed_on + 3
    assert reader.dropped == count - len(taken)
    assert socket_.pauses >= 1  # and the socket left unread a moment, not read flat out


# --- writes to a caller who hung up ---------------------------------------------------------


class StuckWebSocket:
    """A WebSocket whose sends wait until ``release`` (then fail, as a reset line's do)."""

    closed = False

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.sent = 0

    async def send_bytes(self, data: bytes) -> None:
        await self.release.wait()
        raise ConnectionResetError("Cannot write to closing transport")

    async def close(self) -> bool:
        return True


class WritingProtocol(asyncio.Protocol):
    def __init__(self) -> None:
        self.paused = self.resumed = 0

    def pause_writing(self) -> None:
        self.paused += 1

    def resume_writing(self) -> None:
        self.resumed += 1


@run_async
async def test_tunnel_output_is_counted_in_bytes_and_dropped_quietly_on_hang_up() -> None:
    ws = StuckWebSocket()
    transport = web._TelnetOverWebSocket(ws, ("127.0.0.1", 1), None)  # type: ignore[arg-type]
    protocol = WritingProtocol()
    transport.protocol = protocol
    for _ in range(600):
        transport.write(b"x" * 1000)
        await asyncio.sleep(0)
    # Before: one task per write, and the buffer counted 600 (tasks), not 600,000 bytes.
    assert transport.get_write_buffer_size() == 600_000
    # Past 64 KiB the protocol is told to hold its writes (its drain then waits, and the
    # terminal's output stall applies, as over a socket).
    assert protocol.paused == 1
    errors: list[dict[str, Any]] = []
    asyncio.get_running_loop().set_exception_handler(lambda loop, context: errors.append(context))
    ws.release.set()
    await until(lambda: transport.get_write_buffer_size() == 0, 2)
    transport.write(b"after the hang-up")
    await asyncio.sleep(0.05)  # no event says nothing went wrong: a moment for it to show
    gc.collect()
    await asyncio.sleep(0)
    assert errors == []  # no "Task exception was never retrieved"
    assert transport.is_closing() and transport.get_write_buffer_size() == 0
    assert protocol.resumed == 1


@run_async
async def test_a_tunnel_caller_resetting_mid_output_logs_no_errors(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with web_door() as (door, port):
        for _ in range(3):
            _, writer = await raw_websocket(port, "telnet")
            await until(lambda: door.caller_count == 1, 10)
            for n in range(40):  # each window size a repaint, none of it read
                naws = bytes([255, 250, 31, 1, 144 - n % 2, 0, 200 - n % 2, 255, 240])
                writer.write(ws_frame(naws))
            await asyncio.sleep(0.3)  # the point: the reset comes while the door repaints
            reset(writer)
            await until(lambda: door.caller_count == 0, 3)
        gc.collect()
        await asyncio.sleep(0.1)  # a task's error, were there one, is logged meanwhile
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# --- connections -----------------------------------------------------------------------------


@run_async
async def test_connections_count_against_the_address_cap_before_any_handler(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(web, "REQUEST_WAIT_SECONDS", 1.0, raising=False)
    # The test's connections come from loopback, as a direct caller's would: no proxy trusted.
    async with web_door(
        {"trusted_proxies": []},
        max_connections_per_address=2,
        connections_per_minute_per_address=500,
    ) as (_, port):
        silent = await asyncio.open_connection("127.0.0.1", port)
        half = await asyncio.open_connection("127.0.0.1", port)
        half[1].write(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n")
        refusals = []
        for _ in range(30):  # both places taken by connections that sent no request yet
            reader, _writer = await asyncio.open_connection("127.0.0.1", port)
            refusals.append(await closed_by_server(reader, 2))
        for refused in refusals:
            assert refused is not None and refused.startswith(b"HTTP/1.1 429")
            assert b"Connection: close" in refused
        # The half-sent request and the silent connection are closed within the wait.
        assert await closed_by_server(silent[0], 3) == b""
        assert await closed_by_server(half[0], 3) == b""
    refused_lines = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused_lines) == 1  # one line per address and minute, not thirty


@run_async
async def test_another_sites_websocket_is_refused_and_its_connection_closed() -> None:
    async with web_door() as (_, port):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: https://evil.example\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n\r\n"
            ).encode()
        )
        answer = await closed_by_server(reader, 3)
        assert answer is not None and answer.startswith(b"HTTP/1.1 403")
        assert b"Connection: close" in answer


@run_async
async def test_the_page_still_loads_over_one_kept_alive_connection() -> None:
    async with web_door() as (_, port), aiohttp.ClientSession() as client:
        for path in ("/", "/door.mjs", "/xterm.css"):
            async with client.get(f"http://127.0.0.1:{port}{path}") as response:
                assert response.status == 200
                assert await response.read()


def test_window_sizes_are_read_within_bounds() -> None:
    import doctest

    from door.transports import web_input

    assert doctest.testmod(web_input).failed == 0
    cases = {
        '{"cols": 80, "rows": 24}': (80, 24),
        '{"rows": 50, "cols": 200, "extra": [1]}': (200, 50),
        '{"cols": 80.0, "rows": 24}': None,
        '{"cols": 0, "rows": 24}': None,
        '{"cols": 10001, "rows": 24}': None,
        '{"cols": "80", "rows": 24}': None,
        "[80, 24]": None,
        '{"cols": 80, "rows": 24' + " " * 200 + "}": None,  # longer than any resize
        "\udcff": None,
    }
    for text, size in cases.items():
        assert web_input.parse_resize(text) == size, text


# --- keys from the page --------------------------------------------------------------------


def _reading_tasks() -> list[asyncio.Task[Any]]:
    return [
        task
        for task in asyncio.all_tasks()
        if getattr(task.get_coro(), "__qualname__", "") == "StreamTerminal._read_input"
    ]


@run_async
async def test_a_page_callers_keys_reach_the_terminal_without_a_reading_task() -> None:
    async with web_door(key_rate=40.0, key_burst=100) as (door, port):
        reader, writer = await raw_websocket(port, None)
        await until(lambda: door.caller_count == 1, 10)
        terminal = next(iter(door.terminals))
        assert _reading_tasks() == []  # the frame reader hands the keys on itself
        writer.write(ws_frame(b"x" * 300))  # past the burst: 200 dropped, input held
        await until(lambda: terminal.keys_dropped == 200, 5, what="the excess dropped")
        await until(lambda: terminal.idle >= 0.6, 2, what="a moment with no key")
        writer.write(ws_frame(b"g"))  # still held (1.25 s): kept, taken when it ends
        await until(lambda: terminal.idle < 0.3, 5, what="the held key taken")
        assert terminal.keys_dropped == 200
        reset(writer)
        await until(lambda: door.caller_count == 0, 3)
        del reader
