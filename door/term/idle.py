"""Idle callers: a warning, then the line is closed."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Callable
from typing import Final

from door.term.ansi import CLEAR_TO_END_OF_LINE, ColorMode, at
from door.term.charset import Charset
from door.term.display import PLAIN_DISPLAYS, Display, display_mode_of
from door.term.key_queue import settle
from door.term.keys import Key
from door.term.offers import Offer
from door.term.terminal import Disconnected, ResizeListener, Terminal, read_key_watching


class IdleTimeout(Disconnected):
    """The caller pressed nothing for too long and was disconnected."""


class IdleGuardTerminal:
    """A Terminal whose reads warn an idle caller, then hang up.

    The warning is written over the bottom line (again if the screen has written since,
    perhaps over it). The first key after it is delivered as Ctrl-L and then as itself,
    so whatever screen is showing repaints itself whole and the warning disappears.

    The guard acts while a screen waits for a key: its deadline, a timer handle (no
    task), settles the waiter as a key would, and ``take_key`` then warns, or says
    goodbye and raises ``IdleTimeout``.

    The timer outlives the wait: every key moves the deadline later, and a timer that
    finds it has moved sets itself again for the rest, rather than one timer made and
    cancelled a wait (at 1,200 callers that was 1 % of the server's time). Only a
    deadline that comes sooner (the warning's, once a key answers it) replaces it.

    A player whose table waits on someone else's decision is not idle: the table says
    when that starts and ends (``waiting_on_others``), and the time between is not
    counted. Keys never look at it: only the timer and a wait with no key do.
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
        self._withdrawn = False
        """A warning was withdrawn (``waiting_on_others``) and may still show: the next key
        repaints the screen as a key after a warning does."""
        self._waiters: list[asyncio.Future[None]] = []
        self._timer: asyncio.TimerHandle | None = None
        self._timer_limit = 0.0
        """The limit (``warn_after`` or ``hang_up_after``) the timer was set by."""
        self._waiting_on_others = False
        """The caller's table waits on someone else's decision: nothing is counted."""
        self._waited_until: float | None = None
        """When (the loop's time) the caller's last wait on someone else ended: their
        idleness counts from then at most."""
        # The timer holds the guard weakly: a caller gone is not kept until it fires.
        self._myself = weakref.ref(self)

    async def read_key(self) -> Key:
        return await read_key_watching(self)

    def waiting_on_others(self, waiting: bool) -> None:
        """The caller's table starts (True) or stops waiting on someone else's decision.
        While it does, the guard counts nothing against them (its timer finds no time
        gone by and sets itself again); after, it counts from the moment it stopped. A
        warning given is withdrawn: nothing counts towards the hang-up it promised (and
        it is not written again over what the screen writes next; a relayed caller's
        screen is sent whole once Redis is back, relay.py)."""
        if waiting == self._waiting_on_others:
            return
        self._waiting_on_others = waiting
        if waiting:
            if self._warned:
                self._withdraw_warning()
        else:
            self._waited_until = asyncio.get_running_loop().time()

    def _withdraw_warning(self) -> None:
        self._withdrawn = True
        self._warned = self._warning_covered = False
        timer = self._timer
        if timer is not None and self._timer_limit > self.warn_after:
            # Set by the hang-up's limit: the next warning's comes sooner.
            timer.cancel()
            self._timer = asyncio.get_running_loop().call_later(
                self.warn_after, _deadline_passed, self._myself
            )
            self._timer_limit = self.warn_after

    def _idle(self) -> float:
        """Seconds counted against the caller: since their last key, and since the
        table last waited on someone else."""
        if self._waiting_on_others:
            return 0.0
        idle = self.inner.idle
        waited_until = self._waited_until
        if waited_until is not None:
            idle = min(idle, asyncio.get_running_loop().time() - waited_until)
        return idle

    def _time_left(self) -> float:
        limit = self.hang_up_after if self._warned else self.warn_after
        return limit - self._idle()

    def watch_keys(self, waiter: asyncio.Future[None]) -> None:
        if self._queued or self._warning_covered:
            settle(waiter)  # take_key has something to do at once
            return
        self.inner.watch_keys(waiter)
        self._waiters.append(waiter)
        limit = self.hang_up_after if self._warned else self.warn_after
        timer = self._timer
        if timer is not None and limit >= self._timer_limit:
            # Keys only move the deadline on from the last key: the timer set comes
            # no later than it, and sets itself again for the rest. (Not looked up
            # every wait: the clock twice and the loop's time were a key's 0.5 us.)
            return
        loop = asyncio.get_running_loop()
        due = loop.time() + max(0.0, limit - self._idle())
        if timer is None or timer.when() > due + _SOONER:
            if timer is not None:
                timer.cancel()
            self._timer = loop.call_at(due, _deadline_passed, self._myself)
            self._timer_limit = limit

    def unwatch_keys(self, waiter: asyncio.Future[None]) -> None:
        if waiter in self._waiters:
            self._waiters.remove(waiter)
            self.inner.unwatch_keys(waiter)

    def _deadline_passed(self) -> None:
        self._timer = None
        if not self._waiters:
            return  # the next wait sets it again
        left = self._time_left()
        if left > 0:  # keys came since it was set (or a wait on others): it moved on
            self._timer = asyncio.get_running_loop().call_later(
                left, _deadline_passed, self._myself
            )
            self._timer_limit = self.hang_up_after if self._warned else self.warn_after
            return
        for waiter in self._waiters:
            settle(waiter)

    async def take_key(self) -> Key | None:
        if self._queued:
            return self._queued.pop(0)
        key = await self.inner.take_key()
        if key is not None:
            if self._warned or self._withdrawn:
                self._warned = self._warning_covered = self._withdrawn = False
                self._queued.append(key)
                return Key.CTRL_L
            return key
        # No key. Warn or hang up if the time has come: the deadline may have moved on
        # since it was set (Ctrl-Q, say, is a key the caller pressed that no screen reads).
        idle = self._idle()
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
        display = display_mode_of(self.inner)
        if display is Display.SPEECH:
            # A screen reader's caller types whole lines (their client sends nothing
            # before RETURN), and a bell is read out as noise, if at all: words only.
            text = (
                f"Are you there? Type something and press RETURN within {seconds:.0f}"
                " seconds to stay, or the line closes."
            )
            self.inner.write(f"\r\n{text}\r\n")
            return
        if display in PLAIN_DISPLAYS:
            self.inner.write(f"\a\r\n{text}\r\n")
            return
        self.inner.write(
            f"\a{at(rows, 1)}\x1b[0;1;37;41m{text[: cols - 1]}\x1b[0m{CLEAR_TO_END_OF_LINE}"
        )

    async def _say_goodbye(self) -> None:
        reset = "" if display_mode_of(self.inner) in PLAIN_DISPLAYS else "\x1b[0m"
        self.inner.write(f"{reset}\r\n\r\nNo key pressed for a long time: goodbye!\r\n")
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
    def display_mode(self) -> Display:
        return display_mode_of(self.inner)

    @display_mode.setter
    def display_mode(self, mode: Display) -> None:
        self.inner.display_mode = mode  # type: ignore[attr-defined]

    @property
    def mouse_reporting(self) -> bool:
        return self.inner.mouse_reporting

    @mouse_reporting.setter
    def mouse_reporting(self, on: bool) -> None:
        self.inner.mouse_reporting = on

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

    def offer_keys(self, offers: tuple[Offer, ...]) -> None:
        """The keys on offer, to a terminal whose page shows them (the web's)."""
        offer_keys = getattr(self.inner, "offer_keys", None)
        if offer_keys is not None:
            offer_keys(offers)

    def on_resize(self, listener: ResizeListener) -> Callable[[], None]:
        return self.inner.on_resize(listener)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.inner.close()


def tell_waiting_on_others(terminal: Terminal, waiting: bool) -> None:
    """Tell ``terminal``'s idle guard, if it has one (the sysop at the console has
    none), that its caller's table starts or stops waiting on someone else (or, for a
    caller relayed to another worker, that the guard there watches them: relay.py)."""
    if isinstance(terminal, IdleGuardTerminal):
        terminal.waiting_on_others(waiting)


_SOONER: Final = 0.001
"""How much sooner a deadline must come than the timer set to replace it (seconds)."""


def _deadline_passed(guard: weakref.ref[IdleGuardTerminal]) -> None:
    alive = guard()
    if alive is not None:
        alive._deadline_passed()
