"""What a table's change of whom it waits on costs: ``wait_for`` then ``stop_waiting`` on
one seat of a table of two callers, each seated on a fake terminal (the table tells each
player whether it waits on someone else, and starts and stops the clock on the seat it
waits on: door/table/stalls.py). A turn makes a few such changes; keys make none.

    python bench/table_waits.py [--number 20000] [--repeat 7]

Timed with ``timeit`` on the process's processor time, best of ``--repeat``; microseconds
a change (a wait started and stopped). Run it from the checkout to measure (``cd`` there),
back to back with another.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

from door.table.flow import Table  # noqa: E402
from door.table.options import GameOptions  # noqa: E402
from door.table.person import Person  # noqa: E402
from door.ui.session import Session  # noqa: E402
from tests.door.fake_terminal import FakeTerminal  # noqa: E402


async def measure(number: int, repeat: int) -> float:
    table = Table(GameOptions(level="easy"), ["Ann", "Bob"], rng=random.Random(3), admit=Person)
    for index in (0, 1):
        table.sit(index, Session(FakeTerminal()))

    def change() -> None:
        table.wait_for(1, "play")
        table.stop_waiting(1)

    timer = timeit.Timer(change, timer=time.process_time)
    best = min(timer.repeat(repeat=repeat, number=number)) / number * 1e6
    table.close()
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    micros = asyncio.run(measure(args.number, args.repeat))
    print(f"a wait started and stopped at a table of two callers: {micros:.2f} us")


if __name__ == "__main__":
    main()
