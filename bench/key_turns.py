"""How many turns of the event loop a key takes to reach the caller's screen, and how
many callbacks and task steps the loop runs a key: bench/screen_cost.py's game (its
bots playing the computer through terminals in memory) on a virtual clock.

    python bench/key_turns.py [--callers 300] [--seconds 3] [--pause 0.2]

The loop's clock jumps to the next timer whenever nothing is ready, so nobody waits:
the run plays the same keys every time, whatever else the machine is doing, in a few
seconds of processor time (the frames and bytes nearly so: the win bar's queue goes by
the real clock, door/table/win_bars.py). A key's latency is counted in turns of the
loop from the bot's send to the first bytes of the frame that answers it
(bench/load_bot.py's measure, with the turns for its clock). On a saturated server a
turn is every caller's ready work, so the turns on a key's way are its latency there;
the callbacks and task steps a key are the loop's share of its processor time.
Printed: the keys, frames and bytes; the turns a key (mean, p50, p90, p99) and how
many keys took each; the turns of the commonest kinds of key (the status line they
answered, and the key); and the callbacks and task steps a key, by what they ran. The
bots' own (their sends, sleeps and reading) are among them, the same in any checkout.
Run it from the checkout to measure (``cd`` there), and alongside another's.
"""

from __future__ import annotations

import argparse
import asyncio
import asyncio.events
import collections
import statistics
import sys
import time
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path.cwd() / "bench"))
sys.path.insert(0, str(Path.cwd()))

import load_bot  # noqa: E402


class VirtualLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock jumps to its next timer when nothing is ready."""

    now = 1000.0
    turns = 0

    def time(self) -> float:
        return VirtualLoop.now

    def _run_once(self) -> None:
        VirtualLoop.turns += 1
        scheduled = self._scheduled  # type: ignore[attr-defined]
        if not self._ready and scheduled and scheduled[0].when() > VirtualLoop.now:  # type: ignore[attr-defined]
            VirtualLoop.now = scheduled[0].when()
        super()._run_once()  # type: ignore[misc]


def _what_runs(handle: asyncio.Handle) -> str:
    callback = handle._callback  # type: ignore[attr-defined]
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        return "task " + getattr(owner.get_coro(), "__qualname__", "?")
    function = getattr(callback, "func", callback)  # (a functools.partial's)
    return "callback " + getattr(function, "__qualname__", repr(function))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--callers", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=3.0, help="virtual seconds")
    parser.add_argument("--pause", type=float, default=0.2, help="the computer's pause")
    args = parser.parse_args()

    # Every clock the game and the bots read is the loop's, but the bots' timing of
    # their own parsing (screen_cost's, on time.perf_counter).
    time.monotonic = lambda: VirtualLoop.now
    load_bot.time = types.SimpleNamespace(  # type: ignore[assignment]
        perf_counter=lambda: VirtualLoop.turns, monotonic=lambda: VirtualLoop.now
    )
    ran: collections.Counter[str] = collections.Counter()
    run_handle = asyncio.events.Handle._run

    def counted(handle: asyncio.Handle) -> None:
        ran[_what_runs(handle)] += 1
        run_handle(handle)

    asyncio.events.Handle._run = counted  # type: ignore[method-assign]
    kinds: dict[tuple[str, bytes], list[int]] = {}
    press = load_bot.Bot.press

    async def pressing(bot: Any, send: Any, key: bytes) -> bool:
        status = bot.screen.status.strip()[:32]
        before = len(bot.latencies)
        answered: bool = await press(bot, send, key)
        if len(bot.latencies) > before:
            kinds.setdefault((status, key), []).append(bot.latencies[-1])
        return answered

    load_bot.Bot.press = pressing  # type: ignore[method-assign]

    import screen_cost

    from door.term.charset import Charset

    screen_cost.COMPUTER_PAUSE = args.pause
    screen_cost.load_win_tables()
    screen_cost.prepare_computer_player()
    loop = VirtualLoop()
    asyncio.set_event_loop(loop)
    ran.clear()
    tally = loop.run_until_complete(screen_cost._run(args.callers, args.seconds, Charset.UTF8))
    keys = max(tally["keys"], 1)
    turns = sorted(turn for taken in kinds.values() for turn in taken)

    def share(part: float) -> int:
        return turns[min(len(turns) - 1, int(part * len(turns)))]

    print(
        f"{args.callers} callers, {args.seconds:g} virtual s, pause {args.pause:g} s: "
        f"{tally['keys']:.0f} keys, {tally['frames']:.0f} frames, {tally['bytes']:.0f} bytes"
    )
    print(
        f"turns of the loop from a key to its screen: mean {statistics.mean(turns):.2f}, "
        f"p50 {share(0.5)}, p90 {share(0.9)}, p99 {share(0.99)}"
    )
    print(
        "keys by turns:",
        ", ".join(f"{t}: {n}" for t, n in sorted(collections.Counter(turns).items())),
    )
    print("the commonest kinds of key (status line answered, key): keys, turns")
    for (status, key), taken in sorted(kinds.items(), key=lambda item: -len(item[1]))[:10]:
        spread = ", ".join(f"{t}: {n}" for t, n in sorted(collections.Counter(taken).items()))
        print(f"  {status:32s} {key!r:10s} {len(taken):6d}  {spread}")
    print(f"callbacks and task steps a key: {sum(ran.values()) / keys:.2f}")
    for name, count in ran.most_common(12):
        print(f"  {count / keys:7.3f}  {name}")


if __name__ == "__main__":
    main()
