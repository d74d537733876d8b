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
        self._woken = asyncio.Event()

    def wake(self) -> None:
        """Make the current (or next) ``next()`` return None: something changed."""
        self._woken.set()

    async def next(self, timeout: float | None = None) -> Key | None:
        """The caller's next key, or None if woken first (or after ``timeout`` seconds,
        for a screen that shows the time passing). Raises ``Disconnected``."""
        if self._woken.is_set():
            self._woken.clear()
            return None
        reading = asyncio.ensure_future(self.terminal.read_key())
        woken = asyncio.ensure_future(self._woken.wait())
        try:
            await asyncio.wait(
                {reading, woken}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            woken.cancel()
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
            key = reading.result()  # a key that arrived with the wake-up is not lost
            if too_small(self.terminal.size):
                # The caller cannot see the screen: the key answers nothing, and the
                # screen redraws (as the request to grow the window).
                return None
            return key
        self._woken.clear()
        return None

    def forget_wake(self) -> None:
        """A wake-up the frame about to be drawn answers already (it shows the news)."""
        self._woken.clear()

    async def wait_woken(self) -> None:
        """Wait for a wake-up without reading keys (they wait in the terminal)."""
        await self._woken.wait()
        self._woken.clear()
