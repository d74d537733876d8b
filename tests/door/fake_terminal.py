"""``FakeTerminal``: a ``StreamTerminal`` over memory with a pyte screen on its output.

It lives with the tests because pyte is a test-only dependency: the door itself must
start without it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pyte

from door.term.ansi import ColorMode
from door.term.charset import Charset, decode
from door.term.keys import ESCAPE_TIMEOUT, Key, encode_key
from door.term.terminal import StreamTerminal
from door.term.window import DEFAULT_SIZE


class _MemorySource:
    def __init__(self) -> None:
        self.chunks: asyncio.Queue[bytes | str] = asyncio.Queue()
        self.pushed = 0

    def push(self, data: bytes | str) -> None:
        self.pushed += 1
        self.chunks.put_nowait(data)

    async def read(self) -> bytes | str:
        return await self.chunks.get()


class _ScreenSink:
    """Collects output bytes and shows them on a pyte screen, decoded as the terminal
    would with the charset in force when they arrive."""

    def __init__(self, screen: pyte.Screen, charset: Callable[[], Charset]) -> None:
        self.output = bytearray()
        self.closed = False
        self._stream = pyte.Stream(screen)
        self._charset = charset

    def write(self, data: bytes) -> None:
        self.output += data
        self._stream.feed(decode(data, self._charset()))

    async def drain(self) -> None:
        if self.closed:
            raise ConnectionResetError("the fake terminal was closed")

    def close(self) -> None:
        self.closed = True


class FakeTerminal(StreamTerminal):
    """A terminal in memory for tests: push the caller's keys in, read the screen out.

    >>> async def demo() -> list[str]:
    ...     terminal = FakeTerminal(cols=10, rows=2)
    ...     terminal.push_keys("hi", Key.ENTER)
    ...     keys = [await terminal.read_key() for _ in range(3)]
    ...     terminal.write("\\u2660 ok")
    ...     return [repr(key) for key in keys] + terminal.display
    >>> asyncio.run(demo())
    ["Key.printable('h')", "Key.printable('i')", 'Key.ENTER', '♠ ok      ', '          ']
    """

    def __init__(
        self,
        cols: int = 80,
        rows: int = 24,
        term_type: str | None = "xterm-256color",
        *,
        charset: Charset | None = None,
        color_mode: ColorMode | None = None,
        escape_timeout: float = ESCAPE_TIMEOUT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.screen = pyte.Screen(cols, rows)
        self._input = _MemorySource()
        self._screen_sink = _ScreenSink(self.screen, lambda: self.charset)
        super().__init__(
            self._input,
            self._screen_sink,
            term_type=term_type,
            size=(cols, rows),
            charset=charset,
            color_mode=color_mode,
            escape_timeout=escape_timeout,
            clock=clock,
        )

    @property
    def output(self) -> bytes:
        """Every byte sent to the caller so far (written output counts as sent:
        the real terminal sends it at the next flush, which every screen makes
        before it waits for a key; the socket tests check that)."""
        self._send_written()
        return bytes(self._screen_sink.output)

    @property
    def display(self) -> list[str]:
        """The caller's screen, one string per row."""
        self._send_written()
        lines: list[str] = self.screen.display
        return lines

    @property
    def sink_closed(self) -> bool:
        return self._screen_sink.closed

    def push_bytes(self, data: bytes | str) -> None:
        """Bytes arriving from the caller, exactly as given (split as given)."""
        self._input.push(data)

    def push_keys(self, *keys: Key | str) -> None:
        """Key presses, each sent as its own read; a string types its characters."""
        for key in keys:
            if isinstance(key, Key):
                self.push_bytes(encode_key(key))
            else:
                self.push_bytes(key.encode("utf-8"))

    def hang_up(self) -> None:
        """The caller drops the line."""
        self.push_bytes(b"")

    def resize(self, cols: int, rows: int) -> None:
        self.screen.resize(lines=rows or DEFAULT_SIZE[1], columns=cols or DEFAULT_SIZE[0])
        super().resize(cols, rows)

    async def settle(self) -> None:
        """Wait until the input task has taken in everything pushed so far."""
        self.start()
        while self.connected and self._inputs_read < self._input.pushed:
            await asyncio.sleep(0)
