"""Idle callers: a warning, then the line is closed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from door.term.ansi import CLEAR_TO_END_OF_LINE, ColorMode, at
from door.term.charset import Charset
from door.term.keys import Key
from door.term.terminal import Disconnected, ResizeListener, Terminal


class IdleTimeout(Disconnected):
    """The caller pressed nothing for too long and was disconnected."""


class IdleGuardTerminal:
    """A Terminal whose read_key warns an idle caller, then hangs up.

    The warning is written over the bottom line. The first key after it is
    delivered as Ctrl-L and then as itself, so whatever screen is showing
    repaints itself whole and the warning disappears.
    """

    def __init__(self, inner: Terminal, warn_after: float, hang_up_after: float) -> None:
        self.inner = inner
        self.warn_after = warn_after
        self.hang_up_after = hang_up_after
        self._queued: list[Key] = []

    async def read_key(self) -> Key:
        if self._queued:
            return self._queued.pop(0)
        warned = False
        while True:
            limit = self.hang_up_after if warned else self.warn_after
            try:
                # A deadline on this task, not ``wait_for``, which makes a task of its
                # own (and a future and callbacks) for every key the caller presses.
                async with asyncio.timeout(max(0.0, limit - self.inner.idle)):
                    key = await self.inner.read_key()
            except TimeoutError:
                if self.inner.idle < limit:
                    continue  # a key arrived meanwhile and reset the clock
                if warned:
                    await self._say_goodbye()
                    raise IdleTimeout("the caller was idle too long") from None
                warned = True
                self._warn()
                await self.inner.flush()
                continue
            if warned:
                self._queued.append(key)
                return Key.CTRL_L
            return key

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

    async def flush(self) -> None:
        await self.inner.flush()

    def on_resize(self, listener: ResizeListener) -> Callable[[], None]:
        return self.inner.on_resize(listener)

    def close(self) -> None:
        self.inner.close()
