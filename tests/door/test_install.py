"""What a sysop meets on installing: packaged texts, `init`, `--version`, one-line errors,
and a start-up log that says where the door keeps its things."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from door import texts
from door.config import load_config
from door.serve import Listening, run_server
from door.setup_files import init_files
from tests.door.netclients import free_port, server_config


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "door.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
    )


@pytest.fixture
def packaged_texts() -> None:
    texts.use_texts_dir(None)


def test_help_and_art_come_from_the_package_wherever_the_door_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, packaged_texts: None
) -> None:
    monkeypatch.chdir(tmp_path)
    assert "CRIBBAGE DOOR HELP" in texts.load_text(texts.HELP_TEXT, "missing")
    assert texts.load_text(texts.WELCOME_ART, "missing") != "missing"


def test_the_sysops_copy_wins_and_a_missing_one_falls_back_to_the_package(
    tmp_path: Path, packaged_texts: None
) -> None:
    (tmp_path / "help.txt").write_text("OUR OWN HELP\n")
    sources = texts.use_texts_dir(tmp_path)
    try:
        assert texts.load_text(texts.HELP_TEXT) == "OUR OWN HELP\n"
        assert sources == {
            "help.txt": str(tmp_path / "help.txt"),
            "mouse.txt": "packaged",
            "art/welcome.txt": "packaged",
        }
        assert "C  R  I  B  B  A  G  E" in texts.load_text(texts.WELCOME_ART)
    finally:
        texts.use_texts_dir(None)


def test_init_writes_editable_copies_that_the_door_then_reads(tmp_path: Path) -> None:
    folder = tmp_path / "etc"
    result = cli("init", str(folder))
    assert result.returncode == 0, result.stderr
    for name in ("door.toml", "help.txt", "art/welcome.txt"):
        assert (folder / name).read_text() == texts.packaged_text(name)
        assert f"wrote {folder / name}" in result.stdout
    assert f"--config {folder / 'door.toml'}" in result.stdout
    config = load_config(folder / "door.toml")
    assert config.texts_dir == folder


def test_init_never_overwrites(tmp_path: Path) -> None:
    (tmp_path / "help.txt").write_text("mine\n")
    result = cli("init", str(tmp_path))
    assert result.returncode == 1
    assert "not overwriting" in result.stderr and str(tmp_path / "help.txt") in result.stderr
    assert (tmp_path / "help.txt").read_text() == "mine\n"
    assert not (tmp_path / "door.toml").exists()
    with pytest.raises(FileExistsError):
        init_files(tmp_path)


def test_version() -> None:
    result = cli("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("cribbage-door ")
    assert result.stdout.split()[1][0].isdigit()


def test_both_ports_off_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = cli("--telnet-port", "0", "--ssh-port", "0", "--data-dir", str(tmp_path))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "nothing to serve" in lines[0]


def test_an_unwritable_data_dir_names_the_path(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    data = blocker / "data"  # a folder under a file cannot be made, even by root
    result = cli("--telnet-port", "0", "--data-dir", str(data))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "server.data_dir" in lines[0] and str(data) in lines[0]


def test_systemd_unit_runs_this_command_without_root_powers() -> None:
    result = cli("systemd-unit")
    assert result.returncode == 0
    unit = result.stdout
    assert "[Service]" in unit and "ExecStart=" in unit and " serve " in unit
    assert "AmbientCapabilities=CAP_NET_BIND_SERVICE" in unit and "DynamicUser=yes" in unit


def test_the_start_log_says_where_everything_is(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, packaged_texts: None
) -> None:
    config = server_config(tmp_path / "data")

    async def start_and_stop() -> Listening:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
        listening = await asyncio.wait_for(ready, 20)
        stop.set()
        await asyncio.wait_for(server, 10)
        return listening

    with caplog.at_level(logging.INFO, logger="door"):
        listening = asyncio.run(start_and_stop())
    log = caplog.text
    assert "config: " in log
    assert f"data directory: {tmp_path / 'data'}" in log
    assert f"database: sqlite+aiosqlite:///{tmp_path / 'data' / 'cribbage.sqlite3'}" in log
    assert "text help.txt: packaged" in log
    assert listening.telnet is not None
    assert f"telnet: listening on 127.0.0.1 port {listening.telnet[1]}" in log
    assert "ready in" in log


ROOT = Path(__file__).resolve().parents[2]
SAMPLE_CONFIG = ROOT / "config" / "door.toml"
"""The sample a sysop copies from the checkout; one file with the package's own (a link)."""


def test_the_checkouts_sample_config_is_what_the_package_ships_and_init_writes(
    tmp_path: Path,
) -> None:
    shipped = texts.packaged_text("door.toml").encode()
    assert SAMPLE_CONFIG.read_bytes() == shipped
    init_files(tmp_path)
    assert (tmp_path / "door.toml").read_bytes() == shipped


def test_the_door_started_in_the_checkout_reads_its_sample_config(tmp_path: Path) -> None:
    from tests.door.test_cli import start_log

    log = start_log(["--telnet-port", str(free_port()), "--ssh-port", "0",
                     "--data-dir", str(tmp_path)])  # fmt: skip
    assert f"config: {SAMPLE_CONFIG} (found in ./config)" in log, log
