"""A frame's way out: written to the transport at once, and not waited on when the
transport has taken it all (issue #48: the drain was a chain of coroutines a frame, for
a transport with nothing to drain). Output the transport holds is still waited for, and
a line that dropped still says so."""

from __future__ import annotations

import asyncio

import pytest

from door.term.terminal import Disconnected, StreamTerminal
from tests.door.waiting import until


class _Source:
    def __init__(self) -> None:
        self.chunks: asyncio.Queue[bytes] = asyncio.Queue()

    async def read(self) -> bytes:
        return await self.chunks.get()


class _Sink:
    """A transport that sends at once unless ``holding``; counts the drains awaited."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.holding = 0
        self.drains = 0
        self.closed = False

    def write(self, data: bytes) -> None:
        self.data += data

    def buffered(self) -> int:
        return self.holding

    async def drain(self) -> None:
        self.drains += 1

    def close(self) -> None:
        self.closed = True


def test_a_frame_the_transport_takes_at_once_is_written_and_not_drained() -> None:
    async def scenario() -> tuple[bytes, int]:
        sink = _Sink()
        terminal = StreamTerminal(_Source(), sink, output_stall_seconds=5)
        for number in range(100):
            terminal.write(f"frame {number};")
            await terminal.flush()
        return bytes(sink.data), sink.drains

    data, drains = asyncio.run(scenario())
    assert data == "".join(f"frame {number};" for number in range(100)).encode()
    assert drains == 0


def test_output_the_transport_holds_is_still_drained() -> None:
    async def scenario() -> int:
        sink = _Sink()
        sink.holding = 10
        terminal = StreamTerminal(_Source(), sink, output_stall_seconds=5)
        terminal.write("frame")
        await terminal.flush()
        return sink.drains

    assert asyncio.run(scenario()) == 1


def test_a_flush_after_the_line_dropped_raises() -> None:
    async def scenario() -> None:
        source, sink = _Source(), _Sink()
        terminal = StreamTerminal(source, sink, output_stall_seconds=5)
        terminal.start()
        source.chunks.put_nowait(b"")  # the caller hung up
        await until(lambda: not terminal.connected, what="the hang-up seen")
        terminal.write("frame")
        with pytest.raises(Disconnected):
            await terminal.flush()

    asyncio.run(scenario())
