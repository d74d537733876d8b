"""A Redis server for the cluster tests: Debian's ``redis-server`` on a free port, with
nothing kept on disk. Without the program (CI installs it) the tests skip, saying why."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.door.netclients import free_port


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    program = shutil.which("redis-server")
    if program is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    folder: Path = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [program, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                pytest.fail("redis-server did not start")
            time.sleep(0.05)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(5)


@pytest.fixture
def redis_url(redis_server: str) -> str:
    """The server, emptied of what earlier tests left."""
    import redis

    client = redis.Redis.from_url(redis_server)
    client.flushall()
    client.close()
    return redis_server


class RedisProcess:
    """A ``redis-server`` on one port that keeps nothing: started again, it is empty."""

    def __init__(self, folder: Path) -> None:
        program = shutil.which("redis-server")
        if program is None:
            pytest.skip("redis-server is not installed (apt-get install redis-server)")
        self.program = program
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def start(self) -> None:
        command = [self.program, "--port", str(self.port), "--bind", "127.0.0.1",
                   "--save", "", "--appendonly", "no", "--dir", str(self.folder)]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        await until_port(self.port)

    def hang(self) -> None:
        """Stop it (SIGSTOP): connections are accepted by the kernel and never answered,
        as from a Redis that hangs or a network that drops its packets."""
        if self.process is not None:
            self.process.send_signal(signal.SIGSTOP)

    def kill(self) -> None:
        """As a crash or ``kill -9`` would: connections reset, nothing saved."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()


@pytest.fixture
def redis_process(tmp_path: Path) -> Iterator[RedisProcess]:
    redis = RedisProcess(tmp_path)
    try:
        yield redis
    finally:
        redis.kill()


async def until_port(port: int) -> None:
    for _ in range(200):
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), 0.1).close()
            return
        await asyncio.sleep(0.05)
    raise AssertionError("redis-server did not start")
