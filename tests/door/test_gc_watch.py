"""The load bench's view of garbage collection: pauses timed in the server process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from door.gc_watch import GcWatch

PROGRAM = """
import gc
from door.gc_watch import watch_if_asked
watch_if_asked()
junk = []
for _ in range(50_000):
    node = []
    node.append(node)  # a cycle only the collector frees
    junk.append(node)
del junk
gc.collect(2)
"""


def test_a_process_asked_for_a_report_writes_its_collections_at_exit(tmp_path: Path) -> None:
    report = tmp_path / "gc.json"
    env = {**os.environ, "CRIBBAGE_GC_REPORT": str(report)}
    subprocess.run([sys.executable, "-c", PROGRAM], env=env, check=True, timeout=60)
    figures = json.loads(report.read_text())
    assert figures["collections"][2] >= 1
    assert figures["max_pause_ms"][2] > 0
    assert figures["total_ms"] >= max(figures["max_pause_ms"])


def test_without_the_variable_nothing_is_timed(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "CRIBBAGE_GC_REPORT"}
    program = "from door.gc_watch import watch_if_asked; print(watch_if_asked())"
    out = subprocess.run(
        [sys.executable, "-c", program], env=env, check=True, capture_output=True, text=True
    )
    assert out.stdout.strip() == "None"


def test_each_generation_keeps_its_longest_pause() -> None:
    ticks = iter([0.0, 0.001, 1.0, 1.005, 2.0, 2.002])
    watch = GcWatch(clock=lambda: next(ticks))
    for generation in (0, 0, 0):
        watch("start", {"generation": generation})
        watch("stop", {"generation": generation})
    assert watch.report()["collections"] == [3, 0, 0]
    assert watch.report()["max_pause_ms"][0] == 5.0


def test_a_pause_is_also_timed_in_cpu_so_waiting_for_the_core_shows() -> None:
    ticks = iter([10.0, 10.050])  # 50 ms on the clock...
    cpu = iter([3.0, 3.004])  # ...of which the collector ran 4
    watch = GcWatch(clock=lambda: next(ticks), cpu_clock=lambda: next(cpu))
    watch("start", {"generation": 1})
    watch("stop", {"generation": 1})
    assert watch.report()["pauses"] == [[10.0, 1, 50.0, 4.0]]


def test_the_examples() -> None:
    import doctest

    import door.gc_watch

    assert doctest.testmod(door.gc_watch).failed == 0
