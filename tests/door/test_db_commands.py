"""``cribbage-door db backup|restore|copy|check`` and ``user export`` as a sysop runs them:
a member signed up on SQLite logs in on a door started against PostgreSQL after
``db copy``; a backup of a running door restored into a new data folder serves the same
member; bad input is one line on standard error and a non-zero exit, changing nothing."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from door.cli import main
from door.config import Config, ConfigError, load_config, with_overrides
from door.serve import Listening, run_server
from tests.door.caller import run_async
from tests.door.netclients import TelnetCaller, free_port
from tests.door.storage.every_row import PASSWORD, fill, fresh_postgres_database, table_rows

ROOT = Path(__file__).resolve().parents[2]


def write_config(folder: Path, database_url: str = "") -> Path:
    """A door.toml as a sysop would write one: its own ports and data folder."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "door.toml"
    path.write_text(
        "[server]\n"
        f"telnet_port = {free_port()}\n"
        "ssh_port = 0\n"
        f'data_dir = "{folder / "data"}"\n'
        "[game]\n"
        "computer_pause_seconds = 0\n"
        "[database]\n"
        f'url = "{database_url}"\n'
    )
    return path


@asynccontextmanager
async def running(config: Config) -> AsyncIterator[Listening]:
    stop = asyncio.Event()
    ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
    listening = await asyncio.wait_for(ready, 20)
    try:
        yield listening
    finally:
        stop.set()
        await asyncio.wait_for(server, 20)


async def sign_up(port: int, handle: str) -> None:
    caller = TelnetCaller()
    await caller.connect(port)
    await caller.sign_up(handle, PASSWORD)
    await caller.wait_for(f"Welcome, {handle}!")
    caller.hang_up()


async def logs_in(port: int, handle: str) -> None:
    caller = TelnetCaller()
    await caller.connect(port)
    await caller.log_in(handle, PASSWORD)
    await caller.wait_for(f"Welcome, {handle}!")
    caller.hang_up()


def cribbage_door(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own, as a sysop runs it beside the door."""
    return subprocess.run(
        [sys.executable, "-m", "door.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )


def test_a_member_made_on_sqlite_logs_in_on_postgresql_after_db_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sqlite_config = write_config(tmp_path / "before")
    with fresh_postgres_database() as postgres:
        asyncio.run(_sign_up_on(load_config(sqlite_config), "Ada Lovelace"))
        assert main(["db", "copy", "--config", str(sqlite_config), "--to", postgres]) == 0
        out = capsys.readouterr().out
        lines = [line.split() for line in out.splitlines()]
        rows = {words[0]: words[1] for words in lines if len(words) == 3 and words[1].isdigit()}
        assert rows["accounts"] == "1" and rows["games"] == "0"
        assert "each read back and matched" in out

        postgres_config = write_config(tmp_path / "after", postgres)

        @run_async
        async def log_in_on_postgresql() -> None:
            async with running(load_config(postgres_config)) as listening:
                assert listening.telnet
                await logs_in(listening.telnet[1], "Ada Lovelace")

        log_in_on_postgresql()
        assert main(["db", "copy", "--config", str(sqlite_config), "--to", postgres]) == 1
        error = capsys.readouterr().err
        assert error.endswith("copy only into an empty database\n")
        assert error.count("\n") == 1 and "not empty (accounts" in error


async def _sign_up_on(config: Config, handle: str) -> None:
    async with running(config) as listening:
        assert listening.telnet
        await sign_up(listening.telnet[1], handle)


def test_a_backup_of_a_running_door_restored_into_a_new_folder_serves_the_member(
    tmp_path: Path,
) -> None:
    config_path = write_config(tmp_path / "board")
    backup = tmp_path / "board.backup"
    new_data = tmp_path / "new-machine"

    @run_async
    async def scenario() -> None:
        config = load_config(config_path)
        async with running(config) as listening:
            assert listening.telnet
            await sign_up(listening.telnet[1], "Grace")
            made = await asyncio.to_thread(
                cribbage_door, "db", "backup", str(backup), "--config", str(config_path)
            )
            assert made.returncode == 0, made.stderr
            assert f"written to {backup}" in made.stdout
        restored = await asyncio.to_thread(
            cribbage_door, "--config", str(config_path), "db", "restore", str(backup),
            "--data-dir", str(new_data),
        )  # fmt: skip
        assert restored.returncode == 0, restored.stderr
        assert f"restored {backup} into {new_data / 'cribbage.sqlite3'}" in restored.stdout
        moved = with_overrides(config, data_dir=str(new_data))
        async with running(moved) as listening:
            assert listening.telnet
            await logs_in(listening.telnet[1], "Grace")

    scenario()


@pytest.fixture
def board(tmp_path: Path) -> Path:
    """A config whose SQLite database holds every kind of row."""
    config = write_config(tmp_path / "board")
    (tmp_path / "board" / "data").mkdir()
    asyncio.run(fill(f"sqlite+aiosqlite:///{tmp_path / 'board' / 'data' / 'cribbage.sqlite3'}"))
    return config


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["db", "restore", "{tmp}/nothing.sqlite3"], 1, "nothing.sqlite3: there is no such file"),
        (["db", "restore", "{config}"], 1, "not a cribbage-door backup (not a SQLite database)"),
        (["db", "copy", "--to", "mysql://door@host/db"], 2, "--to: database.url must be"),
        (
            ["db", "copy", "--to", "postgresql://door:hunter2@127.0.0.1:1/cribbage"],
            1,
            "postgresql+asyncpg://door:***@127.0.0.1:1/cribbage: cannot reach the server",
        ),
        (["db", "backup", "{tmp}/no/folder/b.sqlite3"], 1, "there is no folder"),
        (["db", "backup", "{tmp}"], 1, "is a folder; name the backup file to write"),
        (["db", "backup", "{config}"], 1, "door.toml: a file is already there; name another"),
        (["db", "check", "--data-dir", "{tmp}/empty"], 1, "there is no database at"),
        (["user", "export", "Nobody"], 1, "no member has the handle 'Nobody'"),
        (["db", "check", "--config", "{tmp}/missing.toml"], 2, "no such config file"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit_changing_nothing(
    args: list[str], code: int, message: str, board: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tmp = board.parent.parent
    before = sorted(path.relative_to(tmp) for path in tmp.rglob("*"))
    rows = asyncio.run(table_rows(f"sqlite+aiosqlite:///{board.parent / 'data/cribbage.sqlite3'}"))
    filled = [part.format(tmp=tmp, config=board) for part in args]
    if "--config" not in filled:
        filled += ["--config", str(board)]
    assert main(filled) == code
    captured = capsys.readouterr()
    said = captured.out.splitlines()
    assert said == [] or (len(said) == 1 and said[0].startswith("copying "))  # no table
    assert captured.err.count("\n") == 1 and message in captured.err, captured.err
    assert "hunter2" not in captured.err
    assert sorted(path.relative_to(tmp) for path in tmp.rglob("*")) == before
    after = asyncio.run(table_rows(f"sqlite+aiosqlite:///{board.parent / 'data/cribbage.sqlite3'}"))
    assert after == rows


def test_check_reports_a_whole_database(board: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "check", "--config", str(board)]) == 0
    out = capsys.readouterr().out
    assert "ok       tournament_entrants.account_id -> accounts" in out
    assert out.endswith(": no problems found\n")


def test_user_export_writes_a_members_record_and_games(
    board: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, games = tmp_path / "ada.json", tmp_path / "ada.txt"
    args = [
        "user",
        "export",
        "ADA",
        "--config",
        str(board),
        "--out",
        str(out),
        "--text",
        str(games),
    ]
    assert main(args) == 0
    assert capsys.readouterr().out == f"Ada: 1 game(s) to {out}\n"
    exported = json.loads(out.read_text())
    assert exported["account"]["handle"] == "Ada"
    assert "password_hash" not in exported["account"]
    assert "argon2" not in out.read_text()
    assert "code_hash" not in out.read_text()  # Ada has a reset code (every_row)
    assert [a["address"] for a in exported["tables"]["account_addresses"]] == ["2001:db8::1"]
    assert [key["public_key"].split()[0] for key in exported["tables"]["ssh_keys"]] == [
        "ssh-ed25519"
    ]
    assert [rating["games"] for rating in exported["tables"]["ratings"]] == [1]
    (game,) = exported["games"]
    assert [seat["name"] for seat in game["seats"]] == ["Ada", "computer"]
    assert 121 in game["result"]["scores"] and game["recording"]["players"] == 2
    assert game["text"][0].startswith(f"Game {game['id']}, started ")
    assert games.read_text().splitlines() == game["text"]


def newest_audit_entries(
    database: Path, count: int
) -> list[tuple[str, str, str | None, str | None]]:
    """The newest ``count`` audit entries of the SQLite file: (actor, action, target, detail)."""
    from door.storage.store import Store

    async def read() -> list[tuple[str, str, str | None, str | None]]:
        store = await Store.open(f"sqlite+aiosqlite:///{database}")
        try:
            entries = await store.recorded_actions(limit=count)
        finally:
            await store.close()
        return [(entry.actor, entry.action, entry.target, entry.detail) for entry in entries]

    return asyncio.run(read())


def test_a_restore_is_written_to_the_audit_it_brings_back(
    board: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = board.parent / "data" / "cribbage.sqlite3"
    backup = tmp_path / "before.backup"
    assert main(["db", "backup", str(backup), "--config", str(board)]) == 0
    # Something the sysop does after the backup: a replacing restore takes it away again.
    assert main(["user", "note", "Ada", "after the backup", "--config", str(board)]) == 0
    assert newest_audit_entries(database, 1)[0][1] == "user.note"

    assert main(["db", "restore", str(backup), "--replace", "--config", str(board)]) == 0
    newest, before = newest_audit_entries(database, 2)
    actor, action, target, detail = newest
    assert (action, target, detail) == (
        "db.restore",
        str(backup.resolve()),
        "replacing what the database held",
    )
    assert actor.startswith("shell:")
    assert before[1] != "user.note"  # the note made after the backup went with the rest

    new_data = tmp_path / "new-machine"
    assert (
        main(["db", "restore", str(backup), "--config", str(board), "--data-dir", str(new_data)])
        == 0
    )
    restored = newest_audit_entries(new_data / "cribbage.sqlite3", 1)
    assert restored[0][1:] == ("db.restore", str(backup.resolve()), "into an empty database")
    capsys.readouterr()


def test_a_backup_onto_an_older_one_is_refused_unless_replace(
    board: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = tmp_path / "monday.sqlite3"
    assert main(["db", "backup", str(backup), "--config", str(board)]) == 0
    monday = backup.read_bytes()
    assert main(["user", "note", "Ada", "after monday", "--config", str(board)]) == 0
    capsys.readouterr()

    assert main(["db", "backup", str(backup), "--config", str(board)]) == 1
    refusal = capsys.readouterr()
    assert refusal.out == ""
    assert refusal.err.count("\n") == 1, refusal.err
    assert f"{backup}: a file is already there" in refusal.err
    assert "--replace" in refusal.err
    assert backup.read_bytes() == monday
    assert [path.name for path in tmp_path.iterdir() if "monday" in path.name] == [backup.name]

    assert main(["db", "backup", str(backup), "--replace", "--config", str(board)]) == 0
    assert newest_audit_entries(backup, 1)[0][1] == "user.note"  # the new one, not monday's
    capsys.readouterr()


def test_a_restore_is_refused_while_the_door_runs_and_the_door_waits_for_a_restore(
    board: Path, tmp_path: Path
) -> None:
    """A restore under a running door replaced what the door held in memory (it hung up
    a member whose account had gone): it is refused, naming why, and changes nothing;
    once the door has stopped it goes in. A door started while a restore writes does not
    start."""
    from door.data_lock import door_at_work, no_door_at_work

    backup = tmp_path / "board.backup"
    assert main(["db", "backup", str(backup), "--config", str(board)]) == 0
    config = load_config(board)
    database = tmp_path / "board" / "data" / "cribbage.sqlite3"
    before = asyncio.run(table_rows(f"sqlite+aiosqlite:///{database}"))

    @run_async
    async def scenario() -> None:
        async with running(config) as listening:
            assert listening.telnet
            await sign_up(listening.telnet[1], "Grace")  # a row the backup does not hold
            refused = await asyncio.to_thread(
                cribbage_door, "db", "restore", str(backup), "--replace", "--config", str(board)
            )
            assert refused.returncode == 1, refused.stdout
            assert "the door is running on this data folder: stop it" in refused.stderr
            await logs_in(listening.telnet[1], "Grace")  # nothing was replaced
        # Stopped: the restore goes in, and Grace (made after the backup) is gone.
        restored = await asyncio.to_thread(
            cribbage_door, "db", "restore", str(backup), "--replace", "--config", str(board)
        )
        assert restored.returncode == 0, restored.stderr
        with no_door_at_work(config.server.data_path), pytest.raises(ConfigError, match="restore"):
            await run_server(config, stop=asyncio.Event())

    scenario()
    after = asyncio.run(table_rows(f"sqlite+aiosqlite:///{database}"))
    assert after["accounts"] == before["accounts"]
    with door_at_work(config.server.data_path):  # (let go: a door may start again)
        pass
