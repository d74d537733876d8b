"""A few turns of the event loop for the table to act in before a person at it draws.

The table acts over a turn of the loop or a few: the host resumes a turn after a
caller's answer, and a caller's throw is logged by its own task two turns before the
host cuts. A person who draws at once draws twice, a turn apart, the first frame
replaced before the caller could read it; one who lets the table take its turns first
draws once (door/table/person.py). Each turn looks with a callback, where a
``sleep(0)`` a turn resumed the person's whole chain of coroutines (the call, the lobby,
the table, the step).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


def after_turns(turns: int, done: Callable[[], bool]) -> asyncio.Future[None]:
    """Settled once ``done()``, asked once a turn, or after ``turns`` turns of the loop."""
    loop = asyncio.get_running_loop()
    settled: asyncio.Future[None] = loop.create_future()
    loop.call_soon(_look_again, settled, done, turns)
    return settled


def _look_again(settled: asyncio.Future[None], done: Callable[[], bool], turns: int) -> None:
    if settled.done():
        return  # the person's task was cancelled meanwhile
    if turns <= 1 or done():
        settled.set_result(None)
    else:
        asyncio.get_running_loop().call_soon(_look_again, settled, done, turns - 1)
