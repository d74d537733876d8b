"""Key to screen for a caller whose game is on another worker, against one whose is not.

    python bench/cluster_latency.py --moves 400

Starts a Redis server (Debian's ``redis-server``, on a free port, or ``--redis-url``) and
``cribbage-door serve --workers 2`` on it, in processes of their own. Telnet guests call
until each worker has one; the first challenges the other, so the table is on the
first's worker and the second caller's line is relayed through Redis. While both choose
their throw, each moves the highlight bar (right, left, ...) ``--moves`` times, one key
at a time: every key is timed from its sending to the first byte of the screen change
it causes (a key unanswered after 5 s counts as 5 s). Prints p50/p95/p99/max for the
local seat and the relayed one, and the difference at p99.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.door.netclients import TelnetCaller  # noqa: E402  (pyte: the test extra)

GUEST = re.compile(r"(worker-\d) telnet guest (\w+)")
KEY_TIMEOUT = 5.0
RIGHT, LEFT = b"\x1b[C", b"\x1b[D"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def timed_key(caller: TelnetCaller, key: bytes) -> float:
    """Send ``key``; seconds until the first byte of the answer."""
    before = caller.received
    started = time.perf_counter()
    await caller.send(key)
    while caller.received == before:
        if time.perf_counter() - started > KEY_TIMEOUT:
            return KEY_TIMEOUT
        await asyncio.sleep(0)
    return time.perf_counter() - started


async def settle(caller: TelnetCaller) -> None:
    """Until nothing more arrives for a moment (the screen change is complete)."""
    last = -1
    while caller.received != last:
        last = caller.received
        await asyncio.sleep(0.02)


async def two_callers(
    port: int, log: Path
) -> tuple[TelnetCaller, TelnetCaller, str, str, list[TelnetCaller]]:
    """Guests until each worker has one: (the one whose worker holds the table, the
    relayed one, their names, every caller opened)."""
    callers: list[TelnetCaller] = []
    where: dict[str, str] = {}
    for number in range(40):
        caller = TelnetCaller()
        await caller.connect(port)
        callers.append(caller)
        await caller.come_as_guest(f"Bench{number}")
        for _ in range(100):
            where = {guest: worker for worker, guest in GUEST.findall(log.read_text())}
            if f"Bench{number}" in where:
                break
            await asyncio.sleep(0.05)
        if len(set(where.values())) == 2:
            break
    local = callers[0]
    far_number = next(n for n in range(len(callers)) if where[f"Bench{n}"] != where["Bench0"])
    return local, callers[far_number], "Bench0", f"Bench{far_number}", callers


async def start_game(local: TelnetCaller, far: TelnetCaller, far_name: str) -> None:
    await local.wait_for(far_name)
    rows = local.text.splitlines()
    number = next(row.split()[0] for row in rows if far_name in row and row.split()[0].isdigit())
    await local.send("w")
    await local.send(number)
    await far.wait_for("challenges you")
    await far.send("y")
    for caller in (local, far):
        await caller.wait_for("Hand 1", timeout=15)
    for _ in range(200):  # the dealer deals (RETURN on a blank chat line)
        for caller in (local, far):
            if "RETURN on a blank line" in caller.words:
                await caller.send("\r")
        if all("Your hand" in c.text for c in (local, far)):
            return
        await asyncio.sleep(0.05)


async def measure(port: int, log: Path, moves: int) -> dict[str, list[float]]:
    local, far, _, far_name, callers = await two_callers(port, log)
    await start_game(local, far, far_name)
    times: dict[str, list[float]] = {"local seat": [], "relayed seat": []}
    for move in range(moves):
        key = RIGHT if move % 2 == 0 else LEFT
        for label, caller in (("local seat", local), ("relayed seat", far)):
            await settle(caller)
            times[label].append(await timed_key(caller, key))
    for caller in callers:
        caller.hang_up()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--redis-url", help="an existing Redis (default: start one)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="cribbage-cluster-"))
    redis = None
    url = args.redis_url
    if url is None:
        program = shutil.which("redis-server")
        if program is None:
            print("redis-server is not installed (apt-get install redis-server)")
            return 2
        redis_port = free_port()
        redis = subprocess.Popen(
            [program, "--port", str(redis_port), "--save", "", "--dir", str(folder)],
            stdout=subprocess.DEVNULL,
        )
        wait_port(redis_port)
        url = f"redis://127.0.0.1:{redis_port}/0"
    config = folder / "door.toml"
    config.write_text(f'[game]\ncomputer_pause_seconds = 0\n[cluster]\nredis_url = "{url}"\n')
    port = free_port()
    log = folder / "door.log"
    with log.open("w") as handle:
        server = subprocess.Popen(
            [sys.executable, "-m", "door.cli", "serve", "--config", str(config),
             "--workers", "2", "--telnet-port", str(port), "--ssh-port", "0",
             "--data-dir", str(folder / "data")],
            cwd=folder, stderr=handle, stdin=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
    try:
        wait_port(port)
        time.sleep(1.0)  # both workers
        times = asyncio.run(measure(port, log, args.moves))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)
        if redis is not None:
            redis.terminate()
    print(f"{args.moves} bar moves each, key to first byte of the screen change (ms):")
    print(f"{'':14} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}")
    p99 = {}
    for label, samples in times.items():
        ordered = sorted(samples)
        figures = [percentile(ordered, q) * 1000 for q in (0.5, 0.95, 0.99)]
        p99[label] = figures[2]
        print(f"{label:14} " + " ".join(f"{f:7.2f}" for f in [*figures, ordered[-1] * 1000]))
    print(f"relayed minus local at p99: {p99['relayed seat'] - p99['local seat']:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
