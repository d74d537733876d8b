"""A caller's keys and the world's news, awaited in one place.

A screen shared with other people (the lobby, a table) must redraw when something
happens elsewhere, a move or a chat line, while it waits for the caller's next key.
``Inbox.next()`` returns the next key, or ``None`` as soon as someone calls ``wake()``.

The terminal is only read while a screen is waiting: a wake-up cancels the pending
``read_key`` (which gives up no key: the terminal keeps it for the next read), so type-ahead
stays in the terminal and "the door is reading" still means "the door is waiting for this
caller", which the scripted callers in the tests rely on.
"""

from __future__ import annotations

import asyncio
import contextlib

from door.term.canvas import too_small
from door.term.keys import Key
from door.term.terminal import Terminal


class Inbox:
    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self._woken = False
        self._waiters: list[asyncio.Future[None]] = []
        """Whoever waits for a key or a wake-up: a plain future each, settled by the
        key's arrival, the wake-up or the timeout (a task per wait, and asyncio.wait's
        own coroutines, were most of what a session kept alive while it waited)."""

    def wake(self) -> None:
        """Make the current (or next) ``next()`` return None: something changed."""
        self._woken = True
        for waiter in self._waiters:
            _settle(waiter)

    async def next(self, timeout: float | None = None) -> Key | None:
        """The caller's next key, or None if woken first (or after ``timeout`` seconds,
        for a screen that shows the time passing). Raises ``Disconnected``."""
        if self._woken:
            self._woken = False
            return None
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        reading = asyncio.ensure_future(self.terminal.read_key())
        reading.add_done_callback(lambda _: _settle(waiter))
        timer = loop.call_later(timeout, _settle, waiter) if timeout is not None else None
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            self._waiters.remove(waiter)
            if timer is not None:
                timer.cancel()
            if not reading.done():
                reading.cancel()
                # Let the read unwind before going on, so nothing looks like it is still
                # waiting for a key while the screen redraws.
                with contextlib.suppress(asyncio.CancelledError):
                    await reading
                current = asyncio.current_task()
                if current is not None and current.cancelling():
                    raise asyncio.CancelledError  # ours, not the read's: pass it on
        if reading.done() and not reading.cancelled():
            try:
                key = reading.result()  # a key that arrived with the wake-up is not lost
            except BaseException:
                # The error's traceback holds this frame, and the task holds the error:
                # a cycle, unless the frame lets go of the task (see door.gc_policy).
                del reading
                raise
            if too_small(self.terminal.size):
                # The caller cannot see the screen: the key answers nothing, and the
                # screen redraws (as the request to grow the window).
                return None
            return key
        self._woken = False
        return None

    def forget_wake(self) -> None:
        """A wake-up the frame about to be drawn answers already (it shows the news)."""
        self._woken = False

    async def wait_woken(self) -> None:
        """Wait for a wake-up without reading keys (they wait in the terminal)."""
        if not self._woken:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            finally:
                self._waiters.remove(waiter)
        self._woken = False


def _settle(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)
