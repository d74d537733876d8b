"""The telnet transport: telnetlib3 negotiates; this turns its streams into a Terminal."""

from __future__ import annotations

import logging
from typing import Any

import telnetlib3

from door.server import Door
from door.session import Caller
from door.terminal import StreamTerminal

logger = logging.getLogger(__name__)

READ_SIZE = 4096


class _TelnetSource:
    def __init__(self, reader: Any) -> None:
        self.reader = reader

    async def read(self) -> bytes:
        data: bytes = await self.reader.read(READ_SIZE)
        return data


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


class DoorTelnetServer(telnetlib3.TelnetServer):
    """Passes window-size changes on to the caller's terminal."""

    terminal: StreamTerminal | None = None

    def on_naws(self, rows: int, cols: int) -> None:
        super().on_naws(rows, cols)
        if self.terminal is not None:
            self.terminal.resize(cols, rows)


async def start_telnet(door: Door, host: str, port: int) -> Any:
    """Listen for telnet callers; returns the server (``.sockets``, ``.close()``)."""

    async def shell(reader: Any, writer: Any) -> None:
        protocol = writer.protocol
        term_type = writer.get_extra_info("TERM") or None
        cols = writer.get_extra_info("cols") or 80
        rows = writer.get_extra_info("rows") or 24
        peer = writer.get_extra_info("peername")
        terminal = StreamTerminal(
            _TelnetSource(reader),
            _TelnetSink(writer),
            term_type=term_type.lower() if term_type else None,
            size=(cols, rows),
            **door.terminal_limits(),
        )
        if isinstance(protocol, DoorTelnetServer):
            protocol.terminal = terminal
        terminal.start()
        caller = Caller(name=None, transport="telnet", peer=_peer_text(peer))
        await door.serve_caller(terminal, caller)

    return await telnetlib3.create_server(
        host=host,
        port=port,
        shell=shell,
        protocol_factory=DoorTelnetServer,
        encoding=False,
        connect_maxwait=1.5,
        # The door manages idle callers itself; the library's timer would drop
        # a caller mid-game with its own "Timeout." text.
        timeout=False,
    )


def _peer_text(peer: Any) -> str:
    if isinstance(peer, tuple) and len(peer) >= 2:
        return f"{peer[0]}:{peer[1]}"
    return str(peer or "")
