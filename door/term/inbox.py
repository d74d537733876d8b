"""A caller's keys and the world's news, awaited in one place.

A screen shared with other people (the lobby, a table) must redraw when something
happens elsewhere, a move or a chat line, while it waits for the caller's next key.
``Inbox.next()`` returns the next key, or ``None`` as soon as someone calls ``wake()``.

One plain future is raced: the terminal settles it when a key is there to take
(``Terminal.watch_keys``), ``wake()`` and the timeout settle it too. No task reads the
terminal meanwhile, so a wake-up cancels nothing, and a key is taken only when the
screen reads it: type-ahead stays in the terminal, a key that came with a wake-up waits
for the next read, and "the door is watching for a key" still means "the door is
waiting for this caller", which the scripted callers in the tests rely on.
"""

from __future__ import annotations

import asyncio

from door.term.canvas import too_small
from door.term.clicks import ClickKeys
from door.term.key_queue import settle
from door.term.keys import Key
from door.term.terminal import Terminal


class Inbox:
    # Slots: read at every frame, and cold among a thousand callers' sessions: the
    # attributes in the object, not in a values array beside it (#48).
    __slots__ = ("terminal", "clicks", "_woken", "wakes", "_waiters")

    def __init__(self, terminal: Terminal, clicks: ClickKeys | None = None) -> None:
        self.terminal = terminal
        self.clicks = clicks if clicks is not None else ClickKeys()
        """Turns a click into the keys it stands for on the frame last drawn."""
        self._woken = False
        self.wakes = 0
        """Wake-ups so far: whoever woke the inbox can tell whether anyone else did since
        (a win bar worked out then draws only its own row: door/table/person.py)."""
        self._waiters: list[asyncio.Future[None]] = []
        """Whoever waits for a key or a wake-up: a plain future each, settled by the
        key's arrival, the wake-up or the timeout (a task per wait, and asyncio.wait's
        own coroutines, were most of what a session kept alive while it waited)."""

    def wake(self) -> None:
        """Make the current (or next) ``next()`` return None: something changed."""
        self._woken = True
        self.wakes += 1
        for waiter in self._waiters:
            settle(waiter)

    async def next(self, timeout: float | None = None) -> Key | None:
        """The caller's next key, or None if woken first (or after ``timeout`` seconds,
        for a screen that shows the time passing). Raises ``Disconnected``."""
        if self._woken:
            self._woken = False
            return None
        clicked = self.clicks.pending()
        if clicked is not None:
            return clicked
        terminal = self.terminal
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while True:
            # A key typed ahead is taken without waiting; after a wait, the key that
            # settled it or came with the wake-up (which is kept for the next call).
            key = await terminal.take_key()
            if key is not None:
                if too_small(terminal.size):
                    # The caller cannot see the screen: the key answers nothing, and the
                    # screen redraws (as the request to grow the window).
                    return None
                translated = self.clicks.translate(key)
                if translated is not None:
                    return translated
                continue  # a click on nothing: silently, not "a key that does nothing"
            if self._woken or (deadline is not None and loop.time() >= deadline):
                self._woken = False
                return None
            # Otherwise nothing yet, or the terminal spoke for itself (the idle guard's
            # warning): wait, and look again.
            waiter: asyncio.Future[None] = loop.create_future()
            terminal.watch_keys(waiter)
            timer = None if deadline is None else loop.call_at(deadline, settle, waiter)
            self._waiters.append(waiter)
            try:
                await waiter
            finally:
                # A cancelled screen leaves every key where it was: nothing was taken.
                self._waiters.remove(waiter)
                terminal.unwatch_keys(waiter)
                if timer is not None:
                    timer.cancel()

    async def typed_ahead(self) -> Key | None:
        """A key the caller has typed already (the rest of a click, or one waiting in the
        terminal), taken without waiting and whether woken or not; None if there is none.
        A screen that takes it before drawing skips a frame the caller could never have
        read: the next key's frame replaces it at once (two digits sent together, a held
        arrow, a pasted line). A click is read on the frame last sent, the one clicked."""
        clicked = self.clicks.pending()
        if clicked is not None:
            return clicked
        terminal = self.terminal
        if too_small(terminal.size):
            return None  # the key answers nothing there: ``next`` takes it, and redraws
        while (key := await terminal.take_key()) is not None:
            translated = self.clicks.translate(key)
            if translated is not None:
                return translated
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
