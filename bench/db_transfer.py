"""How long the sysop's database tools take on a big board: makes a SQLite database of
``--members`` members (10,000) and ``--games`` finished games (100,000: each with its two
seats and its log, the members' statistics and ratings), then times ``db backup``,
``db restore`` into a new SQLite file, ``db copy`` to SQLite, and, given a PostgreSQL
server (``--postgres URL`` or CRIBBAGE_TEST_POSTGRES_URL; ``bash .ci/postgres.sh``
starts one), ``db copy`` to PostgreSQL, a backup of that PostgreSQL database and a
restore into it.

    python bench/db_transfer.py                   # 10,000 members, 100,000 games
    python bench/db_transfer.py --games 10000     # a quicker look

The games are real recordings (computer against computer, ``--kinds`` different ones,
reused), so rows are the size the door writes. Each database made is dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy.ext.asyncio import create_async_engine  # noqa: E402

from door.competition.turns import play_automatic, play_for, waiting_on  # noqa: E402
from door.storage.backup import make_backup, restore_backup  # noqa: E402
from door.storage.migrate import upgrade_to_head  # noqa: E402
from door.storage.schema import (  # noqa: E402
    accounts,
    game_logs,
    game_seats,
    games,
    player_stats,
    ratings,
)
from door.storage.stats import game_stats, outcome_to_json  # noqa: E402
from door.storage.transfer import copy_database  # noqa: E402
from engine.computer.player import ComputerPlayer  # noqa: E402
from engine.rules.game import Phase  # noqa: E402
from engine.rules.record import RecordedGame, Recording  # noqa: E402

START = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
# One real argon2id hash for everyone: its length is what matters here.
PASSWORD_HASH = (
    "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHRzb21lc2FsdA$"
    "rKDcF5hXWbC3c2A4C4p0xC2fG5yqz0D3bQ2sF6m1Y7k"
)
BATCH = 5_000


def recordings(kinds: int) -> list[tuple[Recording, str]]:
    """``kinds`` whole games between two computers, with each one's result as JSON."""
    made = []
    for seed in range(kinds):
        computer = ComputerPlayer("easy", random.Random(seed))
        game = RecordedGame(seed=seed)
        play_automatic(game)
        while game.phase is not Phase.OVER:
            play_for(game, waiting_on(game)[0], computer)
            play_automatic(game)
        made.append((game.recording, outcome_to_json(game_stats(game.recording).result)))
    return made


async def make_board(url: str, members: int, game_count: int, kinds: int) -> None:
    played = recordings(kinds)
    engine = create_async_engine(url)
    async with engine.begin() as connection:
        await connection.run_sync(upgrade_to_head)
        rows: list[dict[str, Any]] = []
        for number in range(1, members + 1):
            handle = f"Member{number:05d}"
            rows.append(
                {"id": number, "handle": handle, "handle_key": handle.lower(),
                 "password_hash": PASSWORD_HASH, "created_at": START,
                 "last_login_at": START + dt.timedelta(days=number % 300)}
            )  # fmt: skip
        await _insert(connection, accounts, rows)
        await _insert(
            connection,
            player_stats,
            [
                {"account_id": number, "runs": "free", "counting": "auto",
                 "opponent": "people", "games": 20, "wins": 10, "losses": 10}
                for number in range(1, members + 1)
            ],
        )  # fmt: skip
        await _insert(
            connection,
            ratings,
            [
                {"account_id": number, "rating": 1500.0 + number % 400, "deviation": 80.0,
                 "volatility": 0.06, "games": 20, "updated_at": START}
                for number in range(1, members + 1)
            ],
        )  # fmt: skip
        chooser = random.Random(1)
        for first in range(1, game_count + 1, BATCH):
            numbers = range(first, min(first + BATCH, game_count + 1))
            game_rows, seat_rows, log_rows = [], [], []
            for number in numbers:
                recording, result = played[number % len(played)]
                text = recording.to_json()
                moment = START + dt.timedelta(minutes=number)
                game_rows.append(
                    {"id": number, "players": 2, "runs": "free", "counting": "auto",
                     "opponent": "people", "recording": text,
                     "actions": len(recording.actions), "finished": True,
                     "created_at": moment, "updated_at": moment}
                )  # fmt: skip
                for seat in range(2):
                    member = chooser.randrange(1, members + 1)
                    seat_rows.append(
                        {"game_id": number, "seat": seat, "account_id": member,
                         "name": f"Member{member:05d}"}
                    )  # fmt: skip
                log_rows.append(
                    {"game_id": number, "recording": text, "result": result,
                     "finished_at": moment}
                )  # fmt: skip
            await connection.execute(games.insert(), game_rows)
            await connection.execute(game_seats.insert(), seat_rows)
            await connection.execute(game_logs.insert(), log_rows)
    await engine.dispose()


async def _insert(connection: Any, table: Any, rows: list[dict[str, Any]]) -> None:
    for start in range(0, len(rows), BATCH):
        await connection.execute(table.insert(), rows[start : start + BATCH])


async def timed(label: str, step: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    await step()
    seconds = time.perf_counter() - started
    print(f"  {label:<44} {seconds:7.1f} s", flush=True)
    return seconds


async def postgres_database(server: str, sql: str) -> None:
    import asyncpg

    base = server.rsplit("/", 1)[0].replace("postgresql+asyncpg://", "postgresql://", 1)
    connection = await asyncpg.connect(f"{base}/postgres")
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="db-transfer-", dir=args.folder) as scratch:
        folder = Path(scratch)
        board = f"sqlite+aiosqlite:///{folder / 'board.sqlite3'}"
        print(f"{args.members:,} members, {args.games:,} finished games ({args.kinds} kinds)")
        await timed("making the SQLite board", lambda: make_board(
            board, args.members, args.games, args.kinds))  # fmt: skip
        size = (folder / "board.sqlite3").stat().st_size
        print(f"  board: {size / 1e6:,.1f} MB")
        backup = folder / "board.backup"
        await timed("db backup (SQLite, online backup API)", lambda: make_backup(board, backup))
        await timed("db restore into a new SQLite file", lambda: restore_backup(
            backup, f"sqlite+aiosqlite:///{folder / 'restored.sqlite3'}"))  # fmt: skip
        await timed("db copy to a new SQLite file", lambda: copy_database(
            board, f"sqlite+aiosqlite:///{folder / 'copy.sqlite3'}"))  # fmt: skip
        server = args.postgres or os.environ.get("CRIBBAGE_TEST_POSTGRES_URL", "")
        if not server:
            print("  (no PostgreSQL: give --postgres URL or run bash .ci/postgres.sh)")
            return
        names = [f"bench_{uuid.uuid4().hex[:10]}" for _ in range(2)]
        base = server.rsplit("/", 1)[0]
        for name in names:
            await postgres_database(server, f"CREATE DATABASE {name}")
        try:
            first, second = (f"{base}/{name}" for name in names)
            await timed("db copy to PostgreSQL", lambda: copy_database(board, first))
            pg_backup = folder / "pg.backup"
            await timed("db backup of PostgreSQL (into SQLite)", lambda: make_backup(
                first, pg_backup))  # fmt: skip
            await timed("db restore into PostgreSQL", lambda: restore_backup(pg_backup, second))
        finally:
            for name in names:
                await postgres_database(server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--kinds", type=int, default=200, help="different recordings")
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL server to use")
    parser.add_argument("--folder", metavar="DIR", help="where the scratch files go")
    asyncio.run(main(parser.parse_args()))
