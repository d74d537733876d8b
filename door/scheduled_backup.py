"""The backups the running door makes of its own database: every ``[database]
backup_every_hours`` a backup (door/storage/backup.py) into ``backups`` in the data
folder, keeping the newest ``backup_keep``.

A backup that fails (a full disk, a database that is down) is a line in the log and the
next one is tried at the next time; the door and the backups already made are left as
they are. With several workers only the first runs this (door/serve.py).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Final

from door.config import Config
from door.storage.backup import (
    BACKUP_FOLDER,
    make_backup,
    rotate,
    scheduled_backup_path,
    scheduled_backups,
)
from door.storage.settings import database_url
from door.storage.transfer import TransferError

logger = logging.getLogger(__name__)

FIRST_BACKUP_DELAY: Final = 600.0
"""Seconds after the door starts before a backup that is due is made: the start stays
quick, and a door restarted again and again does not write a backup each time."""


def seconds_until_due(
    folder: Path, every_hours: int, now: dt.datetime, first_delay: float = FIRST_BACKUP_DELAY
) -> float:
    """How long to wait for the next backup: ``every_hours`` after the newest one in
    ``folder``, and never sooner than ``first_delay``."""
    made = scheduled_backups(folder)
    if not made:
        return first_delay
    newest = dt.datetime.fromtimestamp(made[-1].stat().st_mtime, dt.UTC)
    due = newest + dt.timedelta(hours=every_hours)
    return max(first_delay, (due - now).total_seconds())


async def back_up_once(url: str, folder: Path, keep: int, now: dt.datetime) -> Path | None:
    """Make one scheduled backup and delete those past ``keep``; the backup, or None
    (logged) when it could not be made."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # In a thread with a loop of its own: copying a PostgreSQL database is work
        # that callers should not wait behind.
        path = await asyncio.to_thread(
            asyncio.run,
            # Its own name, in its own folder: one made in the same second is its own.
            make_backup(url, scheduled_backup_path(folder, now), replace=True),
        )
    except (TransferError, OSError) as error:
        logger.error("scheduled backup failed, will try again later: %s", error)
        return None
    except Exception:
        logger.exception("scheduled backup failed, will try again later")
        return None
    removed = rotate(folder, keep)
    logger.info(
        "scheduled backup written: %s (%s)",
        path,
        f"{len(removed)} older removed" if removed else "none removed",
    )
    return path


async def back_up_on_schedule(
    url: str,
    folder: Path,
    every_hours: int,
    keep: int,
    *,
    first_delay: float = FIRST_BACKUP_DELAY,
    clock: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC),
) -> None:
    """Make a backup whenever one is due, until cancelled."""
    delay = seconds_until_due(folder, every_hours, clock(), first_delay)
    while True:
        await asyncio.sleep(delay)
        await back_up_once(url, folder, keep, clock())
        delay = every_hours * 3600.0


def start_scheduled_backups(config: Config) -> asyncio.Task[None] | None:
    """The task making the configured backups on the running loop; None when they are off."""
    settings = config.database
    if not settings.backup_every_hours:
        return None
    data_path = config.server.data_path
    schedule = back_up_on_schedule(
        database_url(settings, data_path),
        data_path / BACKUP_FOLDER,
        settings.backup_every_hours,
        settings.backup_keep,
    )
    return asyncio.get_running_loop().create_task(schedule, name="scheduled backups")
