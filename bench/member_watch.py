"""What the watch for locked members costs: one ``Store.refusals`` look over the members
online, as each worker makes every ``WATCH_SECONDS`` (door/app/member_watch.py).

    python bench/member_watch.py [--members 1200] [--looks 50] [--url URL]

Makes that many accounts (SQLite in a temporary folder unless ``--url`` names another,
empty, database; passwords are set straight in the table, not hashed), locks one in a
hundred, then times looks over all of them: the median and the worst wait, the CPU a look
takes in the worker, and the share of a worker's CPU that a look every WATCH_SECONDS is.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from door.app.member_watch import WATCH_SECONDS  # noqa: E402
from door.storage.rules import handle_key  # noqa: E402
from door.storage.schema import accounts  # noqa: E402
from door.storage.store import Store  # noqa: E402


async def bench(url: str, members: int, looks: int) -> None:
    store = await Store.open(url)
    try:
        now = dt.datetime.now(dt.UTC)
        async with store.transaction() as connection:
            await connection.execute(
                accounts.insert(),
                [
                    {
                        "handle": f"M{number}",
                        "handle_key": handle_key(f"M{number}"),
                        "password_hash": "x",
                        "created_at": now,
                    }
                    for number in range(members)
                ],
            )
        for number in range(0, members, 100):
            await store.lock_member(f"M{number}", "bench")
        async with store.transaction() as connection:
            from sqlalchemy import select

            ids = list(await connection.scalars(select(accounts.c.id)))
        times = []
        cpu_started = time.process_time()
        for _ in range(looks):
            started = time.perf_counter()
            refused = await store.refusals(ids)
            times.append(time.perf_counter() - started)
        cpu = (time.process_time() - cpu_started) / looks
        assert len(refused) == len(range(0, members, 100))
        median, worst = statistics.median(times), max(times)
        print(
            f"{members} members online, {len(refused)} locked, {looks} looks ({url.split(':')[0]})"
        )
        print(f"a look: median {median * 1000:.1f} ms, worst {worst * 1000:.1f} ms")
        print(f"CPU of this process per look: {cpu * 1000:.1f} ms")
        print(f"one look every {WATCH_SECONDS:.0f} s: {cpu / WATCH_SECONDS:.2%} of a worker's CPU")
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=1200)
    parser.add_argument("--looks", type=int, default=50)
    parser.add_argument("--url", help="an empty database (default: SQLite in a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.url or f"sqlite+aiosqlite:///{folder}/bench.sqlite3"
        asyncio.run(bench(url, args.members, args.looks))


if __name__ == "__main__":
    main()
