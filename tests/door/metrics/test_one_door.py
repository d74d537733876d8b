"""A real door with ``[metrics] port``: what ``/metrics``, ``/healthz`` and ``/readyz``
answer while real telnet and SSH callers are on, one of them playing the computer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from door.config import config_from_mapping
from door.serve import Listening, run_server
from tests.door.caller import run_async
from tests.door.metrics.scrape import get, until_metrics, value
from tests.door.netclients import SSHCaller, TelnetCaller, free_port


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
