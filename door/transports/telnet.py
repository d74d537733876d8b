"""The telnet transport: telnetlib3 negotiates; this turns its streams into a Terminal."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

import telnetlib3

from door.app.call import Caller
from door.app.door import Door
from door.defence.guard import AddressGuard, address_of, peer_text
from door.defence.ratelimit import INPUT_BURST_BYTES, INPUT_BYTES_PER_SECOND, TokenBucket
from door.logtext import escaped
from door.term.sources import InputReceiver
from door.term.terminal import StreamTerminal
from door.transports.proxy_header import listen_tcp, parse_networks
from door.transports.subneg import SubnegotiationLimit

logger = logging.getLogger(__name__)

READ_SIZE = 4096


class _TelnetSource:
    def __init__(self, reader: Any) -> None:
        self.reader = reader

    async def read(self) -> bytes:
        data: bytes = await self.reader.read(READ_SIZE)
        return data


class DoorTelnetReader(telnetlib3.TelnetReader):
    """telnetlib3's reader, which hands what arrives straight on to the caller's
    terminal once it has one (``deliver_to``): the key is decoded and queued in the
    protocol's own callback, and no task is woken to read it (issue #48). Before then,
    during the negotiation, it keeps what arrives as telnetlib3's does."""

    _receiver: InputReceiver | None = None

    def deliver_to(self, receiver: InputReceiver | None) -> None:
        self._receiver = receiver
        if receiver is None:
            return
        if self._buffer:
            early, self._buffer = bytes(self._buffer), bytearray()
            if self._paused and self._transport is not None:
                self._paused = False
                self._transport.resume_reading()  # type: ignore[attr-defined]
            receiver.received(early)
        if self._eof or self._exception is not None:
            self._ended()

    def feed_data(self, data: bytes) -> None:
        receiver = self._receiver
        if receiver is None:
            super().feed_data(data)
        elif data:
            receiver.received(data)

    def feed_eof(self) -> None:
        super().feed_eof()
        self._ended()

    def set_exception(self, exc: Exception) -> None:
        super().set_exception(exc)
        self._ended()

    def _ended(self) -> None:
        receiver, self._receiver = self._receiver, None
        if receiver is not None:
            receiver.ended()


class _PushingTelnetSource(_TelnetSource):
    """The door's own telnet reader's input, delivered as it arrives; held back by
    pausing the protocol's transport."""

    def __init__(self, reader: DoorTelnetReader, protocol: DoorTelnetServer) -> None:
        super().__init__(reader)
        self.protocol = protocol

    def deliver_to(self, receiver: InputReceiver | None) -> None:
        self.reader.deliver_to(receiver)

    def hold(self, seconds: float) -> None:
        self.protocol.hold_input(seconds)


class _TelnetSink:
    def __init__(self, writer: Any) -> None:
        self.writer = writer

    def write(self, data: bytes) -> None:
        self.writer.write(data)

    async def drain(self) -> None:
        await self.writer.drain()

    def buffered(self) -> int:
        transport = self.writer.transport
        return int(transport.get_write_buffer_size()) if transport is not None else 0

    def close(self) -> None:
        self.writer.close()


class Resizable(Protocol):
    def resize(self, cols: int, rows: int) -> None: ...


class DoorTelnetServer(telnetlib3.TelnetServer):
    """Passes window-size changes on to the caller's terminal, refuses a connection from
    an address over its limits before reading from it, and hangs up on an overlong
    subnegotiation before the library parses it."""

    terminal: Resizable | None = None
    """The caller's terminal (or a door's relayed line), told of window-size changes."""
    guard: AddressGuard | None = None
    """The door's per-address limits (set on the subclass ``start_telnet`` makes)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("reader_factory", DoorTelnetReader)
        super().__init__(*args, **kwargs)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.address = address_of(transport.get_extra_info("peername"))
        self.connected_at = asyncio.get_running_loop().time()
        self.admitted = False
        self._subnegotiation = SubnegotiationLimit()
        self._input_rate = TokenBucket(INPUT_BYTES_PER_SECOND, INPUT_BURST_BYTES)
        self._held_until = 0.0
        self._resuming: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        # The door reads raw keys (door/term/keys.py): only IAC begins a command. With
        # special line characters "simulated", telnetlib3 builds their set for every
        # chunk, scans each chunk for them a byte at a time in Python and passes each
        # one (DEL, Ctrl-D, Ctrl-U...) to callbacks that only log it as unhandled.
        self.writer.slc_simulated = False
        if hasattr(transport, "max_size"):
            # One read is parsed whole, in Python, before any other caller is served:
            # at asyncio's 256 KiB a read of window-size changes (nine bytes each) held
            # everyone else for a third of a second (bench/attacks.py resize-telnet).
            transport.max_size = READ_SIZE
        # telnetlib3's server never gives its reader the transport, so the reader cannot
        # pause it and buffers whatever a caller sends; with it, input waiting beyond
        # the reader's limit holds the caller back through TCP instead.
        self.reader.set_transport(transport)
        refusal = self.guard.admit(self.address) if self.guard is not None else None
        if refusal is not None:
            self.guard.refusals.info(self.address, "telnet connection refused: %s", refusal)
            transport.write(f"\r\n{refusal}\r\n".encode("ascii", "replace"))
            transport.close()
            return
        self.admitted = True

    def connection_lost(self, exc: Exception | None) -> None:
        if getattr(self, "admitted", False) and self.guard is not None:
            self.admitted = False
            self.guard.release(self.address)
        # telnetlib3's server keeps its protocols listed until the next connection
        # arrives: let go of the caller's terminal now, so nothing of the session stays.
        self.terminal = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self._subnegotiation.feed(data):
            logger.info(
                "telnet caller from %s sent an overlong subnegotiation: line closed",
                escaped(self.address),
            )
            if self._transport is not None:
                self._transport.close()
            return
        super().data_received(data)
        if self._input_rate.take(len(data)) < len(data) and self._resuming is None:
            self.hold_input(len(data) / INPUT_BYTES_PER_SECOND)

    def hold_input(self, seconds: float) -> None:
        """Stop reading the caller for ``seconds``, or until a hold already on ends if
        that is later: the input's byte rate and the terminal's key rate share this."""
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        loop = asyncio.get_running_loop()
        until = loop.time() + seconds
        if self._resuming is not None:
            if until <= self._held_until:
                return
            self._resuming.cancel()
        else:
            transport.pause_reading()
        self._held_until = until
        self._resuming = loop.call_at(until, self._resume_input, transport)

    def _resume_input(self, transport: asyncio.BaseTransport) -> None:
        self._resuming = None
        if not transport.is_closing():
            transport.resume_reading()  # type: ignore[attr-defined]

    def on_naws(self, rows: int, cols: int) -> None:
        super().on_naws(rows, cols)
        if self.terminal is not None:
            self.terminal.resize(cols, rows)


def terminal_for(reader: Any, writer: Any, **limits: Any) -> StreamTerminal:
    """The caller's terminal over telnetlib3's streams, sized and typed as negotiated,
    resized as the caller's window changes, started; ``limits`` are the door's
    per-connection bounds (``Door.terminal_limits``)."""
    protocol = writer.protocol
    term_type = writer.get_extra_info("TERM") or None
    cols = writer.get_extra_info("cols") or 80
    rows = writer.get_extra_info("rows") or 24
    source = (
        _PushingTelnetSource(reader, protocol)
        if isinstance(reader, DoorTelnetReader) and isinstance(protocol, DoorTelnetServer)
        else _TelnetSource(reader)
    )
    terminal = StreamTerminal(
        source,
        _TelnetSink(writer),
        term_type=term_type.lower() if term_type else None,
        size=(cols, rows),
        **limits,
    )
    if isinstance(protocol, DoorTelnetServer):
        protocol.terminal = terminal
    terminal.start()
    return terminal


async def start_telnet(door: Door, host: str, port: int) -> Any:
    """Listen for telnet callers; returns the server (``.sockets``, ``.close()``)."""

    async def shell(reader: Any, writer: Any) -> None:
        protocol = writer.protocol
        terminal = terminal_for(reader, writer, **door.terminal_limits())
        caller = Caller(
            name=None,
            transport="telnet",
            peer=peer_text(writer.get_extra_info("peername")),
            connected_at=getattr(protocol, "connected_at", None),
        )
        await door.serve_caller(terminal, caller)

    protocol_factory = type("DoorTelnetServer", (DoorTelnetServer,), {"guard": door.guard})
    options: dict[str, Any] = {
        "shell": shell,
        "encoding": False,
        "connect_maxwait": 1.5,
        # The door manages idle callers itself; the library's timer would drop
        # a caller mid-game with its own "Timeout." text.
        "timeout": False,
    }
    settings = door.config.server
    if settings.proxy_protocol or door.shares_ports:
        # Behind a balancer each connection's PROXY header comes first, and a worker
        # shares its port with the others: telnetlib3.create_server does neither, so
        # the telnet protocol is made here as it makes it.
        trusted = parse_networks(settings.proxy_addresses) if settings.proxy_protocol else None
        return await listen_tcp(
            lambda: protocol_factory(**options),
            host,
            port,
            trusted=trusted,
            reuse_port=door.shares_ports,
        )
    server = await telnetlib3.create_server(
        host=host, port=port, protocol_factory=protocol_factory, **options
    )
    _forget_new_clients(server)
    return server


def _forget_new_clients(server: Any) -> None:
    """telnetlib3 queues every connection for ``wait_for_client`` (up to a thousand,
    each holding its protocol and streams); the door never asks, so the queue is
    emptied as it fills. The task waits on the server's queue as long as the loop runs."""

    async def forget() -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while server.is_serving():
                await server.wait_for_client()

    task = asyncio.get_running_loop().create_task(forget())
    _forgetting.add(task)
    task.add_done_callback(_forgetting.discard)


_forgetting: set[asyncio.Task[None]] = set()
"""Strong references to those tasks, which the event loop holds only weakly."""
