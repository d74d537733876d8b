"""The database every storage test runs against: SQLite in a temporary folder always, and
PostgreSQL as well when CRIBBAGE_TEST_POSTGRES_URL names a server (``bash .ci/postgres.sh``
starts one and prints its URL). Each PostgreSQL test gets a schema of its own, dropped
afterwards, so runs can share a server."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import argon2
import pytest

from door.storage.store import Store

POSTGRES_URL_VARIABLE = "CRIBBAGE_TEST_POSTGRES_URL"

# The cheapest argon2id there is: the tests check what is stored, not how hard it is.
FAST_HASHER = argon2.PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


@dataclass
class Database:
    kind: str
    url: str
    connect_args: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None  # the SQLite file

    @asynccontextmanager
    async def store(self, **options: Any) -> AsyncIterator[Store]:
        options.setdefault("hasher", FAST_HASHER)
        store = await Store.open(self.url, connect_args=self.connect_args, **options)
        try:
            yield store
        finally:
            await store.close()


def postgres_url() -> str:
    url = os.environ.get(POSTGRES_URL_VARIABLE, "").strip()
    if not url:
        pytest.skip(
            f"PostgreSQL tests skipped: {POSTGRES_URL_VARIABLE} is not set "
            "(run `bash .ci/postgres.sh` to start a server and print the URL)"
        )
    return url


async def _run_sql(url: str, sql: str) -> None:
    import asyncpg

    plain = url.replace("postgresql+asyncpg://", "postgresql://", 1)
    connection = await asyncpg.connect(plain)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        path = tmp_path / "door.sqlite3"
        yield Database("sqlite", f"sqlite+aiosqlite:///{path}", path=path)
        return
    url = postgres_url()
    schema = f"test_{uuid.uuid4().hex[:12]}"
    asyncio.run(_run_sql(url, f"CREATE SCHEMA {schema}"))
    try:
        yield Database("postgresql", url, {"server_settings": {"search_path": schema}})
    finally:
        asyncio.run(_run_sql(url, f"DROP SCHEMA {schema} CASCADE"))


@pytest.fixture
def sqlite_database(tmp_path: Path) -> Database:
    path = tmp_path / "door.sqlite3"
    return Database("sqlite", f"sqlite+aiosqlite:///{path}", path=path)
