"""What the door's screens cost per key, with no network and no transport in the way.

    python bench/screen_cost.py [--callers 40] [--seconds 20] [--charset utf8] [--profile [tottime]]

Callers play whole games against the computer inside this one process, each through a
terminal in memory: the load bench's bots (bench/load_bot.py) read the door's output
and press what a player would, after a short think. The figures are the door's CPU per
key (the process's CPU less the bots' own parsing, timed apart), frames and bytes per
key, and the bytes of a highlight-bar move. ``--profile`` prints the functions that
took the most time (cProfile; cumulative, or by their own time with ``tottime``).

This is the part of bench/load.py's CPU per key that incremental screens can cut: the
load bench adds telnet and SSH, the event loop's sockets and a separate generator.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_bot import RIGHT, Bot  # noqa: E402

from door.serve import prepare_computer_player  # noqa: E402
from door.table.options import GameOptions  # noqa: E402
from door.table.solo import play_against_computer  # noqa: E402
from door.term.charset import Charset  # noqa: E402
from door.term.terminal import StreamTerminal  # noqa: E402
from door.ui.session import Session  # noqa: E402
from engine.odds.tables import load_win_tables  # noqa: E402

THINK_SECONDS = 0.05
COMPUTER_PAUSE = 0.2


class _Keys:
    """The caller's side of the line: keys the bot sends, read by the terminal."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()

    async def read(self) -> bytes:
        return await self.queue.get()


class _Screen:
    """The door's side of the line: every write goes to the bot, timed apart."""

    def __init__(self, bot: Bot, tally: dict[str, float]) -> None:
        self.bot, self.tally = bot, tally

    def write(self, data: bytes) -> None:
        # perf_counter, not process_time: the latter is a system call, dearer than the feed.
        started = time.perf_counter()
        self.bot.feed(data)
        self.tally["frames"] += 1
        self.tally["bytes"] += len(data)
        self.tally["bot_cpu"] += time.perf_counter() - started

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        return None


async def _caller(number: int, charset: Charset, until: float, tally: dict[str, float]) -> None:
    bot = Bot(f"bench{number}", random.Random(number), THINK_SECONDS)
    bot.measuring = True
    keys = _Keys()
    terminal = StreamTerminal(
        keys, _Screen(bot, tally), term_type="xterm-256color", charset=charset
    )
    terminal.start()

    async def send(data: bytes) -> None:
        keys.queue.put_nowait(data)

    session = Session(terminal)
    options = GameOptions(level="normal")
    door = asyncio.ensure_future(
        play_against_computer(
            session, options, bot.name, rng=random.Random(number), pause=COMPUTER_PAUSE
        )
    )
    try:
        await bot.play(send, until)
    finally:
        door.cancel()
        with contextlib.suppress(BaseException):
            await door
    tally["keys"] += len(bot.latencies)
    tally["failures"] += bot.failures
    tally.setdefault("bar_moves", 0)


async def _run(callers: int, seconds: float, charset: Charset) -> dict[str, float]:
    tally = {"frames": 0.0, "bytes": 0.0, "bot_cpu": 0.0, "keys": 0.0, "failures": 0.0}
    until = time.monotonic() + seconds
    await asyncio.gather(*(_caller(n, charset, until, tally) for n in range(callers)))
    return tally


def bar_move_bytes(charset: Charset) -> list[int]:
    """Bytes the door sends for each move of the highlight bar over the caller's hand."""
    sizes: list[int] = []

    async def measure() -> None:
        bot = Bot("bar", random.Random(1), 0)
        tally = {"frames": 0.0, "bytes": 0.0, "bot_cpu": 0.0}
        keys = _Keys()
        terminal = StreamTerminal(
            keys, _Screen(bot, tally), term_type="xterm-256color", charset=charset
        )
        terminal.start()
        door = asyncio.ensure_future(
            play_against_computer(
                Session(terminal), GameOptions(level="normal"), "bar", rng=random.Random(1), pause=0
            )
        )
        try:
            for _ in range(200):
                if "RETURN mark" in bot.screen.status:
                    break
                if "blank line: deal" in bot.screen.status:
                    keys.queue.put_nowait(b"\r")
                await asyncio.sleep(0.01)
            for _ in range(5):
                before = tally["bytes"]
                keys.queue.put_nowait(RIGHT)
                await asyncio.sleep(0.02)
                sizes.append(int(tally["bytes"] - before))
        finally:
            door.cancel()
            with contextlib.suppress(BaseException):
                await door

    asyncio.run(measure())
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--callers", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--charset", choices=[c.name.lower() for c in Charset], default="utf8")
    parser.add_argument(
        "--profile", nargs="?", const="cumulative", choices=["cumulative", "tottime"]
    )
    args = parser.parse_args()
    charset = Charset[args.charset.upper()]
    # The tables read and the garbage collector set as the door's start-up does.
    load_win_tables()
    prepare_computer_player()
    profiler = cProfile.Profile() if args.profile else None
    started = time.process_time()
    if profiler is not None:
        profiler.enable()
    tally = asyncio.run(_run(args.callers, args.seconds, charset))
    if profiler is not None:
        profiler.disable()
    cpu = time.process_time() - started - tally["bot_cpu"]
    keys = max(tally["keys"], 1)
    print(f"{args.callers} callers, {args.seconds:.0f} s, {args.charset}: {keys:.0f} keys")
    print(f"door CPU per key   {1000 * cpu / keys:.3f} ms (bots' parsing left out)")
    print(f"frames per key     {tally['frames'] / keys:.2f}")
    print(f"bytes per key      {tally['bytes'] / keys:.0f}")
    print(f"unanswered keys    {tally['failures']:.0f}")
    for name in ("utf8", "cp437", "ascii"):
        moves = bar_move_bytes(Charset[name.upper()])
        print(f"bar move bytes {name:5s} {statistics.median(moves):.0f} (each: {moves})")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats(args.profile).print_stats(40)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
