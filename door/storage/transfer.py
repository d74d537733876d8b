"""Moving the door's data from one database to another: every table of the door's schema
(door/storage/schema.py's metadata, so a table added there is moved without a change
here), parents before children, in batches, verified by row counts and checksums.

``copy_database`` is the one road: ``db copy`` takes it from the configured database to
another, a PostgreSQL backup takes it into a fresh SQLite file, a restore takes it from
a backup file into the configured database. The target is written in one transaction
(schema, rows, sequences and the verification), so a copy that fails for any reason
leaves the target as it was; a SQLite file the copy had to create is removed again.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Connection, Table, delete, event, exists, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from door.storage.audit import clear_audit
from door.storage.migrate import alembic_config, current_revision, head_revision, upgrade_to_head
from door.storage.schema import audit, metadata
from door.storage.settings import redact_url

BATCH_ROWS: Final = 2_000
"""Rows read and written at a time: a batch of games (about 8 KB of recordings each)
stays near 16 MB. Copying 10,000 games (bench/db_transfer.py's board) took 2.1-3.2 s
with batches of 200, 2,000 or 10,000 alike, so the size only bounds the memory."""


class TransferError(Exception):
    """A copy, backup or restore that cannot be done; the message is one line for the
    sysop, naming the database (without its password) and the reason."""


@dataclass(frozen=True)
class TableCopy:
    """One table as copied: its rows and the checksum both sides agreed on."""

    table: str
    rows: int
    checksum: str


def door_tables() -> list[Table]:
    """The door's tables, each after the tables it refers to."""
    return list(metadata.sorted_tables)


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL, None for any other database (or SQLite in memory)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def database_name(url: str) -> str:
    """How messages name a database: a SQLite file by its path, any other by its URL
    without the password."""
    try:
        path = sqlite_path(url)
    except ArgumentError:
        path = None
    return str(path) if path is not None else redact_url(url)


def known_revision(revision: str) -> bool:
    """Whether this door's migrations know ``revision`` (a newer door's would not)."""
    try:
        return ScriptDirectory.from_config(alembic_config()).get_revision(revision) is not None
    except CommandError:
        return False


def describe_failure(name: str, error: BaseException) -> str:
    """One line saying which database failed and why, without a password."""
    original = getattr(error, "orig", None) or error
    first = str(original).strip().splitlines()
    reason = first[0] if first else type(original).__name__
    if isinstance(original, ConnectionRefusedError | OSError) and not isinstance(error, DBAPIError):
        reason = f"cannot reach the server ({reason})"
    return f"{name}: {reason}"


# --- engines ----------------------------------------------------------------------------


def open_engine(url: str) -> AsyncEngine:
    """An engine for one command. On SQLite the transaction really begins at BEGIN (the
    driver would otherwise commit schema changes on its own), so a copy's schema and
    rows go or stay together; foreign keys are enforced and a busy door is waited for."""
    try:
        engine = create_async_engine(url)
    except (ArgumentError, ImportError) as error:
        raise TransferError(f"{database_name(url)}: not a database URL the door can use") from error
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_connect)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # we say BEGIN ourselves
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA busy_timeout = 10000")
    finally:
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN")


@contextlib.asynccontextmanager
async def connected(url: str) -> AsyncIterator[AsyncConnection]:
    """One transaction on ``url``, committed when the block ends without an error; a
    database failure becomes TransferError."""
    name = database_name(url)
    engine = open_engine(url)
    try:
        async with engine.begin() as connection:
            yield connection
    except TransferError:
        raise
    except (DBAPIError, OSError, CommandError) as error:
        raise TransferError(describe_failure(name, error)) from error
    finally:
        await engine.dispose()


async def bring_to_head(connection: AsyncConnection, name: str) -> str | None:
    """Migrate the door's schema on ``connection`` to this door's newest revision (as
    starting the door would); the revision it was at. Refuses a revision this door does
    not know, and a database whose tables are someone else's."""
    revision = await connection.run_sync(current_revision)
    if revision is not None and not known_revision(revision):
        raise TransferError(
            f"{name}: its schema is revision {revision}, which this door does not know "
            f"(a newer door's?); this door's is {head_revision()}"
        )
    try:
        await connection.run_sync(upgrade_to_head)
    except (DBAPIError, CommandError) as error:
        raise TransferError(
            f"{name}: cannot set up the door's schema there ({describe_failure(name, error)})"
        ) from error
    return revision


async def tables_with_rows(connection: AsyncConnection) -> list[str]:
    """The door's tables on ``connection`` that hold any row."""
    full = []
    for table in door_tables():
        if await connection.scalar(select(exists().select_from(table))):
            full.append(table.name)
    return full


# --- checksums --------------------------------------------------------------------------


def _canonical(value: Any) -> str:
    """A value as both databases give it back through the schema's types."""
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat()
    return repr(value)  # a float's repr is exact: the same double reads the same


def row_digest(values: tuple[Any, ...]) -> int:
    return int.from_bytes(
        hashlib.sha256("\x1f".join(_canonical(value) for value in values).encode()).digest()
    )


class TableChecksum:
    """A checksum of a table's rows that does not depend on their order (the two
    databases may sort text differently): the sum of each row's SHA-256."""

    def __init__(self) -> None:
        self.rows = 0
        self._total = 0

    def add(self, values: tuple[Any, ...]) -> None:
        self.rows += 1
        self._total = (self._total + row_digest(values)) % (1 << 256)

    @property
    def hexdigest(self) -> str:
        return f"{self._total:064x}"


async def table_checksum(connection: AsyncConnection, table: Table) -> TableChecksum:
    checksum = TableChecksum()
    result = await connection.stream(select(table))
    async for batch in result.partitions(BATCH_ROWS):
        for row in batch:
            checksum.add(tuple(row))
    return checksum


# --- the copy ---------------------------------------------------------------------------


Progress = Callable[[TableCopy], None]


async def copy_database(
    source_url: str,
    target_url: str,
    *,
    replace: bool = False,
    progress: Progress | None = None,
    if_not_empty: str = "copy only into an empty database",
) -> list[TableCopy]:
    """Copy every row of the door's tables from ``source_url`` to ``target_url``.

    The source is brought to this door's schema first (a door starting on it would do
    the same) and read in one transaction, so it is copied as
    of one moment even while a door writes to it. The target gets the schema, the rows,
    its sequences set past the copied numbers, and is checked (rows and a checksum per
    table, each passed to ``progress`` when done) in one transaction. A target holding
    any row is refused (the message ending ``if_not_empty``) unless ``replace``, which
    deletes them in the same transaction. Raises TransferError, having changed nothing
    on the target.
    """
    source_name, target_name = database_name(source_url), database_name(target_url)
    source_file = sqlite_path(source_url)
    if source_file is not None and not source_file.is_file():
        raise TransferError(f"{source_name}: there is no database file {source_file}")
    target_file = sqlite_path(target_url)
    if (
        target_file is not None
        and source_file is not None
        and target_file.resolve() == source_file.resolve()
    ):
        raise TransferError(f"{target_name}: that is the database being copied")
    created = target_file is not None and not target_file.exists()
    if target_file is not None and not target_file.parent.is_dir():
        raise TransferError(f"{target_name}: there is no folder {target_file.parent}")
    async with connected(source_url) as connection:
        await bring_to_head(connection, source_name)
    try:
        async with connected(source_url) as source, connected(target_url) as target:
            if source.dialect.name == "postgresql":
                # One snapshot for every table, however long the copy takes.
                await source.exec_driver_sql(
                    "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"
                )
            revision = await source.run_sync(current_revision)
            if revision != head_revision():
                raise TransferError(
                    f"{source_name}: its schema is revision {revision}, not this door's "
                    f"{head_revision()}"
                )
            await bring_to_head(target, target_name)
            full = await tables_with_rows(target)
            if full and not replace:
                held = ", ".join(full[:3]) + (f" and {len(full) - 3} more" if len(full) > 3 else "")
                raise TransferError(
                    f"{target_name}: the database is not empty ({held} hold rows); " + if_not_empty
                )
            for table in reversed(door_tables()):
                if table is audit:
                    await clear_audit(target)  # the one removal the audit allows
                else:
                    await target.execute(delete(table))
            copies = []
            for table in door_tables():
                copied = await _copy_table(source, target, table, source_name, target_name)
                copies.append(copied)
                if progress is not None:
                    progress(copied)
            if target.dialect.name == "postgresql":
                await _set_sequences(target)
    except BaseException:
        if created and target_file is not None:
            _remove_sqlite_file(target_file)
        raise
    return copies


async def _copy_table(
    source: AsyncConnection,
    target: AsyncConnection,
    table: Table,
    source_name: str,
    target_name: str,
) -> TableCopy:
    sent = TableChecksum()
    result = await source.stream(select(table))
    async for batch in result.partitions(BATCH_ROWS):
        rows = [row._asdict() for row in batch]
        try:
            await target.execute(table.insert(), rows)
        except IntegrityError as error:
            raise TransferError(
                f"{target_name}: table {table.name} refused a row "
                f"({describe_failure(source_name, error)})"
            ) from error
        for row in batch:
            sent.add(tuple(row))
    received = await table_checksum(target, table)
    if (received.rows, received.hexdigest) != (sent.rows, sent.hexdigest):
        raise TransferError(
            f"{target_name}: table {table.name} reads back {received.rows} rows "
            f"(checksum {received.hexdigest[:12]}), not the {sent.rows} sent "
            f"(checksum {sent.hexdigest[:12]}); nothing was kept"
        )
    return TableCopy(table.name, sent.rows, sent.hexdigest)


async def _set_sequences(connection: AsyncConnection) -> None:
    """PostgreSQL numbers new rows from a sequence, which the copy's explicit numbers
    did not move: set each past the largest number copied, so new rows do not collide."""
    for table in door_tables():
        column = table.autoincrement_column
        if column is None:
            continue
        largest = await connection.scalar(select(func.max(column)))
        await connection.execute(
            text("SELECT setval(pg_get_serial_sequence(:table, :column), :next, false)"),
            {"table": table.name, "column": column.name, "next": (largest or 0) + 1},
        )


def _remove_sqlite_file(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")
