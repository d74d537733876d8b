"""What a web caller sends, taken defensively: every frame counted against a rate in
frames and in bytes, every control message parsed within bounds, window sizes applied a
few times a second at most, and the WebSocket read for as long as it is open.

That last is what notices a hang-up. A caller who floods frames and then resets was
listed in every lobby for minutes: frames were taken only as fast as the session read
keys, so the reset waited behind everything the kernel held. Here frames are read as
they come and those beyond the rates (or beyond what the session has room for) are
dropped, with one log line per caller and minute; while a caller is over the rate the
socket is not read for a tenth of a second at a time, so a flood costs the door little
processor time and a reset is seen within that tenth.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, Final

from aiohttp import WSMsgType, web

from door.defence.log_limit import SourceLog
from door.defence.ratelimit import TokenBucket

MAX_FRAME_BYTES: Final = 4096
"""A frame up (a key, a pasted line): larger is refused by aiohttp, and the WebSocket ends."""
MAX_CONTROL_BYTES: Final = 128
"""The page's resize message is about 25 characters; JSON longer than this is not one, and
its nesting (3,000 ``[`` overflowed the decoder's stack) is bounded by its length."""
MAX_WINDOW_SIDE: Final = 10_000
"""A resize naming more columns or rows than this is not a window (the terminal clamps
real ones to 400x200)."""

FRAMES_PER_SECOND: Final = 60.0
FRAME_BURST: Final = 120
"""Frames a caller may send: a key each (typing and key repeat stay under 30 a second),
a pasted line, a resize each while a window is dragged."""
INPUT_BYTES_PER_SECOND: Final = 16 * 1024
INPUT_BURST_BYTES: Final = 64 * 1024
"""Bytes a caller may send, as over telnet (door/transports/telnet.py)."""
HOLD_BACK_SECONDS: Final = 0.1
"""How long the socket goes unread after a frame over the rate: a flood is then read in
small gulps (bench: a 4,000-byte frame flood costs about 1 % of a core rather than a
whole one), and a reset is noticed within this."""

OVER_RATE: Final = (
    f"more than {FRAMES_PER_SECOND:.0f} frames or {INPUT_BYTES_PER_SECOND} bytes a second"
)

READ_SIZE: Final = 16 * 1024
"""Bytes read from a WebSocket's socket at a time: four of the largest frames."""

RESIZES_PER_SECOND: Final = 10.0
"""Window sizes applied a second; the ones in between are replaced by the latest, so the
last size a caller sends is always the one the screen takes, in a tenth of a second."""


def parse_resize(text: str) -> tuple[int, int] | None:
    """(cols, rows) from the page's ``{"cols": C, "rows": R}``; None for anything else:
    too long, not JSON, NaN or Infinity, numbers that are not whole or out of reason.

    >>> parse_resize('{"cols": 132, "rows": 37}')
    (132, 37)
    >>> [parse_resize(t) for t in ('{"cols": Infinity, "rows": 24}', '{"cols": 1e400, "rows": 24}',
    ...                            '[' * 3000, '{"cols": true, "rows": 24}', '{"cols": 80}')]
    [None, None, None, None, None]
    """
    if len(text) > MAX_CONTROL_BYTES:
        return None
    try:
        size = json.loads(text, parse_constant=_not_a_number)
    except (ValueError, RecursionError):
        return None
    if not isinstance(size, dict):
        return None
    cols, rows = size.get("cols"), size.get("rows")
    if type(cols) is not int or type(rows) is not int:  # bool is an int; 1e400 a float
        return None
    if not (0 < cols <= MAX_WINDOW_SIDE and 0 < rows <= MAX_WINDOW_SIDE):
        return None
    return cols, rows


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not a size")


class FrameRate:
    """Whether a frame of ``size`` bytes is within the caller's rates (frames and bytes a
    second); one over either is refused and costs nothing."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        extra = {"clock": clock} if clock is not None else {}
        self._frames = TokenBucket(FRAMES_PER_SECOND, FRAME_BURST, **extra)
        self._bytes = TokenBucket(INPUT_BYTES_PER_SECOND, INPUT_BURST_BYTES, **extra)

    def admit(self, size: int) -> bool:
        if self._frames.tokens < 1 or self._bytes.tokens < size:
            return False
        self._frames.take()
        self._bytes.take(size)
        return True


class ResizeCoalescer:
    """Applies window sizes at most ``RESIZES_PER_SECOND``: a size that comes sooner waits,
    replaced by any later one, and is applied when the rate allows (one timer at most)."""

    def __init__(self, apply: Callable[[int, int], None]) -> None:
        self._apply = apply
        self._bucket = TokenBucket(RESIZES_PER_SECOND, 1)
        self._waiting: tuple[int, int] | None = None
        self._timer: asyncio.TimerHandle | None = None

    def offer(self, cols: int, rows: int) -> None:
        self._waiting = (cols, rows)
        if self._timer is None:
            self._apply_waiting()

    def _apply_waiting(self) -> None:
        self._timer = None
        if self._waiting is None:
            return
        if self._bucket.take():
            size, self._waiting = self._waiting, None
            self._apply(*size)
        else:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(self._bucket.seconds_until(1), self._apply_waiting)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._waiting = None


class FrameReader:
    """Reads a WebSocket's frames until it closes, handing on those within the rates.

    ``on_bytes`` gets binary frames (and text frames, as UTF-8, when ``on_text`` is None)
    and returns False when it has no room for them: they are dropped. ``on_text`` gets
    text frames. ``run`` returns once the caller has gone or the WebSocket is closed.
    """

    def __init__(
        self,
        ws: web.WebSocketResponse,
        transport: asyncio.BaseTransport | None,
        source: str,
        log: SourceLog,
        on_bytes: Callable[[bytes], bool],
        on_text: Callable[[str], None] | None = None,
    ) -> None:
        self.ws = ws
        self.transport = transport
        self.source = source
        self.log = log
        self.on_bytes = on_bytes
        self.on_text = on_text
        self.rate = FrameRate()
        self.dropped = 0
        self._held: asyncio.TimerHandle | None = None
        self._latest_text: str | None = None
        if transport is not None and hasattr(transport, "max_size"):
            # One read of the socket is parsed into frames whole (asyncio reads 256 KiB):
            # smaller reads keep a flood's gulps small, and aiohttp's queue of frames
            # (128 KiB) below the size at which it pauses and resumes reading itself,
            # which would undo the hold-back (measured: a resize storm cost twice the
            # processor time with 256 KiB reads).
            transport.max_size = READ_SIZE

    async def run(self) -> None:
        try:
            while True:
                message = await self.ws.receive()
                if message.type == WSMsgType.BINARY:
                    self._take(message.data, None)
                elif message.type == WSMsgType.TEXT:
                    self._take(message.data.encode("utf-8", "replace"), message.data)
                elif message.type in (WSMsgType.PING, WSMsgType.PONG):
                    continue
                else:
                    if message.type == WSMsgType.ERROR:
                        self.log.info(self.source, "web caller's WebSocket broke: %s", message.data)
                    return  # closed, closing or broken: the caller has gone
        finally:
            if self._held is not None:
                self._held.cancel()

    def _take(self, data: bytes, text: str | None) -> None:
        if not self.rate.admit(len(data)):
            if text is not None and self.on_text is not None:
                # A control message (a window size) over the rate is not lost: the latest
                # waits, unread, and is handed on when the hold-back ends.
                self._latest_text = text
            else:
                self._drop(OVER_RATE)
            self._hold_back()
            return
        if text is not None and self.on_text is not None:
            self.on_text(text)
        elif not self.on_bytes(bytes(data)):
            self._drop("more than the session has room for")

    def _drop(self, why: str) -> None:
        self.dropped += 1
        self.log.info(self.source, "web caller sent %s: frames dropped", why)

    def _hold_back(self) -> None:
        """Leave the socket unread for a moment: what the caller sends meanwhile waits in
        the network, not in the door's processor."""
        transport = self.transport
        if self._held is not None or transport is None or transport.is_closing():
            return
        pause = getattr(transport, "pause_reading", None)
        if pause is None:
            return
        pause()

        def resume() -> None:
            self._held = None
            if transport.is_closing():
                return
            transport.resume_reading()  # type: ignore[attr-defined]
            text, self._latest_text = self._latest_text, None
            if text is not None and self.on_text is not None:
                self.on_text(text)

        self._held = asyncio.get_running_loop().call_later(HOLD_BACK_SECONDS, resume)
