"""Run the computer player's decisions off the event loop.

A decision is pure CPU work over a game the session is not touching while it
waits, so a small thread pool is enough to keep other callers' keys flowing;
the pool is bounded so a crowd of games cannot start a crowd of threads.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
from collections.abc import Callable
from typing import TypeVar

Result = TypeVar("Result")

_pool: concurrent.futures.ThreadPoolExecutor | None = None


def _executor() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="think")
    return _pool


async def think(decide: Callable[..., Result], *args: object, **kwargs: object) -> Result:
    """Await ``decide(*args, **kwargs)`` computed on a worker thread."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_executor(), functools.partial(decide, *args, **kwargs))


def shutdown() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None
