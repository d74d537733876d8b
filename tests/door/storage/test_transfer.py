"""Copying the door's database (door/storage/transfer.py): every table both ways between
SQLite and PostgreSQL, refusals, and a failed copy leaving its target as it was. The
PostgreSQL half skips without CRIBBAGE_TEST_POSTGRES_URL (`bash .ci/postgres.sh`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Connection, Table, text
from sqlalchemy.ext.asyncio import create_async_engine

from door.storage import transfer
from door.storage.migrate import alembic_config
from door.storage.schema import metadata
from door.storage.store import Store
from door.storage.transfer import TransferError, copy_database
from tests.door.caller import run_async
from tests.door.storage.conftest import FAST_HASHER
from tests.door.storage.every_row import PASSWORD, fill, fresh_postgres_database, table_rows


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture
def postgres() -> Iterator[str]:
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture
def postgres_again() -> Iterator[str]:
    with fresh_postgres_database() as url:
        yield url


@run_async
async def test_every_table_goes_sqlite_to_postgresql_to_sqlite_unchanged(
    tmp_path: Path, postgres: str
) -> None:
    first, last = sqlite_url(tmp_path / "first.sqlite3"), sqlite_url(tmp_path / "last.sqlite3")
    made = await fill(first)
    there = await copy_database(first, postgres)
    back = await copy_database(postgres, last)
    original = await table_rows(first)
    assert {name for name, rows in original.items() if not rows} == set()  # every kind
    assert await table_rows(postgres) == original
    assert await table_rows(last) == original
    assert [copy.table for copy in there] == [table.name for table in metadata.sorted_tables]
    assert there == back  # the same rows and checksums both ways
    async with _store(last) as store:
        log = await store.game_log(made["finished_game"])
        assert "finished" in log[0]


@run_async
async def test_new_rows_on_postgresql_after_a_copy_do_not_collide(
    tmp_path: Path, postgres: str
) -> None:
    source = sqlite_url(tmp_path / "door.sqlite3")
    await fill(source)
    await copy_database(source, postgres)
    async with _store(postgres) as store:
        newcomer = await store.create_account("Newcomer", PASSWORD)
        assert newcomer.id == 7  # after the six copied
        assert (await store.verify_login("Ada", PASSWORD)).handle == "Ada"


@run_async
async def test_a_second_copy_into_the_now_full_database_is_refused(
    tmp_path: Path, postgres: str
) -> None:
    source = sqlite_url(tmp_path / "door.sqlite3")
    await fill(source)
    await copy_database(source, postgres)
    before = await table_rows(postgres)
    with pytest.raises(TransferError, match=r"not empty \(accounts, audit, bans and"):
        await copy_database(source, postgres)
    assert await table_rows(postgres) == before


@run_async
async def test_copy_into_a_door_started_on_an_empty_database_is_allowed(tmp_path: Path) -> None:
    source, target = sqlite_url(tmp_path / "a.sqlite3"), sqlite_url(tmp_path / "b.sqlite3")
    await fill(source)
    async with _store(target):
        pass  # a door started on it once: the schema, no rows
    await copy_database(source, target)
    assert await table_rows(target) == await table_rows(source)


@pytest.mark.parametrize("kind", ["new sqlite", "empty sqlite", "older sqlite", "postgresql"])
def test_a_copy_that_fails_half_way_leaves_the_target_as_it_was(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    target = request.getfixturevalue("postgres") if kind == "postgresql" else None
    copy_table = transfer._copy_table

    async def fail_at_pbm_games(source_connection: Any, target_connection: Any, table: Table,
                                *names: str) -> Any:  # fmt: skip
        if table.name == "pbm_games":
            raise TransferError("the line dropped")
        return await copy_table(source_connection, target_connection, table, *names)

    @run_async
    async def scenario() -> None:
        source = sqlite_url(tmp_path / "door.sqlite3")
        await fill(source)
        into = target or sqlite_url(tmp_path / "target.sqlite3")
        if kind == "empty sqlite":
            async with _store(into):
                pass
        if kind == "older sqlite":  # an empty database a door of revision 0003 made
            engine = create_async_engine(into)
            async with engine.begin() as connection:
                await connection.run_sync(
                    lambda sync: command.upgrade(alembic_config(sync), "0003")
                )
            await engine.dispose()
        monkeypatch.setattr(transfer, "_copy_table", fail_at_pbm_games)
        with pytest.raises(TransferError, match="the line dropped"):
            await copy_database(source, into)
        if kind == "new sqlite":
            assert sorted(path.name for path in tmp_path.iterdir()) == ["door.sqlite3"]
        elif kind == "empty sqlite":
            assert all(not rows for rows in (await table_rows(into)).values())
        elif kind == "older sqlite":  # the migration went back with the rows
            with sqlite3.connect(tmp_path / "target.sqlite3") as connection:
                assert connection.execute("SELECT * FROM alembic_version").fetchall() == [("0003",)]
        else:
            assert await _postgres_tables(into) == []  # not even the schema is left

    scenario()


@run_async
async def test_a_target_of_a_newer_schema_is_refused(tmp_path: Path) -> None:
    source, target_file = sqlite_url(tmp_path / "door.sqlite3"), tmp_path / "newer.sqlite3"
    await fill(source)
    with sqlite3.connect(target_file) as connection:
        connection.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)")
        connection.execute("INSERT INTO alembic_version VALUES ('0099')")
    with pytest.raises(TransferError, match=r"revision 0099, which this door does not know"):
        await copy_database(source, sqlite_url(target_file))
    with sqlite3.connect(target_file) as connection:
        tables = connection.execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("alembic_version",)]


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("postgresql+asyncpg://door:secret@127.0.0.1:1/cribbage", "cannot reach the server"),
        ("sqlite+aiosqlite:///{tmp}/no/such/folder/x.sqlite3", "there is no folder"),
        ("sqlite+aiosqlite:///{tmp}/door.sqlite3", "that is the database being copied"),
    ],
)
@run_async
async def test_a_target_that_cannot_be_used_is_one_line(
    target: str, message: str, tmp_path: Path
) -> None:
    source = sqlite_url(tmp_path / "door.sqlite3")
    await fill(source)
    with pytest.raises(TransferError, match=message) as caught:
        await copy_database(source, target.format(tmp=tmp_path))
    assert "\n" not in str(caught.value) and "secret" not in str(caught.value)


@run_async
async def test_a_missing_source_file_is_not_made(tmp_path: Path) -> None:
    with pytest.raises(TransferError, match="there is no database file"):
        await copy_database(sqlite_url(tmp_path / "gone.sqlite3"), sqlite_url(tmp_path / "t"))
    assert list(tmp_path.iterdir()) == []


def upgrade_to_0003(connection: Connection) -> None:
    command.upgrade(alembic_config(connection), "0003")


class _store:
    """A Store on ``url`` for the length of a block."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def __aenter__(self) -> Store:
        self.store = await Store.open(self.url, hasher=FAST_HASHER)
        return self.store

    async def __aexit__(self, *exc: object) -> None:
        await self.store.close()


async def _postgres_tables(url: str) -> list[str]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            result = await connection.execute(
                text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            )
            return [row[0] for row in result]
    finally:
        await engine.dispose()
