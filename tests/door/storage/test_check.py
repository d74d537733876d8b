"""``db check`` (door/storage/check.py): a whole database passes; rows pointing at
nothing and a log that no longer replays are reported by table and row."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

import pytest

from door.storage import check
from door.storage.check import check_database
from door.storage.transfer import TransferError
from tests.door.caller import run_async
from tests.door.storage.every_row import fill, fresh_postgres_database, run_sql, table_rows


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@run_async
async def test_a_whole_database_has_no_problems(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "door.sqlite3")
    await fill(url)
    report = await check_database(url, "door")
    assert report.problems == 0
    assert "ok       SQLite integrity_check" in report.lines
    assert "ok       the audit refuses changes (its triggers are in place)" in report.lines
    assert "ok       game_seats.account_id -> accounts" in report.lines
    assert "ok       game_logs.recording: 2 recording(s) replay" in report.lines


def test_a_whole_postgresql_database_has_no_problems() -> None:
    with fresh_postgres_database() as url:

        @run_async
        async def scenario() -> None:
            await fill(url)
            report = await check_database(url, "door")
            assert report.problems == 0, report.lines
            assert "ok       pbm_games.recording: 1 recording(s) replay" in report.lines
            assert "ok       the audit refuses changes (its triggers are in place)" in report.lines
            await run_sql(url, "ALTER TABLE audit DISABLE TRIGGER audit_no_change")
            report = await check_database(url, "door")
            assert [line for line in report.lines if line.startswith("PROBLEM")] == [
                "PROBLEM  the audit can be changed: its trigger(s) audit_no_change are missing "
                "or disabled (migration 0008 makes them)"
            ]

        scenario()


@run_async
async def test_orphans_and_a_log_that_does_not_replay_are_named(tmp_path: Path) -> None:
    path = tmp_path / "door.sqlite3"
    made = await fill(sqlite_url(path))
    finished = made["finished_game"]
    with contextlib.closing(sqlite3.connect(path)) as connection:
        # As a crash of an old version, or a hand-edited file, might leave them.
        connection.execute("PRAGMA foreign_keys = OFF")
        connection.execute(
            "INSERT INTO ssh_keys VALUES (40, 999, 'ssh-ed25519 AAAA', '2026-01-01')"
        )
        connection.execute("UPDATE game_seats SET account_id = 998 WHERE game_id = 2 AND seat = 1")
        connection.execute("UPDATE tournament_pairings SET first_account_id = 997")
        (text,) = connection.execute(
            "SELECT recording FROM game_logs WHERE game_id = ?", (finished,)
        ).fetchone()
        recording = json.loads(text)
        recording["actions"][3] = ["play", 0, "ZZ"]
        connection.execute(
            "UPDATE game_logs SET recording = ? WHERE game_id = ?",
            (json.dumps(recording), finished),
        )
        connection.commit()
    report = await check_database(sqlite_url(path), "door")
    problems = [line for line in report.lines if line.startswith("PROBLEM")]
    assert report.problems == 4 == len(problems)
    assert problems[0] == (
        "PROBLEM  game_seats.account_id -> accounts: 1 row(s) point at nothing (2/1)"
    )
    assert problems[1] == "PROBLEM  ssh_keys.account_id -> accounts: 1 row(s) point at nothing (40)"
    assert problems[2] == (
        "PROBLEM  tournament_pairings.first_account_id -> accounts: 2 row(s) point at nothing"
        " (1/1/1, 1/1/2)"
    )
    assert problems[3].startswith(f"PROBLEM  game {finished}'s log: ")
    assert problems[3].endswith("(does not replay)")


@run_async
async def test_an_audit_whose_guard_was_dropped_by_hand_is_named(tmp_path: Path) -> None:
    path = tmp_path / "door.sqlite3"
    await fill(sqlite_url(path))
    with contextlib.closing(sqlite3.connect(path)) as connection:
        connection.execute("DROP TRIGGER audit_no_delete")
        connection.commit()
    report = await check_database(sqlite_url(path), "door")
    assert [line for line in report.lines if line.startswith("PROBLEM")] == [
        "PROBLEM  the audit can be changed: its trigger(s) audit_no_delete are missing "
        "or disabled (migration 0008 makes them)"
    ]


@run_async
async def test_a_database_of_another_schema_revision_is_not_checked(tmp_path: Path) -> None:
    path = tmp_path / "door.sqlite3"
    await fill(sqlite_url(path))
    with contextlib.closing(sqlite3.connect(path)) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0002'")
        connection.commit()
    with pytest.raises(TransferError, match="revision 0002, not this door's"):
        await check_database(sqlite_url(path), "door")


@run_async
async def test_each_recording_is_replayed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = sqlite_url(tmp_path / "door.sqlite3")
    await fill(url)
    rows = await table_rows(url)
    texts = [row[5] for row in rows["games"]] + [row[1] for row in rows["game_logs"]]
    texts += [row[1] for row in rows["pbm_games"]]
    assert len(set(texts)) < len(texts)  # a finished game's row and log agree
    replayed = []
    monkeypatch.setattr(check, "replay", lambda recording: replayed.append(recording))
    report = await check.check_database(url, "door")
    assert report.problems == 0
    assert len(replayed) == len(set(texts))
