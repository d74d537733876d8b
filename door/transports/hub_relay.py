"""Door mode with a hub: the caller's line, relayed to a running ``cribbage-door serve``.

The hub lists this machine in its ``[rlogin] systems``; the door connects to its RLogin
port, names the caller (their BBS alias) and their terminal (from the drop file's
emulation), and from then on only copies bytes both ways, sending window sizes as the
caller's terminal reports them. So every node's callers, and the hub's own telnet and
SSH callers, share one lobby, one chat and one set of games, and the hub keeps their
records under (its tag for this BBS, alias). The door still keeps the BBS's time: warnings
at 5 and 1 minute, then the line goes back to the BBS.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol

from door.config import host_and_port
from door.term.ansi import CLEAR_SCREEN, RESET, SHOW_CURSOR
from door.term.mouse import STOP_REPORTS
from door.transports.bbs_line import TIME_UP, closing_message, inherited_telnet, keep_time
from door.transports.dropfile import DropFile, Emulation
from door.transports.local_tty import TtySink, TtySource
from door.transports.rlogin import handshake, window_size

logger = logging.getLogger("door")

CONNECT_TIMEOUT: Final = 10.0
READ_SIZE: Final = 4096
SCREEN_QUIET_SECONDS: Final = 0.25
"""A time warning waits for the hub's screen to be drawn: no bytes from the hub for this
long after some. Chosen, not measured closely: the hub sends a screen as one frame, and
by hand over loopback the warning stood over the lobby with this wait."""
SCREEN_WAIT_SECONDS: Final = 5.0
"""The longest a warning waits for that. The time-up does not move (keep_time's deadline
is fixed when the clock starts)."""
BACK_TO_THE_BBS: Final = f"{STOP_REPORTS}{RESET}{SHOW_CURSOR}{CLEAR_SCREEN}"
"""What the hub's own goodbye does to an ANSI caller's terminal (door/ui/session.py's
``say_goodbye`` and the terminal's closing), for when the node ends the call itself."""


class HubUnavailable(Exception):
    """The hub cannot be reached or would not take the caller; one line."""


class CallerLine(Protocol):
    """The caller's side, as bytes."""

    size: tuple[int, int]
    on_resize: Callable[[int, int], None] | None

    async def read(self) -> bytes: ...

    def write(self, data: bytes) -> None: ...

    async def drain(self) -> None: ...

    def close(self) -> None: ...


UTF8_TERMINAL_TYPE: Final = "ansi-utf8"
"""What the hub is told a ``--utf8`` caller's terminal is. The drop file says only ANSI
or not, so not a type the hub asks for mouse reports (door/term/mouse.py; "xterm" was,
and a BBS client that does not know them prints every click), yet one it gives UTF-8
and colour (door/term/charset.py, door/term/ansi.py): the screen door mode shows here."""


def terminal_type(emulation: Emulation, utf8: bool) -> str:
    """What the hub is told the caller's terminal is, so it picks the same screen as
    door mode does here: plain ASCII, CP437 for ANSI-BBS terminals, or UTF-8."""
    if not emulation.has_ansi:
        return "dumb"
    return UTF8_TERMINAL_TYPE if utf8 else "ansi-bbs"


async def relay_to_hub(
    address: str,
    drop: DropFile,
    *,
    stdio: bool,
    utf8: bool,
    system: str | None,
    clock: Callable[[float, Callable[[str], Awaitable[None]]], Any] = keep_time,
) -> None:
    """Bridge the caller into the hub until either side hangs up or their time is up.
    Raises HubUnavailable before the caller has seen anything, so door mode can fall
    back to playing here."""
    host, port = host_and_port(address)  # checked with the config
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port), CONNECT_TIMEOUT
        )
    except (OSError, TimeoutError) as error:
        raise HubUnavailable(f"the hub {address} cannot be reached ({error})") from None
    name = system or drop.bbs_name or "BBS"
    writer.write(handshake(name, drop.caller_name, terminal_type(drop.emulation, utf8)))
    try:
        answer = await asyncio.wait_for(reader.readexactly(1), CONNECT_TIMEOUT)
    except (asyncio.IncompleteReadError, OSError, TimeoutError):
        writer.close()
        raise HubUnavailable(
            f"the hub {address} closed the line: does its [rlogin] systems list this machine?"
        ) from None
    if answer != b"\0":
        writer.close()
        raise HubUnavailable(f"the hub {address} does not speak RLogin")
    logger.info("door: %r relayed to the hub %s", drop.caller_name, address)
    line = await (_stdio_line() if stdio else _telnet_line(drop.handle))
    writer.write(window_size(*line.size))
    line.on_resize = lambda cols, rows: writer.write(window_size(cols, rows))
    ascii_only = not drop.emulation.has_ansi

    loop = asyncio.get_running_loop()
    hub_wrote_at: list[float] = []  # when the hub's bytes last reached the caller

    def to_caller_line(data: bytes) -> None:
        line.write(data)
        hub_wrote_at[:] = [loop.time()]

    async def warn(text: str) -> None:
        if ascii_only:
            line.write(f"\r\n*** {text} ***\r\n".encode())
            return
        # On the top line, under the hub's screen; its next repaint clears it. Not before
        # the hub has drawn its screen, whose clearing would wipe it unseen (by hand: a
        # caller arriving with 1 minute left never saw the warning).
        deadline = loop.time() + SCREEN_WAIT_SECONDS
        while loop.time() < deadline and (
            not hub_wrote_at or loop.time() - hub_wrote_at[0] < SCREEN_QUIET_SECONDS
        ):
            await asyncio.sleep(SCREEN_QUIET_SECONDS / 2)
        line.write(f"\x1b7\x1b[1;1H\x1b[0;1;33m *** {text} *** \x1b[0m\x1b8".encode())

    to_hub = asyncio.create_task(_copy(line.read, writer.write, writer.drain))
    to_caller = asyncio.create_task(_copy(_reader(reader), to_caller_line, line.drain))
    clock_task = asyncio.create_task(clock(drop.minutes_left * 60.0, warn))
    stop = asyncio.Event()
    for signum in (signal.SIGHUP, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    stopped = asyncio.create_task(stop.wait())
    tasks = {to_hub, to_caller, clock_task, stopped}
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        if clock_task in done:
            logger.info("door: time is up")
            if not ascii_only:
                # The hub is cut off mid-screen and its goodbye, which would undo what its
                # screens asked of the terminal, never comes: undo it here, so the caller
                # is back at the BBS with no mouse reports, a cursor and a clear screen.
                line.write(BACK_TO_THE_BBS.encode())
            line.write(closing_message(TIME_UP, lines=ascii_only).encode())
            with contextlib.suppress(Exception):
                await asyncio.wait_for(line.drain(), 2.0)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        writer.close()
        line.close()


def _reader(reader: asyncio.StreamReader) -> Callable[[], Any]:
    async def read() -> bytes:
        try:
            return await reader.read(READ_SIZE)
        except ConnectionError:
            return b""

    return read


async def _copy(
    read: Callable[[], Any], write: Callable[[bytes], None], drain: Callable[[], Any]
) -> None:
    """Copy until the reading side hangs up; waiting on ``drain`` keeps a slow side from
    making the other buffer without end."""
    while True:
        data = await read()
        if not data:
            return
        write(data)
        with contextlib.suppress(ConnectionError):
            await drain()


# --- the caller's line, as bytes ---------------------------------------------------------


class _StdioLine:
    def __init__(self) -> None:
        self.in_fd, self.out_fd = sys.stdin.fileno(), sys.stdout.fileno()
        self._source = TtySource(self.in_fd)
        self._sink = TtySink(self.out_fd, self._source)
        self.on_resize: Callable[[int, int], None] | None = None
        self.size = self._measure()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGWINCH, self._resized)

    def _measure(self) -> tuple[int, int]:
        try:
            size = os.get_terminal_size(self.out_fd)
        except OSError:
            return (80, 24)
        return (size.columns or 80, size.lines or 24)

    def _resized(self) -> None:
        self.size = self._measure()
        if self.on_resize is not None:
            self.on_resize(*self.size)

    async def read(self) -> bytes:
        return await self._source.read()

    def write(self, data: bytes) -> None:
        self._sink.write(data)

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        self._sink.close()


async def _stdio_line() -> _StdioLine:
    return _StdioLine()


class _TelnetLine:
    def __init__(self, reader: Any, writer: Any, done: asyncio.Event) -> None:
        self.reader, self.writer, self.done = reader, writer, done
        self.size = (writer.get_extra_info("cols") or 80, writer.get_extra_info("rows") or 24)
        self.on_resize: Callable[[int, int], None] | None = None

    def resize(self, cols: int, rows: int) -> None:  # from the telnet protocol's NAWS
        self.size = (cols, rows)
        if self.on_resize is not None:
            self.on_resize(cols, rows)

    async def read(self) -> bytes:
        try:
            data: bytes = await self.reader.read(READ_SIZE)
        except ConnectionError:
            return b""
        return data

    def write(self, data: bytes) -> None:
        self.writer.write(data)

    async def drain(self) -> None:
        await self.writer.drain()

    def close(self) -> None:
        self.done.set()
        self.writer.close()


async def _telnet_line(handle: int) -> _TelnetLine:
    """Telnet over the BBS's socket, as in door mode."""
    streams = await inherited_telnet(handle)
    line = _TelnetLine(streams.reader, streams.writer, streams.done)
    streams.writer.protocol.terminal = line  # window-size changes reach the line
    return line
