"""The store's index of handles (door/storage/handle_index.py): a guest's name is checked
without a database query per sign-in, and a busy pool is a clear refusal, never a crash."""

from __future__ import annotations

import contextlib
import doctest
from collections.abc import AsyncIterator

import pytest

import door.storage.accounts as accounts_module
import door.storage.database as database_module
import door.storage.handle_index
from door.app.account_checks import name_is_an_account
from door.storage.errors import StorageUnavailableError
from door.storage.handle_index import HandleIndex
from door.storage.store import Store
from tests.door.caller import run_async
from tests.door.storage.conftest import Database

PASSWORD = "correct horse"


def test_module_examples_run() -> None:
    assert doctest.testmod(door.storage.handle_index).failed == 0


def test_the_index_finds_a_handle_in_any_case_and_its_lookalikes() -> None:
    index = HandleIndex(["Ada", "Bill"])
    assert index.member("aDa") == "Ada"
    assert index.member("\u0410da") is None  # a Cyrillic A: not the same handle...
    assert index.lookalike("\u0410da") == "Ada"  # ...but it looks the same
    assert index.lookalike("BILL") == "Bill"
    assert index.lookalike("Bi11") == "Bill"  # digits one as l
    assert index.lookalike("Bil") is None
    index.add("Bob")
    assert index.member("BOB") == "Bob" and len(index) == 3


@contextlib.asynccontextmanager
async def queries_counted(store: Store) -> AsyncIterator[list[int]]:
    """How many transactions the store opens inside the block."""
    opened = [0]
    real = store._transaction

    @contextlib.asynccontextmanager
    async def counting():  # type: ignore[no-untyped-def]
        opened[0] += 1
        async with real() as connection:
            yield connection

    store._transaction = counting  # type: ignore[method-assign]
    try:
        yield opened
    finally:
        del store._transaction


@run_async
async def test_many_guest_names_are_checked_with_one_read(database: Database) -> None:
    async with database.store() as store:
        await store.create_account("Ada", PASSWORD)
        async with queries_counted(store) as opened:
            answers = [await name_is_an_account(store, name) for name in ("ada", "Guest1") * 50]
        assert answers == [True, False] * 50
        assert opened[0] == 1  # the index, read once


@run_async
async def test_new_members_are_in_the_index_at_once(database: Database) -> None:
    async with database.store() as store:
        assert not await name_is_an_account(store, "Bob")
        await store.create_account("Bob", PASSWORD)
        assert await name_is_an_account(store, "BOB")
        assert await store.lookalike_handle("B0b") == "Bob"


@run_async
async def test_another_process_s_members_are_seen_when_the_index_is_read_again(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with database.store() as here, database.store() as elsewhere:
        assert not await name_is_an_account(here, "Cyd")
        await elsewhere.create_account("Cyd", PASSWORD)
        assert not await name_is_an_account(here, "Cyd")  # trusted for a minute
        monkeypatch.setattr(accounts_module, "FRESH_SECONDS", 0.0)  # the minute is up
        assert await name_is_an_account(here, "Cyd")


@run_async
async def test_a_pool_with_no_connection_free_is_a_clear_refusal(
    sqlite_database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database_module, "POOL_WAIT_SECONDS", 0.2)
    async with sqlite_database.store() as store:
        engine = store._engine
        held = [await engine.connect() for _ in range(engine.pool.size() + 10)]
        try:
            with pytest.raises(StorageUnavailableError, match="too busy"):
                await store.account("Ada")
        finally:
            for connection in held:
                await connection.close()
        assert await store.account("Ada") is None  # and it serves again once one is free
