"""A game's number where callers and the sysop can read it: the member's record lists
their latest games with their numbers, and ``cribbage-door replay`` with no number lists
the door's latest games, so ``replay N`` needs no guessing."""

from __future__ import annotations

import argparse
import asyncio
import re
from pathlib import Path

import pytest

from door.app.accounts import show_stats
from door.replay import add_replay_arguments, replay_command
from door.storage.store import Seat, Store
from tests.door.app.test_lobby import challenge, in_lobby
from tests.door.app.test_saved_games import account_door
from tests.door.caller import play_together, run_async
from tests.door.storage.conftest import FAST_HASHER, Database
from tests.door.storage.games import played_game
from tests.door.storage.test_account_screens import Screen
from tests.door.waiting import until


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cribbage-door replay")
    add_replay_arguments(parser)
    return parser.parse_args(list(argv))


async def three_games(store: Store) -> tuple[int, int, list[int]]:
    """Ada's two games against the computer and one between Bob and a guest."""
    ada = await store.create_account("Ada", "correct horse")
    bob = await store.create_account("Bob", "correct horse")
    numbers = []
    for seed, seats in (
        (201, [Seat("Ada", ada.id), Seat("Computer")]),
        (202, [Seat("Bob", bob.id), Seat("Gus")]),
        (203, [Seat("Computer"), Seat("Ada", ada.id)]),
    ):
        game = played_game(seed)
        numbers.append(await store.record_game_result(game.recording, seats, "people"))
    return ada.id, bob.id, numbers


@run_async
async def test_the_latest_games_of_a_member_newest_first(sqlite_database: Database) -> None:
    async with sqlite_database.store() as store:
        ada, _bob, numbers = await three_games(store)
        games = await store.recent_games(account_id=ada)
        assert [game.game_id for game in games] == [numbers[2], numbers[0]]
        assert games[0].seats == (Seat("Computer"), Seat("Ada", ada))
        assert all(game.finished and game.result is not None for game in games)
        everyone = await store.recent_games(limit=2)
        assert [game.game_id for game in everyone] == [numbers[2], numbers[1]]


@run_async
async def test_the_record_lists_games_with_their_numbers_and_cards_as_games_show_them(
    sqlite_database: Database,
) -> None:
    async with sqlite_database.store() as store:
        ada, _bob, numbers = await three_games(store)
        caller = Screen(show_stats, store, "Ada")
        await caller.type()
        text = caller.text
        for number in (numbers[0], numbers[2]):
            assert re.search(rf"#{number} .*(won|lost), \d+ to \d+", text), text
        assert f"#{numbers[1]} " not in text  # Bob's game
        best = next(line for line in text.splitlines() if "Best hand:" in line)
        assert re.search(r"(10|[2-9AJQK])[♠♥♦♣] ", best), best
        assert not re.search(r"\b(10|[2-9AJQKT])[SHDC]\b", best), best


def test_replay_with_no_number_lists_the_latest_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def store_them() -> list[int]:
        url = f"sqlite+aiosqlite:///{tmp_path}/cribbage.sqlite3"
        store = await Store.open(url, hasher=FAST_HASHER)
        try:
            return (await three_games(store))[2]
        finally:
            await store.close()

    numbers = asyncio.run(store_them())
    assert replay_command(parse("--data-dir", str(tmp_path))) == 0
    out = capsys.readouterr().out
    listed = [int(n) for n in re.findall(r"^#(\d+) ", out, re.MULTILINE)]
    assert listed == sorted(numbers, reverse=True)
    assert "Bob vs Gus" in out and "replay N" in out
    assert replay_command(parse("--data-dir", str(tmp_path), "--last", "1")) == 0
    assert re.findall(r"^#(\d+) ", capsys.readouterr().out, re.MULTILINE) == [str(numbers[2])]


@run_async
async def test_game_over_shows_the_number_the_record_lists(sqlite_database: Database) -> None:
    async with account_door(sqlite_database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "battery staple")
        ada_terminal, _ = door.call(ada)
        bob_terminal, _ = door.call(bob)
        await in_lobby(ada_terminal, bob_terminal)
        await challenge(ada_terminal, bob_terminal)
        await until(lambda: bool(door.presence.tables))
        table = door.presence.tables[0]
        await play_together([ada_terminal, bob_terminal], stop=lambda: table.over)
        number = table.saved_as()
        assert number is not None
        for terminal in (ada_terminal, bob_terminal):
            await until(lambda t=terminal: "Game over" in "\n".join(t.display))  # type: ignore[misc]
            assert f" Game {number} " in "\n".join(terminal.display)
        await door.records.close()
        listed = await door.store.recent_games(account_id=ada.id)
        assert [game.game_id for game in listed] == [number]


@run_async
async def test_a_members_game_against_the_computer_shows_its_number_at_the_end(
    sqlite_database: Database,
) -> None:
    async with account_door(sqlite_database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        terminal, _ = door.call(ada)
        await in_lobby(terminal)
        terminal.press("p")
        await until(lambda: bool(door.presence.tables))
        table = door.presence.tables[0]
        await play_together([terminal], stop=lambda: table.over)
        await until(lambda: "Game over" in "\n".join(terminal.display))
        number = table.saved_as()
        assert number is not None
        assert f" Game {number} " in "\n".join(terminal.display)
