"""Freezing what lives long, and sweeping the cycles that died frozen."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from door import gc_policy


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


def walked(thing: object) -> bool:
    """Whether a collection of any generation would walk ``thing``."""
    return any(other is thing for other in gc.get_objects())


def test_what_lives_through_a_middle_collection_is_frozen(loop: asyncio.AbstractEventLoop) -> None:
    policy = gc_policy.install(loop)
    try:
        survivor = Node()
        assert walked(survivor)
        gc.collect(1)
        assert not walked(survivor)
        newcomer = Node()
        assert walked(newcomer)
        gc.collect(0)  # a young collection freezes nothing
        assert walked(newcomer)
    finally:
        gc_policy.uninstall(policy)
    gc.collect(1)
    assert walked(newcomer)  # uninstalled: nothing more is frozen


def test_a_frozen_object_is_still_freed_when_let_go(loop: asyncio.AbstractEventLoop) -> None:
    policy = gc_policy.install(loop)
    try:
        node = Node()
        gone = weakref.ref(node)
        gc.collect(1)
        assert not walked(node)
        del node
        assert gone() is None
    finally:
        gc_policy.uninstall(policy)


def test_a_cycle_that_died_frozen_waits_for_a_sweep(loop: asyncio.AbstractEventLoop) -> None:
    policy = gc_policy.install(loop)
    try:
        node = Node()
        node.other = node
        gone = weakref.ref(node)
        gc.collect(1)
        del node
        gc.collect()  # a full collection no longer walks it
        assert gone() is not None
        policy.sweep()
        assert gone() is None
        assert policy.sweeps == 1
    finally:
        gc_policy.uninstall(policy)


def test_a_sweep_comes_once_the_frozen_objects_have_grown(
    loop: asyncio.AbstractEventLoop,
) -> None:
    gc.collect()
    gc.freeze()
    policy = gc_policy.install(loop, growth=1.01, floor=0)  # limit: 1% over what is frozen
    try:
        node = Node()
        node.other = node
        gone = weakref.ref(node)
        del node
        gc.collect(1)  # frees the cycle while young: nothing to sweep yet
        assert gone() is None
        kept = [Node() for _ in range(gc.get_freeze_count() // 50 + 100)]
        gc.collect(1)  # freezes them: past the limit
        assert policy.sweeps == 0  # not inside the collection's callback
        loop.run_until_complete(asyncio.sleep(0))
        assert policy.sweeps == 1
        assert not any(walked(node) for node in kept[:3])  # frozen again after it
        gc.collect(1)
        loop.run_until_complete(asyncio.sleep(0))
        assert policy.sweeps == 1  # the limit moved on with the sweep
    finally:
        gc_policy.uninstall(policy)
