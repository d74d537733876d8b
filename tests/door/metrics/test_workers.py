"""``cribbage-door serve --workers 2`` with ``[metrics] port``: the parent's ``/metrics``
sums both workers' callers, games and keys, keeps per-worker figures apart by their
``worker`` label, and its ``/readyz`` is ready only while every worker is."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.door.caller import run_async
from tests.door.cluster.conftest import redis_server, redis_url  # noqa: F401 (fixtures)
from tests.door.metrics.scrape import get, until_metrics, until_status, value
from tests.door.netclients import SSHCaller, TelnetCaller, free_port

ROOT = Path(__file__).resolve().parents[3]


class RunningDoor:
    def __init__(self, process: subprocess.Popen[bytes], ports: dict[str, int], log: Path):
        self.process = process
        self.ports = ports
        self.log = log


def write_config(folder: Path, redis: str, workers: int) -> tuple[Path, dict[str, int]]:
    ports = {name: free_port() for name in ("telnet", "ssh", "metrics")}
    config = folder / "door.toml"
    config.write_text(
        f"""
[server]
telnet_port = {ports["telnet"]}
ssh_port = {ports["ssh"]}
data_dir = "{folder / "data"}"

[game]
computer_pause_seconds = 0

[cluster]
workers = {workers}
redis_url = "{redis}"

[metrics]
port = {ports["metrics"]}
""",
        encoding="utf-8",
    )
    return config, ports


@contextmanager
def door_running(folder: Path, redis: str) -> Iterator[RunningDoor]:
    """``cribbage-door serve`` with two workers, as a sysop runs it; stopped with SIGTERM."""
    config, ports = write_config(folder, redis, 2)
    log = folder / "door.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "door.cli", "serve", "--config", str(config)],
            cwd=ROOT,
            stdout=output,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    try:
        yield RunningDoor(process, ports, log)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def two_workers(tmp_path: Path, redis_url: str) -> Iterator[RunningDoor]:  # noqa: F811
    with door_running(tmp_path, redis_url) as door:
        yield door


def start_redis(port: int, folder: Path) -> subprocess.Popen[bytes]:
    program = shutil.which("redis-server")
    if program is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    return subprocess.Popen(
        [program, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip


@run_async
async def test_the_parent_sums_its_workers(two_workers: RunningDoor) -> None:
    ports = two_workers.ports
    try:
        await until_status(ports["metrics"], "/readyz", 200, timeout=60)
    except AssertionError:
        raise AssertionError(two_workers.log.read_text()) from None
    tess, tom, sam = TelnetCaller(), TelnetCaller(), SSHCaller()
    await tess.connect(ports["telnet"])
    await tom.connect(ports["telnet"])
    await sam.connect(ports["ssh"], username="guest")
    await tess.come_as_guest("Tess")
    await tom.come_as_guest("Tom")
    await sam.give_name("Sam")
    await tess.wait_for("Play the computer")
    await tess.send("p")

    def all_on(samples: dict[Any, float]) -> bool:
        return (value(samples, "cribbage_door_games", kind="computer") or 0) >= 1

    text, samples = await until_metrics(ports["metrics"], all_on)
    assert value(samples, "cribbage_door_callers", transport="telnet") == 2
    assert value(samples, "cribbage_door_callers", transport="ssh") == 1
    assert value(samples, "cribbage_door_callers_by_place", place="playing") == 1
    assert (value(samples, "cribbage_door_keys_total") or 0) > 0
    assert "cribbage_door_key_seconds_bucket{le=" in text
    assert value(samples, "cribbage_door_workers", of="answering") == 2
    for worker in ("worker-1", "worker-2"):
        assert value(samples, "cribbage_door_ready", worker=worker) == 1
        assert value(samples, "cribbage_door_redis_up", worker=worker) == 1
        assert value(samples, "cribbage_door_event_loop_lag_seconds", worker=worker) is not None
    assert await get(ports["metrics"], "/healthz") == (200, "ok\n")
    for caller in (tess, tom, sam):
        caller.hang_up()
    await asyncio.sleep(0)


@run_async
async def test_readyz_is_503_while_a_worker_does_not_answer(two_workers: RunningDoor) -> None:
    ports = two_workers.ports
    await until_status(ports["metrics"], "/readyz", 200, timeout=60)
    worker_pids = subprocess.run(
        ["pgrep", "-P", str(two_workers.process.pid)], capture_output=True, text=True, check=True
    ).stdout.split()
    assert len(worker_pids) == 2
    os.kill(int(worker_pids[0]), signal.SIGSTOP)  # a worker stuck: it cannot answer
    try:
        body = await until_status(ports["metrics"], "/readyz", 503)
        assert "does not answer" in body
        _, samples = await until_metrics(
            ports["metrics"],
            lambda samples: value(samples, "cribbage_door_workers", of="answering") == 1,
        )
        assert value(samples, "cribbage_door_workers", of="configured") == 2
    finally:
        os.kill(int(worker_pids[0]), signal.SIGCONT)
    await until_status(ports["metrics"], "/readyz", 200)


@run_async
async def test_readyz_is_503_while_redis_is_down_and_says_so(tmp_path: Path) -> None:
    redis_port = free_port()
    redis = start_redis(redis_port, tmp_path)
    try:
        with door_running(tmp_path, f"redis://127.0.0.1:{redis_port}/0") as door:
            metrics_port = door.ports["metrics"]
            await until_status(metrics_port, "/readyz", 200, timeout=60)
            redis.terminate()
            redis.wait(10)
            body = await until_status(metrics_port, "/readyz", 503)
            assert "Redis cannot be reached" in body
            _, samples = await until_metrics(
                metrics_port,
                lambda samples: (
                    value(samples, "cribbage_door_redis_up", worker="worker-1") == 0
                    and value(samples, "cribbage_door_redis_up", worker="worker-2") == 0
                ),
            )
            assert value(samples, "cribbage_door_workers", of="answering") == 2
            redis = start_redis(redis_port, tmp_path)
            assert await until_status(metrics_port, "/readyz", 200) == "ready\n"
    finally:
        redis.terminate()
        redis.wait(10)
