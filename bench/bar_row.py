"""What drawing a win bar worked out after its frame costs: the whole table composed
again, or the bar's row alone (door/table/bar_row.py).

    python bench/bar_row.py [--games 5] [--seed 1]

Two watchers sit at a table of two computer players, each with a terminal whose line
takes the bytes and throws them away. The game is played by the engine's computer
players, a move at a time; at each moment both watchers draw the frame that shows the
last bar dimmed (and asks for the new one), the bar is worked out (once, for both), and
then one watcher draws it as the door does now (``Person.draw``: the bar's row alone)
and the other as it did before (``Person.refresh``: the whole table composed again, and
the renderer finds the one row that changed). Each is timed by this thread's processor
time, so other programs on the machine do not count; the bytes each sent are counted.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from door.table import win_bars  # noqa: E402
from door.table.flow import Table  # noqa: E402
from door.table.options import GameOptions  # noqa: E402
from door.table.person import Person  # noqa: E402
from door.term.terminal import StreamTerminal  # noqa: E402
from door.ui.session import Session  # noqa: E402
from engine.computer.player import ComputerPlayer  # noqa: E402
from engine.computer.selfplay import next_action  # noqa: E402
from engine.odds.tables import load_win_tables  # noqa: E402
from engine.rules.game import Phase  # noqa: E402


class _Silence:
    async def read(self) -> bytes:
        await asyncio.Event().wait()  # the watcher never presses a key
        return b""


class _Line:
    """The caller's side: counts the bytes sent."""

    def __init__(self) -> None:
        self.sent = 0

    def write(self, data: bytes) -> None:
        self.sent += len(data)

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        return None


def watcher(table: Table[Person], name: str) -> tuple[Person, _Line]:
    line = _Line()
    terminal = StreamTerminal(_Silence(), line, term_type="xterm-256color", size=(80, 24))
    person = table.watch(name, Session(terminal))
    person.session.push(person.screen)
    return person, line


async def one_game(
    seed: int, row_us: list[float], whole_us: list[float], sent: dict[str, int]
) -> None:
    table = Table(GameOptions(level="easy"), [None, None], rng=random.Random(seed), admit=Person)
    (by_row, row_line), (whole, whole_line) = watcher(table, "Row"), watcher(table, "Whole")
    game = table.game
    seats = [ComputerPlayer("easy", random.Random(seed + seat)) for seat in range(2)]
    while game.phase is not Phase.OVER:
        next_action(game, seats)
        await by_row.draw()  # the moment's frame: the last bar dimmed, the new one asked for
        await whole.draw()
        if not table.win_bars.waiting:
            continue  # a moment no bar shows (none asked for)
        table.win_bars.work_out_one()  # told: both watchers are woken to draw it
        if by_row.view.win_chances is None:
            continue  # the first bar of the game: nothing to show dimmed before it
        before = row_line.sent
        started = time.thread_time()
        await by_row.draw()
        row_us.append((time.thread_time() - started) * 1e6)
        sent["row"] += row_line.sent - before
        before = whole_line.sent
        started = time.thread_time()
        await whole.refresh()
        whole_us.append((time.thread_time() - started) * 1e6)
        sent["whole"] += whole_line.sent - before


async def run(games: int, seed: int) -> None:
    row_us: list[float] = []
    whole_us: list[float] = []
    sent = {"row": 0, "whole": 0}
    for game in range(games):
        await one_game(seed + game, row_us, whole_us, sent)
    count = len(row_us)
    print(f"{games} games, {count} bars drawn after their frame (us of processor time)")
    print(f"{'how':26} {'median':>7} {'p90':>7} {'mean':>7} {'bytes':>6}")
    for name, times, key in (
        ("whole table (before)", whole_us, "whole"),
        ("the bar's row (now)", row_us, "row"),
    ):
        p90 = statistics.quantiles(times, n=10)[-1]
        print(
            f"{name:26} {statistics.median(times):7.1f} {p90:7.1f} "
            f"{statistics.fmean(times):7.1f} {sent[key] / count:6.0f}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    load_win_tables()
    # Every bar put off, as the door puts off the dear ones: each is drawn after its frame.
    win_bars.CHEAP_BAR_SECONDS = 0.0  # type: ignore[misc]
    asyncio.run(run(args.games, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
