"""Backups and restores (door/storage/backup.py): a backup while the door writes, of
SQLite and of PostgreSQL, restored whole; an older backup migrated on restore; a
foreign, damaged or cut-short file refused; a full disk leaving no part of a backup."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sqlite3
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy.ext.asyncio import create_async_engine

from door.storage.backup import inspect_backup, make_backup, restore_backup
from door.storage.check import check_database
from door.storage.migrate import alembic_config, head_revision
from door.storage.store import Seat, Store
from door.storage.transfer import TransferError
from tests.door.caller import run_async
from tests.door.storage.conftest import FAST_HASHER
from tests.door.storage.disks import tiny_disk
from tests.door.storage.every_row import PASSWORD, fill, fresh_postgres_database, table_rows
from tests.door.storage.games import played_game
from tests.door.waiting import until


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@run_async
async def test_a_backup_taken_while_the_door_writes_is_whole_and_restores(
    tmp_path: Path,
) -> None:
    live = sqlite_url(tmp_path / "live.sqlite3")
    await fill(live)
    store = await Store.open(live, hasher=FAST_HASHER)
    writing = True
    finished = 0

    async def keep_playing() -> int:
        nonlocal finished
        while writing:
            game = played_game(100 + finished)
            account = await store.create_account(f"Player{finished}", PASSWORD)
            await store.record_game_result(
                game.recording, [Seat(account.handle, account.id), Seat("computer", None)],
                "computer-easy",
            )  # fmt: skip
            finished += 1
        return finished

    writer = asyncio.create_task(keep_playing())
    try:
        await until(lambda: finished >= 3, what="games written before the backup")
        backup = await make_backup(live, tmp_path / "door-backup.sqlite3")
        after = finished
        await until(lambda: finished >= after + 3, what="games written after the backup")
    finally:
        writing = False
        played = await writer
        await store.close()
    assert played > 0
    assert inspect_backup(backup) == head_revision()
    restored = sqlite_url(tmp_path / "restored.sqlite3")
    await restore_backup(backup, restored)
    report = await check_database(restored, "restored")
    assert report.problems == 0, report.lines
    rows = await table_rows(restored)
    # One moment of the database: each game played went in whole (its row, log and two
    # seats are one transaction) or not at all, and what came after is not there.
    assert len(rows["games"]) == len(rows["game_logs"]) + 1  # fill's one saved game
    assert len(rows["game_seats"]) == 2 * len(rows["games"])
    made_here = len(rows["accounts"]) - 6  # fill's five members and a BBS caller
    assert made_here - 1 <= len(rows["game_logs"]) - 2 <= made_here
    assert len(rows["accounts"]) < len((await table_rows(live))["accounts"])
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "door-backup.sqlite3",
        "live.sqlite3",
        "restored.sqlite3",
    ]


@run_async
async def test_restore_refuses_a_database_with_rows_unless_replacing(tmp_path: Path) -> None:
    source, other = sqlite_url(tmp_path / "a.sqlite3"), sqlite_url(tmp_path / "b.sqlite3")
    await fill(source)
    backup = await make_backup(source, tmp_path / "a-backup.sqlite3")
    store = await Store.open(other, hasher=FAST_HASHER)
    await store.create_account("Zed", PASSWORD)
    await store.close()
    before = await table_rows(other)
    with pytest.raises(TransferError, match="or add --replace"):
        await restore_backup(backup, other)
    assert await table_rows(other) == before
    await restore_backup(backup, other, replace=True)
    assert await table_rows(other) == await table_rows(source)


def test_a_postgresql_backup_is_a_sqlite_file_that_restores_into_either() -> None:
    with fresh_postgres_database() as first, fresh_postgres_database() as second:

        @run_async
        async def scenario() -> None:
            import tempfile

            await fill(first)
            with tempfile.TemporaryDirectory() as folder:
                backup = await make_backup(first, Path(folder) / "pg.sqlite3")
                assert inspect_backup(backup) == head_revision()
                await restore_backup(backup, second)
                await restore_backup(backup, sqlite_url(Path(folder) / "door.sqlite3"))
                original = await table_rows(first)
                assert await table_rows(second) == original
                assert await table_rows(sqlite_url(Path(folder) / "door.sqlite3")) == original

        scenario()


@run_async
async def test_an_older_backup_is_migrated_on_restore_and_left_as_it_was(tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite3"
    engine = create_async_engine(sqlite_url(old))
    async with engine.begin() as connection:
        await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), "0003"))
        await connection.exec_driver_sql(
            "INSERT INTO accounts (handle, handle_key, password_hash, created_at) "
            "VALUES ('Old Timer', 'old timer', 'x', '2025-01-01 00:00:00')"
        )
    await engine.dispose()
    backup = await make_backup(sqlite_url(old), tmp_path / "old-backup.sqlite3")
    assert inspect_backup(backup) == "0003"
    restored = sqlite_url(tmp_path / "new.sqlite3")
    await restore_backup(backup, restored)
    assert inspect_backup(backup) == "0003"
    assert inspect_backup(tmp_path / "new.sqlite3") == head_revision()
    assert [row[1] for row in (await table_rows(restored))["accounts"]] == ["Old Timer"]


def _cut(backup: Path, into: Path) -> None:
    into.write_bytes(backup.read_bytes()[: backup.stat().st_size // 2])


def _garbled(backup: Path, into: Path) -> None:
    data = bytearray(backup.read_bytes())
    data[8192:12288] = b"\xff" * 4096
    into.write_bytes(bytes(data))


def _foreign(backup: Path, into: Path) -> None:
    with contextlib.closing(sqlite3.connect(into)) as connection:
        connection.execute("CREATE TABLE notes (body TEXT)")
        connection.commit()


def _newer(backup: Path, into: Path) -> None:
    shutil.copyfile(backup, into)
    with contextlib.closing(sqlite3.connect(into)) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0099'")
        connection.commit()


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (None, "there is no such file"),
        (lambda backup, into: into.mkdir(), "a folder, not a backup file"),
        (lambda backup, into: into.write_text("name,handle\n"), "not a SQLite database"),
        (_foreign, "it has no schema revision"),
        (_cut, "cut short"),
        (_garbled, "damaged|cannot be read"),
        (_newer, "a backup of a newer door"),
    ],
)
@run_async
async def test_a_file_that_is_not_a_whole_backup_is_refused_and_nothing_made(
    spoil: object, message: str, tmp_path: Path
) -> None:
    source = sqlite_url(tmp_path / "door.sqlite3")
    await fill(source)
    backup = await make_backup(source, tmp_path / "good.sqlite3")
    bad = tmp_path / "bad.sqlite3"
    if callable(spoil):
        spoil(backup, bad)
    target = tmp_path / "target" / "cribbage.sqlite3"
    target.parent.mkdir()
    with pytest.raises(TransferError, match=message) as caught:
        await restore_backup(bad, sqlite_url(target))
    assert "\n" not in str(caught.value)
    assert list(target.parent.iterdir()) == []


@run_async
async def test_a_damaged_backup_is_refused_with_what_is_damaged(tmp_path: Path) -> None:
    """By hand, a backup with garbage over one table's page was refused as "the backup is
    damaged (*** in database main ***)": the heading of SQLite's report, not a word of
    what it found."""
    source = sqlite_url(tmp_path / "door.sqlite3")
    await fill(source)
    backup = await make_backup(source, tmp_path / "good.sqlite3")
    with contextlib.closing(sqlite3.connect(backup)) as connection:
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        root = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'accounts'"
        ).fetchone()[0]
    data = bytearray(backup.read_bytes())
    start = (root - 1) * page_size + 8  # past the page's header: its cells
    data[start : start + 64] = b"\xfe" * 64
    backup.write_bytes(bytes(data))
    with pytest.raises(TransferError, match="damaged") as caught:
        inspect_backup(backup)
    reason = str(caught.value).partition("damaged (")[2]
    assert "***" not in reason and "page" in reason.lower(), reason


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_full_disk_leaves_no_part_of_a_backup(kind: str, tmp_path: Path) -> None:
    with contextlib.ExitStack() as stack:
        if kind == "postgresql":
            source = stack.enter_context(fresh_postgres_database())
        else:
            source = sqlite_url(tmp_path / "door.sqlite3")
        disk = stack.enter_context(tiny_disk(tmp_path / "disk", "64k"))

        @run_async
        async def scenario() -> None:
            await fill(source)
            (disk / "earlier.sqlite3").write_bytes(b"an earlier backup")
            with pytest.raises(TransferError, match="full") as caught:
                await make_backup(source, disk / "new.sqlite3")
            assert "\n" not in str(caught.value)
            assert sorted(path.name for path in disk.iterdir()) == ["earlier.sqlite3"]

        scenario()


@run_async
async def test_a_backup_over_the_database_itself_is_refused(tmp_path: Path) -> None:
    live = tmp_path / "door.sqlite3"
    await fill(sqlite_url(live))
    before = await table_rows(sqlite_url(live))
    for target in (live, tmp_path / "door.sqlite3-wal", tmp_path / "." / "door.sqlite3"):
        with pytest.raises(TransferError, match="that is the database itself"):
            await make_backup(sqlite_url(live), target)
    assert await table_rows(sqlite_url(live)) == before
