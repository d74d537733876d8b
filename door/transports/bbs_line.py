"""The BBS's line and clock, shared by door mode (door/transports/door_mode.py), which
plays the caller here, and the hub relay (door/transports/hub_relay.py), which bridges them
to a running door: the caller's telnet socket the BBS hands over, the time the BBS allows
with its warnings, and the last line before the BBS takes the caller back.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

from door.term.ansi import CLEAR_TO_END_OF_LINE, RESET

WARN_AT_MINUTES: Final = (5, 1)
TIME_UP: Final = "Your time on the BBS is up: back you go. Thanks for playing!"


def closing_message(text: str, *, lines: bool) -> str:
    """``text`` as the door's last line before the BBS takes the caller back, on a line
    of its own: a screen's leftovers on that line are cleared for an ANSI caller (the
    line once read "...Thanks for playing! ***quit"); a caller shown lines gets no
    escape sequence, and a fresh line."""
    if lines:
        return f"\r\n\r\n*** {text} ***\r\n"
    return (
        f"{RESET}\r\n{CLEAR_TO_END_OF_LINE}\r\n{CLEAR_TO_END_OF_LINE}*** {text} ***\r\n"
        f"{CLEAR_TO_END_OF_LINE}"
    )


class ConnectionError_(Exception):
    """The handed-over connection cannot be used; the message is one line."""


async def keep_time(seconds: float, warn: Callable[[str], Awaitable[None]]) -> None:
    """Return when ``seconds`` are used up, warning at 5 and at 1 minute left.

    A caller who arrives with less than 5 minutes is told at once how many are left (a
    caller with 1 minute once got no warning at all: the wait before it came out a hair
    below zero and was skipped)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    told_on_arrival = False
    for minutes in WARN_AT_MINUTES:
        left = deadline - loop.time()
        if left > minutes * 60:
            await asyncio.sleep(left - minutes * 60)
            await warn(minutes_left(minutes))
        elif left > 0 and not told_on_arrival:
            told_on_arrival = True
            await warn(minutes_left(math.ceil(left / 60)))
    await asyncio.sleep(max(0.0, deadline - loop.time()))


def minutes_left(minutes: int) -> str:
    return f"{minutes} minute{'s' if minutes > 1 else ''} of BBS time left."


@dataclass
class TelnetStreams:
    """telnetlib3's streams over a socket the BBS handed over; ``done`` ends the session."""

    reader: Any
    writer: Any
    done: asyncio.Event


async def inherited_telnet(handle: int) -> TelnetStreams:
    """Telnet over the inherited socket ``handle``: the same protocol as the door's own
    telnet listener, on a duplicate of the descriptor, so closing it never touches the
    BBS's own (and no shutdown() is ever sent). Raises ConnectionError_."""
    from door.transports.telnet import DoorTelnetServer

    try:
        sock = socket.socket(fileno=os.dup(handle))
    except OSError as error:
        raise ConnectionError_(f"comm handle {handle} cannot be used ({error})") from None
    sock.setblocking(False)
    ready: asyncio.Future[TelnetStreams] = asyncio.get_running_loop().create_future()

    async def shell(reader: Any, writer: Any) -> None:
        streams = TelnetStreams(reader, writer, asyncio.Event())
        ready.set_result(streams)
        # The session runs elsewhere: the shell lasts until it is done or the line closes.
        while not streams.done.is_set() and not writer.transport.is_closing():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(streams.done.wait(), 0.5)

    protocol = DoorTelnetServer(shell=shell, encoding=False, connect_maxwait=1.5, timeout=False)
    await asyncio.get_running_loop().connect_accepted_socket(lambda: protocol, sock)
    try:
        return await asyncio.wait_for(ready, 30)
    except TimeoutError:
        raise ConnectionError_(f"comm handle {handle}: no telnet session came up") from None
