"""Run the computer player's slow decisions off the event loop, and its quick ones on it.

A decision is pure CPU work over a snapshot of the game, so a small thread pool is
enough to keep other callers' keys flowing while an expert weighs a discard; the pool
is bounded so a crowd of games cannot start a crowd of threads. Handing work to a
thread costs more than a quick decision (a cut, a claim, anything at the easy and
normal levels: under half a millisecond, bench/load.py's profile), so those are made
at once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import time
from collections.abc import Callable
from typing import Final, TypeVar

from door.metrics.tally import TALLY
from engine.computer.player import ComputerPlayer

Result = TypeVar("Result")

QUICK_LEVELS: Final = frozenset({"easy", "normal"})
"""Levels whose every decision takes well under a millisecond (median 0.04-0.1 ms)."""
QUICK_DECISIONS: Final = frozenset({"cut", "claim"})
"""Decisions quick at any level."""

_pool: concurrent.futures.ThreadPoolExecutor | None = None


def _executor() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="think")
    return _pool


def is_quick(decide: Callable[..., object]) -> bool:
    """Whether ``decide`` (a bound ComputerPlayer method) is quicker than a thread hop."""
    player = getattr(decide, "__self__", None)
    if not isinstance(player, ComputerPlayer):
        return False
    return player.level in QUICK_LEVELS or getattr(decide, "__name__", "") in QUICK_DECISIONS


async def think(decide: Callable[..., Result], *args: object, **kwargs: object) -> Result:
    """Await ``decide(*args, **kwargs)``: on a worker thread, or at once if it is quick."""
    started = time.perf_counter()
    try:
        if is_quick(decide):
            return decide(*args, **kwargs)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_executor(), functools.partial(decide, *args, **kwargs))
    finally:
        TALLY.computer_decisions += 1
        TALLY.computer_seconds += time.perf_counter() - started


def shutdown() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None
