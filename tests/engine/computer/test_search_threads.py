"""The master's C searches of the play let other threads run while they search.

The door decides for the computer on thinking threads (door/table/computer.py) beside the
event loop. A C call that kept the GIL for its whole search stopped the loop, and every
caller's keys with it, for as long as the search took (tens of milliseconds at three and
four players). Each search here is made long on purpose (the most samples), and the main
thread must keep running meanwhile.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Callable

import pytest

from engine.computer.full_play import FULL_PLAY, PlayScore, full_play_values
from engine.computer.table_full_play import (
    FAR,
    TABLE_FULL_PLAY,
    TableScore,
    table_full_play_values,
)

TWO_PLAYER_SAMPLES = 4096  # the most: about 50 ms of search
TABLE_SAMPLES = 256  # about 0.2 s of search at three players, twelve cards


def _longest_stall(search: Callable[[], object]) -> tuple[float, float]:
    """(the longest the main thread went without running, how long the search took) while
    ``search`` runs on a thread of its own."""
    started = threading.Event()
    took: list[float] = []

    def run() -> None:
        started.set()
        began = time.perf_counter()
        search()
        took.append(time.perf_counter() - began)

    # While the worker runs Python (checking its arguments), the two threads take turns
    # at this interval: short, so that only a search that keeps the GIL stalls for long.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    try:
        worker = threading.Thread(target=run)
        worker.start()
        started.wait()
        longest = 0.0
        last = time.perf_counter()
        while worker.is_alive():
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    return longest, took[0]


def _two_player_hands() -> list[tuple[int, ...]]:
    rng = random.Random(3)
    pool = [rank for rank in range(1, 14) for _ in range(4)]
    for rank in (5, 5, 10, 11):  # ours
        pool.remove(rank)
    return [tuple(rng.sample(pool, 4)) for _ in range(TWO_PLAYER_SAMPLES)]


def _three_player_hands() -> list[tuple[tuple[int, ...], ...]]:
    rng = random.Random(4)
    pool = [rank for rank in range(1, 14) for _ in range(4)]
    for rank in (5, 6, 7, 10):  # ours
        pool.remove(rank)
    hands = []
    for _ in range(TABLE_SAMPLES):
        drawn = rng.sample(pool, 8)
        hands.append((tuple(drawn[:4]), tuple(drawn[4:])))
    return hands


@pytest.mark.skipif(not FULL_PLAY.in_c, reason="the C search is not built")
def test_the_two_player_search_lets_the_event_loop_run() -> None:
    hands = _two_player_hands()

    def search() -> object:
        return full_play_values(
            (5, 5, 10, 11), hands, (), opp_said_go=False, exact=False, score=PlayScore.points()
        )

    longest, took = _longest_stall(search)
    assert took > 0.02, "the search must be long enough to tell"
    assert longest < took / 4, f"the main thread stood still {longest:.3f} s of {took:.3f} s"


@pytest.mark.skipif(not TABLE_FULL_PLAY.in_c, reason="the C search is not built")
def test_the_table_search_lets_the_event_loop_run() -> None:
    hands = _three_player_hands()
    score = TableScore((0, 1, 2), (0.3,) * 3, ((0.01, -0.01, -0.01),) * 3, (FAR,) * 3)

    def search() -> object:
        return table_full_play_values((5, 6, 7, 10), hands, (), 0, exact=False, score=score)

    longest, took = _longest_stall(search)
    assert took > 0.02, "the search must be long enough to tell"
    assert longest < took / 4, f"the main thread stood still {longest:.3f} s of {took:.3f} s"
