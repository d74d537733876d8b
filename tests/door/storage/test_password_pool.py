"""The store hashes and checks passwords through the bounded pool (each argon2 check
holds 64 MiB): a few at a time however many callers try at once, and a clear message
when too many wait."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import argon2

from door.defence.hash_pool import BUSY_MESSAGE, HashPool
from door.storage.errors import LoginError, StorageUnavailableError
from tests.door.caller import run_async
from tests.door.storage.conftest import Database


class CountingHasher(argon2.PasswordHasher):
    """The cheapest argon2id, taking 20 ms a call, counting how many run at once."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.lock = threading.Lock()
        self.running = 0
        self.most_at_once = 0
        self.gate = threading.Event()
        """Cleared, every call waits for it (up to 10 s) before it hashes."""
        self.gate.set()

    def _counted(self, work):  # type: ignore[no-untyped-def]
        with self.lock:
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
        try:
            self.gate.wait(10)
            time.sleep(0.02)
            return work()
        finally:
            with self.lock:
                self.running -= 1

    def hash(self, password, *, salt=None):  # type: ignore[no-untyped-def,override]
        return self._counted(lambda: super(CountingHasher, self).hash(password, salt=salt))

    def verify(self, hash, password):  # type: ignore[no-untyped-def,override]  # noqa: A002
        return self._counted(lambda: super(CountingHasher, self).verify(hash, password))


@run_async
async def test_log_ins_and_sign_ups_hash_a_few_at_a_time(sqlite_database: Database) -> None:
    hasher = CountingHasher()
    async with sqlite_database.store(hasher=hasher) as store:
        store.hash_pool = HashPool(at_once=2, max_waiting=64)
        await store.create_account("Ada", "correct horse")
        hasher.most_at_once = 0
        attempts = [store.verify_login("Ada", f"wrong guess {n}") for n in range(16)]
        attempts += [store.verify_login(f"nobody{n}", "whatever1") for n in range(8)]
        results = await asyncio.gather(*attempts, return_exceptions=True)
        assert all(isinstance(result, LoginError) for result in results)
        # Before the pool, asyncio.to_thread ran as many as the default executor's
        # threads (cores + 4) together.
        assert hasher.most_at_once == 2


@run_async
async def test_a_full_pool_is_a_clear_message_not_a_wrong_password(
    sqlite_database: Database,
) -> None:
    hasher = CountingHasher()
    async with sqlite_database.store(hasher=hasher) as store:
        store.hash_pool = HashPool(at_once=1, max_waiting=1)
        await store.create_account("Ada", "correct horse")
        hasher.gate.clear()  # the first check holds its thread, the second waits for it
        logins = [
            asyncio.ensure_future(store.verify_login("Ada", "correct horse")) for _ in range(6)
        ]
        pending: set[asyncio.Future[Any]] = set(logins)
        while len(pending) > 2:  # the four beyond are refused at once
            done, pending = await asyncio.wait(
                pending, timeout=3, return_when=asyncio.FIRST_COMPLETED
            )
            if not done:
                break  # (before the pool all six held a thread each)
        hasher.gate.set()
        results = await asyncio.gather(*logins, return_exceptions=True)
        refused = [r for r in results if isinstance(r, StorageUnavailableError)]
        assert len(refused) == 4 and all(str(r) == BUSY_MESSAGE for r in refused)
        assert sum(1 for r in results if not isinstance(r, BaseException)) == 2
