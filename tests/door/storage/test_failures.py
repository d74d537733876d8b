"""A database that cannot be used gives a clear StorageUnavailableError, never a crash:
the caller is told to play as a guest, the sysop's log says which file and why."""

from __future__ import annotations

import os
import socket
import stat

import pytest

from door.storage.errors import StorageUnavailableError, StoreError
from door.storage.store import Store
from tests.door.caller import run_async
from tests.door.storage.conftest import FAST_HASHER, Database

GUEST_HINT = "You can still play as a guest."


@run_async
async def test_a_read_only_database_file_is_refused_with_a_clear_reason(
    sqlite_database: Database,
) -> None:
    async with sqlite_database.store() as store:
        await store.create_account("Ada", "correct horse")
    path = sqlite_database.path
    assert path is not None
    path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    try:
        with pytest.raises(StorageUnavailableError) as refused:
            await Store.open(sqlite_database.url, hasher=FAST_HASHER)
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert str(refused.value).endswith(GUEST_HINT)
    assert "read-only" in str(refused.value)
    assert f"the file {path} is read-only" in refused.value.detail


@run_async
async def test_a_read_only_folder_is_refused_too(sqlite_database: Database) -> None:
    path = sqlite_database.path
    assert path is not None
    folder = path.parent
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        with pytest.raises(StorageUnavailableError, match="read-only") as refused:
            await Store.open(sqlite_database.url, hasher=FAST_HASHER)
    finally:
        folder.chmod(stat.S_IRWXU)
    assert f"the folder {folder} is read-only" in refused.value.detail


@run_async
async def test_a_file_that_is_not_a_database_is_reported_as_damaged(
    sqlite_database: Database,
) -> None:
    path = sqlite_database.path
    assert path is not None
    path.write_bytes(b"these are not the bytes of a SQLite database\n" * 200)
    with pytest.raises(StorageUnavailableError) as refused:
        await Store.open(sqlite_database.url, hasher=FAST_HASHER)
    assert "the database file is damaged" in str(refused.value)
    assert str(refused.value).endswith(GUEST_HINT)
    assert str(path) in refused.value.detail and "not a database" in refused.value.detail


@run_async
async def test_a_database_damaged_while_the_server_runs_fails_each_call_clearly(
    sqlite_database: Database,
) -> None:
    path = sqlite_database.path
    assert path is not None
    async with sqlite_database.store() as store:
        await store.create_account("Ada", "correct horse")
        await store.close()  # drop pooled connections so the damage is read afresh
        with path.open("r+b") as damaged:
            damaged.write(b"\x00garbage" * 16)  # over the header
        for wal in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            if wal.exists():
                os.remove(wal)
        with pytest.raises(StorageUnavailableError, match="damaged"):
            await store.verify_login("Ada", "correct horse")
        with pytest.raises(StoreError):  # what a session catches
            await store.create_account("Bob", "correct horse")
        assert await _still_fails_the_same(store)


async def _still_fails_the_same(store: Store) -> bool:
    try:
        await store.leaderboard()
    except StorageUnavailableError as error:
        return "damaged" in str(error)
    return False


@run_async
async def test_a_postgresql_server_that_is_not_there_is_reported_as_unreachable() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql+asyncpg://door:secret@127.0.0.1:{port}/door"
    with pytest.raises(StorageUnavailableError) as refused:
        await Store.open(url, hasher=FAST_HASHER)
    assert "cannot be reached" in str(refused.value)
    assert "secret" not in refused.value.detail and "door:***@" in refused.value.detail


@run_async
async def test_a_url_that_cannot_be_read_is_refused() -> None:
    with pytest.raises(StorageUnavailableError, match="not set up right"):
        await Store.open("no kind of url", hasher=FAST_HASHER)
