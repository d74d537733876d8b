"""Waiting on the answers of several people at once (the table's questions to all its
players: ready for the deal, go on after a show), until each has answered or gone."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any

from door.table.seats import SeatAway


async def settle_all(
    futures: Iterable[asyncio.Future[Any]], on_each: Callable[[], None] | None = None
) -> None:
    """Wait until every future is answered, withdrawn or its person has gone (SeatAway);
    ``on_each`` is called each time some have. Any other exception is raised."""
    pending = {future for future in futures if not future.done()}
    while pending:
        if len(pending) == 1:
            done, pending = await _settled(*pending), set()
        else:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for future in done:
            if not future.cancelled() and future.exception() is not None:
                error = future.exception()
                if not isinstance(error, SeatAway):
                    raise error
        if on_each is not None:
            on_each()


async def _settled(future: asyncio.Future[Any]) -> set[asyncio.Future[Any]]:
    """The last future (a caller alone at the table: nearly always), once settled. It is
    awaited itself: ``asyncio.wait`` wakes its waiter from a callback of the future's, a
    turn of the loop later, and the frame answering the caller's key waits for that."""
    try:
        await future
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise  # the table is closing (the question was not withdrawn)
    except Exception:
        pass  # looked at as asyncio.wait's are, by ``settle_all``
    return {future}
