"""Password hashing through a bounded pool: how many run at once, how many may wait."""

from __future__ import annotations

import asyncio
import threading

import pytest

from door.defence.hash_pool import HashPool, HashPoolFull
from tests.door.caller import run_async
from tests.door.waiting import until


@run_async
async def test_the_pool_runs_at_most_its_threads_at_once_and_refuses_past_its_queue() -> None:
    pool = HashPool(at_once=2, max_waiting=3)
    gate = threading.Event()
    running = []

    def slow(n: int) -> int:
        running.append(n)
        gate.wait(5)
        return n

    jobs = [asyncio.ensure_future(pool.run(slow, n)) for n in range(5)]
    await until(lambda: len(running) == 2, what="two hashes running")
    assert len(running) == 2  # two threads; three wait
    with pytest.raises(HashPoolFull, match="busy checking"):
        await pool.run(slow, 99)
    gate.set()
    assert await asyncio.gather(*jobs) == [0, 1, 2, 3, 4]
    assert pool.taken == 0
    assert await pool.run(slow, 7) == 7  # room again once they are done
