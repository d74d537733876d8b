"""A terminal line over two file descriptors, through the event loop (no thread): the
console's own terminal (door/transports/console.py) and a door caller on standard input and
output (door/transports/hub_relay.py)."""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Final

READ_SIZE: Final = 1024


class TtySource:
    """Input from a file descriptor, through the event loop (no thread)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.chunks: asyncio.Queue[bytes] = asyncio.Queue()
        asyncio.get_running_loop().add_reader(fd, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self.fd, READ_SIZE)
        except OSError:
            data = b""
        if not data:
            self.stop()
        self.chunks.put_nowait(data)

    def stop(self) -> None:
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(self.fd)

    async def read(self) -> bytes:
        return await self.chunks.get()


class TtySink:
    """Output to a file descriptor; a local terminal keeps up, so writes are direct."""

    def __init__(self, fd: int, source: TtySource) -> None:
        self.fd = fd
        self.source = source

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(self.fd, view)
            view = view[written:]

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        # The console's input stops; the file descriptors are the process's, not ours.
        self.source.stop()
