"""Password hashing and checking, a few at a time.

An argon2id hash or check takes about 64 MiB for its few tens of milliseconds (argon2-cffi's
RFC 9106 low-memory parameters), scrypt 16 MiB. Run through ``asyncio.to_thread`` every
log-in attempt had one of the default executor's threads (up to 32) at once: random keys
on the web arrival screen, reaching the log-in form on many connections, raised the door's
memory by 65 MB. Through a ``HashPool`` only ``at_once`` run together (one per core: more
would not finish sooner), ``max_waiting`` more wait their turn, and any beyond that are
refused at once with ``HashPoolFull``, whose message is for the caller.
"""

from __future__ import annotations

import asyncio
import functools
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Final, TypeVar

T = TypeVar("T")

BUSY_MESSAGE: Final = "The door is busy checking other passwords: try again in a moment."
MAX_WAITING: Final = 32
"""Checks that may wait for a thread: at 2 cores and ~50 ms a check, the last waits about
0.8 s, still within a caller's patience; past that a caller is better told to try again."""


class HashPoolFull(Exception):
    """Every thread is busy and the queue is full: try again in a moment."""

    def __init__(self) -> None:
        super().__init__(BUSY_MESSAGE)


class HashPool:
    """Runs slow hashing functions on ``at_once`` threads, with a bounded queue."""

    def __init__(self, at_once: int | None = None, max_waiting: int = MAX_WAITING) -> None:
        self.at_once = max(1, at_once if at_once is not None else (os.cpu_count() or 1))
        self.max_waiting = max_waiting
        self._executor = ThreadPoolExecutor(self.at_once, thread_name_prefix="password-check")
        self._lock = threading.Lock()
        self._taken = 0
        """Checks running or waiting, counted until their thread is done with them (a
        caller who hangs up does not stop a check already queued)."""

    @property
    def taken(self) -> int:
        return self._taken

    async def run(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` on one of the pool's threads; raises HashPoolFull when
        ``at_once + max_waiting`` are already running or waiting."""
        with self._lock:
            if self._taken >= self.at_once + self.max_waiting:
                raise HashPoolFull()
            self._taken += 1
        try:
            job: Future[T] = self._executor.submit(functools.partial(function, *args))
        except BaseException:
            self._done(None)
            raise
        job.add_done_callback(self._done)
        return await asyncio.wrap_future(job)

    def _done(self, _job: object) -> None:
        with self._lock:
            self._taken -= 1


_shared: HashPool | None = None
_shared_lock = threading.Lock()


def password_checks() -> HashPool:
    """The process's pool: its bound is on the process's memory, so every transport and
    the store share one (made on first use, sized by the cores)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = HashPool()
        return _shared
