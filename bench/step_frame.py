"""What a move of the highlight bar over the caller's hand costs to draw: the whole table
composed again, or the step's layers alone (door/table/step_frame.py).

    python bench/step_frame.py [--callers 300] [--rounds 6] [--evict]

Callers play against the computer, the win bar on and clicks asked for, each through a
terminal in memory, up to their first discard. Then, round after round, each moves
their bar one card right and draws the frame: in one round as the door does now
(``Person.draw``: the step's layers alone), in the next as it did before
(``Person.refresh``: the whole view composed, every layer's key built and compared),
the two ways alternating. Each draw is timed by this thread's processor time, so other
programs on the machine do not count; the bytes each sent are counted.

Warm: one caller moves again and again (their state in the processor's caches). Cold:
the callers take turns, as on a busy server (each caller's state is cold when their
turn comes again); ``--evict`` reads 16 MB between two draws as well (nothing of the
last draw is left in the caches).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_bot import BottomRows  # noqa: E402

from door.screens.play_area import HandState  # noqa: E402
from door.serve import prepare_computer_player  # noqa: E402
from door.table.options import GameOptions  # noqa: E402
from door.table.person import Person  # noqa: E402
from door.table.solo import play_against_computer  # noqa: E402
from door.term.terminal import StreamTerminal  # noqa: E402
from door.ui.session import Session  # noqa: E402
from engine.odds.tables import load_win_tables  # noqa: E402

EVICTION = bytearray(16 << 20)
EVICTION_LINES = bytes(len(EVICTION) // 64)


class _Keys:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()

    async def read(self) -> bytes:
        return await self.queue.get()


class _Line:
    """The caller's side: reads the status line until the timing starts, then only
    counts the bytes."""

    def __init__(self) -> None:
        self.rows = BottomRows()
        self.reading = True
        self.sent = 0

    def write(self, data: bytes) -> None:
        self.sent += len(data)
        if self.reading:
            self.rows.feed(data)

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        return None


async def callers_at_the_discard(count: int) -> tuple[list[tuple[Person, _Line]], list[Any]]:
    """``count`` callers playing the computer, each waiting for a key at their discard."""
    made: dict[int, Person] = {}
    making = Person.__init__

    def keeping(person: Person, *args: Any, **kwargs: Any) -> None:
        making(person, *args, **kwargs)
        made[id(person.session)] = person

    Person.__init__ = keeping  # type: ignore[method-assign]
    callers, doors = [], []
    try:
        for number in range(count):
            keys, line = _Keys(), _Line()
            terminal = StreamTerminal(keys, line, term_type="xterm-256color")
            terminal.start()
            session = Session(terminal)
            session.mouse = True
            doors.append(
                asyncio.ensure_future(
                    play_against_computer(
                        session,
                        GameOptions(level="normal"),
                        f"bench{number}",
                        rng=random.Random(number),
                        pause=0,
                    )
                )
            )
            callers.append((session, keys, line))
        for _ in range(3000):
            waiting = 0
            for _, keys, line in callers:
                status = line.rows.status
                if "RETURN mark" in status:
                    continue
                waiting += 1
                if "blank line: deal" in status and keys.queue.empty():
                    keys.queue.put_nowait(b"\r")
            if not waiting:
                break
            await asyncio.sleep(0.01)
        else:
            raise RuntimeError("not every caller came to the discard")
        for _ in range(20):  # the win bars asked for, worked out and drawn
            await asyncio.sleep(0.01)
    finally:
        Person.__init__ = making  # type: ignore[method-assign]
    at_discard = []
    for session, _, line in callers:
        line.reading = False
        at_discard.append((made[id(session)], line))
    return at_discard, doors


def move_right(person: Person) -> None:
    hand = person.own_hand
    assert hand is not None, "the caller is not at their discard"
    bar = (hand.bar + 1) % len(hand.cards)
    person.own_hand = HandState(hand.cards, bar, hand.marked, full=hand.full)


async def draw_moves(
    callers: list[tuple[Person, _Line]], whole: bool, repeat: int, evict: bool
) -> tuple[list[float], int]:
    """The processor time of each draw, and the bytes sent, for ``repeat`` moves of each
    caller's bar in turn."""
    took: list[float] = []
    sent = 0
    for _ in range(repeat):
        for person, line in callers:
            if evict:
                EVICTION[::64] = EVICTION_LINES  # a write to each line of 64 bytes
            move_right(person)
            before = line.sent
            started = time.thread_time()
            if whole:
                await person.refresh()
            else:
                await person.draw()
            took.append(time.thread_time() - started)
            sent += line.sent - before
    return took, sent


async def run(count: int, rounds: int, evict: bool) -> None:
    callers, doors = await callers_at_the_discard(count)
    # Each way once, not timed: the caches of drawings filled, the layers of both ways
    # made; and the step's way checked to compose nothing.
    composed = [0]
    compose = Person.compose

    def counted(person: Person) -> None:
        composed[0] += 1
        compose(person)

    Person.compose = counted  # type: ignore[method-assign]
    await draw_moves(callers, True, 1, False)
    composed[0] = 0
    await draw_moves(callers, False, 1, False)
    Person.compose = compose  # type: ignore[method-assign]
    if composed[0]:
        raise RuntimeError(f"{composed[0]} of {count} step frames composed the table")
    figures: dict[str, dict[str, list[float]]] = {}
    sent: dict[str, int] = {"whole": 0, "step": 0}
    moves: dict[str, int] = {"whole": 0, "step": 0}
    for round_number in range(rounds):
        ways = ("whole", "step") if round_number % 2 == 0 else ("step", "whole")
        for way in ways:
            warm, warm_sent = await draw_moves(callers[:1], way == "whole", count, False)
            cold, cold_sent = await draw_moves(callers, way == "whole", 1, evict)
            kept = figures.setdefault(way, {"warm": [], "cold": []})
            kept["warm"].append(statistics.median(warm))
            kept["cold"].append(statistics.median(cold))
            sent[way] += cold_sent
            moves[way] += len(cold)
    for door in doors:
        door.cancel()
    for door in doors:
        with contextlib.suppress(BaseException):
            await door
    cold_name = "cold, evicted" if evict else "cold"
    print(
        f"{count} callers at their discard, {rounds} rounds alternating: median us of "
        f"processor time a bar move (each round's median; the median of the rounds)"
    )
    print(f"{'how':32} {'warm':>7} {cold_name:>14} {'bytes':>6}")
    for way, name in (("whole", "whole table (before)"), ("step", "the step's layers (now)")):
        warm_us = 1e6 * statistics.median(figures[way]["warm"])
        cold_us = 1e6 * statistics.median(figures[way]["cold"])
        print(f"{name:32} {warm_us:7.1f} {cold_us:14.1f} {sent[way] / moves[way]:6.0f}")
    print(
        "rounds, warm:  whole "
        + " ".join(f"{1e6 * value:.1f}" for value in figures["whole"]["warm"])
        + "  step "
        + " ".join(f"{1e6 * value:.1f}" for value in figures["step"]["warm"])
    )
    print(
        "rounds, cold:  whole "
        + " ".join(f"{1e6 * value:.1f}" for value in figures["whole"]["cold"])
        + "  step "
        + " ".join(f"{1e6 * value:.1f}" for value in figures["step"]["cold"])
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--callers", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--evict", action="store_true", help="read 16 MB between two draws")
    args = parser.parse_args()
    load_win_tables()
    prepare_computer_player()
    asyncio.run(run(args.callers, args.rounds, args.evict))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
