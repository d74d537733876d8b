"""The attack bench's cluster fault (#52): a game between callers of two workers while
Redis is killed for 10 s and started again empty, then the door stopped with SIGTERM.

Starts Debian's ``redis-server`` on a free port and ``cribbage-door serve --workers 2``
on it (the door's code from ``repo``), as bench/cluster_latency.py does. Telnet guests
call until each worker has one; the first challenges the other, so the table is on the
first's worker and the second caller's line is relayed. Before the fault and after
Redis is back, each seat moves its highlight bar ten times, one key at a time (a key
unanswered within 5 s is lost), and each says a chat line every 2 s until the other
sees one: the table's chat crossing the relay both ways. Then SIGTERM: how long the door
takes to stop (it is killed after 90 s).

Its figures: the relayed seat's keys after the fault stand for the witness's; CPU,
memory and descriptors are the supervisor's and both workers' together.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

from attack_table import Figures, LogCount
from cluster_latency import (
    KEY_TIMEOUT,
    LEFT,
    RIGHT,
    free_port,
    settle,
    start_game,
    timed_key,
    two_callers,
    wait_port,
)
from load import cpu_seconds, process_tree, rss_kib

from tests.door.netclients import TelnetCaller

OUTAGE_SECONDS: Final = 10.0
CHAT_WAIT: Final = 30.0
STOP_WAIT: Final = 90.0
KEYS: Final = 10


def _tree(pid: int) -> list[int]:
    with contextlib.suppress(OSError):
        return process_tree(pid)
    return [pid]


def _sum(pid: int, measure: Callable[[int], float]) -> float:
    """``measure`` of the supervisor and its workers together."""
    total = 0.0
    for one in _tree(pid):
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += measure(one)
    return total


def _descriptors(pid: int) -> int:
    total = 0
    for one in _tree(pid):
        with contextlib.suppress(OSError):
            total += len(list(Path(f"/proc/{one}/fd").iterdir()))
    return total


def start_redis(port: int, folder: Path) -> subprocess.Popen[bytes]:
    program = shutil.which("redis-server")
    if program is None:
        raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
    return subprocess.Popen(
        [program, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip


async def bar_keys(caller: TelnetCaller) -> list[float]:
    times = []
    for move in range(KEYS):
        await settle(caller)
        times.append(await timed_key(caller, RIGHT if move % 2 == 0 else LEFT))
    return times


async def chat_crosses(
    speaker: TelnetCaller, hearer: TelnetCaller, tag: str, wait: float = CHAT_WAIT
) -> float | None:
    """Seconds until a line ``speaker`` says shows on ``hearer``'s screen (a new line
    every 2 s), None if none within ``wait``."""
    started = time.monotonic()
    said = 0
    while time.monotonic() - started < wait:
        if speaker.closed or hearer.closed:
            return None
        if time.monotonic() - started >= 2 * said:
            said += 1
            await speaker.send(f"c{tag}{said}\r")  # c opens a chat line mid-hand
        if any(f"{tag}{n}" in hearer.words for n in range(1, said + 1)):
            return time.monotonic() - started
        await asyncio.sleep(0.05)
    return None


def where_is(caller: TelnetCaller) -> str:
    if caller.closed:
        return "hung up"
    if "Play the computer" in caller.text:
        return "back in the lobby"
    if "Your hand" in caller.text:
        return "at the table"
    return "elsewhere"


async def redis_outage(root: Path, repo: Path, after: float) -> Figures:
    folder = root / "cluster-redis"
    folder.mkdir(parents=True)
    redis_port, telnet_port = free_port(), free_port()
    redis = start_redis(redis_port, folder)
    figures = Figures("cluster-redis")
    found = figures.found
    try:
        await asyncio.to_thread(wait_port, redis_port)
        config = folder / "door.toml"
        config.write_text(
            "[game]\ncomputer_pause_seconds = 0\n"
            f'[cluster]\nredis_url = "redis://127.0.0.1:{redis_port}/0"\n'
        )
        log = folder / "door.log"
        with log.open("w") as handle:
            server = subprocess.Popen(
                [sys.executable, "-m", "door.cli", "serve", "--config", str(config),
                 "--workers", "2", "--telnet-port", str(telnet_port), "--ssh-port", "0",
                 "--data-dir", str(folder / "data")],
                cwd=folder, stderr=handle, stdin=subprocess.DEVNULL,
                env={**os.environ, "PYTHONPATH": str(repo)},
            )  # fmt: skip
        try:
            await asyncio.to_thread(wait_port, telnet_port)
            await asyncio.sleep(2.0)  # both workers
            local, far, _, far_name, callers = await two_callers(telnet_port, log)
            await start_game(local, far, far_name)
            before = await bar_keys(far)
            crossing = await asyncio.gather(
                chat_crosses(far, local, "beforefar", 10),
                chat_crosses(local, far, "beforetable", 10),
            )
            found["chat_crosses_before"] = all(seconds is not None for seconds in crossing)
            found["relayed_p95_before_ms"] = round(
                sorted(before)[int(0.95 * len(before))] * 1000, 1
            )
            log_before = len(log.read_text().splitlines())
            figures.rss_before = _sum(server.pid, rss_kib) / 1024
            figures.fds_before = _descriptors(server.pid)
            cpu_start = _sum(server.pid, cpu_seconds)
            started = time.monotonic()
            redis.kill()
            redis.wait()
            await asyncio.sleep(OUTAGE_SECONDS)
            redis = start_redis(redis_port, folder)  # empty: nothing was kept
            await asyncio.to_thread(wait_port, redis_port)
            figures.fds_peak = _descriptors(server.pid)
            crossing = await asyncio.gather(
                chat_crosses(far, local, "fromfar"),
                chat_crosses(local, far, "fromtable"),
            )
            found["chat_far_to_table_s"] = None if crossing[0] is None else round(crossing[0], 1)
            found["chat_table_to_far_s"] = None if crossing[1] is None else round(crossing[1], 1)
            local_keys, far_keys = await asyncio.gather(bar_keys(local), bar_keys(far))
            figures.latencies = far_keys
            figures.unanswered = sum(1 for t in far_keys if t >= KEY_TIMEOUT)
            found["table_seat_keys_lost"] = sum(1 for t in local_keys if t >= KEY_TIMEOUT)
            found["relayed_caller"] = where_is(far)
            found["table_caller"] = where_is(local)
            found["table_says_line_dropped"] = f"{far_name}'s line" in local.words
            await asyncio.sleep(after)
            figures.seconds = time.monotonic() - started
            figures.cpu_during = _sum(server.pid, cpu_seconds) - cpu_start
            figures.rss_peak = figures.rss_after = _sum(server.pid, rss_kib) / 1024
            figures.fds_after = _descriptors(server.pid)
            figures.fds_peak = max(figures.fds_before, figures.fds_peak, figures.fds_after)
            text = "\n".join(log.read_text().splitlines()[log_before:])
            figures.log = LogCount.of(text)
            found["relay_ends_lines"] = text.count("its relay ends")
            found["relayed_caller_hung_up_lines"] = text.count("relayed caller from")
            found["back_from_stopped_worker"] = text.count("back from a worker that stopped")
            found["NameInUse"] = text.count("NameInUse")
            for caller in callers:
                caller.hang_up()
            await asyncio.sleep(1.0)
        finally:
            stopping = time.monotonic()
            server.send_signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(server.wait, STOP_WAIT)
                found["sigterm_stop_s"] = round(time.monotonic() - stopping, 1)
            except subprocess.TimeoutExpired:
                found["sigterm_stop_s"] = f"still running after {STOP_WAIT:.0f} s"
                for pid in reversed(_tree(server.pid)):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                server.wait()
    finally:
        redis.terminate()
        redis.wait()
    return figures
