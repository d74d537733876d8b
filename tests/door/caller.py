"""A scripted caller for table tests: a FakeTerminal that knows when the door waits for a
key, and a driver that answers whatever the status line asks for."""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Callable, Coroutine
from typing import Any

import pyte

from door.table.win_bars import bar_queue
from door.term.canvas import picture_top
from door.term.keys import Key
from tests.door.fake_terminal import FakeTerminal

TIMEOUT = 60.0
BAR_DRAWN_TURNS = 10


def run_async(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(asyncio.wait_for(test(*args, **kwargs), TIMEOUT))

    return run


def screen_of(terminal: FakeTerminal) -> pyte.Screen:
    """The caller's screen with everything written so far on it (a terminal may gather
    writes until its next flush; reading ``output`` counts them as sent)."""
    terminal.output  # noqa: B018
    return terminal.screen


class KeyboardTerminal(FakeTerminal):
    """Counts keys pressed and read, so a test can wait until the door wants the next."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pressed = 0
        self.read = 0
        self.dropped = 0
        self.reading = False

    def press(self, *keys: Key | str) -> None:
        for key in keys:
            self.pressed += 1 if isinstance(key, Key) else len(key)
            self.push_keys(key)

    def discard_typeahead(self) -> int:
        dropped = super().discard_typeahead()
        self.read += dropped  # dropped keys count as taken: the door waits for the next
        self.dropped += dropped
        return dropped

    async def read_key(self) -> Key:
        self.reading = True
        try:
            key = await super().read_key()
        finally:
            self.reading = False
        self.read += 1
        return key

    # A screen shared with others (door/term/inbox.py) watches for a key, then takes it.

    def watch_keys(self, waiter: asyncio.Future[None]) -> None:
        self.reading = True
        super().watch_keys(waiter)

    def unwatch_keys(self, waiter: asyncio.Future[None]) -> None:
        self.reading = False
        super().unwatch_keys(waiter)

    async def take_key(self) -> Key | None:
        key = await super().take_key()
        if key is not None:
            self.read += 1
        return key

    async def until_waiting(self, task: asyncio.Future[Any]) -> None:
        """Return once every key pressed has been read and the door waits for another
        (or the game has ended), with the win bars the keys asked for drawn."""
        while True:
            while not (self.reading and self.read == self.pressed) and not task.done():
                await asyncio.sleep(0.001)
            if task.done():
                break
            while bar_queue():
                await asyncio.sleep(0.001)
            # A bar worked out (maybe before the first look) tells whoever asked for it,
            # who draw it a few turns of the loop later.
            for _ in range(BAR_DRAWN_TURNS):
                await asyncio.sleep(0)
            if self.reading and self.read == self.pressed and not bar_queue():
                break
        if task.done() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]

    @property
    def top(self) -> int:
        """The row the door's 24-row picture starts at (centred in a taller window)."""
        return picture_top(self.size[1])

    @property
    def status(self) -> str:
        return self.display[self.top + 23]

    @property
    def message(self) -> str:
        return self.display[self.top + 22].strip()

    def cell(self, row: int, col: int) -> pyte.screens.Char:
        return self.screen.buffer[row][col]

    def find(self, text: str) -> tuple[int, int] | None:
        """(row, col) where ``text`` first shows on screen, or None."""
        for row, line in enumerate(self.display):
            col = line.find(text)
            if col >= 0:
                return row, col
        return None

    def shows(self, text: str) -> bool:
        return self.find(text) is not None

    def score(self, name: str) -> int:
        """A player's score as the board's middle rail shows it."""
        rail = self.display[self.top + 4]
        match = re.search(rf"{re.escape(name)} (\d+) \((?:above|below)\)", rail)
        assert match, rail
        return int(match.group(1))


def answer(status: str, play_again: bool = False) -> tuple[Key | str, ...]:
    """The keys a caller presses for what the status line says works now."""
    if "blank line: deal" in status:
        return (Key.ENTER,)
    if "RETURN mark" in status:
        return (Key.ENTER, Key.RIGHT)
    if "RETURN throw" in status:
        return (Key.ENTER,)
    if "RETURN cut" in status:
        return ("7", Key.ENTER)
    if "RETURN play" in status:
        return (Key.ENTER,)
    if "RETURN go on" in status:
        return (Key.ENTER,)
    if "your count" in status:
        return ("0", Key.ENTER)
    if "y play again" in status or "y next game" in status:
        return ("y" if play_again else "n",)
    raise AssertionError(f"the status line offers nothing to press: {status!r}")


async def play_through(
    terminal: KeyboardTerminal,
    task: asyncio.Future[Any],
    *,
    stop: Callable[[KeyboardTerminal], bool] = lambda terminal: False,
    play_again: bool = False,
    max_steps: int = 2000,
) -> int:
    """Press what the status line asks for until the game ends or ``stop`` says so;
    returns the number of steps taken."""
    for step in range(max_steps):
        await terminal.until_waiting(task)
        if task.done() or stop(terminal):
            return step
        terminal.press(*answer(terminal.status, play_again))
    raise AssertionError("the game did not end")


def answer_at_table(status: str) -> tuple[Key | str, ...] | None:
    """What a caller at a table with other people presses for ``status``, or None when
    the status line says they are waiting for someone else."""
    if status.lstrip().startswith(("Waiting", "Watching", "Type to chat  RETURN send")):
        return None
    if " to deal  c chat" in status:  # another caller is to deal
        return None
    if "p computer plays" in status:
        return None  # someone's line dropped: wait for them unless the test says
    if "blank line: ready" in status:
        return (Key.ENTER,)
    if "RETURN back to the lobby" in status:
        return (Key.ENTER,)
    try:
        return answer(status)
    except AssertionError:
        return None  # between two steps: the screen is about to change


async def play_together(
    terminals: list[KeyboardTerminal],
    tasks: list[asyncio.Future[Any]] | None = None,
    *,
    stop: Callable[[], bool] = lambda: False,
    max_steps: int = 20000,
) -> int:
    """Every caller presses what their status line asks for until all their tasks are
    done or ``stop`` says so; returns the number of keys pressed. Without ``tasks`` (the
    callers' sessions go on after the game) only ``stop`` ends it."""
    pressed = 0
    if tasks is None:
        tasks = [asyncio.get_running_loop().create_future() for _ in terminals]
    for _ in range(max_steps):
        for task in tasks:
            if task.done() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        if all(task.done() for task in tasks) or stop():
            return pressed
        acted = False
        for terminal, task in zip(terminals, tasks, strict=True):
            if task.done() or not (terminal.reading and terminal.read == terminal.pressed):
                continue
            keys = answer_at_table(terminal.status)
            if keys:
                terminal.press(*keys)
                pressed += 1
                acted = True
        await asyncio.sleep(0 if acted else 0.002)
    raise AssertionError("the game did not end: " + " | ".join(t.status for t in terminals))
