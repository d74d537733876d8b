"""The attack bench's attackers for the doors added after telnet and SSH: the web page's
WebSocket and its telnet tunnel, the PROXY front, and RLogin (#52).

Each attacker is a coroutine taking the attacker process's arguments and returning what
it found, as bench/attacks.py's own attackers do; each runs in the attacker process,
from ``ATTACKER_ADDRESS``, against a server the bench started. WebSockets are spoken
by hand over a plain socket (bench/attack_frames.py), so that the attacker decides when
it reads, what it half-sends and when it resets, which a client library would not let
it do.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import struct
import time
from collections.abc import Awaitable, Callable
from typing import Final

import pyte
from attack_frames import (
    OP_BINARY,
    OP_CLOSE,
    OP_PING,
    OP_PONG,
    OP_TEXT,
    PROXY_V2_LOCAL,
    WebSocketReader,
    http_header,
    http_status,
    proxy_v2_header,
    rlogin_start,
    rlogin_window_size,
    tunnel_flood_payload,
    websocket_frame,
    websocket_request,
)
from load_bot import MiniTelnet

SERVER_HOST: Final = "127.0.0.1"
ATTACKER_ADDRESS: Final = "127.0.0.2"
UNTRUSTED_ADDRESS: Final = "127.0.0.3"
"""Not among the PROXY front's trusted balancers in the bench's config."""
FLOOD_FRAME_BYTES: Final = 4000
WILL_NAWS_80X24: Final = b"\xff\xfb\x1f\xff\xfa\x1f\x00\x50\x00\x18\xff\xf0"
MALFORMED_FRAMES: Final = {
    "cols Infinity": '{"cols": Infinity, "rows": 24}',
    "cols 1e400": '{"cols": 1e400, "rows": 24}',
    "3,000 [": "[" * 3000,
}

Attack = Callable[[argparse.Namespace], Awaitable[dict[str, object]]]


def reset(writer: asyncio.StreamWriter) -> None:
    """Close with a TCP reset (SO_LINGER 0), as a caller whose machine drops off does."""
    sock = writer.get_extra_info("socket")
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


class _FrameWriter:
    """What MiniTelnet answers through, for a telnet tunnel: each answer one frame."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer

    def write(self, data: bytes) -> None:
        self.writer.write(websocket_frame(OP_BINARY, data))


async def upgrade(
    port: int, *, protocol: str | None = None, origin: str | None = None
) -> tuple[int | None, bytes, asyncio.StreamReader, asyncio.StreamWriter]:
    """Connect and ask for a WebSocket: (status, response head, reader, writer)."""
    reader, writer = await asyncio.open_connection(
        SERVER_HOST, port, local_addr=(ATTACKER_ADDRESS, 0), limit=1 << 20
    )
    writer.write(
        websocket_request(SERVER_HOST, port, os.urandom(16), protocol=protocol, origin=origin)
    )
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)
    except BaseException:
        writer.transport.abort()
        raise
    return http_status(head), head, reader, writer


class ScreenLine:
    """A caller's line as the bench reads it: the text that arrived (``received``), fed
    to an 80x24 pyte screen, and an event set whenever more arrives or the line closes.
    The telnet line (attacks.py) and the WebSocket caller each pump their own
    connection into these."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.received = bytearray()
        self.arrived = asyncio.Event()
        self.closed = False

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, *texts: str, timeout: float = 20.0) -> str:
        """Until one of ``texts`` shows on the screen (returns it) or the line closes ("")."""
        deadline = time.monotonic() + timeout
        while True:
            for text in texts:
                if text in self.text:
                    return text
            if self.closed:
                return ""
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"none of {texts!r} arrived; screen:\n{self.text}")
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), min(remaining, 0.5))


class WebSocketCaller(ScreenLine):
    """One WebSocket to the door's ``/ws``: the page's protocol, or a telnet tunnel
    (whose telnet is answered by MiniTelnet); what arrives is fed to a pyte screen."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, tunnel: bool
    ) -> None:
        super().__init__()
        self.reader, self.writer = reader, writer
        self.frames = WebSocketReader()
        self.telnet = MiniTelnet(_FrameWriter(writer)) if tunnel else None  # type: ignore[arg-type]
        self.pump: asyncio.Task[None] | None = None

    @classmethod
    def reading(
        cls, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, tunnel: bool
    ) -> WebSocketCaller:
        """A caller over an accepted upgrade, reading from now on."""
        caller = cls(reader, writer, tunnel)
        if tunnel:  # as fTelnet does: at once, WILL NAWS and 80x24
            writer.write(websocket_frame(OP_BINARY, WILL_NAWS_80X24))
        caller.pump = asyncio.create_task(caller._pump())
        return caller

    @classmethod
    async def open(
        cls, port: int, *, protocol: str | None = None, origin: str | None = None
    ) -> tuple[int | None, bytes, WebSocketCaller | None]:
        """(status, response head, the caller if the upgrade was accepted)."""
        status, head, reader, writer = await upgrade(port, protocol=protocol, origin=origin)
        if status != 101:
            writer.transport.abort()
            return status, head, None
        return status, head, cls.reading(reader, writer, tunnel=protocol is not None)

    async def _pump(self) -> None:
        try:
            while data := await self.reader.read(65536):
                for opcode, payload in self.frames.feed(data):
                    if opcode == OP_PING:
                        self.writer.write(websocket_frame(OP_PONG, payload))
                    elif opcode == OP_CLOSE:
                        return
                    elif opcode in (OP_BINARY, OP_TEXT):
                        text = self.telnet.strip(payload) if self.telnet else payload
                        if len(self.received) < 1 << 20:
                            self.received += text
                        self.stream.feed(text)
                self.arrived.set()
        except OSError:
            pass
        finally:
            self.closed = True
            self.arrived.set()

    async def send(self, data: bytes, opcode: int = OP_BINARY) -> None:
        self.writer.write(websocket_frame(opcode, data))
        await self.writer.drain()

    def stop_reading(self) -> None:
        if self.pump is not None:
            self.pump.cancel()

    def reset(self) -> None:
        self.stop_reading()
        reset(self.writer)


async def web_guest(port: int, name: str, protocol: str | None = None) -> WebSocketCaller:
    status, head, caller = await WebSocketCaller.open(port, protocol=protocol)
    if caller is None:
        raise ConnectionError(f"the WebSocket was refused: {head.splitlines()[0]!r} ({status})")
    await caller.wait_for("G guest")
    await caller.send(b"g")
    await caller.wait_for("Your name:")
    await caller.send(f"{name}\r".encode())
    await caller.wait_for("Play the computer")
    return caller


async def _write_for(
    writer: asyncio.StreamWriter, seconds: float, next_chunk: Callable[[int], bytes]
) -> tuple[int, int]:
    """Write ``next_chunk(n)`` for ``seconds``, each once the server has taken the one
    before (into the socket's buffers); (chunks taken, bytes taken)."""
    chunks = sent = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not writer.transport.is_closing():
        chunk = next_chunk(chunks)
        writer.write(chunk)
        try:
            await asyncio.wait_for(writer.drain(), max(0.01, deadline - time.monotonic()))
        except (TimeoutError, OSError):
            return chunks, sent  # the server stopped taking them until time was up, or left
        chunks += 1
        sent += len(chunk)
    return chunks, sent


# --- the web page and its telnet tunnel ----------------------------------------------------


async def _flood_then_reset(args: argparse.Namespace, protocol: str | None) -> dict[str, object]:
    caller = await web_guest(args.web_port, "Tunneller" if protocol else "Flooder", protocol)
    caller.stop_reading()  # from now on, never read

    def frames(turn: int) -> bytes:
        if protocol:  # keys and window sizes up to 400x200
            payload = tunnel_flood_payload(FLOOD_FRAME_BYTES, turn * 200)
        else:
            payload = b"12" * (FLOOD_FRAME_BYTES // 2)
        return websocket_frame(OP_BINARY, payload) * 16

    chunks, sent = await _write_for(caller.writer, args.seconds, frames)
    caller.reset()
    return {"frames_sent": chunks * 16, "mb_sent": round(sent / 1e6, 1)}


async def tunnel_flood(args: argparse.Namespace) -> dict[str, object]:
    """A telnet-tunnel guest floods 4,000-byte frames without reading, then resets."""
    return await _flood_then_reset(args, "telnet")


async def page_flood(args: argparse.Namespace) -> dict[str, object]:
    """The page's guest does the same with keys."""
    return await _flood_then_reset(args, None)


async def page_resize(args: argparse.Namespace) -> dict[str, object]:
    """The page's guest sends resize frames as fast as it can and never reads."""
    caller = await web_guest(args.web_port, "Resizer")
    caller.stop_reading()

    def burst(turn: int) -> bytes:
        return b"".join(
            websocket_frame(
                OP_TEXT,
                json.dumps({"cols": 60 + (turn + n) % 60, "rows": 20 + (turn + n) % 30}).encode(),
            )
            for n in range(200)
        )

    chunks, _ = await _write_for(caller.writer, args.seconds, burst)
    caller.reset()
    return {"resizes_sent": chunks * 200}


async def page_malformed(args: argparse.Namespace) -> dict[str, object]:
    """One page session per malformed resize frame: does the session go on after it?"""
    found: dict[str, object] = {}
    for number, (label, frame) in enumerate(MALFORMED_FRAMES.items()):
        caller = await web_guest(args.web_port, f"Malformed{number}")
        await caller.send(frame.encode(), OP_TEXT)
        await asyncio.sleep(0.5)
        start_at = len(caller.received)
        with contextlib.suppress(OSError):
            await caller.send(b"2")  # the runs option: the lobby answers "exact"
        deadline = time.monotonic() + 5
        while b"exact" not in caller.received[start_at:] and not caller.closed:
            if time.monotonic() > deadline:
                break
            caller.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(caller.arrived.wait(), 0.5)
        found[label] = "went on" if b"exact" in caller.received[start_at:] else "ended"
        caller.writer.close()
    return found


async def hold_connections(
    port: int, first: bytes, count: int, seconds: float, source: str = ATTACKER_ADDRESS
) -> dict[str, object]:
    """``count`` connections that send ``first`` (perhaps nothing) and then wait; how many
    the server closed within ``seconds``, and when the last of those was."""
    closed_after: list[float] = []
    refused = 0

    async def hold() -> None:
        nonlocal refused
        try:
            reader, writer = await asyncio.open_connection(
                SERVER_HOST, port, local_addr=(source, 0)
            )
        except OSError:
            refused += 1
            return
        started = time.monotonic()
        if first:
            writer.write(first)
        try:
            async with asyncio.timeout(seconds):
                while await reader.read(65536):
                    pass
            closed_after.append(time.monotonic() - started)
        except (TimeoutError, OSError):
            if reader.at_eof():
                closed_after.append(time.monotonic() - started)
        finally:
            writer.transport.abort()

    await asyncio.gather(*(hold() for _ in range(count)), return_exceptions=True)
    return {
        "connections": count,
        "refused_at_connect": refused,
        "closed_by_server": len(closed_after),
        "still_open": count - refused - len(closed_after),
        "last_closed_after": round(max(closed_after), 1) if closed_after else None,
    }


async def web_half_open(args: argparse.Namespace) -> dict[str, object]:
    """Upgrade requests to ``/ws`` without their last line, held for ``--seconds``."""
    request = websocket_request(SERVER_HOST, args.web_port, os.urandom(16), complete=False)
    return await _held_and_probed(args, request)


async def web_silent(args: argparse.Namespace) -> dict[str, object]:
    """Connections to the web port that never send a byte."""
    return await _held_and_probed(args, b"")


async def _held_and_probed(args: argparse.Namespace, first: bytes) -> dict[str, object]:
    """Hold the connections and, 5 s in, ask for one more WebSocket from the same
    address: does the per-address cap count the held ones?"""

    async def probe() -> str:
        await asyncio.sleep(5)
        try:
            status, _, _, writer = await upgrade(args.web_port)
        except (OSError, TimeoutError, asyncio.IncompleteReadError) as error:
            return type(error).__name__
        writer.transport.abort()
        return str(status)

    held, status = await asyncio.gather(
        hold_connections(args.web_port, first, args.count, args.seconds), probe()
    )
    return {**held, "websocket_while_held": status}


async def web_refused(args: argparse.Namespace) -> dict[str, object]:
    """``--count`` WebSockets opened at once from one address (most refused by the
    per-address cap), and one from another site's page (refused by its Origin). Each
    refused one is held open after its answer, to see whether the server closes it."""
    statuses: dict[str, int] = {}
    with_close = 0
    closed_after: list[float] = []
    held = 0
    accepted: list[WebSocketCaller] = []

    async def one(origin: str | None) -> None:
        nonlocal with_close, held
        try:
            status, head, reader, writer = await upgrade(args.web_port, origin=origin)
        except (OSError, TimeoutError, asyncio.IncompleteReadError) as error:
            statuses[type(error).__name__] = statuses.get(type(error).__name__, 0) + 1
            return
        statuses[str(status)] = statuses.get(str(status), 0) + 1
        if status == 101:
            accepted.append(WebSocketCaller.reading(reader, writer, tunnel=False))
            return
        if (http_header(head, "Connection") or "").lower() == "close":
            with_close += 1
        held += 1
        started = time.monotonic()
        try:
            async with asyncio.timeout(args.seconds):
                while await reader.read(65536):
                    pass
            closed_after.append(time.monotonic() - started)
        except (TimeoutError, OSError):
            if reader.at_eof():
                closed_after.append(time.monotonic() - started)
        finally:
            writer.transport.abort()

    await asyncio.gather(*(one(None) for _ in range(args.count)), one("https://evil.example"))
    for caller in accepted:
        caller.writer.transport.abort()
    return {
        "statuses": statuses,
        "refusals_with_connection_close": with_close,
        "refused_closed_by_server": len(closed_after),
        "refused_still_open": held - len(closed_after),
        "last_refused_closed_after": round(max(closed_after), 1) if closed_after else None,
    }


async def web_arrival_keys(args: argparse.Namespace) -> dict[str, object]:
    """``--count`` page sessions typing random keys on the arrival screen (and so into
    the log-in and new-account forms) for ``--seconds``, calling again when hung up."""
    rng = random.Random(52)
    alphabet = b"lllnng\r\r\r\rabcdefghijkmopqrstuvwxyz0123456789 \x1b\x7f"
    keys = sessions = 0
    deadline = time.monotonic() + args.seconds

    async def typist() -> None:
        nonlocal keys, sessions
        while time.monotonic() < deadline:
            try:
                _, _, caller = await WebSocketCaller.open(args.web_port)
            except (OSError, TimeoutError, asyncio.IncompleteReadError):
                await asyncio.sleep(0.5)
                continue
            if caller is None:
                await asyncio.sleep(0.5)
                continue
            sessions += 1
            while time.monotonic() < deadline and not caller.closed:
                burst = bytes(rng.choice(alphabet) for _ in range(8))
                with contextlib.suppress(OSError, TimeoutError):
                    await asyncio.wait_for(caller.send(burst), 1.0)
                keys += len(burst)
                await asyncio.sleep(0.02)
            caller.writer.close()

    await asyncio.gather(*(typist() for _ in range(args.count)))
    return {"keys_sent": keys, "sessions": sessions}


# --- the PROXY front -----------------------------------------------------------------------


PROXY_VARIANTS: Final = {
    "v2 family 0xFF": dict(family=0xFF),
    "v2 UNSPEC (valid)": dict(family=0x00),
    "v2 version 3": dict(command=0x31),
    "v2 command 0xF": dict(command=0x2F),
    "v2 TCP4, 4-byte address block": dict(address_bytes=b"\x01\x02\x03\x04"),
    "v2 LOCAL (valid)": dict(command=PROXY_V2_LOCAL),
}


async def _telnet_starts_after(port: int, header: bytes, source: str) -> str:
    """Send ``header``; "telnet started" if the door then speaks telnet (or shows its
    arrival screen), "closed" if it hangs up, "silent" if neither within 6 s."""
    reader, writer = await asyncio.open_connection(SERVER_HOST, port, local_addr=(source, 0))
    writer.write(header)
    try:
        data = await asyncio.wait_for(reader.read(4096), 6)
    except TimeoutError:
        return "silent"
    except OSError:
        return "closed"
    finally:
        writer.transport.abort()
    return "telnet started" if data else "closed"


async def proxy_family(args: argparse.Namespace) -> dict[str, object]:
    """Each malformed v2 header (and one valid LOCAL) from a trusted balancer."""
    found: dict[str, object] = {}
    for label, override in PROXY_VARIANTS.items():
        header = proxy_v2_header("203.0.113.9", 40000, SERVER_HOST, 23, **override)  # type: ignore[arg-type]
        found[label] = await _telnet_starts_after(args.telnet_port, header, ATTACKER_ADDRESS)
    return found


async def proxy_flood(args: argparse.Namespace) -> dict[str, object]:
    """For ``--seconds``, connections the PROXY front must refuse: headers that do not
    parse from a trusted balancer, and connections from an untrusted address; twenty
    at a time."""
    bad = proxy_v2_header("203.0.113.9", 40000, SERVER_HOST, 23, command=0x31)
    kinds = (
        ("garbage", ATTACKER_ADDRESS, b"PROXY NONSENSE\r\n"),
        ("bad v2", ATTACKER_ADDRESS, bad),
        ("untrusted", UNTRUSTED_ADDRESS, b"PROXY TCP4 1.2.3.4 127.0.0.1 5 23\r\n"),
    )
    made = dict.fromkeys((kind for kind, _, _ in kinds), 0)
    deadline = time.monotonic() + args.seconds

    async def connect_loop(kind: str, source: str, header: bytes) -> None:
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, TimeoutError):
                reader, writer = await asyncio.open_connection(
                    SERVER_HOST, args.telnet_port, local_addr=(source, 0)
                )
                made[kind] += 1
                writer.write(header)
                with contextlib.suppress(OSError, TimeoutError):
                    await asyncio.wait_for(reader.read(4096), 2)
                writer.transport.abort()

    await asyncio.gather(*(connect_loop(*kinds[n % 3]) for n in range(21)))
    return {"connections": made}


# --- RLogin --------------------------------------------------------------------------------


async def rlogin_resize(args: argparse.Namespace) -> dict[str, object]:
    """A listed system's caller sends window-size control messages as fast as it can
    (reading what the door sends, so only the door's own work holds it back)."""
    reader, writer = await asyncio.open_connection(
        SERVER_HOST, args.rlogin_port, local_addr=(ATTACKER_ADDRESS, 0)
    )
    writer.write(rlogin_start("bbs", "RloginResizer") + b"\r")
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    received = 0
    reading = True

    async def pump() -> None:
        nonlocal received
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                received += len(data)
                if reading:
                    stream.feed(data)

    pumping = asyncio.create_task(pump())
    deadline = time.monotonic() + 30
    while "Play the computer" not in "\n".join(screen.display):
        if time.monotonic() > deadline or pumping.done():
            writer.transport.abort()
            return {"error": "never reached the lobby", "screen": "\n".join(screen.display)}
        await asyncio.sleep(0.1)
    reading = False
    chunk = b"".join(rlogin_window_size(60 + n % 60, 20 + n % 30) for n in range(5000))
    _, sent = await _write_for(writer, args.seconds, lambda _: chunk)
    writer.transport.abort()
    pumping.cancel()
    return {"mb_of_window_sizes": round(sent / 1e6, 1), "mb_received": round(received / 1e6, 1)}


ATTACKS: dict[str, Attack] = {
    "web-tunnel-flood": tunnel_flood,
    "web-page-flood": page_flood,
    "web-resize": page_resize,
    "web-malformed": page_malformed,
    "web-half-open": web_half_open,
    "web-refused": web_refused,
    "web-silent": web_silent,
    "web-arrival-keys": web_arrival_keys,
    "proxy-family": proxy_family,
    "proxy-flood": proxy_flood,
    "rlogin-resize": rlogin_resize,
}
