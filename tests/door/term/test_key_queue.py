"""The terminal's key queue: in order, waited for, never losing a key to a cancelled
reader, and small for every caller on the server."""

from __future__ import annotations

import asyncio
import doctest
import tracemalloc

import pytest

import door.term.key_queue
from door.term.key_queue import KeyQueue


def test_the_examples() -> None:
    assert doctest.testmod(door.term.key_queue).failed == 0


def test_keys_come_out_in_the_order_they_went_in() -> None:
    keys: KeyQueue[str] = KeyQueue()
    for key in "abc":
        keys.put_nowait(key)
    assert keys.qsize() == 3
    assert [keys.get_nowait() for _ in range(3)] == ["a", "b", "c"]
    with pytest.raises(asyncio.QueueEmpty):
        keys.get_nowait()


def test_a_reader_cancelled_while_waiting_takes_nothing() -> None:
    asyncio.run(asyncio.wait_for(_a_reader_cancelled_while_waiting_takes_nothing(), 5))


async def _a_reader_cancelled_while_waiting_takes_nothing() -> None:
    keys: KeyQueue[str] = KeyQueue()
    reading = asyncio.ensure_future(keys.get())
    await asyncio.sleep(0)
    reading.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reading
    keys.put_nowait("a")
    assert await keys.get() == "a"


def test_a_reader_woken_then_cancelled_leaves_the_key_to_the_next() -> None:
    asyncio.run(asyncio.wait_for(_a_reader_woken_then_cancelled_leaves_the_key_to_the_next(), 5))


async def _a_reader_woken_then_cancelled_leaves_the_key_to_the_next() -> None:
    keys: KeyQueue[str] = KeyQueue()
    first = asyncio.ensure_future(keys.get())
    second = asyncio.ensure_future(keys.get())
    await asyncio.sleep(0)
    keys.put_nowait("a")  # wakes the first reader...
    first.cancel()  # ...which is cancelled before it runs
    assert await second == "a"
    assert first.cancelled()
    assert keys.empty()


def test_two_readers_get_one_key_each() -> None:
    asyncio.run(asyncio.wait_for(_two_readers_get_one_key_each(), 5))


async def _two_readers_get_one_key_each() -> None:
    keys: KeyQueue[str] = KeyQueue()
    readers = [asyncio.ensure_future(keys.get()) for _ in range(2)]
    await asyncio.sleep(0)
    keys.put_nowait("a")
    keys.put_nowait("b")
    assert sorted(await asyncio.gather(*readers)) == ["a", "b"]


def test_an_empty_queue_is_small() -> None:
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        queues = [KeyQueue() for _ in range(100)]
        each = (tracemalloc.get_traced_memory()[0] - before) / len(queues)
        before = tracemalloc.get_traced_memory()[0]
        plain = [asyncio.Queue() for _ in range(100)]
        plain_each = (tracemalloc.get_traced_memory()[0] - before) / len(plain)
    finally:
        tracemalloc.stop()
    assert each < 200 < 2000 < plain_each


def test_a_watcher_is_told_of_a_key_and_takes_nothing() -> None:
    asyncio.run(asyncio.wait_for(_a_watcher_is_told_of_a_key_and_takes_nothing(), 5))


async def _a_watcher_is_told_of_a_key_and_takes_nothing() -> None:
    keys: KeyQueue[str] = KeyQueue()
    loop = asyncio.get_running_loop()
    waiter: asyncio.Future[None] = loop.create_future()
    keys.watch(waiter)
    assert not waiter.done()
    keys.put_nowait("a")
    assert waiter.done()
    keys.unwatch(waiter)
    assert keys.qsize() == 1  # still there for whoever reads
    at_once: asyncio.Future[None] = loop.create_future()
    keys.watch(at_once)  # a key is there: told at once
    assert at_once.done()
    keys.unwatch(at_once)
    assert keys.get_nowait() == "a"


def test_a_watcher_that_takes_nothing_passes_its_turn_to_a_reader() -> None:
    asyncio.run(asyncio.wait_for(_a_watcher_that_takes_nothing_passes_its_turn(), 5))


async def _a_watcher_that_takes_nothing_passes_its_turn() -> None:
    keys: KeyQueue[str] = KeyQueue()
    waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    keys.watch(waiter)
    reading = asyncio.ensure_future(keys.get())
    await asyncio.sleep(0)
    keys.put_nowait("a")  # the watcher's turn: the reader is not woken...
    assert waiter.done()
    keys.unwatch(waiter)  # ...until the watcher lets the key be
    assert await reading == "a"


def test_a_watcher_that_stops_before_a_key_is_not_told() -> None:
    asyncio.run(asyncio.wait_for(_a_watcher_that_stops_before_a_key_is_not_told(), 5))


async def _a_watcher_that_stops_before_a_key_is_not_told() -> None:
    keys: KeyQueue[str] = KeyQueue()
    waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    keys.watch(waiter)
    keys.unwatch(waiter)
    reading = asyncio.ensure_future(keys.get())
    await asyncio.sleep(0)
    keys.put_nowait("a")
    assert not waiter.done()
    assert await reading == "a"
