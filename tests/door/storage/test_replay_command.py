"""``cribbage-door replay GAME_ID`` prints a stored game as text."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import pytest

from door.replay import add_replay_arguments, replay_command
from door.storage.store import Seat, Store
from engine.rules.events import CardPlayed, ShowScored
from tests.door.storage.conftest import FAST_HASHER
from tests.door.storage.games import PlayedGame, played_game
from tests.engine.rules.test_gamelog import every_play_is_followed_by_chances


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cribbage-door replay")
    add_replay_arguments(parser)
    return parser.parse_args(list(argv))


async def store_game(data_dir: Path, game: PlayedGame) -> int:
    store = await Store.open(f"sqlite+aiosqlite:///{data_dir}/cribbage.sqlite3", hasher=FAST_HASHER)
    try:
        ada = await store.create_account("Ada", "correct horse")
        seats = [Seat("Ada", ada.id), Seat("Computer")]
        return await store.record_game_result(game.recording, seats, "computer-normal")
    finally:
        await store.close()


def test_replay_prints_the_deal_every_play_the_show_and_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = played_game(101)
    game_id = asyncio.run(store_game(tmp_path, game))
    assert replay_command(parse(str(game_id), "--data-dir", str(tmp_path))) == 0
    out = capsys.readouterr().out
    names = ("Ada", "Computer")
    assert "Hand 1:" in out and "Ada is dealt " in out and "the starter is" in out
    position = 0
    for event in game.events:
        if isinstance(event, CardPlayed):
            line = f"{names[event.seat]} plays {event.card}, count {event.count}."
            position = out.find(line, position)
            assert position >= 0, line
    shows = [event for event in game.events if isinstance(event, ShowScored)]
    for show in shows[:3]:
        assert show.score.announcement in out
    winner = names[game.game.winner_side]  # type: ignore[index]
    assert f"{winner} won the game" in out


def test_replay_of_a_game_that_is_not_there_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(store_game(tmp_path, played_game(102)))
    assert replay_command(parse("999", "--data-dir", str(tmp_path))) == 1
    assert "There is no game 999." in capsys.readouterr().err


def test_replay_from_a_damaged_database_says_which_file_and_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "cribbage.sqlite3").write_bytes(b"not sqlite" * 100)
    assert replay_command(parse("1", "--data-dir", str(tmp_path))) == 1
    assert "cribbage.sqlite3: the database file is damaged" in caplog.text


def test_cribbage_door_replay_is_a_command_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from door.cli import main

    game_id = asyncio.run(store_game(tmp_path, played_game(103)))
    assert main(["replay", str(game_id), "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Game {game_id}, started ") and "won the game" in out


def test_replay_with_chances_shows_the_win_bar_after_each_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = asyncio.run(store_game(tmp_path, played_game(103)))
    assert replay_command(parse(str(game_id), "--data-dir", str(tmp_path), "--chances")) == 0
    lines = capsys.readouterr().out.splitlines()
    assert every_play_is_followed_by_chances(lines)
    told = [line for line in lines if line.endswith("%]")]
    assert all("[Ada " in line and ", Computer " in line for line in told)
