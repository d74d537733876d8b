"""Backups of the door's database, made while the door runs, and restores from them.

A backup is always one SQLite file holding the door's tables and, in ``alembic_version``,
the schema revision they are at, whichever database it came from: SQLite is copied by its
online backup API (a consistent copy even while the door writes), PostgreSQL by copying
the door's own tables into a new file (door/storage/transfer.py), so no server tools are
needed. A backup is written to a temporary file beside the target and renamed into place
only when whole, so a failure (a full disk) leaves no part of one behind.

A restore checks the file is a whole backup of this door's schema, copies it into the
configured database (empty, unless replacing) and migrates it to the current schema.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import errno
import functools
import os
import re
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any, Final

from door.storage.migrate import head_revision
from door.storage.transfer import (
    Progress,
    TableCopy,
    TransferError,
    copy_database,
    database_name,
    known_revision,
    sqlite_path,
)

SQLITE_HEADER: Final = b"SQLite format 3\x00"
BACKUP_FOLDER: Final = "backups"
"""The folder in the data folder where scheduled backups go."""
SCHEDULED_NAME: Final = re.compile(r"^cribbage-\d{8}-\d{6}\.sqlite3$")


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path.absolute()}"


async def make_backup(source_url: str, path: Path, *, replace: bool = False) -> Path:
    """Write a backup of the database at ``source_url`` to ``path``; the absolute path.
    A file already at ``path`` is refused unless ``replace`` (a mistyped name must not
    cost an older backup), and then replaced only once the new backup is whole. Raises
    TransferError."""
    path = path.expanduser().absolute()
    if path.is_dir():
        raise TransferError(f"{path}: is a folder; name the backup file to write")
    if not path.parent.is_dir():
        raise TransferError(f"{path}: there is no folder {path.parent}")
    source_file = sqlite_path(source_url)
    if source_file is not None and path.resolve() in {
        Path(f"{source_file}{suffix}").resolve() for suffix in ("", "-wal", "-shm", "-journal")
    }:
        raise TransferError(f"{path}: that is the database itself; name another file")
    _refuse_existing(path, replace)
    try:
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    except OSError as error:
        raise TransferError(f"{path}: cannot write there ({_os_reason(error)})") from None
    os.close(handle)
    partial = Path(name)
    try:
        if source_file is not None:
            await asyncio.to_thread(_sqlite_backup, source_file, partial)
        else:
            partial.unlink()  # the copy makes the file, and removes it if it fails
            await copy_database(source_url, sqlite_url(partial))
        _sync(partial)
        _refuse_existing(path, replace)  # again: the copy may have taken minutes
        os.replace(partial, path)
        _sync(path.parent)
    except OSError as error:
        _remove(partial)
        raise TransferError(f"{path}: cannot write the backup ({_os_reason(error)})") from None
    except BaseException:
        _remove(partial)
        raise
    return path


def _refuse_existing(path: Path, replace: bool) -> None:
    if not replace and (path.exists() or path.is_symlink()):
        raise TransferError(
            f"{path}: a file is already there; name another, or add --replace to write over it"
        )


def _sqlite_backup(source: Path, partial: Path) -> None:
    if not source.is_file():
        raise TransferError(f"{source}: there is no database file")
    try:
        with contextlib.closing(sqlite3.connect(source, timeout=10)) as live:
            revision = _revision(live)
            if revision is None:
                raise TransferError(f"{source}: not a cribbage-door database (no schema revision)")
            with contextlib.closing(sqlite3.connect(partial)) as copy:
                # All pages in one step: one read transaction, so one moment of the
                # database; in WAL mode the door's writers go on meanwhile.
                live.backup(copy, pages=-1)
                # The copy is one self-contained file, not a WAL database.
                copy.execute("PRAGMA journal_mode = DELETE").fetchall()
    except sqlite3.Error as error:
        if "full" in str(error).lower():
            raise OSError(errno.ENOSPC, "the disk is full") from None
        raise TransferError(f"{source}: cannot back it up ({error})") from None


def _first_finding(check: list[Any]) -> str:
    """The first thing SQLite's check found, past the headings it puts before a
    database's findings ("*** in database main ***")."""
    lines = [line.strip() for row in check for line in str(row[0]).splitlines()]
    found = [line for line in lines if line and not line.startswith("***")]
    return found[0] if found else "no reason given"


def inspect_backup(path: Path) -> str:
    """The schema revision of the backup at ``path``; TransferError, saying what is
    wrong, for a missing, foreign, damaged or cut-short file or a newer door's."""
    path = path.expanduser()
    if path.is_dir():
        raise TransferError(f"{path}: a folder, not a backup file")
    if not path.is_file():
        raise TransferError(f"{path}: there is no such file")
    try:
        with path.open("rb") as file:
            header = file.read(100)
    except OSError as error:
        raise TransferError(f"{path}: cannot read it ({_os_reason(error)})") from None
    if not header.startswith(SQLITE_HEADER):
        raise TransferError(f"{path}: not a cribbage-door backup (not a SQLite database)")
    page_size = int.from_bytes(header[16:18]) or 65536  # 1 stands for 65536
    pages = int.from_bytes(header[28:32])
    if len(header) < 100 or path.stat().st_size < page_size * max(pages, 1):
        raise TransferError(f"{path}: the backup is cut short (damaged or still being written)")
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as backup:
            check = backup.execute("PRAGMA quick_check").fetchall()
            if check != [("ok",)]:
                raise TransferError(f"{path}: the backup is damaged ({_first_finding(check)})")
            revision = _revision(backup)
            tables = {row[0] for row in backup.execute("SELECT name FROM sqlite_master")}
    except sqlite3.Error as error:
        raise TransferError(f"{path}: the backup cannot be read ({error})") from None
    if revision is None:
        raise TransferError(f"{path}: not a cribbage-door backup (it has no schema revision)")
    if not known_revision(revision):
        raise TransferError(
            f"{path}: a backup of a newer door (schema revision {revision}); "
            f"this door's is {head_revision()}"
        )
    if "accounts" not in tables:
        raise TransferError(f"{path}: not a cribbage-door backup (it has no accounts table)")
    return revision


def _revision(connection: sqlite3.Connection) -> str | None:
    try:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.OperationalError:
        return None
    return None if row is None else str(row[0])


async def restore_backup(
    path: Path, target_url: str, *, replace: bool = False, progress: Progress | None = None
) -> list[TableCopy]:
    """Copy the backup at ``path`` into the database at ``target_url`` (which must hold
    no row unless ``replace``) and bring it to the current schema. The backup file is
    never changed: one of this door's schema is read as it is, an older one migrated on a
    scratch copy. Raises TransferError, leaving the target as it was."""
    revision = inspect_backup(path)
    target_file = sqlite_path(target_url)
    if target_file is not None and not target_file.parent.is_dir():
        raise TransferError(f"{database_name(target_url)}: there is no folder {target_file.parent}")
    restore = functools.partial(
        copy_database,
        target_url=target_url,
        replace=replace,
        progress=progress,
        if_not_empty="restore into an empty one, or add --replace to delete what it holds",
    )
    if revision == head_revision():
        return await restore(sqlite_url(path))  # read as it is: nothing to migrate
    scratch_in = target_file.parent if target_file is not None else None
    try:
        with tempfile.TemporaryDirectory(prefix=".restore-", dir=scratch_in) as scratch:
            work = Path(scratch) / "backup.sqlite3"
            shutil.copyfile(path, work)
            return await restore(sqlite_url(work))
    except OSError as error:
        raise TransferError(f"{path}: cannot restore it ({_os_reason(error)})") from None


# --- scheduled backups ------------------------------------------------------------------


def scheduled_backup_path(folder: Path, now: dt.datetime) -> Path:
    return folder / f"cribbage-{now.astimezone(dt.UTC):%Y%m%d-%H%M%S}.sqlite3"


def scheduled_backups(folder: Path) -> list[Path]:
    """The scheduled backups in ``folder``, oldest first (their names sort by time)."""
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.iterdir() if SCHEDULED_NAME.match(path.name))


def rotate(folder: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` scheduled backups; the ones deleted."""
    old = scheduled_backups(folder)[:-keep] if keep > 0 else []
    for path in old:
        _remove(path)
    return old


# --- files ------------------------------------------------------------------------------


def _sync(path: Path) -> None:
    """Make what was written to ``path`` (a file, or a folder's entries) durable."""
    flags = os.O_RDONLY | (os.O_DIRECTORY if path.is_dir() else 0)
    descriptor = os.open(path, flags)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _remove(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")


def _os_reason(error: OSError) -> str:
    if error.errno == errno.ENOSPC:
        return "the disk is full"
    return error.strerror or str(error)
