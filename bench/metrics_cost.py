"""What the door's metrics cost, measured in CPU time where the load bench's noise (a
shared, busy machine) cannot hide it:

- a scrape of ``/metrics``' content (door/metrics/collect.py through prometheus_client's
  ``generate_latest``) with ``--callers`` callers online, each at a table of their own
  against the computer: CPU per scrape;
- the key path's counting (door/term/terminal.py): CPU per key of a StreamTerminal taking
  keys and sending a frame for each, with the tally's lines as shipped, against the same
  terminal with the tally made a no-op (monkeypatched here, never in the door).

    python bench/metrics_cost.py --callers 1200
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from prometheus_client import generate_latest  # noqa: E402
from prometheus_client.registry import CollectorRegistry  # noqa: E402

from door.app.door import Door  # noqa: E402
from door.config import Config  # noqa: E402
from door.metrics.collect import DoorCollector  # noqa: E402
from door.metrics.watch import Health  # noqa: E402
from door.table.flow import Table  # noqa: E402
from door.table.options import GameOptions  # noqa: E402
from door.table.person import Person  # noqa: E402
from door.term import terminal as terminal_module  # noqa: E402
from door.term.terminal import StreamTerminal  # noqa: E402


class _Line:
    idle = 0.0

    def wake(self) -> None:
        pass

    async def hang_up(self, message: str) -> None:
        pass


def scrape_cost(callers: int, scrapes: int) -> tuple[float, int]:
    """CPU seconds per scrape, and the bytes of one."""
    door = Door(Config(), rng=random.Random(1))
    rng = random.Random(2)
    for index in range(callers):
        member = door.presence.join(f"Caller{index}", _Line())
        table = Table(GameOptions(), (member.name, None), rng=rng, admit=Person)
        door.presence.tables.append(table)
        member.place = "playing the computer"
        door.transports["telnet" if index % 6 else "ssh"] += 1
    registry = CollectorRegistry(auto_describe=False)
    registry.register(DoorCollector(door, Health(starting=False), "main"))
    size = len(generate_latest(registry))
    started = time.process_time()
    for _ in range(scrapes):
        generate_latest(registry)
    return (time.process_time() - started) / scrapes, size


class _Source:
    def __init__(self, keys: int) -> None:
        self.left = keys

    async def read(self) -> bytes:
        if self.left <= 0:
            await asyncio.Event().wait()
        self.left -= 1
        await asyncio.sleep(0)  # one key at a time, as a caller types: none is dropped
        return b"x"


class _Sink:
    def write(self, data: bytes) -> None:
        pass

    async def drain(self) -> None:
        pass

    def close(self) -> None:
        pass

    def buffered(self) -> int:
        return 0


async def _keys_and_frames(keys: int) -> float:
    terminal = StreamTerminal(_Source(keys), _Sink())
    started = time.process_time()
    for _ in range(keys):
        await terminal.read_key()
        terminal.write("\x1b[1;1Hframe")
        await terminal.flush()
    used = time.process_time() - started
    terminal.close()
    return used / keys


class _NoTally:
    """The tally with every count a no-op: what the key path costs without it."""

    keys = frames = bytes_sent = 0

    def __setattr__(self, name: str, value: object) -> None:
        pass

    def key_answered(self, seconds: float) -> None:
        pass


def key_cost(keys: int, rounds: int) -> tuple[list[float], list[float]]:
    """CPU per key with the tally and without, ``rounds`` alternating runs each."""
    shipped = terminal_module.TALLY
    with_tally, without = [], []
    for _ in range(rounds):
        terminal_module.TALLY = shipped
        with_tally.append(asyncio.run(_keys_and_frames(keys)))
        terminal_module.TALLY = _NoTally()  # type: ignore[assignment]
        without.append(asyncio.run(_keys_and_frames(keys)))
    terminal_module.TALLY = shipped
    return with_tally, without


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--callers", type=int, default=1200)
    parser.add_argument("--scrapes", type=int, default=50)
    parser.add_argument("--keys", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    per_scrape, size = scrape_cost(args.callers, args.scrapes)
    print(
        f"scrape with {args.callers} callers at {args.callers} tables: "
        f"{per_scrape * 1000:.2f} ms CPU, {size} bytes"
    )
    with_tally, without = key_cost(args.keys, args.rounds)
    both = zip(with_tally, without, strict=True)
    print("key read + frame flushed, CPU per key (us), tally on / off, alternating rounds:")
    print("  " + ", ".join(f"{a * 1e6:.2f}/{b * 1e6:.2f}" for a, b in both))
    best_with, best_without = min(with_tally), min(without)
    print(
        f"  best of each: {best_with * 1e6:.2f} us with the tally, {best_without * 1e6:.2f} us "
        f"without: the tally costs {(best_with - best_without) * 1e6:.2f} us a key"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
