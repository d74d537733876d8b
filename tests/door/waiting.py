"""Waiting in tests for something to happen, not for a time to pass.

A fixed sleep is too long on an idle machine and too short on a busy one; ``until``
looks at the outcome itself, returns as soon as it holds and fails with a message
naming what never happened."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable

POLL_SECONDS = 0.002
"""How often a condition is looked at: the door's own steps take about a millisecond."""


def _describe(what: str | Callable[[], str]) -> str:
    return what() if callable(what) else what


async def until(
    condition: Callable[[], bool | Awaitable[bool]],
    timeout: float = 10.0,
    *,
    what: str | Callable[[], str] = "the condition",
    every: float = POLL_SECONDS,
) -> None:
    """Return once ``condition()`` holds (it may be a coroutine function: a store read,
    say); raise AssertionError naming ``what`` if it does not within ``timeout``
    seconds. ``what`` may be a function, called only then, to show the state."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        held = condition()
        if inspect.isawaitable(held):
            held = await held
        if held:
            return
        if loop.time() > deadline:
            raise AssertionError(f"within {timeout:g} s, never: {_describe(what)}")
        await asyncio.sleep(every)
