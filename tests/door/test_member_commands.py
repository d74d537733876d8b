"""``cribbage-door user ...`` and ``audit`` as a sysop runs them beside a running door: a
member made over telnet forgets their password, ``user reset-password`` prints a code,
the member logs in with it and chooses a new password, the old one stops working, and
``audit`` names the action; a locked member is refused with the reason; bad input is
one line on standard error and a non-zero exit, changing nothing."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from door.app.member_watch import WATCH_SECONDS
from door.cli import main
from door.competition.pbm import PbmRules
from door.config import load_config
from door.storage.pbm_games import PbmGameStore
from door.storage.store import Seat, Store
from door.storage.values import utc_now
from engine.rules.record import RecordedGame
from tests.door.caller import run_async
from tests.door.netclients import TelnetCaller
from tests.door.storage.conftest import FAST_HASHER
from tests.door.storage.every_row import fresh_postgres_database, table_rows
from tests.door.storage.games import played_game
from tests.door.test_db_commands import (
    PASSWORD,
    board,
    cribbage_door,
    running,
    write_config,
)

__all__ = ["board"]  # the fixture, for the table of bad input

NEW_PASSWORD = "a brand new secret"


async def log_in(port: int, handle: str, password: str) -> TelnetCaller:
    caller = TelnetCaller()
    await caller.connect(port)
    await caller.log_in(handle, password)
    return caller


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """The door's database: SQLite in its data folder (""), or a fresh PostgreSQL one."""
    if request.param == "sqlite":
        yield ""
        return
    with fresh_postgres_database() as url:
        yield url


def test_a_member_logs_in_with_the_sysops_reset_code_and_chooses_a_new_password(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, database_url: str
) -> None:
    config_path = write_config(tmp_path / "board", database_url)
    caplog.set_level(logging.INFO)

    @run_async
    async def scenario() -> None:
        async with running(load_config(config_path)) as listening:
            assert listening.telnet
            port = listening.telnet[1]
            member = TelnetCaller()
            await member.connect(port)
            await member.sign_up("Ada", PASSWORD)
            await member.wait_for("Welcome, Ada!")
            member.hang_up()

            made = await asyncio.to_thread(
                cribbage_door, "user", "reset-password", "ada", "--config", str(config_path)
            )
            assert made.returncode == 0, made.stderr
            found = re.search(r"reset code for Ada: (\w{4}-\w{4}-\w{4})\n", made.stdout)
            assert found, made.stdout
            code = found.group(1)

            member = await log_in(port, "Ada", code.lower())
            await member.wait_for("Your reset code is right. Choose a new password")
            await member.send(f"{NEW_PASSWORD}\r")
            await member.wait_for("Password again:")
            await member.send(f"{NEW_PASSWORD}\r")
            await member.wait_for("Your new password is set, Ada: the old one no longer works.")
            await member.send("\r")
            await member.wait_for("Welcome, Ada!")
            member.hang_up()

            for stale in (PASSWORD, code):  # the old password, and the code used once
                caller = await log_in(port, "Ada", stale)
                await caller.wait_for("Wrong handle or password.")
                caller.hang_up()
            caller = await log_in(port, "Ada", NEW_PASSWORD)
            await caller.wait_for("Welcome, Ada!")
            caller.hang_up()

            audit = await asyncio.to_thread(cribbage_door, "audit", "--config", str(config_path))
            assert audit.returncode == 0, audit.stderr
            [entry] = audit.stdout.splitlines()
            assert re.fullmatch(
                r"\d{4}-\d\d-\d\d \d\d:\d\d  shell:\S+  user\.reset-password  Ada  "
                r"code valid until \d{4}-\d\d-\d\d \d\d:\d\d UTC",
                entry,
            ), entry
            for text in (caplog.text, audit.stdout):
                assert code not in text and code.replace("-", "") not in text

    scenario()


def test_a_member_locked_from_the_shell_is_hung_up_on_refused_and_let_in_once_unlocked(
    tmp_path: Path,
) -> None:
    config_path = write_config(tmp_path / "board")

    @run_async
    async def scenario() -> None:
        async with running(load_config(config_path)) as listening:
            assert listening.telnet
            port = listening.telnet[1]
            ada = TelnetCaller()
            await ada.connect(port)
            await ada.sign_up("Ada", PASSWORD)
            await ada.wait_for("Welcome, Ada!")
            lock = ["user", "lock", "Ada", "--reason", "spam in chat", "--hours", "2"]
            assert await asyncio.to_thread(main, [*lock, "--config", str(config_path)]) == 0
            # Online when locked: told why within seconds, and hung up on.
            await ada.wait_for("The sysop has locked Ada until", timeout=WATCH_SECONDS + 5)
            await ada.wait_for_close()
            assert "Reason: spam in chat" in ada.words
            caller = await log_in(port, "Ada", PASSWORD)
            await caller.wait_for("The sysop has locked Ada until")
            await caller.wait_for("Reason: spam in chat")
            caller.hang_up()
            unlock = ["user", "unlock", "Ada", "--config", str(config_path)]
            assert await asyncio.to_thread(main, unlock) == 0
            caller = await log_in(port, "Ada", PASSWORD)
            await caller.wait_for("Welcome, Ada!")
            # Deleted while online: told and hung up on too.
            delete = ["user", "delete", "Ada", "--yes", "--config", str(config_path)]
            assert await asyncio.to_thread(main, delete) == 0
            await caller.wait_for("The sysop has removed your account.", timeout=WATCH_SECONDS + 5)
            await caller.wait_for_close()

    scenario()


def test_a_member_renamed_from_the_shell_is_hung_up_on_and_logs_in_as_the_new_handle(
    tmp_path: Path,
) -> None:
    config_path = write_config(tmp_path / "board")

    @run_async
    async def scenario() -> None:
        async with running(load_config(config_path)) as listening:
            assert listening.telnet
            port = listening.telnet[1]
            ada = TelnetCaller()
            await ada.connect(port)
            await ada.sign_up("Ada", PASSWORD)
            await ada.wait_for("Welcome, Ada!")
            rename = ["user", "rename", "Ada", "Adele", "--config", str(config_path)]
            assert await asyncio.to_thread(main, rename) == 0
            # The running door (the shell is another process) notices within its watch.
            await ada.wait_for("The sysop renamed your account to Adele", timeout=WATCH_SECONDS + 5)
            await ada.wait_for_close()
            assert "call again and log in as Adele" in ada.words
            caller = await log_in(port, "Adele", PASSWORD)
            await caller.wait_for("Welcome, Adele!")
            caller.hang_up()

    scenario()


def test_every_action_is_printed_and_audited(
    board: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ["--config", str(board)]
    assert main(["user", "list", "--search", "a", *config]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0].split() == [
        "handle",
        "first",
        "call",
        "last",
        "call",
        "games",
        "rating",
        "status",
    ]
    assert [line.split()[0] for line in listed[1:]] == ["Ada", "Fay"]
    assert listed[1].endswith("active") and listed[2].endswith("locked")
    assert main(["user", "list", "--limit", "2", *config]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in listed] == ["handle", "Ada", "Bob", "..."]
    assert listed[-1].startswith("... and more: --limit N lists more")
    assert main(["user", "note", "bob", "calls late at night", *config]) == 0
    assert main(["user", "rename", "Bob", "Robert", "--reason", "asked to", *config]) == 0
    assert main(["user", "delete", "Eve", "--yes", *config]) == 0
    assert main(["user", "lock", "Di", "--reason", "rude", *config]) == 0
    assert main(["user", "unlock", "Di", *config]) == 0
    assert main(["user", "show", "robert", *config]) == 0
    out = capsys.readouterr().out
    assert "note on Bob: calls late at night" in out
    assert "Bob is now Robert; Bob is held from others for 30 days" in out
    assert "Eve is deleted; their games show as '(deleted member)'" in out
    assert "handle       Robert" in out and "note         calls late at night" in out
    assert main(["audit", "--limit", "5", *config]) == 0
    actions = [line.split("  ")[1:4] for line in capsys.readouterr().out.splitlines()]
    actor = actions[0][0]
    assert actor.startswith("shell:")
    assert actions == [
        [actor, "user.unlock", "Di"],
        [actor, "user.lock", "Di"],
        [actor, "user.delete", "Eve"],
        [actor, "user.rename", "Robert"],
        [actor, "user.note", "Bob"],
    ]


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["user", "show", "Nobody"], 1, "No member has the handle 'Nobody'"),
        (["user", "lock", "Nobody", "--reason", "x"], 1, "No member has the handle 'Nobody'"),
        (["user", "reset-password", "Nobody"], 1, "No member has the handle 'Nobody'"),
        (["user", "rename", "Ada", "bob"], 1, 'Someone already has the handle "bob"'),
        (["user", "rename", "Ada", "9lives"], 1, "A handle must start with a letter"),
        (["user", "rename", "Ada", "Sysop"], 1, "is kept for the door itself"),
        (["user", "lock", "Ada", "--reason", "x", "--hours", "-1"], 2, "--hours must be"),
        (["user", "lock", "Ada", "--reason", " \x1b "], 1, "Give a reason"),
        (["user", "delete", "Ada"], 2, "deleting Ada cannot be undone: add --yes"),
        (["user", "delete", "Bob", "--yes"], 1, "entered in the tournament 'Spring Swiss'"),
        (["audit", "--since", "yesterday"], 2, "--since 'yesterday' is not a date"),
        (["audit", "--limit", "0"], 2, "--limit must be 1 or more"),
        (["user", "list", "--limit", "501"], 2, "--limit must be 1 to 500"),
        (["user", "list", "--data-dir", "{tmp}/empty"], 1, "there is no database at"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit_changing_nothing(
    args: list[str],
    code: int,
    message: str,
    board: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    tmp = board.parent.parent
    database = f"sqlite+aiosqlite:///{board.parent / 'data/cribbage.sqlite3'}"
    rows = asyncio.run(table_rows(database))
    filled = [part.format(tmp=tmp) for part in args] + ["--config", str(board)]
    assert main(filled) == code
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and message in captured.err, captured.err
    assert asyncio.run(table_rows(database)) == rows


def test_a_deleted_members_one_game_is_one_game_in_the_question_and_the_audit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # By hand: the audit read "1 games kept".
    config = write_config(tmp_path / "door")
    (tmp_path / "door" / "data").mkdir()

    async def ada_with_one_game() -> None:
        url = f"sqlite+aiosqlite:///{tmp_path / 'door' / 'data' / 'cribbage.sqlite3'}"
        store = await Store.open(url, hasher=FAST_HASHER)
        try:
            ada = await store.create_account("Ada", PASSWORD)
            game = played_game(5)
            seats = [Seat("Ada", ada.id), Seat("computer")]
            await store.record_game_result(game.recording, seats, "computer-normal")
        finally:
            await store.close()

    asyncio.run(ada_with_one_game())
    asked: list[str] = []
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or "y")
    assert main(["user", "delete", "Ada", "--config", str(config)]) == 0
    assert asked == ["Delete Ada (1 game) for good? [y/N] "]
    assert main(["audit", "--limit", "1", "--config", str(config)]) == 0
    (entry,) = capsys.readouterr().out.splitlines()[1:]
    assert entry.endswith("user.delete  Ada  1 game kept"), entry


def test_the_audit_of_a_delete_counts_the_mail_games_it_settles_among_the_games_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # qa4: the audit said "1 game kept", the games before the delete.
    config = write_config(tmp_path / "door")
    (tmp_path / "door" / "data").mkdir()

    async def ada_with_a_game_and_a_mail_game_going() -> None:
        url = f"sqlite+aiosqlite:///{tmp_path / 'door' / 'data' / 'cribbage.sqlite3'}"
        store = await Store.open(url, hasher=FAST_HASHER)
        try:
            ada = await store.create_account("Ada", PASSWORD)
            bob = await store.create_account("Bob", PASSWORD)
            seats = [Seat("Ada", ada.id), Seat("computer")]
            await store.record_game_result(played_game(5).recording, seats, "computer-normal")
            await PbmGameStore(store).start_pbm_game(
                Seat("Ada", ada.id),
                Seat("Bob", bob.id),
                RecordedGame(seed=3).recording,
                PbmRules(3),
                utc_now(),
            )
        finally:
            await store.close()

    asyncio.run(ada_with_a_game_and_a_mail_game_going())
    assert main(["user", "delete", "Ada", "--yes", "--config", str(config)]) == 0
    capsys.readouterr()
    assert main(["audit", "--limit", "1", "--config", str(config)]) == 0
    (entry,) = capsys.readouterr().out.splitlines()
    kept = "2 games kept, 1 of them a mail game settled by forfeit"
    assert entry.endswith(f"user.delete  Ada  {kept}"), entry
