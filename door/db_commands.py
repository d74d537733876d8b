"""``cribbage-door db backup|restore|copy|check`` and ``cribbage-door user export``: the
sysop's tools for the door's database, on the database ``serve`` would use (the config
file's ``[database] url``, or SQLite in the data folder; same ``--config`` and
``--data-dir``).

Each prints what it did, or one line saying why it could not, and exits 0 when done, 1
when the database or a file said no, 2 for a bad command line or config.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from door.config import Config
from door.data_lock import DataFolderBusy, no_door_at_work
from door.member_commands import add_audit_command, add_member_actions
from door.paths import DataDirError, ensure_writable_dir
from door.shell_store import (
    BAD_USAGE_EXIT,
    PROGRAM,
    CommandFailed,
    add_place_arguments,
    command_config,
    exit_status,
    shell_actor,
    with_store,
)
from door.storage.settings import (
    DatabaseSettings,
    DatabaseSettingsError,
    database_settings_from_mapping,
    database_url,
    redact_url,
)

if TYPE_CHECKING:
    from door.storage.store import Store


def add_db_commands(new_command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add ``db`` and ``user`` through ``new_command(name, help=...)``, which makes a
    top-level command's parser (the top level's subparsers' ``add_parser``). Each takes
    ``--config`` and ``--data-dir`` itself and after its action, so they may come before
    the command, after it, or after the action."""
    db = new_command("db", help="back up, restore, copy or check the door's database")
    add_place_arguments(db)
    actions = db.add_subparsers(
        dest="db_command", metavar="ACTION", required=True, parser_class=argparse.ArgumentParser
    )
    backup = actions.add_parser(
        "backup", help="write a backup of the database to FILE, while the door runs or not"
    )
    backup.add_argument("file", metavar="FILE", help="the backup file to write")
    backup.add_argument(
        "--replace", action="store_true", help="write over FILE if it is already there"
    )
    restore = actions.add_parser(
        "restore", help="put a backup into the database (empty, unless --replace)"
    )
    restore.add_argument("file", metavar="FILE", help="a file `db backup` wrote")
    restore.add_argument(
        "--replace",
        action="store_true",
        help="delete everything the database holds first (stop the door before)",
    )
    copy = actions.add_parser("copy", help="copy every table into another, empty, database")
    copy.add_argument(
        "--to",
        required=True,
        metavar="URL",
        help='the target: "postgresql://user:password@host/dbname" or "sqlite:///file"',
    )
    check = actions.add_parser("check", help="check foreign keys, orphaned rows and game logs")
    for action in (backup, restore, copy, check):
        add_place_arguments(action)
    user = new_command("user", help="a member's own data")
    add_place_arguments(user)
    user_actions = user.add_subparsers(
        dest="user_command", metavar="ACTION", required=True, parser_class=argparse.ArgumentParser
    )
    export = user_actions.add_parser(
        "export", help="write a member's record and games as JSON (and the games as text)"
    )
    export.add_argument("handle", metavar="HANDLE", help="the member's handle")
    export.add_argument("--out", metavar="FILE", help="write the JSON here (default: stdout)")
    export.add_argument(
        "--text", metavar="FILE", help="also write every game as `replay` prints it"
    )
    add_place_arguments(export)
    # The sysop's tools for members (door/member_commands.py).
    add_member_actions(user_actions, add_place_arguments)
    add_audit_command(new_command, add_place_arguments)


def db_command(args: argparse.Namespace) -> int:
    """Run ``db ACTION`` or ``user ACTION``; the exit status."""
    from door.storage.transfer import TransferError

    logging.basicConfig(level=logging.WARNING, format=f"{PROGRAM}: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    name = f"{args.command} {getattr(args, 'db_command', None) or args.user_command}"
    run: Callable[[argparse.Namespace, Config, str], Coroutine[Any, Any, None]] = {
        "db backup": _backup,
        "db restore": _restore,
        "db copy": _copy,
        "db check": _check,
        "user export": _export,
    }[name]

    def work() -> None:
        config = command_config(args)
        url = database_url(config.database, config.server.data_path)
        try:
            asyncio.run(run(args, config, url))
        except TransferError as error:
            raise CommandFailed(str(error)) from None

    return exit_status(name, work)


def _named(url: str) -> str:
    from door.storage.transfer import database_name

    return database_name(url)


def _existing_database(url: str) -> None:
    """Refuse a SQLite file that is not there, rather than make an empty one."""
    from door.storage.transfer import sqlite_path

    path = sqlite_path(url)
    if path is not None and not path.is_file():
        raise CommandFailed(f"there is no database at {path} (wrong --data-dir or --config?)")


class CopyReport:
    """Prints each table as it is copied and checked, then the totals (nothing before
    the first table, so a refusal is the one line on standard error)."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.copies: list[Any] = []

    def __call__(self, copy: Any) -> None:
        if not self.copies:
            print(f"{'table':<20}  {'rows':>10}  checksum (sum of the rows' SHA-256)")
        self.copies.append(copy)
        print(f"{copy.table:<20}  {copy.rows:>10,}  {copy.checksum[:16]}", flush=True)

    def finish(self) -> None:
        total = sum(copy.rows for copy in self.copies)
        seconds = time.perf_counter() - self.started
        print(
            f"{len(self.copies)} tables, {total:,} rows, each read back and matched, "
            f"in {seconds:.1f} s"
        )


# --- db ---------------------------------------------------------------------------------


async def _backup(args: argparse.Namespace, config: Config, url: str) -> None:
    from door.storage.backup import inspect_backup, make_backup

    _existing_database(url)
    started = time.perf_counter()
    path = await make_backup(url, Path(args.file), replace=args.replace)
    revision = inspect_backup(path)
    size = path.stat().st_size
    print(
        f"backup of {_named(url)} written to {path} "
        f"({size / 1e6:,.1f} MB, schema revision {revision}) in "
        f"{time.perf_counter() - started:.1f} s"
    )


async def _restore(args: argparse.Namespace, config: Config, url: str) -> None:
    from door.storage.backup import inspect_backup, restore_backup
    from door.storage.transfer import sqlite_path

    inspect_backup(Path(args.file))  # before making a data folder for it
    target_file = sqlite_path(url)
    if target_file is not None:  # a new data folder, as `serve` would make it
        try:
            ensure_writable_dir(target_file.parent)
        except DataDirError as error:
            raise CommandFailed(str(error)) from None
    report = CopyReport()
    try:
        with no_door_at_work(config.server.data_path):
            await restore_backup(Path(args.file), url, replace=args.replace, progress=report)
    except DataFolderBusy as error:
        raise CommandFailed(str(error)) from None
    report.finish()
    # The audit the backup brought is the one kept (a replacing restore empties the old
    # one): its newest entry says when, by whom and from which file it came back.
    how = "replacing what the database held" if args.replace else "into an empty database"
    source = str(Path(args.file).resolve())

    async def audited(store: Store) -> None:
        await store.record_action(shell_actor(), "db.restore", source, None, how)

    await with_store(config, audited)
    print(f"restored {args.file} into {_named(url)}")


async def _copy(args: argparse.Namespace, config: Config, url: str) -> None:
    from door.storage.transfer import copy_database

    _existing_database(url)
    try:
        settings = database_settings_from_mapping({"url": args.to}, "--to")
    except DatabaseSettingsError as error:
        raise CommandFailed(str(error), BAD_USAGE_EXIT) from None
    if not settings.url.strip():
        raise CommandFailed("--to: name the database to copy into", BAD_USAGE_EXIT)
    target = database_url(DatabaseSettings(url=settings.url), Path.cwd())
    print(f"copying {_named(url)} to {_named(target)}", flush=True)
    report = CopyReport()
    await copy_database(url, target, progress=report)
    report.finish()
    print(f'done: set [database] url = "{redact_url(args.to)}" and start the door')


async def _check(args: argparse.Namespace, config: Config, url: str) -> None:
    from door.storage.check import check_database

    _existing_database(url)
    report = await check_database(url, _named(url))
    print("\n".join(report.lines))
    if report.problems:
        raise CommandFailed(f"{report.problems} problem(s) found in {_named(url)}")
    print(f"{_named(url)}: no problems found")


# --- user -------------------------------------------------------------------------------


async def _export(args: argparse.Namespace, config: Config, url: str) -> None:
    from door.storage.errors import StorageUnavailableError
    from door.storage.export import MemberNotFoundError, export_member
    from door.storage.store import Store

    _existing_database(url)
    try:
        store = await Store.open(url)
    except StorageUnavailableError as error:
        raise CommandFailed(error.detail) from None
    try:
        exported = await export_member(store, args.handle)
    except MemberNotFoundError as error:
        raise CommandFailed(str(error)) from None
    except StorageUnavailableError as error:
        raise CommandFailed(error.detail) from None
    finally:
        await store.close()
    document = json.dumps(exported, indent=2, ensure_ascii=False) + "\n"
    if args.text:
        games = [game["text"] for game in exported["games"]]
        _write_whole(Path(args.text), "\n\n".join("\n".join(lines) for lines in games) + "\n")
    if args.out:
        _write_whole(Path(args.out), document)
        print(f"{exported['account']['handle']}: {len(exported['games'])} game(s) to {args.out}")
    else:
        sys.stdout.write(document)


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so no half file is left."""
    path = path.expanduser().absolute()
    try:
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError as error:
        raise CommandFailed(f"{path}: cannot write there ({error.strerror})") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(name, path)
    except OSError as error:
        os.unlink(name)
        raise CommandFailed(f"{path}: cannot write it ({error.strerror})") from None
