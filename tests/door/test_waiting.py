"""The tests' wait for an outcome: it returns once the outcome holds, reads an async
condition, and fails within its deadline naming what never happened."""

from __future__ import annotations

import asyncio

import pytest

from tests.door.waiting import until


def test_until_returns_once_the_condition_holds_not_at_the_deadline() -> None:
    async def scenario() -> float:
        loop = asyncio.get_running_loop()
        started = loop.time()
        loop.call_later(0.02, flag.append, True)
        await until(lambda: bool(flag), timeout=30)
        return loop.time() - started

    flag: list[bool] = []
    assert asyncio.run(scenario()) < 5


def test_until_awaits_a_condition_that_is_a_coroutine() -> None:
    reads: list[int] = []

    async def written() -> bool:
        reads.append(1)
        return len(reads) >= 3

    asyncio.run(until(written))
    assert len(reads) == 3


def test_until_fails_at_its_deadline_naming_what_never_happened() -> None:
    with pytest.raises(AssertionError, match=r"within 0.05 s, never: Ada in the lobby"):
        asyncio.run(until(lambda: False, 0.05, what=lambda: "Ada in the lobby"))
    with pytest.raises(AssertionError, match=r"never: the backup"):
        asyncio.run(until(lambda: False, 0.05, what="the backup"))
