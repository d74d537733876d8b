"""What the table's own bookkeeping costs at every frame and every action, timed alone
(no socket, no drawing, no engine work beyond what each piece calls).

    python bench/table_turn.py [--watchers 4] [--number 20000] [--repeat 7]

A table of a caller (seat 0) against the computer, with ``--watchers`` watching, is set
up in the pegging (the caller to play). Each piece the table runs for a person's frame
(the win bar's look when the bar is known, the caller's hand sorted for show, whether
anyone is deciding) or for an action (a play told to everyone) is timed with
``timeit`` on the process's processor time, best of ``--repeat``; microseconds a call.
Run it from the checkout to measure (``cd`` there), back to back with another.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

from door.table.flow import Table  # noqa: E402
from door.table.options import GameOptions  # noqa: E402
from door.table.person import Person  # noqa: E402
from door.ui.session import Session  # noqa: E402
from tests.door.fake_terminal import FakeTerminal  # noqa: E402


def best_microseconds(call: Callable[[], object], number: int, repeat: int) -> float:
    timer = timeit.Timer(call, timer=time.process_time)
    return min(timer.repeat(repeat=repeat, number=number)) / number * 1e6


async def measure(watchers: int, number: int, repeat: int) -> dict[str, float]:
    table = Table(GameOptions(level="normal"), ["Ann", None], rng=random.Random(3), admit=Person)
    caller = table.sit(0, Session(FakeTerminal()))
    for n in range(watchers):
        table.watch(f"W{n}", Session(FakeTerminal()))
    game = table.game
    game.cut_for_deal()
    game.deal()
    for seat in (0, 1):
        game.discard(seat, list(game.hand(seat)[:2]))
    game.cut(10)
    if game.turn != 0:
        game.play(1, game.playable(1)[0])
    events = game.play(0, game.playable(0)[0])
    table.win_bars.chances(game, 0, ())  # the bar of this moment known, as after a frame
    pieces: dict[str, Callable[[], object]] = {
        "win bar's look (known)": lambda: table.win_bars.shown(game, 0, (), caller),
        "hand sorted for show": lambda: table.sorted_hand(0),
        "anyone deciding": table.people_deciding,
        f"a play told to 1 + {watchers}": lambda: table.log(events),
    }
    return {name: best_microseconds(call, number, repeat) for name, call in pieces.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=4)
    parser.add_argument("--number", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    import door

    print(f"door at {Path(door.__file__).parent.parent}")
    for name, micro in asyncio.run(measure(args.watchers, args.number, args.repeat)).items():
        print(f"{name:>28} {micro:7.2f} us")


if __name__ == "__main__":
    main()
