"""Garbage-collection pauses, timed with ``gc.callbacks``, for the load bench.

The server times every collection only when ``CRIBBAGE_GC_REPORT`` names a file: at exit
it writes there, as JSON, how many collections each generation had, the longest pause
of each, the time spent in all of them, and each pause of a millisecond or more with
when it began (``time.monotonic()``, which every process on the machine shares), so that
a bench can tell the pauses of its measured window from those of start-up (the full
collection before ``gc.freeze()``) and of callers arriving. Nothing is timed otherwise,
so the door pays nothing for it in normal service.

With the report asked for, ``SIGUSR2`` makes the server run a full collection at once
(timed like any other): at the load it is under, the bench learns what a full collection
costs, which the shipped thresholds make too rare to fall inside a measured window.

Each pause is also timed in the process's CPU time: a pause much longer on the clock
than in CPU is the process waiting for its core (the kernel, the network), not the
collector at work.

>>> watch = GcWatch(clock=iter([1.0, 1.002]).__next__, cpu_clock=iter([5.0, 5.0015]).__next__)
>>> watch("start", {"generation": 2}); watch("stop", {"generation": 2})
>>> watch.report()["max_pause_ms"], watch.report()["pauses"]
([0.0, 0.0, 2.0], [[1.0, 2, 2.0, 1.5]])
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import signal
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

REPORT_VARIABLE: Final = "CRIBBAGE_GC_REPORT"
NOTED_PAUSE: Final = 0.001
MAX_PAUSES_KEPT: Final = 100_000


class GcWatch:
    """A ``gc.callbacks`` entry that books each collection's pause by generation."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        cpu_clock: Callable[[], float] = time.thread_time,
    ) -> None:
        self._clock = clock
        self._cpu_clock = cpu_clock
        self._started: float | None = None
        self._cpu_started = 0.0
        self.collections = [0, 0, 0]
        self.max_pause = [0.0, 0.0, 0.0]
        self.total = 0.0
        self.pauses: deque[tuple[float, int, float, float]] = deque(maxlen=MAX_PAUSES_KEPT)
        """(began, generation, pause in ms, CPU in ms) of each pause of ``NOTED_PAUSE``
        or more."""

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = self._clock()
            self._cpu_started = self._cpu_clock()
            return
        if self._started is None:
            return
        began = self._started
        pause = self._clock() - began
        cpu = self._cpu_clock() - self._cpu_started
        self._started = None
        generation = int(info.get("generation", 0))
        if pause >= NOTED_PAUSE:
            self.pauses.append(
                (round(began, 3), generation, round(pause * 1000, 3), round(cpu * 1000, 3))
            )
        self.collections[generation] += 1
        self.max_pause[generation] = max(self.max_pause[generation], pause)
        self.total += pause

    def report(self) -> dict[str, Any]:
        return {
            "collections": list(self.collections),
            "max_pause_ms": [round(pause * 1000, 3) for pause in self.max_pause],
            "total_ms": round(self.total * 1000, 3),
            "pauses": [list(pause) for pause in self.pauses],
        }


def watch_if_asked() -> GcWatch | None:
    """Time collections and write the report at exit when the environment asks."""
    target = os.environ.get(REPORT_VARIABLE)
    if not target:
        return None
    watch = GcWatch()
    gc.callbacks.append(watch)
    signal.signal(signal.SIGUSR2, lambda number, frame: gc.collect())

    def write() -> None:
        Path(target).write_text(json.dumps(watch.report()))

    atexit.register(write)
    return watch
