"""``cribbage-door serve --workers 2`` as a sysop runs it: two processes on one port,
sharing one lobby through Redis; ``kill -9`` of one is seen by the parent, which starts it
again, and its callers leave the other's lobby within seconds; SIGTERM stops them all.
More than one worker without Redis is refused with a message naming the setting."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from door.cluster.link import MEMBER_TTL_SECONDS
from door.config import config_from_mapping
from door.serve import worker_guard
from tests.door.netclients import TelnetCaller, free_port

ROOT = Path(__file__).resolve().parents[3]
STARTED = re.compile(r"(worker-\d) started \(pid (\d+)\)")
GUEST = re.compile(r"(worker-\d) telnet guest (\w+)")


def test_each_worker_allows_its_share_of_the_per_address_limits() -> None:
    config = config_from_mapping(
        {"server": {"max_connections_per_address": 8, "connections_per_minute_per_address": 30}}
    )
    assert (worker_guard(config, 2).max_at_once, worker_guard(config, 2).per_minute) == (4, 15)
    assert (worker_guard(config, 16).max_at_once, worker_guard(config, 16).per_minute) == (2, 2)


def test_more_than_one_worker_needs_redis(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "door.cli", "serve", "--workers", "2",
         "--data-dir", str(tmp_path), "--telnet-port", str(free_port()), "--ssh-port", "0"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 2
    assert "2 workers need cluster.redis_url" in result.stderr


class Workers:
    """The server with two workers, its log read as it comes."""

    def __init__(self, tmp_path: Path, redis_url: str) -> None:
        self.port = free_port()
        config = tmp_path / "door.toml"
        # Every guest calls from 127.0.0.1, and the kernel may send many to one worker.
        config.write_text(
            "[server]\nmax_connections_per_address = 100\n"
            "connections_per_minute_per_address = 200\n"
            f'[cluster]\nredis_url = "{redis_url}"\n'
        )
        self.log_path = tmp_path / "door.log"
        with self.log_path.open("w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "door.cli", "serve", "--config", str(config),
                 "--workers", "2", "--data-dir", str(tmp_path / "data"),
                 "--telnet-port", str(self.port), "--ssh-port", "0"],
                cwd=ROOT, stderr=log, stdin=subprocess.DEVNULL,
            )  # fmt: skip

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    async def wait_for(self, pattern: str, count: int = 1, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while len(re.findall(pattern, self.log())) < count:
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise AssertionError(f"never logged {pattern!r}:\n{self.log()}")
            await asyncio.sleep(0.05)
        return self.log()


def test_two_workers_share_a_port_and_a_lobby_and_a_killed_one_comes_back(
    tmp_path: Path, redis_url: str
) -> None:
    asyncio.run(_two_workers(tmp_path, redis_url))


async def _two_workers(tmp_path: Path, redis_url: str) -> None:
    server = Workers(tmp_path, redis_url)
    callers: list[TelnetCaller] = []
    try:
        await server.wait_for(r"worker-\d ready in", 2)
        pids = dict(STARTED.findall(server.log()))
        # Guests call until each worker has one (the kernel spreads the connections).
        where: dict[str, str] = {}
        for number in range(40):
            caller = TelnetCaller()
            await caller.connect(server.port)
            callers.append(caller)
            name = f"Guest{number}"
            await caller.come_as_guest(name)
            log = await server.wait_for(rf"telnet guest {name}\b")
            where = {guest: worker for worker, guest in GUEST.findall(log)}
            if len(set(where.values())) == 2:
                break
        assert set(where.values()) == {"worker-1", "worker-2"}, where
        last = callers[-1]
        first_on_other = next(
            name for name, worker in where.items() if worker != where[f"Guest{len(callers) - 1}"]
        )
        # One lobby: the newest caller sees a caller of the other worker.
        await last.wait_for(first_on_other)

        # kill -9 the other worker: the parent starts it again, and its callers leave
        # the lobby the newest caller sees.
        victim = where[first_on_other]
        os.kill(int(pids[victim]), signal.SIGKILL)
        killed = time.monotonic()
        await server.wait_for(rf"{victim} \(pid {pids[victim]}\) ended with signal SIGKILL")
        await server.wait_for(rf"{victim} started", 2)
        gone = [name for name, worker in where.items() if worker == victim]
        while any(name in who_is_on(last) for name in gone):
            assert time.monotonic() - killed <= MEMBER_TTL_SECONDS + 3, who_is_on(last)
            await asyncio.sleep(0.05)
    finally:
        for caller in callers:
            caller.hang_up()
        server.process.send_signal(signal.SIGTERM)
        try:
            assert server.process.wait(30) == 0, server.log()[-3000:]
        finally:
            if server.process.poll() is None:
                server.process.kill()
    assert "stopped" in server.log()


def who_is_on(caller: TelnetCaller) -> str:
    """The lobby's list of who is on (the rows above the chat)."""
    rows = caller.text.splitlines()
    end = next((n for n, row in enumerate(rows) if "Lobby chat" in row), len(rows))
    return "\n".join(rows[:end])
