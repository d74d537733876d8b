"""A real door with ``[metrics] port``: what ``/metrics``, ``/healthz`` and ``/readyz``
answer while real telnet and SSH callers are on, one of them playing the computer."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from door.config import config_from_mapping
from door.metrics.service import MetricsService
from door.serve import Listening, run_server
from tests.door.caller import run_async
from tests.door.metrics.scrape import get, until_metrics, until_status, value
from tests.door.netclients import SSHCaller, TelnetCaller, free_port
from tests.door.storage.conftest import postgres_url


@asynccontextmanager
async def door_serving(data_dir: Path, **sections: Any) -> AsyncIterator[tuple[Listening, int]]:
    """A door with metrics on a free port: what it listens on, and the metrics port."""
    metrics_port = free_port()
    config = config_from_mapping(
        {
            "server": {
                "telnet_port": free_port(),
                "ssh_port": free_port(),
                "data_dir": str(data_dir),
            },
            "game": {"computer_pause_seconds": 0},
            "metrics": {"port": metrics_port},
            **sections,
        }
    )
    stop = asyncio.Event()
    ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
    try:
        yield await asyncio.wait_for(ready, 30), metrics_port
    finally:
        stop.set()
        await asyncio.wait_for(server, 30)


@run_async
async def test_metrics_count_callers_by_transport_games_and_keys(tmp_path: Path) -> None:
    async with door_serving(tmp_path) as (listening, port):
        assert listening.telnet and listening.ssh
        tess, tom, sam = TelnetCaller(), TelnetCaller(), SSHCaller()
        await tess.connect(listening.telnet[1])
        await tom.connect(listening.telnet[1])
        await sam.connect(listening.ssh[1], username="guest")
        await tess.come_as_guest("Tess")
        await tom.come_as_guest("Tom")
        await sam.give_name("Sam")
        await tess.wait_for("Play the computer")
        await tess.send("p")  # Tess plays the computer

        def all_on(samples: dict[Any, float]) -> bool:
            return (value(samples, "cribbage_door_games", kind="computer") or 0) >= 1 and (
                value(samples, "cribbage_door_callers_by_place", place="playing") == 1
            )

        text, samples = await until_metrics(port, all_on)
        assert value(samples, "cribbage_door_callers", transport="telnet") == 2
        assert value(samples, "cribbage_door_callers", transport="ssh") == 1
        assert value(samples, "cribbage_door_callers", transport="web") == 0
        assert value(samples, "cribbage_door_callers_by_place", place="lobby") == 2
        assert (value(samples, "cribbage_door_keys_total") or 0) > 0
        assert (value(samples, "cribbage_door_frames_total") or 0) > 0
        assert (value(samples, "cribbage_door_sent_bytes_total") or 0) > 1000
        answered = value(samples, "cribbage_door_key_seconds_count") or 0
        assert answered > 0
        assert value(samples, "cribbage_door_key_seconds_bucket", le="+Inf") == answered
        assert "cribbage_door_key_seconds_bucket{le=" in text
        assert "# HELP cribbage_door_callers Callers connected" in text
        assert value(samples, "cribbage_door_ready", worker="main") == 1
        assert value(samples, "cribbage_door_database_up", worker="main") == 1
        assert await get(port, "/healthz") == (200, "ok\n")
        assert await get(port, "/readyz") == (200, "ready\n")
        for caller in (tess, tom, sam):
            caller.hang_up()
        await until_metrics(
            port, lambda samples: value(samples, "cribbage_door_callers", transport="telnet") == 0
        )


@run_async
async def test_pages_other_than_the_three_are_not_found(tmp_path: Path) -> None:
    async with door_serving(tmp_path) as (_, port):
        assert (await get(port, "/"))[0] == 404
        assert (await get(port, "/metrics/../etc/passwd"))[0] == 404


class CuttableLine:
    """A TCP forwarder to the database server that the test can cut and mend, as a
    network outage or the database server stopping would."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    async def mend(self) -> None:
        self.server = await asyncio.start_server(self._forward, "127.0.0.1", self.port)

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in list(self.writers):
            writer.transport.abort()
        await self.server.wait_closed()

    async def _forward(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        far_reader, far_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self.writers |= {writer, far_writer}

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.transport.abort()

        await asyncio.gather(pump(reader, far_writer), pump(far_reader, writer))
        self.writers -= {writer, far_writer}


@asynccontextmanager
async def fresh_postgres_database() -> AsyncIterator[tuple[str, int]]:
    """A database of its own on the test PostgreSQL server: its name and the server's port."""
    import asyncpg

    url = urlsplit(postgres_url().replace("postgresql+asyncpg://", "postgresql://", 1))
    name = f"metrics_{uuid.uuid4().hex[:12]}"
    admin = url._replace(path="/postgres").geturl()
    connection = await asyncpg.connect(admin)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
        yield name, int(url.port or 5432)
    finally:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await connection.close()


WITH_WORKERS_ONLY = {"cribbage_door_redis_up", "cribbage_door_workers"}


def database_up(samples: dict[Any, float]) -> bool:
    return value(samples, "cribbage_door_database_up", worker="main") == 1


def database_down(samples: dict[Any, float]) -> bool:
    return value(samples, "cribbage_door_database_up", worker="main") == 0


@run_async
async def test_readyz_is_503_while_the_database_cannot_be_reached(tmp_path: Path) -> None:
    async with fresh_postgres_database() as (name, pg_port):
        line = CuttableLine(pg_port)
        await line.mend()
        database = {"url": f"postgresql://postgres@127.0.0.1:{line.port}/{name}"}
        async with door_serving(tmp_path, database=database) as (_, port):
            assert await until_status(port, "/readyz", 200) == "ready\n"
            await line.cut()
            body = await until_status(port, "/readyz", 503)
            assert "the database cannot be reached" in body
            assert (await get(port, "/healthz"))[0] == 200  # the process still serves
            _, samples = await until_metrics(
                port,
                lambda samples: value(samples, "cribbage_door_database_up", worker="main") == 0,
            )
            assert value(samples, "cribbage_door_ready", worker="main") == 0
            await line.mend()
            assert await until_status(port, "/readyz", 200) == "ready\n"
            await line.cut()  # the door lets go of its connections as it stops


@run_async
async def test_readyz_is_503_while_starting_and_while_stopping(tmp_path: Path) -> None:
    config = config_from_mapping(
        {"server": {"data_dir": str(tmp_path)}, "metrics": {"port": free_port()}}
    )
    service = MetricsService(config)
    await service.open()
    try:
        assert await get(service.port, "/readyz") == (503, "not ready: starting\n")
        assert await get(service.port, "/healthz") == (200, "ok\n")
        service.ready()
        assert await get(service.port, "/readyz") == (200, "ready\n")
        service.stopping()
        assert await get(service.port, "/readyz") == (503, "not ready: stopping\n")
    finally:
        await service.close()


@run_async
async def test_the_dashboard_and_the_readme_name_only_metrics_the_door_serves(
    tmp_path: Path,
) -> None:
    dashboard = json.loads(
        resources.files("door.resources").joinpath("grafana/cribbage-door.json").read_text()
    )
    expressions = " ".join(
        target["expr"] for panel in dashboard["panels"] for target in panel["targets"]
    )
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    async with door_serving(tmp_path) as (_, port):
        text, samples = await until_metrics(port, database_up)
    served = {name for name, _ in samples} | WITH_WORKERS_ONLY
    named_in_dashboard = set(re.findall(r"cribbage_door_\w+", expressions))
    assert named_in_dashboard and named_in_dashboard <= served
    named_in_readme = set(re.findall(r"cribbage_door_\w+", readme))
    families = set(re.findall(r"^# HELP (cribbage_door_\w+)", text, re.MULTILINE))
    # The README names families (the histogram without its _bucket) and counters with _total.
    assert named_in_readme <= served | families
    in_readme = {name.removesuffix("_total") for name in named_in_readme}
    assert {name.removesuffix("_total") for name in families} <= in_readme
