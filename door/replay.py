"""``cribbage-door replay GAME_ID``: print a game from the database as text; with no
number, the latest games with their numbers (as members' records show them).

The game is rebuilt from its recording (see engine/rules/record.py), so the log shows the deal,
the throws, the cut, every card played with what it pegged, the show with breakdowns and
the result, exactly as the game went. The database is the one the server uses: the
config file's ``[database] url``, or SQLite in ``server.data_dir``; ``--database URL``
names another; ``--chances`` ends each move's line with each side's chance to win at
that moment, as the table's win bar would show a watcher.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from door.config import load_config
from door.shell_store import exit_status
from door.storage.settings import DatabaseSettings, database_url

if TYPE_CHECKING:
    from door.storage.store import Store

T = TypeVar("T")

LISTED_GAMES = 20


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game_id",
        type=int,
        nargs="?",
        metavar="GAME_ID",
        help="the game's number (none: list the latest games)",
    )
    parser.add_argument(
        "--last",
        type=int,
        default=LISTED_GAMES,
        metavar="N",
        help=f"how many games the list shows (default {LISTED_GAMES})",
    )
    parser.add_argument("--config", metavar="FILE", help="TOML configuration file")
    parser.add_argument("--data-dir", metavar="DIR", help="where the SQLite database lives")
    parser.add_argument("--database", metavar="URL", help="a database URL to read instead")
    parser.add_argument(
        "--chances",
        action="store_true",
        help="end each move's line with each side's chance to win at that moment",
    )


def replay_command(args: argparse.Namespace) -> int:
    """Print the game's log; 0 when printed, 1 when there is no such game or the database
    cannot be read, 2 for a bad configuration, 130 when interrupted."""
    return exit_status("replay", lambda: _replay(args))


def _replay(args: argparse.Namespace) -> int:
    config = load_config(Path(args.config) if args.config else None)
    settings = config.database
    if args.database:
        settings = DatabaseSettings(url=args.database)
    url = database_url(settings, args.data_dir or config.server.data_path)
    # The store logs why a database cannot be used (file, reason): that is the message.
    logging.basicConfig(level=logging.WARNING, format="cribbage-door replay: %(message)s")
    if args.game_id is None:
        return asyncio.run(_print_games(url, max(1, min(args.last, 1000))))
    return asyncio.run(_print_log(url, args.game_id, chances=args.chances))


async def _print_log(url: str, game_id: int, *, chances: bool) -> int:
    lines = await _read(url, lambda store: store.game_log(game_id, chances=chances))
    if lines is None:
        return 1
    print("\n".join(lines))
    return 0


async def _print_games(url: str, limit: int) -> int:
    """The latest ``limit`` games, newest first, each with its number."""
    from door.screens.game_list import game_line

    games = await _read(url, lambda store: store.recent_games(limit=limit))
    if games is None:
        return 1
    if not games:
        print("No games yet.")
        return 0
    print("\n".join(game_line(game) for game in games))
    print("cribbage-door replay N tells game N move by move.")
    return 0


async def _read(url: str, read: Callable[[Store], Awaitable[T]]) -> T | None:
    """What ``read`` finds in the database at ``url``; None once the reason it could not
    has been said (the store logs an unusable database itself, with the file and why)."""
    from door.storage.errors import StorageUnavailableError, StoreError
    from door.storage.store import Store

    try:
        store = await Store.open(url)
    except StorageUnavailableError:
        return None
    try:
        return await read(store)
    except StorageUnavailableError:
        return None
    except StoreError as error:
        print(f"cribbage-door replay: {error}", file=sys.stderr)
        return None
    finally:
        await store.close()
