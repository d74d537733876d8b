"""``serve --workers 2`` stops on SIGTERM within seconds while Redis is away, whether it
is down (connections refused) or hangs (connections never answered): the parent and
each worker alike. Real processes, a real ``redis-server`` of the test's own."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from door.app.presence import Presence
from door.cluster.link import ClusterLink
from door.cluster.workers import STUCK_EXIT
from tests.door.cluster.conftest import RedisProcess
from tests.door.cluster.test_workers import ROOT, STARTED, Workers
from tests.door.netclients import TelnetCaller

STOPS_WITHIN_SECONDS = 12.0
"""A sysop's SIGTERM is done this soon: the callers told, games saved, Redis given up on."""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("away", ["killed", "hanging"])
def test_the_door_stops_on_sigterm_while_redis_is_away(
    tmp_path: Path, redis_process: RedisProcess, away: str
) -> None:
    asyncio.run(_stops_while_redis_is_away(tmp_path, redis_process, away))


async def _stops_while_redis_is_away(tmp_path: Path, redis: RedisProcess, away: str) -> None:
    await redis.start()
    server = Workers(tmp_path, redis.url)
    caller = TelnetCaller()
    try:
        await server.wait_for(r"worker-\d ready in", 2)
        pids = [int(pid) for _, pid in STARTED.findall(server.log())]
        await caller.connect(server.port)
        await caller.come_as_guest("Ada")
        redis.kill() if away == "killed" else redis.hang()
        await server.wait_for("Redis cannot be reached", timeout=20)
        server.process.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        while server.process.poll() is None and time.monotonic() - sent < 60:
            await asyncio.sleep(0.05)
        took = time.monotonic() - sent
        print(f"stopped in {took:.1f} s")
        assert server.process.returncode == 0, server.log()[-3000:]
        assert took < STOPS_WITHIN_SECONDS, f"{took:.1f} s\n" + server.log()[-3000:]
        assert not any(alive(pid) for pid in pids)
        assert "did not stop: killing it" not in server.log()
        assert "shutting the door down" in caller.text  # Ada was told
    finally:
        caller.hang_up()
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()


@pytest.mark.parametrize("away", ["killed", "hanging"])
def test_a_worker_stopped_while_redis_is_away_comes_back_and_the_door_goes_on(
    tmp_path: Path, redis_process: RedisProcess, away: str
) -> None:
    asyncio.run(_one_worker_stopped_while_redis_is_away(tmp_path, redis_process, away))


async def _one_worker_stopped_while_redis_is_away(
    tmp_path: Path, redis: RedisProcess, away: str
) -> None:
    """A sysop restarting one worker (SIGTERM to it) while Redis is away: it stops
    within seconds, the parent starts it again, and it serves callers without Redis
    (joining the others when Redis is back), rather than the whole door stopping."""
    await redis.start()
    server = Workers(tmp_path, redis.url)
    try:
        await server.wait_for(r"worker-\d ready in", 2)
        pids = dict(STARTED.findall(server.log()))
        redis.kill() if away == "killed" else redis.hang()
        await server.wait_for("Redis cannot be reached", timeout=20)
        os.kill(int(pids["worker-1"]), signal.SIGTERM)
        sent = time.monotonic()
        await server.wait_for(r"worker-1 \(pid \d+\) ended with exit status 0", timeout=60)
        took = time.monotonic() - sent
        print(f"worker-1 stopped in {took:.1f} s")
        assert took < STOPS_WITHIN_SECONDS
        await server.wait_for(r"worker-1 ready in", 2, timeout=60)
        assert server.process.poll() is None and "stopping the door" not in server.log()
        # Callers are served all the while, by either worker.
        caller = TelnetCaller()
        await caller.connect(server.port)
        await caller.come_as_guest("Ada")
        caller.hang_up()
        # Redis back (empty): the new worker joins the others.
        redis.kill()
        await redis.start()
        await server.wait_for(r"worker-1 cluster: worker \S+ joined through Redis", 2)
    finally:
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(30)
        finally:
            if server.process.poll() is None:
                server.process.kill()


def test_sigterm_while_a_worker_waits_to_be_started_again_stops_the_door_at_once(
    tmp_path: Path, redis_url: str
) -> None:
    asyncio.run(_stops_while_a_worker_waits(tmp_path, redis_url))


async def _stops_while_a_worker_waits(tmp_path: Path, redis_url: str) -> None:
    """A worker that keeps dying soon after it starts waits longer each time before it
    is started again (1, 3, 7 s...); the sysop's SIGTERM meanwhile does not wait for it."""
    server = Workers(tmp_path, redis_url)
    try:
        await server.wait_for(r"worker-\d ready in", 2)
        for deaths in range(1, 4):
            pid = [pid for name, pid in STARTED.findall(server.log()) if name == "worker-1"][-1]
            os.kill(int(pid), signal.SIGKILL)
            await server.wait_for(rf"worker-1 \(pid {pid}\) ended with signal SIGKILL")
            if deaths < 3:
                await server.wait_for(r"worker-1 ready in", deaths + 1)
        assert "starting it again in 7 s" in server.log()
        server.process.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        server.process.wait(30)
        took = time.monotonic() - sent
        print(f"stopped in {took:.1f} s")
        assert server.process.returncode == 0
        assert took < 3.0, f"{took:.1f} s"
    finally:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()


def test_a_process_whose_stop_is_stuck_leaves_all_the_same() -> None:
    """``leave_if_stuck``, armed when a worker begins stopping, ends it even while its
    event loop is held by a call that never returns (here, a long sleep in the loop)."""
    script = (
        "import asyncio, logging, time\n"
        "from door.cluster.workers import leave_if_stuck\n"
        "logging.basicConfig()\n"
        "async def main():\n"
        "    leave_if_stuck(1.0)\n"
        "    time.sleep(60)\n"
        "asyncio.run(main())\n"
    )
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert result.returncode == STUCK_EXIT
    assert time.monotonic() - started < 10
    assert "still stopping after 1 s: leaving at once" in result.stderr


def test_a_link_stops_even_when_a_task_takes_its_cancellation_for_redis_trouble(
    redis_url: str,
) -> None:
    asyncio.run(_link_stops_all_the_same(redis_url))


async def _link_stops_all_the_same(redis_url: str) -> None:
    """A task told to stop while Redis is coming back may be handed a connection error
    instead of its cancellation (the library cleaning up), and go round its loop again:
    stopping the worker must not wait for it for ever."""
    link = ClusterLink(redis_url, Presence())
    await link.start()

    turned = 0
    waiting_in_it = asyncio.Event()

    async def cancellation_turned_into_trouble(**_: object) -> None:
        nonlocal turned
        waiting_in_it.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            turned += 1
            if turned > 1:
                raise  # the test's own clean-up: the task ends then
            raise RedisConnectionError("Connection closed by server.") from None

    link._pubsub.get_message = cancellation_turned_into_trouble
    await asyncio.wait_for(waiting_in_it.wait(), 10)  # the listening task waits in it
    closing = asyncio.ensure_future(link.close())
    done, _ = await asyncio.wait({closing}, timeout=10)
    assert done, "the link never stopped"
