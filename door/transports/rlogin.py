"""RLogin (RFC 1282): how linked BBSes, and door nodes through their hub, hand callers in.

The BBS (the client) connects and sends four NUL-ended fields at once: an empty one, its
own user name, the caller's user name here and ``terminal-type/speed``; the door answers
one NUL byte and the connection is the caller's terminal from then on. Only addresses
listed in ``[rlogin] systems`` may connect, each under its own system tag, because RLogin
carries no password: the address is the proof. The caller's user name is their alias (a
leading ``[TAG]``, as DoorParty-style links write it, is dropped); their record is kept
under (system tag, alias).

Window sizes arrive in-band as ``FF FF 's' 's'`` and four 16-bit big-endian numbers (rows,
columns, x and y pixels). The door asks for them with the urgent byte 0x80, as the RFC
says, and takes them whenever they come. All input, keys and window sizes alike, is held
to a telnet connection's rate (door/defence/ratelimit.py), and of the window sizes in one
read only the last is applied.

``parse_handshake``, ``RloginInput`` and ``handshake``/``window_size`` are pure.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from door.app.call import Caller
from door.defence.bans import BansInForce
from door.defence.guard import address_of, system_peer
from door.defence.log_limit import SourceLog
from door.defence.ratelimit import INPUT_BURST_BYTES, INPUT_BYTES_PER_SECOND, TokenBucket
from door.term.ansi import sanitize
from door.term.display import Display
from door.term.terminal import StreamTerminal

logger = logging.getLogger(__name__)

MAX_FIELD_BYTES: Final = 64
MAX_HANDSHAKE_BYTES: Final = 4 * MAX_FIELD_BYTES
HANDSHAKE_TIMEOUT: Final = 10.0
WINDOW_MAGIC: Final = b"\xff\xffss"
WINDOW_BYTES: Final = len(WINDOW_MAGIC) + 8
REQUEST_WINDOW_SIZE: Final = b"\x80"
READ_SIZE: Final = 4096
LINES_TERMINAL_TYPES: Final = frozenset({"dumb"})
"""Terminal types shown lines of plain text (door/ui/line_renderer.py): a teletype's, and
what a door node names its ASCII caller's (door/transports/hub_relay.py)."""


class HandshakeError(ValueError):
    """What the client sent is not an RLogin start; the message is one line."""


@dataclass(frozen=True)
class Handshake:
    local_user: str
    remote_user: str
    terminal_type: str
    speed: str

    @property
    def alias(self) -> str:
        """The caller's name: the remote user name without a ``[TAG]`` prefix."""
        name = self.remote_user
        if name.startswith("[") and "]" in name:
            name = name.split("]", 1)[1]
        return sanitize(name, 40).strip()


def handshake(local_user: str, remote_user: str, terminal_type: str, speed: int = 38400) -> bytes:
    """What a client sends to start a session."""
    fields = (local_user, remote_user, f"{terminal_type}/{speed}")
    return b"\0" + b"".join(
        field.encode("utf-8")[: MAX_FIELD_BYTES - 1] + b"\0" for field in fields
    )


def window_size(cols: int, rows: int) -> bytes:
    """The in-band window-size message a client sends."""
    return WINDOW_MAGIC + struct.pack(">HHHH", rows, cols, 0, 0)


def parse_handshake(data: bytes) -> tuple[Handshake, bytes] | None:
    """The handshake at the start of ``data`` and whatever follows it, or None if more is
    needed. Raises HandshakeError if it cannot be one."""
    if not data:
        return None
    if data[0] != 0:
        raise HandshakeError("an RLogin session starts with a NUL byte")
    parts = data[1:].split(b"\0", 3)
    if len(parts) < 4:
        if len(data) > MAX_HANDSHAKE_BYTES or any(len(p) >= MAX_FIELD_BYTES for p in parts):
            raise HandshakeError("the RLogin start is too long")
        return None
    local, remote, terminal, rest = parts
    if any(len(field) >= MAX_FIELD_BYTES for field in (local, remote, terminal)):
        raise HandshakeError("an RLogin field is too long")
    term_type, _, speed = terminal.decode("utf-8", "replace").partition("/")
    decoded = Handshake(
        sanitize(local.decode("utf-8", "replace"), MAX_FIELD_BYTES),
        sanitize(remote.decode("utf-8", "replace"), MAX_FIELD_BYTES),
        sanitize(term_type, 32).strip().lower(),
        sanitize(speed, 12),
    )
    if not decoded.alias:
        raise HandshakeError("the RLogin start names no user")
    return decoded, rest


class RloginInput:
    """Splits what a client sends into the caller's bytes and window sizes.

    >>> split = RloginInput()
    >>> split.feed(b"ab" + window_size(100, 30)[:5])
    (b'ab', [])
    >>> split.feed(window_size(100, 30)[5:] + b"c")
    (b'c', [(100, 30)])
    """

    def __init__(self) -> None:
        self._held = b""

    def feed(self, data: bytes) -> tuple[bytes, list[tuple[int, int]]]:
        data = self._held + data
        self._held = b""
        out = bytearray()
        sizes: list[tuple[int, int]] = []
        while data:
            at = data.find(b"\xff")
            if at < 0:
                out += data
                break
            out += data[:at]
            data = data[at:]
            if len(data) < WINDOW_BYTES and WINDOW_MAGIC.startswith(data[:4]):
                self._held = data  # perhaps a window size cut in two: wait for the rest
                break
            if data.startswith(WINDOW_MAGIC):
                rows, cols, _, _ = struct.unpack(">HHHH", data[4:WINDOW_BYTES])
                sizes.append((cols, rows))
                data = data[WINDOW_BYTES:]
            else:
                out += data[:1]
                data = data[1:]
        return bytes(out), sizes


class _RloginSource:
    """The caller's input: keys for the terminal, window sizes applied to it.

    Everything read counts against the same rate as a telnet connection's, keys and
    window-size messages alike; past it the source sleeps before reading again, so the
    stream's buffer fills and TCP holds the client back. Of the sizes in one read only
    the last is applied, and only if it changes anything: each resize redraws the
    caller's screen, and 130 MB of window sizes once cost 17 s of the server's CPU."""

    def __init__(
        self, reader: asyncio.StreamReader, first: bytes, input_rate: TokenBucket | None = None
    ) -> None:
        self.reader = reader
        self.split = RloginInput()
        self.pending = first
        self.terminal: StreamTerminal | None = None
        self.input_rate = input_rate or TokenBucket(INPUT_BYTES_PER_SECOND, INPUT_BURST_BYTES)
        self.size: tuple[int, int] | None = None

    async def read(self) -> bytes:
        while True:
            if self.pending:
                data, self.pending = self.pending, b""
            else:
                data = await self.reader.read(READ_SIZE)
                if not data:
                    return b""
            over = len(data) - self.input_rate.take(len(data))
            if over > 0:
                await asyncio.sleep(over / self.input_rate.rate)
            keys, sizes = self.split.feed(data)
            if sizes and sizes[-1] != self.size:
                self.size = sizes[-1]
                if self.terminal is not None:
                    self.terminal.resize(*self.size)
            if keys:
                return keys


class _RloginSink:
    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer

    def write(self, data: bytes) -> None:
        self.writer.write(data)

    async def drain(self) -> None:
        await self.writer.drain()

    def close(self) -> None:
        self.writer.close()


async def read_handshake(reader: asyncio.StreamReader) -> tuple[Handshake, bytes]:
    """Read until the handshake is whole; raises HandshakeError (or TimeoutError)."""
    data = b""
    async with asyncio.timeout(HANDSHAKE_TIMEOUT):
        while True:
            chunk = await reader.read(MAX_HANDSHAKE_BYTES)
            if not chunk:
                raise HandshakeError("the client hung up before the RLogin start")
            data += chunk
            parsed = parse_handshake(data)
            if parsed is not None:
                return parsed


async def start_rlogin(
    door: Any,
    host: str,
    port: int,
    systems: Mapping[str, str],
    bans: BansInForce | None = None,
) -> Any:
    """Listen for RLogin connections from the listed addresses; returns the server.
    An address ``bans`` covers is told so and closed before anything else."""
    bans = bans or BansInForce()

    refusals = SourceLog(logger)  # one line per address and minute, not per connection

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = address_of(peer)
        banned = bans.refusal(address)
        if banned is not None:  # before anything else, a listed system or not
            refusals.info(address, "rlogin refused: %s", banned)
            writer.write(b"\0" + f"\r\n{banned}\r\n".encode("ascii", "replace"))
            writer.close()
            return
        system = systems.get(address)
        if system is None:
            refusals.info(address, "rlogin refused: not a listed system")
            writer.close()
            return
        try:
            start, rest = await read_handshake(reader)
        except (HandshakeError, TimeoutError) as error:
            refusals.info(address, "rlogin from %s refused: %s", system, error or "too slow")
            writer.close()
            return
        writer.write(b"\0")
        _ask_window_size(writer)
        source = _RloginSource(reader, rest)
        # A listed system is trusted, and one BBS (or hub) brings many callers from one
        # address: the per-address caps are for strangers, not for it.
        terminal = StreamTerminal(
            source,
            _RloginSink(writer),
            term_type=start.terminal_type or None,
            size=(80, 24),
            display_mode=(
                Display.LINES if start.terminal_type in LINES_TERMINAL_TYPES else Display.SCREEN
            ),
            **door.terminal_limits(),
        )
        source.terminal = terminal
        terminal.start()
        account = await _account(door, system, start.alias)
        caller = Caller(
            name=None if account is not None else start.alias,
            account=account,
            transport="rlogin",
            peer=system_peer(system, peer),
        )
        await door.serve_caller(terminal, caller)

    return await asyncio.start_server(serve, host, port, reuse_port=door.shares_ports or None)


def _ask_window_size(writer: asyncio.StreamWriter) -> None:
    """Send the urgent byte that asks the client for its window size. Clients that follow
    the RFC (rsh-redone's and BSD's rlogin) send sizes only once asked. asyncio's
    socket wrapper has no ``send``, so the byte goes through a socket object borrowed
    on the same descriptor and given back (detached) without closing it."""
    wrapped = writer.get_extra_info("socket")
    if wrapped is None or wrapped.fileno() < 0:  # not a socket, or already closed
        return
    borrowed = socket.socket(fileno=wrapped.fileno())
    try:
        with contextlib.suppress(OSError):  # the line already gone: nothing to ask
            borrowed.send(REQUEST_WINDOW_SIZE, socket.MSG_OOB)
    finally:
        borrowed.detach()


async def _account(door: Any, system: str, alias: str) -> Any:
    from door.storage.errors import StoreError

    store = door.records.store
    if store is None:
        return None
    try:
        return await store.bbs_account(system, alias.lower(), alias)
    except StoreError as error:
        logger.warning("rlogin: no account for %r of %r: %s", alias, system, error)
        return None
