"""Freezing what lives long, and sweeping the cycles that died frozen."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from door import gc_policy
from tests.door.waiting import until


class Node:
    """Something that can be in a cycle."""

    def __init__(self) -> None:
        self.other: object = None


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()
    gc.unfreeze()  # nothing this test froze stays out of the collector's sight


def dead_frozen_cycle() -> weakref.ref[Node]:
    """A cycle frozen while alive (by a young collection) and then let go."""
    node = Node()
    node.other = node
    gc.collect(0)
    return weakref.ref(node)


def walked(thing: object) -> bool:
    """Whether a collection of any generation would walk ``thing``."""
    return any(other is thing for other in gc.get_objects())


def test_what_lives_through_any_collection_is_frozen(loop: asyncio.AbstractEventLoop) -> None:
    policy = gc_policy.install(loop)
    try:
        survivor = Node()
        assert walked(survivor)
        gc.collect(0)
        assert not walked(survivor)
    finally:
        gc_policy.uninstall(policy)
    newcomer = Node()
    gc.collect(0)
    assert walked(newcomer)  # uninstalled: nothing more is frozen


def test_the_young_are_collected_and_frozen_on_a_timer(loop: asyncio.AbstractEventLoop) -> None:
    thresholds = gc.get_threshold()
    gc.set_threshold(1_000_000_000)  # only the policy's timer collects here
    policy = gc_policy.install(loop, young_every=0.01)
    try:
        survivor = Node()
        assert walked(survivor)
        loop.run_until_complete(until(lambda: not walked(survivor), what="the survivor frozen"))
    finally:
        gc_policy.uninstall(policy)
        gc.set_threshold(*thresholds)
    newcomer = Node()
    loop.run_until_complete(asyncio.sleep(0.05))  # uninstalled: its timer must not freeze
    assert walked(newcomer)  # uninstalled: the timer has stopped


def test_with_the_collector_off_nothing_is_collected_or_frozen(
    loop: asyncio.AbstractEventLoop,
) -> None:
    policy = gc_policy.install(loop, young_every=0.01)
    gc.disable()
    try:
        node = Node()
        node.other = node
        gone = weakref.ref(node)
        del node
        loop.run_until_complete(asyncio.sleep(0.05))  # five timer rounds that must not collect
        assert gone() is not None  # the cycle waits for whoever turned the collector off
        survivor = Node()
        gc.collect()
        assert gone() is None
        assert walked(survivor)
    finally:
        gc.enable()
        gc_policy.uninstall(policy)


def test_a_frozen_object_is_still_freed_when_let_go(loop: asyncio.AbstractEventLoop) -> None:
    policy = gc_policy.install(loop)
    try:
        node = Node()
        gone = weakref.ref(node)
        gc.collect(0)
        assert not walked(node)
        del node
        assert gone() is None
    finally:
        gc_policy.uninstall(policy)


def test_a_cycle_that_died_frozen_waits_for_a_sweep(loop: asyncio.AbstractEventLoop) -> None:
    policy = gc_policy.install(loop)
    try:
        gone = dead_frozen_cycle()
        gc.collect()  # a full collection no longer walks it
        assert gone() is not None
        survivor = Node()
        policy.sweep()
        assert gone() is None
        assert policy.sweeps == 1
        assert not walked(survivor)  # frozen again after the sweep
    finally:
        gc_policy.uninstall(policy)


def test_a_sweep_comes_once_as_many_connections_have_closed_as_there_are_callers(
    loop: asyncio.AbstractEventLoop,
) -> None:
    closed, callers = [10], [40]
    gc.collect()
    gc.freeze()  # as the server does at start
    policy = gc_policy.install(
        loop,
        connections_closed=lambda: closed[0],
        callers=lambda: callers[0],
        check_every=0.01,
        calls_floor=30,
    )
    try:
        gone = dead_frozen_cycle()
        closed[0] += 39  # one short of the 40 callers on now
        loop.run_until_complete(asyncio.sleep(0.05))  # five checks, none of which may sweep
        assert (policy.sweeps, policy.sweep_reason()) == (0, "")
        assert gone() is not None
        closed[0] += 1
        loop.run_until_complete(until(lambda: policy.sweeps > 0, what="a sweep"))
        assert policy.sweeps == 1
        assert gone() is None
        callers[0] = 5  # few callers on: the floor of 30 closed connections holds
        closed[0] += 29
        assert policy.sweep_reason() == ""
        closed[0] += 1
        assert policy.sweep_reason() == "30 connections closed"
    finally:
        gc_policy.uninstall(policy)


def test_callers_arriving_bring_no_sweep_but_objects_that_callers_do_not_explain_do(
    loop: asyncio.AbstractEventLoop,
) -> None:
    gc.collect()
    gc.freeze()  # as the server does at start
    callers = [0]
    # Memory as the objects take it (the process's own moves with whatever other tests
    # left behind).
    policy = gc_policy.install(
        loop, callers=lambda: callers[0], growth=1.5, resident=lambda: 64 * gc.get_freeze_count()
    )
    try:
        assert policy.sweep_reason() == ""
        frozen = gc.get_freeze_count()
        per_caller = frozen // gc_policy.CALLER_ALLOWANCE
        # Callers twice as many as the allowance, each bringing what the door already
        # holds per caller: three times the objects, the same per caller.
        callers[0] = 2 * gc_policy.CALLER_ALLOWANCE
        kept = [[Node() for _ in range(per_caller)] for _ in range(callers[0])]
        gc.collect(0)
        assert gc.get_freeze_count() >= 3 * frozen
        assert policy.sweep_reason() == ""
        callers[0] = 0  # they left, and what they held stayed frozen
        assert policy.sweep_reason().endswith("frozen objects per caller")
        policy.sweep(policy.sweep_reason())
        assert not walked(kept[0][0])  # frozen again after it
        assert policy.sweep_reason() == ""  # measured from the sweep on
    finally:
        gc_policy.uninstall(policy)


def dead_young_cycle() -> weakref.ref[Node]:
    """A cycle let go before any collection saw it."""
    node = Node()
    node.other = node
    return weakref.ref(node)


@pytest.fixture
def no_automatic_collection() -> Iterator[None]:
    thresholds = gc.get_threshold()
    gc.set_threshold(1_000_000_000)  # only the ticks called by hand collect here
    yield
    gc.set_threshold(*thresholds)


def test_a_quiet_tick_freezes_the_young_without_walking_them(
    loop: asyncio.AbstractEventLoop, no_automatic_collection: None
) -> None:
    gc.collect()
    policy = gc_policy.install(loop, young_every=3600)
    try:
        survivor = Node()
        gone = dead_young_cycle()
        policy.tick()
        assert policy.walks == 0
        assert not walked(survivor)  # frozen all the same
        assert gone() is not None  # the price: a cycle let go now waits for a sweep
        policy.sweep()
        assert gone() is None
    finally:
        gc_policy.uninstall(policy)


def test_a_connection_arriving_or_closing_makes_the_next_tick_walk(
    loop: asyncio.AbstractEventLoop, no_automatic_collection: None
) -> None:
    gc.collect()
    seen = [7]
    policy = gc_policy.install(loop, young_every=3600, connections_seen=lambda: seen[0])
    try:
        policy.tick()
        assert policy.walks == 0
        gone = dead_young_cycle()
        seen[0] += 1
        policy.tick()
        assert (policy.walks, gone()) == (1, None)
    finally:
        gc_policy.uninstall(policy)


def test_ticks_walk_on_while_walks_find_cycles_and_now_and_then_regardless(
    loop: asyncio.AbstractEventLoop, no_automatic_collection: None
) -> None:
    gc.collect()
    seen = [0]
    policy = gc_policy.install(
        loop, young_every=3600, walk_every=3, connections_seen=lambda: seen[0]
    )
    try:
        dead_young_cycle()
        seen[0] += 1
        policy.tick()  # walks, and finds the cycle
        gone = dead_young_cycle()
        policy.tick()  # walks again though nothing arrived: the last walk found one
        assert (policy.walks, gone()) == (2, None)
        policy.tick()  # walks once more, and finds nothing
        assert policy.walks == 3
        for _ in range(3):
            policy.tick()  # quiet
        assert policy.walks == 3
        gone = dead_young_cycle()
        policy.tick()  # the fourth quiet tick walks whatever happened
        assert (policy.walks, gone()) == (4, None)
    finally:
        gc_policy.uninstall(policy)


def test_frozen_objects_are_counted_only_once_memory_per_caller_has_grown(
    loop: asyncio.AbstractEventLoop,
) -> None:
    """Counting walks every frozen object, with every caller waiting: a check in steady
    play does not count; memory per caller grown (callers gone, or something kept)
    does."""
    callers, resident = [0], [100_000_000]
    policy = gc_policy.install(loop, callers=lambda: callers[0], resident=lambda: resident[0])
    try:
        for arrived in range(100, 1001, 100):  # they come, each with less than the door's own
            callers[0], resident[0] = arrived, 100_000_000 + 400_000 * arrived
            assert policy.sweep_reason() == ""
        resident[0] = 550_000_000  # 10 % more: play's own ups and downs
        assert policy.sweep_reason() == ""
        callers[0], resident[0] = 1100, 600_000_000  # callers arriving bring memory
        assert policy.sweep_reason() == ""
        assert policy.counts == 0
        callers[0] = 600  # half of them gone: more memory per caller than at the least
        assert policy.sweep_reason() == ""  # (the frozen objects per caller are few)
        assert policy.counts == 1
        assert policy.sweep_reason() == ""  # measured from that count on
        assert policy.counts == 1
        resident[0] = 800_000_000  # something kept, the callers the same
        assert policy.sweep_reason() == ""
        assert policy.counts == 2
    finally:
        gc_policy.uninstall(policy)
