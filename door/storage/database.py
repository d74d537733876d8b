"""Opening the door's database, its transactions, and turning any failure of it into
StorageUnavailableError with a reason a caller may read and a detail for the sysop."""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any, Final, Self

import argon2
from alembic.util import CommandError
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from door.metrics.tally import TALLY
from door.storage.errors import StorageUnavailableError, StoreError
from door.storage.migrate import upgrade_to_head
from door.storage.settings import redact_url
from door.storage.values import Clock, LoginPolicy, utc_now

logger = logging.getLogger(__name__)

POOL_WAIT_SECONDS: Final = 5.0
"""The longest a request waits for a pooled database connection."""


class StoreBase:
    """The connection and its transactions, which every part of the store shares: opened
    with ``await Store.open(url)`` (door/storage/store.py), which migrates the schema."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        policy: LoginPolicy,
        hasher: argon2.PasswordHasher,
        clock: Clock,
        name: str,
        reserved_handles: Sequence[str] = (),
    ) -> None:
        self._engine = engine
        self.reserved_handles = tuple(reserved_handles)
        self.policy = policy
        self._hasher = hasher
        self._clock = clock
        self.name = name
        self._dummy_hash = ""

    # --- opening and closing ------------------------------------------------------

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        policy: LoginPolicy | None = None,
        hasher: argon2.PasswordHasher | None = None,
        clock: Clock = utc_now,
        connect_args: dict[str, Any] | None = None,
        reserved_handles: Sequence[str] = (),
    ) -> Self:
        """Connect to ``url`` (``sqlite+aiosqlite:///file`` or ``postgresql+asyncpg://...``)
        and apply any pending migrations.

        Raises StorageUnavailableError, with the database and the reason in ``detail``,
        when the database cannot be opened, is read-only or damaged, or cannot migrate.
        ``hasher`` defaults to argon2-cffi's argon2id parameters (RFC 9106, low memory).
        ``reserved_handles`` are names nobody may sign up as (the sysop's, say), besides
        door.storage.rules.RESERVED_HANDLES.
        """
        name = redact_url(url)
        try:
            parsed = make_url(url)
        except ArgumentError:
            detail = f"database URL {name!r} cannot be read"
            logger.error("%s", detail)  # as every other reason not to open is
            raise StorageUnavailableError(
                _caller_message("the database is not set up right"), detail
            ) from None
        if parsed.get_backend_name() == "sqlite":
            try:
                _check_sqlite_file(parsed.database, name)
            except StorageUnavailableError as error:
                logger.error("%s", error.detail)
                raise
        sqlite = parsed.get_backend_name() == "sqlite"
        in_memory = sqlite and parsed.database in (None, "", ":memory:")
        # A connection a caller cannot have within POOL_WAIT_SECONDS is the store being
        # unavailable for that one request (a clear message, the caller stays on), not a
        # wait of SQLAlchemy's default 30 s followed by an exception nobody expected.
        pool = {} if in_memory else {"pool_timeout": POOL_WAIT_SECONDS}
        engine = create_async_engine(url, connect_args=connect_args or {}, **pool)
        if parsed.get_backend_name() == "sqlite":
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        store = cls(
            engine,
            policy=policy or LoginPolicy(),
            hasher=hasher or argon2.PasswordHasher(),
            clock=clock,
            name=name,
            reserved_handles=reserved_handles,
        )
        try:
            async with store._transaction() as connection:
                await connection.run_sync(upgrade_to_head)
        except CommandError as error:
            # Typically a revision this door does not know: a newer door migrated it.
            await engine.dispose()
            detail = f"database {name}: cannot bring the schema up to date ({error})"
            logger.error("%s", detail)
            raise StorageUnavailableError(
                _caller_message("the database belongs to a newer version of the door"), detail
            ) from None
        except BaseException:
            await engine.dispose()
            raise
        logger.info("database %s is ready", name)
        return store

    async def close(self) -> None:
        await self._engine.dispose()

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[AsyncConnection]:
        """One transaction, with any database failure turned into StorageUnavailableError."""
        try:
            asked = time.perf_counter()
            async with self._engine.begin() as connection:
                TALLY.database_waits += 1
                TALLY.database_wait_seconds += time.perf_counter() - asked
                yield connection
        except StoreError:
            raise
        except IntegrityError:
            raise  # the caller turns these into rule errors (a handle taken...)
        except (DBAPIError, OSError, TimeoutError, PoolTimeoutError) as error:
            # Logged here, once, so that no caller needs to; callers show str(error).
            reason = _reason(error)
            detail = f"database {self.name}: {reason} ({_first_line(error)})"
            logger.error("%s", detail)
            raise StorageUnavailableError(_caller_message(reason), detail, reason) from error

    def transaction(self) -> contextlib.AbstractAsyncContextManager[AsyncConnection]:
        """One transaction with the store's error handling, for the storage modules
        beside this one (ratings, matches, tournaments and play-by-mail games)."""
        return self._transaction()


def _caller_message(reason: str) -> str:
    return (
        f"Accounts, statistics and saved games are not available right now ({reason}). "
        "You can still play as a guest."
    )


def _first_line(error: BaseException) -> str:
    text = str(getattr(error, "orig", None) or error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _reason(error: BaseException) -> str:
    """A short, caller-safe account of why the database failed."""
    text = _first_line(error).lower()
    if "readonly" in text or "read-only" in text or "read only" in text:
        return "the database is read-only"
    if "not a database" in text or "malformed" in text or "encrypted" in text:
        return "the database file is damaged"
    if "disk is full" in text or "disk full" in text or "no space" in text:
        return "the disk is full"
    if "locked" in text or "busy" in text:
        return "the database is busy"
    if "unable to open" in text:
        return "the database file cannot be opened"
    if isinstance(error, PoolTimeoutError):
        return "the database is too busy"
    if isinstance(error, OSError | TimeoutError) or "connect" in text:
        return "the database server cannot be reached"
    return "the database failed"


def _check_sqlite_file(database: str | None, name: str) -> None:
    """Refuse, with a clear reason, a SQLite file the door could not write: finding out
    at the first sign-up or save would be later and less clear. The file's permission
    bits are read as well as access(), because root may write anything."""
    if not database or database == ":memory:":
        return
    path = Path(database)
    directory = path.parent
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageUnavailableError(
            _caller_message("the database file cannot be opened"),
            f"database {name}: cannot create the folder {directory} ({error.strerror})",
        ) from None
    if path.exists():
        mode = path.stat().st_mode
        if not stat.S_ISREG(mode):
            raise StorageUnavailableError(
                _caller_message("the database file cannot be opened"),
                f"database {name}: {path} is not a file",
            )
        if not os.access(path, os.W_OK) or not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            raise StorageUnavailableError(
                _caller_message("the database is read-only"),
                f"database {name}: the file {path} is read-only; make it writable "
                "for the door (accounts are off until then)",
            )
    dir_mode = directory.stat().st_mode
    if not os.access(directory, os.W_OK) or not dir_mode & (
        stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
    ):
        raise StorageUnavailableError(
            _caller_message("the database is read-only"),
            f"database {name}: the folder {directory} is read-only; SQLite needs to write "
            "its journal there",
        )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        # Foreign keys are off by default in SQLite; WAL lets readers and the writer
        # work at once and keeps every committed save through a crash; writers queue
        # for up to 5 s instead of failing at once.
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.execute("PRAGMA busy_timeout = 5000")
    finally:
        cursor.close()
