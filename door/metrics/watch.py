"""Whether this process is ready for callers, and how late its event loop runs.

``Health`` is what ``/readyz`` answers from: not ready while starting and while stopping,
nor while the database (or, with several workers, Redis) cannot be reached. A ``Watch``
task keeps it up to date: every ``LAG_TICK`` seconds it notes how late the loop woke it
(the event loop's lag, the longest over the last ``LAG_WINDOW``), and every
``PROBE_SECONDS`` it asks each store a trivial question, with a time limit. Garbage
collections are counted by a ``gc.callbacks`` hook, a clock read at each one's start
and end.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from door.metrics.tally import TALLY, Tally

if TYPE_CHECKING:
    from door.app.records import Records
    from door.cluster.link import ClusterLink

logger = logging.getLogger(__name__)

LAG_TICK: Final = 0.25
LAG_WINDOW: Final = 20
"""Ticks the reported lag is the longest of (five seconds)."""
SNAPSHOT_SECONDS: Final = 5.0
SNAPSHOTS_KEPT: Final = 13
"""Snapshots of the key counts, the oldest a minute old: what ``status`` reports as the
last minute's keys and their latency."""
PROBE_SECONDS: Final = 5.0
PROBE_TIMEOUT: Final = 3.0


@dataclass(frozen=True)
class KeySnapshot:
    keys: int
    buckets: tuple[int, ...]
    seconds: float

    @classmethod
    def of(cls, tally: Tally) -> KeySnapshot:
        return cls(tally.keys, tuple(tally.key_buckets), tally.key_seconds_sum)


@dataclass
class Health:
    """This process's state as ``/readyz`` and ``/metrics`` tell it."""

    starting: bool = True
    stopping: bool = False
    database_up: bool | None = None
    """None: not asked yet, or no database configured to ask."""
    redis_up: bool | None = None
    """None: no Redis (one process)."""
    database_seconds: float = 0.0
    """How long the last question to the database took (waiting for a pooled connection
    included)."""
    loop_lag: float = 0.0
    key_history: deque[KeySnapshot] = field(default_factory=lambda: deque(maxlen=SNAPSHOTS_KEPT))
    """The key counts every SNAPSHOT_SECONDS, oldest first."""

    @property
    def ready(self) -> bool:
        return (
            not self.starting
            and not self.stopping
            and self.database_up is not False
            and self.redis_up is not False
        )

    def why_not_ready(self) -> str:
        if self.starting:
            return "starting"
        if self.stopping:
            return "stopping"
        if self.database_up is False:
            return "the database cannot be reached"
        if self.redis_up is False:
            return "Redis cannot be reached"
        return ""


class GcTimer:
    """A ``gc.callbacks`` hook counting collections and the time they take."""

    def __init__(self, tally: Tally = TALLY) -> None:
        self.tally = tally
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.tally.gc_pauses += 1
            self.tally.gc_seconds += time.perf_counter() - self._started


class Watch:
    """Keeps ``health`` current until ``stop``; see the module docstring."""

    def __init__(
        self, health: Health, records: Records | None, link: ClusterLink | None = None
    ) -> None:
        self.health = health
        self.records = records
        self.link = link
        self._lags: deque[float] = deque(maxlen=LAG_WINDOW)
        self._tasks: list[asyncio.Task[None]] = []
        self._gc_timer = GcTimer()

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._measure_lag(), name="metrics: loop lag"),
            loop.create_task(self._probe_stores(), name="metrics: store probes"),
            loop.create_task(self._snapshot_keys(), name="metrics: key snapshots"),
        ]
        gc.callbacks.append(self._gc_timer)

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._gc_timer)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _measure_lag(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(LAG_TICK)
            self._lags.append(max(0.0, loop.time() - asked - LAG_TICK))
            self.health.loop_lag = max(self._lags)

    async def _snapshot_keys(self) -> None:
        while True:
            self.health.key_history.append(KeySnapshot.of(TALLY))
            await asyncio.sleep(SNAPSHOT_SECONDS)

    async def _probe_stores(self) -> None:
        while True:
            await self.probe_once()
            await asyncio.sleep(PROBE_SECONDS)

    async def probe_once(self) -> None:
        """Ask the database and Redis once each; note what answered."""
        store = self.records.store if self.records is not None else None
        if self.records is not None:
            started = time.perf_counter()
            self.health.database_up = store is not None and await _answers(_ask_database(store))
            self.health.database_seconds = time.perf_counter() - started
        if self.link is not None:
            self.health.redis_up = await _answers(self.link.redis.ping())


async def _ask_database(store: Any) -> None:
    from sqlalchemy import text

    async with store.transaction() as connection:
        await connection.execute(text("SELECT 1"))


async def _answers(question: Any) -> bool:
    try:
        await asyncio.wait_for(question, PROBE_TIMEOUT)
    except Exception as error:  # whatever the store's driver raises: it did not answer
        logger.debug("metrics: a store did not answer: %r", error)
        return False
    return True
