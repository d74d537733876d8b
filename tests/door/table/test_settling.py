"""door/table/settling.py: waiting until each of the table's open questions is answered,
withdrawn or its person gone; one alone is awaited itself."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from door.table.seats import SeatAway
from door.table.settling import settle_all
from tests.door.caller import run_async

Settle = Callable[[asyncio.Future[Any]], None]


def answered(future: asyncio.Future[Any]) -> None:
    future.set_result("go on")


def withdrawn(future: asyncio.Future[Any]) -> None:
    future.cancel()


def gone(future: asyncio.Future[Any]) -> None:
    future.set_exception(SeatAway("Ann"))


@pytest.mark.parametrize("settle", [answered, withdrawn, gone], ids=lambda f: f.__name__)
@pytest.mark.parametrize("questions", [1, 2])
@run_async
async def test_every_question_settled_ends_the_wait(settle: Settle, questions: int) -> None:
    loop = asyncio.get_running_loop()
    futures = [loop.create_future() for _ in range(questions)]
    settled: list[int] = []
    waiting = asyncio.ensure_future(settle_all(futures, on_each=lambda: settled.append(1)))
    for future in futures:
        await asyncio.sleep(0)
        assert not waiting.done()
        settle(future)
    await asyncio.wait_for(waiting, 1)
    assert 1 <= len(settled) <= questions  # (two settled in one turn are one round)


@pytest.mark.parametrize("questions", [1, 2])
@run_async
async def test_another_error_is_raised(questions: int) -> None:
    loop = asyncio.get_running_loop()
    futures = [loop.create_future() for _ in range(questions)]
    waiting = asyncio.ensure_future(settle_all(futures))
    await asyncio.sleep(0)
    futures[0].set_exception(RuntimeError("a bug"))
    with pytest.raises(RuntimeError, match="a bug"):
        await asyncio.wait_for(waiting, 1)


@run_async
async def test_the_table_closing_stops_the_wait_on_a_lone_question() -> None:
    # The host's task cancelled (the table closing) is not taken for a question withdrawn.
    future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    waiting = asyncio.ensure_future(settle_all([future]))
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
