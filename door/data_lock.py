"""A door at work on a data folder says so, and ``db restore`` waits for none to be.

Each process that serves from a data folder (``serve`` and each of its workers, the
console, door mode) holds a *shared* lock on ``door.lock`` in it for as long as it runs;
``db restore`` takes the lock *alone* for as long as it writes. So a restore is refused
while any door runs there, and no door starts in the middle of a restore. A restore
under a running door replaced the members and games the door had in memory: it hung up
a member whose account had gone and went on writing what it knew.

The kernel lets a lock go when its process ends, however it ends: a door killed with
SIGKILL leaves no stale mark. ``flock(2)`` is Linux's and the BSDs'; where Python has no
``fcntl`` the check is skipped. Only doors on this machine that use this data folder are
seen: a door on another machine sharing a PostgreSQL database is not.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Final

try:
    import fcntl
except ImportError:  # pragma: no cover (not on Linux)
    fcntl = None  # type: ignore[assignment]

LOCK_FILE: Final = "door.lock"
RESTORING: Final = "a db restore is writing to this data folder: start the door once it is done"
RUNNING: Final = "the door is running on this data folder: stop it before restoring"


class DataFolderBusy(Exception):
    """The data folder is another's just now (the message says whose)."""


@contextlib.contextmanager
def door_at_work(data_path: Path) -> Iterator[None]:
    """Held while a door serves from ``data_path`` (which must exist). DataFolderBusy
    if a restore is writing there."""
    with _locked(data_path, shared=True, busy=RESTORING):
        yield


@contextlib.contextmanager
def no_door_at_work(data_path: Path) -> Iterator[None]:
    """Held while a restore writes the database of ``data_path`` (made if missing).
    DataFolderBusy if a door serves from it."""
    data_path.mkdir(parents=True, exist_ok=True)
    with _locked(data_path, shared=False, busy=RUNNING):
        yield


@contextlib.contextmanager
def _locked(data_path: Path, *, shared: bool, busy: str) -> Iterator[None]:
    if fcntl is None:  # pragma: no cover
        yield
        return
    descriptor = os.open(data_path / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        try:
            fcntl.flock(descriptor, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DataFolderBusy(busy) from None
        yield
    finally:
        os.close(descriptor)  # (closing the last descriptor lets the lock go)
