"""Every shell command on the database ends the same way: 0 done, 1 when the database or
the work said no, 2 for a bad configuration, 130 for Ctrl-C, each failure one line on
standard error in the same words, ``cribbage-door COMMAND: ...``."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import NoReturn

import pytest

from door.cli import main
from tests.door.test_db_commands import board

__all__ = ["board"]  # the fixture: a config and a database holding every kind of row

COMMANDS = {
    "db check": ["db", "check"],
    "db backup": ["db", "backup", "{tmp}/backup.sqlite3"],
    "user export": ["user", "export", "Ada"],
    "user list": ["user", "list"],
    "user show": ["user", "show", "Ada"],
    "audit": ["audit"],
    "ban list": ["ban", "list"],
    "replay": ["replay", "1"],
}


def run(args: list[str], board: Path, *extra: str) -> int:
    tmp = board.parent.parent
    return main([part.format(tmp=tmp) for part in args] + list(extra))


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_ctrl_c_is_130_and_the_same_one_line_for_every_command(
    name: str, board: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> NoReturn:
        for argument in args:  # the coroutine the command would have run
            if asyncio.iscoroutine(argument):
                argument.close()
        raise KeyboardInterrupt

    monkeypatch.setattr(asyncio, "run", interrupted)
    assert run(COMMANDS[name], board, "--config", str(board)) == 130
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"cribbage-door {name}: interrupted before it finished\n"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_bad_configuration_is_2_and_one_line_naming_the_file(
    name: str, board: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = board.parent / "missing.toml"
    assert run(COMMANDS[name], board, "--config", str(missing)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"cribbage-door {name}: {missing}: no such config file")
    assert captured.err.count("\n") == 1, captured.err


@pytest.mark.parametrize("name", ["db check", "user list", "audit", "ban list"])
def test_no_database_is_1_and_one_line(
    name: str, board: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = board.parent.parent / "empty"
    empty.mkdir()
    assert run(COMMANDS[name], board, "--config", str(board), "--data-dir", str(empty)) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"cribbage-door {name}: there is no database at {empty / 'cribbage.sqlite3'} "
        "(wrong --data-dir or --config?)\n"
    )


@pytest.mark.parametrize("name", ["db check", "user list", "audit", "ban list"])
def test_done_is_0(name: str, board: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(COMMANDS[name], board, "--config", str(board)) == 0
    assert capsys.readouterr().err == ""
