"""A Redis server for the cluster tests: Debian's ``redis-server`` on a free port, with
nothing kept on disk. Without the program (CI installs it) the tests skip, saying why."""

from __future__ import annotations

import shutil
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
