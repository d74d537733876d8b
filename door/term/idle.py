"""Idle callers: a warning, then the line is closed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from door.term.ansi import CLEAR_TO_END_OF_LINE, ColorMode, at
from door.term.charset import Charset
from door.term.key_queue import settle
from door.term.keys import Key
from door.term.terminal import (
    Disconnected,
    ResizeListener,
    Terminal,
    read_key_watching,
)


class IdleTimeout(Disconnected):
    """The caller pressed nothing for too long and was disconnected."""


class IdleGuardTerminal:
    """A Terminal whose reads warn an idle caller, then hang up.

    The warning is written over the bottom line (again if the screen has written since,
    perhaps over it). The first key after it is delivered as Ctrl-L and then as itself,
    so whatever screen is showing repaints itself whole and the warning disappears.

    The guard acts while a screen waits for a key: its deadline, a timer handle on the
    wait (no task), settles the waiter as a key would, and ``take_key`` then warns, or
    says goodbye and raises ``IdleTimeout``.
    """

    def __init__(self, inner: Terminal, warn_after: float, hang_up_after: float) -> None:
        self.inner = inner
        self.warn_after = warn_after
        self.hang_up_after = hang_up_after
        self._queued: list[Key] = []
        self._warned = False
        """The caller has been warned and has pressed no key since (that is taken)."""
        self._warning_covered = False
        """The screen has written since the warning: it is written again."""
        self._deadlines: dict[asyncio.Future[None], asyncio.TimerHandle] = {}

    async def read_key(self) -> Key:
        return await read_key_watching(self)

    def watch_keys(self, waiter: asyncio.Future[None]) -> None:
        if self._queued or self._warning_covered:
            settle(waiter)  # take_key has something to do at once
            return
        self.inner.watch_keys(waiter)
        limit = self.hang_up_after if self._warned else self.warn_after
        self._deadlines[waiter] = asyncio.get_running_loop().call_later(
            max(0.0, limit - self.inner.idle), settle, waiter
        )

    def unwatch_keys(self, waiter: asyncio.Future[None]) -> None:
        deadline = self._deadlines.pop(waiter, None)
        if deadline is not None:
            deadline.cancel()
            self.inner.unwatch_keys(waiter)

    async def take_key(self) -> Key | None:
        if self._queued:
            return self._queued.pop(0)
        key = await self.inner.take_key()
        if key is not None:
            if self._warned:
                self._warned = self._warning_covered = False
                self._queued.append(key)
                return Key.CTRL_L
            return key
        # No key. Warn or hang up if the time has come: the deadline may have moved on
        # since it was set (Ctrl-Q, say, is a key the caller pressed that no screen reads).
        idle = self.inner.idle
        if self._warned and idle >= self.hang_up_after:
            await self._say_goodbye()
            raise IdleTimeout("the caller was idle too long")
        if self._warning_covered or (not self._warned and idle >= self.warn_after):
            self._warned, self._warning_covered = True, False
            self._warn()
            await self.inner.flush()
        return None

    def _warn(self) -> None:
        cols, rows = self.inner.size
        seconds = self.hang_up_after - self.warn_after
        text = f"Are you there? Press a key within {seconds:.0f} seconds or the line closes."
        self.inner.write(
            f"\a{at(rows, 1)}\x1b[0;1;37;41m{text[: cols - 1]}\x1b[0m{CLEAR_TO_END_OF_LINE}"
        )

    async def _say_goodbye(self) -> None:
        self.inner.write("\x1b[0m\r\n\r\nNo key pressed for a long time: goodbye!\r\n")
        with contextlib.suppress(Disconnected):
            await self.inner.flush()
        self.inner.close()

    def discard_typeahead(self) -> int:
        dropped = len(self._queued)
        self._queued.clear()
        return dropped + self.inner.discard_typeahead()

    # --- everything else passes straight through --------------------------

    @property
    def size(self) -> tuple[int, int]:
        return self.inner.size

    @property
    def term_type(self) -> str | None:
        return self.inner.term_type

    @property
    def charset(self) -> Charset:
        return self.inner.charset

    @charset.setter
    def charset(self, charset: Charset) -> None:
        self.inner.charset = charset

    @property
    def color_mode(self) -> ColorMode:
        return self.inner.color_mode

    @color_mode.setter
    def color_mode(self, mode: ColorMode) -> None:
        self.inner.color_mode = mode

    @property
    def idle(self) -> float:
        return self.inner.idle

    @property
    def backlogged(self) -> bool:
        return self.inner.backlogged

    def write(self, text: str) -> None:
        self.inner.write(text)
        if self._warned and text:
            self._warning_covered = True

    async def flush(self) -> None:
        await self.inner.flush()

    def on_resize(self, listener: ResizeListener) -> Callable[[], None]:
        return self.inner.on_resize(listener)

    def close(self) -> None:
        self.inner.close()
