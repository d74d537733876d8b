"""A game everyone left stays left (issue #43, item 4): it is closed in the store in its
turn after the saves before it, so a first save still on its way when the last caller
left, or a store that refused writes for a while, never leaves an open game that a later
call resumes ("The door stopped during this game: it goes on where it was saved").
Fake terminals against a real store (SQLite, and PostgreSQL when
CRIBBAGE_TEST_POSTGRES_URL names a server)."""

from __future__ import annotations

import asyncio
import random

from door.storage.saver import CLOSED_ELSEWHERE, GameSaver
from door.storage.store import Seat
from door.term.keys import Key
from engine.computer.selfplay import RandomPlayer, next_action
from engine.rules.record import RecordedGame
from tests.door.app.test_lobby import challenge, in_lobby, screen
from tests.door.app.test_saved_games import account_door
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.storage.conftest import Database
from tests.door.storage.test_saver import FlakyStore
from tests.door.waiting import until


async def quit_table(terminal: KeyboardTerminal) -> None:
    terminal.press(Key.CTRL_C)
    await until(lambda: "Quit this game?" in screen(terminal))
    terminal.press("y")
    await in_lobby(terminal)


@run_async
async def test_a_game_left_before_its_first_save_landed_is_not_resumed(
    database: Database,
) -> None:
    async with account_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "battery staple")
        # The store is slow to take the game's first save (a busy disk, a far database).
        gate = asyncio.Event()
        start_game = door.store.start_game

        async def slow_start_game(*args: object, **kwargs: object) -> int:
            await gate.wait()
            return await start_game(*args, **kwargs)  # type: ignore[arg-type]

        door.store.start_game = slow_start_game  # type: ignore[method-assign]
        ada_terminal, _ = door.call(ada)
        bob_terminal, _ = door.call(bob)
        await in_lobby(ada_terminal, bob_terminal)
        await challenge(ada_terminal, bob_terminal)
        await until(lambda: bool(door.presence.tables))
        table = door.presence.tables[0]
        await until(lambda: "Esc table keys" in ada_terminal.status)
        assert table.saved_as() is None  # the first save is on its way
        # Both leave: nobody is left to play it.
        await quit_table(bob_terminal)
        await quit_table(ada_terminal)
        assert table.over and table.abandoned
        gate.set()  # the first save lands after all
        await until(lambda: not door.records._writes)  # noqa: SLF001 (the savers' writers)
        assert await door.records.game_between_callers_to_resume(ada) is None
        assert await door.records.game_between_callers_to_resume(bob) is None


@run_async
async def test_a_game_set_aside_while_the_store_refuses_writes_is_closed_once_it_is_back(
    database: Database,
) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", "correct horse")
        bob = await store.create_account("Bob", "battery staple")
        flaky = FlakyStore(store)
        flaky.broken = False
        saver = GameSaver(flaky, [Seat("Ada", ada.id), Seat("Bob", bob.id)], "people")  # type: ignore[arg-type]
        saver.retry_seconds = 0.01
        game = RecordedGame(seed=3, on_action=saver.action_taken)
        seats = [RandomPlayer(random.Random(3 + seat)) for seat in range(2)]
        for _ in range(20):
            next_action(game, seats)
        await saver.flush()
        assert await store.load_unfinished_game(ada.id) is not None
        flaky.broken = True  # a full disk, say, as everyone leaves
        saver.set_aside()
        await until(lambda: flaky.failed_writes > 0, what="a write to the broken store")
        flaky.broken = False
        await until(lambda: saver.failure is None)  # the retry went through
        await saver.flush()
        assert await store.load_unfinished_game(ada.id) is None
        assert await store.load_unfinished_game(bob.id) is None
        next_action(game, seats)  # nothing more is written for it
        await saver.flush()
        assert await store.load_unfinished_game(ada.id) is None


@run_async
async def test_a_game_set_aside_by_another_door_stays_closed_and_this_one_stops_saving_it(
    database: Database,
) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", "correct horse")
        bob = await store.create_account("Bob", "battery staple")
        seats = [Seat("Ada", ada.id), Seat("Bob", bob.id)]
        here = GameSaver(store, seats, "people")
        game = RecordedGame(seed=4, on_action=here.action_taken)
        players = [RandomPlayer(random.Random(4 + seat)) for seat in range(2)]
        for _ in range(20):
            next_action(game, players)
        await here.flush()
        # A second door process on the same store sets the game again from its row, and
        # everyone leaves it there.
        saved = await store.load_unfinished_game(ada.id)
        assert saved is not None
        there_game = saved.resume()
        there = GameSaver(
            store, saved.seats, saved.opponent, game=there_game, game_id=saved.game_id
        )
        there_game.on_action = there.action_taken
        there.set_aside()
        await there.flush()
        # This door's copy goes on: its saves are refused, and it stops trying, once told.
        told: list[str] = []
        here.on_trouble = told.append
        for _ in range(5):
            next_action(game, players)
        await here.flush()
        assert told == [CLOSED_ELSEWHERE]
        assert here._writer is not None and here._writer.done()  # noqa: SLF001 (no retry loop)
        assert await store.load_unfinished_game(ada.id) is None
