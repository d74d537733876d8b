"""The door's own backups while it runs (door/scheduled_backup.py): made when due into
the data folder, rotated, a failure (a full disk) logged and survived; checked settings;
run by the first worker only."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
from pathlib import Path

import pytest

from door.cluster.workers import WorkerPlace
from door.config import ConfigError, config_from_mapping
from door.scheduled_backup import back_up_on_schedule, back_up_once, seconds_until_due
from door.serve import run_server
from door.storage.backup import inspect_backup, scheduled_backups
from door.storage.migrate import head_revision
from tests.door.caller import run_async
from tests.door.netclients import free_port
from tests.door.storage.disks import tiny_disk
from tests.door.storage.every_row import fill
from tests.door.waiting import until

NOW = dt.datetime(2026, 11, 27, 3, 0, tzinfo=dt.UTC)


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def old_backup(folder: Path, hours_ago: float) -> Path:
    moment = NOW - dt.timedelta(hours=hours_ago)
    path = folder / f"cribbage-{moment:%Y%m%d-%H%M%S}.sqlite3"
    path.write_bytes(b"an older backup")
    os.utime(path, (moment.timestamp(), moment.timestamp()))
    return path


@run_async
async def test_a_backup_is_written_and_only_the_newest_are_kept(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "cribbage.sqlite3")
    await fill(url)
    folder = tmp_path / "backups"
    folder.mkdir()
    oldest, older, newer = (old_backup(folder, hours) for hours in (72, 48, 24))
    (folder / "notes.txt").write_text("the sysop's own file")
    made = await back_up_once(url, folder, keep=2, now=NOW)
    assert made == folder / "cribbage-20261127-030000.sqlite3"
    assert inspect_backup(made) == head_revision()
    assert scheduled_backups(folder) == [newer, made]
    assert not oldest.exists() and not older.exists()
    assert (folder / "notes.txt").exists()


def test_a_full_disk_is_a_log_line_and_the_older_backups_stay(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = sqlite_url(tmp_path / "cribbage.sqlite3")
    with tiny_disk(tmp_path / "disk", "64k") as folder:

        @run_async
        async def scenario() -> None:
            await fill(url)
            earlier = old_backup(folder, 24)
            with caplog.at_level(logging.ERROR, logger="door.scheduled_backup"):
                assert await back_up_once(url, folder, keep=1, now=NOW) is None
            assert scheduled_backups(folder) == [earlier]
            assert sorted(path.name for path in folder.iterdir()) == [earlier.name]
            (line,) = caplog.messages
            assert line.startswith("scheduled backup failed, will try again later: ")
            assert "the disk is full" in line

        scenario()


def test_the_next_backup_is_due_a_period_after_the_newest(tmp_path: Path) -> None:
    assert seconds_until_due(tmp_path, 24, NOW, first_delay=600) == 600
    old_backup(tmp_path, 30)
    assert seconds_until_due(tmp_path, 24, NOW, first_delay=600) == 600  # overdue
    old_backup(tmp_path, 20)
    assert seconds_until_due(tmp_path, 24, NOW, first_delay=600) == 4 * 3600


@run_async
async def test_the_schedule_makes_backups_until_cancelled(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "cribbage.sqlite3")
    await fill(url)
    folder = tmp_path / "backups"
    schedule = asyncio.create_task(back_up_on_schedule(url, folder, 1, 3, first_delay=0))
    try:
        await until(lambda: bool(scheduled_backups(folder)), what="a scheduled backup")
    finally:
        schedule.cancel()
    (made,) = scheduled_backups(folder)
    assert inspect_backup(made) == head_revision()


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("backup_every_hours", -1, "database.backup_every_hours must be from 0 to 8784, not -1"),
        ("backup_keep", 0, "database.backup_keep must be from 1 to 1000, not 0"),
        ("backup_keep", "7", "database.backup_keep must be a whole number, not '7'"),
    ],
)
def test_backup_settings_are_checked(key: str, value: object, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_mapping({"database": {key: value}}, "door.toml")
    assert str(caught.value) == f"door.toml: {message}"


@pytest.mark.parametrize(("worker", "every", "scheduled"), [
    (None, 24, True),
    (WorkerPlace(0, 2), 24, True),
    (WorkerPlace(1, 2), 24, False),
    (None, 0, False),
])  # fmt: skip
@run_async
async def test_the_server_schedules_backups_in_one_worker_only(
    worker: WorkerPlace | None, every: int, scheduled: bool, tmp_path: Path
) -> None:
    config = config_from_mapping(
        {
            "server": {"telnet_port": free_port(), "ssh_port": 0, "data_dir": str(tmp_path)},
            "database": {"backup_every_hours": every},
        }
    )
    stop = asyncio.Event()
    ready = asyncio.Event()
    server = asyncio.create_task(
        run_server(config, stop=stop, on_ready=lambda _: ready.set(), worker=worker)
    )
    await asyncio.wait_for(ready.wait(), 20)
    names = {task.get_name() for task in asyncio.all_tasks()}
    stop.set()
    await asyncio.wait_for(server, 20)
    assert ("scheduled backups" in names) is scheduled
    assert "scheduled backups" not in {task.get_name() for task in asyncio.all_tasks()}
