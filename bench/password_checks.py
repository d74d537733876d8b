"""Memory of many password hashes at once: ``--callers`` sign-ups started together against
one SQLite store with the door's own argon2id parameters (64 MiB each). A sign-up hashes
its password before it asks the database anything, so nothing but the hashing decides
how many run together (log-ins are spread out by their database reads first).

Prints the process's peak RSS before and after, how long they all took, and how many were
refused as busy. Run it over another source tree with PYTHONPATH=TREE to compare.

Run: python bench/password_checks.py [--callers 40]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import tempfile
import time
from pathlib import Path


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def run(callers: int) -> None:
    from door.storage.errors import StoreError
    from door.storage.store import Store

    folder = Path(tempfile.mkdtemp(prefix="password-checks-"))
    store = await Store.open(f"sqlite+aiosqlite:///{folder / 'door.sqlite3'}")
    try:
        before = peak_mib()
        started = time.monotonic()
        results = await asyncio.gather(
            *(store.create_account(f"caller{n}", "a long enough password") for n in range(callers)),
            return_exceptions=True,
        )
        seconds = time.monotonic() - started
        made = sum(not isinstance(r, BaseException) for r in results)
        busy = sum(isinstance(r, StoreError) for r in results)
        print(
            f"{callers} sign-ups at once: peak RSS {before:.0f} -> {peak_mib():.0f} MiB, "
            f"{seconds:.2f} s, {made} made, {busy} told the door is busy"
        )
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--callers", type=int, default=40)
    asyncio.run(run(parser.parse_args().callers))


if __name__ == "__main__":
    main()
