"""``cribbage-door status`` against a running door, a door not yet ready, and no door."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from door.config import config_from_mapping
from door.metrics.service import MetricsService
from door.metrics.status import percentile
from tests.door.caller import run_async
from tests.door.metrics.test_one_door import door_serving
from tests.door.netclients import TelnetCaller, free_port

ROOT = Path(__file__).resolve().parents[3]


async def status(*args: str) -> tuple[int, str]:
    """Run ``cribbage-door status`` as a sysop would: its exit status and what it printed."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "door.cli",
        "status",
        *args,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, output.decode()


@run_async
async def test_status_of_a_running_door(tmp_path: Path) -> None:
    async with door_serving(tmp_path) as (listening, port):
        assert listening.telnet
        tess = TelnetCaller()
        await tess.connect(listening.telnet[1])
        await tess.come_as_guest("Tess")
        await tess.wait_for("Play the computer")
        code, printed = await status("--metrics-port", str(port))
        tess.hang_up()
    assert code == 0, printed
    assert printed.startswith(f"cribbage-door at http://127.0.0.1:{port}: ready\n")
    assert "callers: 1 (telnet 1, ssh 0, web 0, rlogin 0, door 0); lobby 1, playing 0" in printed
    assert "games: 0 (" in printed
    assert "/s over the last minute; p99 key to screen " in printed  # Tess pressed keys
    assert "workers: one process" in printed
    assert "database: up" in printed


@run_async
async def test_status_of_a_stopped_door_fails(tmp_path: Path) -> None:
    code, printed = await status("--metrics-port", str(free_port()))
    assert code == 1
    assert printed.startswith("cribbage-door is not running: nothing answers at http://127.0.0.1:")


@run_async
async def test_status_of_a_door_not_ready_fails(tmp_path: Path) -> None:
    port = free_port()
    config = config_from_mapping({"server": {"data_dir": str(tmp_path)}, "metrics": {"port": port}})
    service = MetricsService(config)
    await service.open()  # open, and still starting
    try:
        code, printed = await status("--metrics-port", str(port))
    finally:
        await service.close()
    assert code == 3
    assert printed.startswith(f"cribbage-door at http://127.0.0.1:{port}: not ready: starting\n")


@run_async
async def test_status_with_metrics_off_says_how_to_turn_them_on(tmp_path: Path) -> None:
    config = tmp_path / "door.toml"
    config.write_text("[metrics]\nport = 0\n", encoding="utf-8")
    code, printed = await status("--config", str(config))
    assert code == 2
    assert "metrics are off ([metrics] port = 0)" in printed


def test_the_p99_is_the_bound_of_the_bucket_holding_the_99th_percentile() -> None:
    within = {"0.001": 50.0, "0.01": 98.0, "0.1": 99.0, "1.0": 100.0, "+Inf": 100.0}
    assert percentile(within, 0.99) == 0.1
    assert percentile(within, 0.5) == 0.001
    assert percentile({"0.001": 0.0, "+Inf": 0.0}, 0.99) is None
    assert percentile({"0.001": 0.0, "5.0": 0.0, "+Inf": 10.0}, 0.99) == 5.0  # at least
