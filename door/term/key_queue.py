"""The keys a caller typed ahead, waiting for the screen to read them.

An ``asyncio.Queue`` would do, but it keeps three deques and an ``Event`` with a fourth
from the start, each with room for 64 items: 2.5 KB for every caller on the server (2% of
a session) to hold the few keys a caller types ahead. This keeps a list of keys and a
list of the readers waiting. It is a queue in every way the terminal uses one: keys come
out in the order they went in, a reader waits for the next one, and a reader cancelled
while waiting takes nothing away.

A reader may also only *watch* (``watch``/``unwatch``): its future is settled when a key
is there to take, and it takes the key later, or not at all. That is how a screen races
the caller's next key against news from elsewhere with one future and no task
(door/term/inbox.py): keys leave the queue only when a screen reads them.

>>> import asyncio
>>> async def typed():
...     keys = KeyQueue()
...     reading = asyncio.ensure_future(keys.get())
...     await asyncio.sleep(0)
...     keys.put_nowait("a"); keys.put_nowait("b")
...     return await reading, keys.get_nowait(), keys.empty()
>>> asyncio.run(typed())
('a', 'b', True)
"""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

Item = TypeVar("Item")


class KeyQueue(Generic[Item]):
    """A first-in first-out queue without a bound (the terminal bounds what it puts)."""

    __slots__ = ("_items", "_readers")

    def __init__(self) -> None:
        self._items: list[Item] = []  # a few keys at most: taking the first is cheap
        self._readers: list[asyncio.Future[None]] = []

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items

    def put_nowait(self, item: Item) -> None:
        self._items.append(item)
        self._wake_one()

    def get_nowait(self) -> Item:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.pop(0)

    def watch(self, waiter: asyncio.Future[None]) -> None:
        """Settle ``waiter`` when an item is there to take: at once if one is. It takes
        its turn with the readers of ``get``; ``unwatch`` must follow, taken or not."""
        if self._items:
            settle(waiter)
        else:
            self._readers.append(waiter)

    def unwatch(self, waiter: asyncio.Future[None]) -> None:
        """Stop watching. A watcher woken for an item it may not take (its screen was
        woken by news, or cancelled) passes the turn on, as a cancelled ``get`` does; if
        it does take the item, the reader woken finds none and waits again."""
        if waiter in self._readers:
            self._readers.remove(waiter)
        elif self._items and self._readers:
            self._wake_one()

    async def get(self) -> Item:
        while not self._items:
            reader: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._readers.append(reader)
            try:
                await reader
            except BaseException:
                if reader in self._readers:
                    self._readers.remove(reader)
                elif self._items:
                    self._wake_one()  # woken, then cancelled: the key is another's turn
                raise
        return self._items.pop(0)

    def _wake_one(self) -> None:
        readers = self._readers
        while readers:
            reader = readers.pop(0)
            if not reader.done():
                reader.set_result(None)
                return


def settle(waiter: asyncio.Future[None]) -> None:
    """Settle a waiter that may be settled already (by what it raced)."""
    if not waiter.done():
        waiter.set_result(None)
