"""The saver keeps a game saved after every action and settles it when it ends."""

from __future__ import annotations

import random

from door.storage.errors import StorageUnavailableError
from door.storage.saver import CANNOT_SAVE, SAVING_AGAIN, GameSaver, opponent_kind
from door.storage.store import Seat
from engine.computer.selfplay import RandomPlayer, next_action
from engine.rules.game import Phase
from engine.rules.record import RecordedGame
from tests.door.caller import run_async
from tests.door.storage.conftest import Database
from tests.door.waiting import until
from tests.engine.rules.test_record import snapshot

PASSWORD = "correct horse"


def players(seed: int) -> list[RandomPlayer]:
    return [RandomPlayer(random.Random(seed + seat)) for seat in range(2)]


@run_async
async def test_a_game_is_saved_as_it_goes_and_settled_when_it_ends(database: Database) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        saver = GameSaver(store, [Seat("Ada", ada.id), Seat("Computer")], "computer-easy")
        game = RecordedGame(seed=5, on_action=saver.action_taken)
        seats = players(5)
        for _ in range(40):  # no waiting for the writer between actions
            next_action(game, seats)
        await saver.flush()
        saved = await store.load_unfinished_game(ada.id)
        assert saved is not None and saved.game_id == saver.game_id
        assert snapshot(saved.resume()) == snapshot(game)

        while game.phase is not Phase.OVER:
            next_action(game, seats)
        await saver.flush()
        assert await store.load_unfinished_game(ada.id) is None
        stats = await store.stats_for("Ada")
        assert stats is not None and stats.total.games == 1
        assert stats.total.wins == int(game.winner_side == 0)
        assert saver.game_id is not None
        assert "won the game" in " ".join(await store.game_log(saver.game_id))


@run_async
async def test_each_game_of_a_play_again_run_gets_its_own_row(database: Database) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        saver = GameSaver(store, [Seat("Ada", ada.id), Seat("Computer")], "computer-easy")
        first = RecordedGame(seed=6, on_action=saver.action_taken)
        seats = players(6)
        while first.phase is not Phase.OVER:
            next_action(first, seats)
        second = first.next_game()
        for _ in range(10):  # straight on: the first game's last save is still queued
            next_action(second, seats)
        await saver.flush()
        first_id_log = await store.stats_for("Ada")
        saved = await store.load_unfinished_game(ada.id)
    assert first_id_log is not None and first_id_log.total.games == 1
    assert saved is not None and saved.game_id == saver.game_id
    assert snapshot(saved.resume()) == snapshot(second)


@run_async
async def test_a_caller_who_quits_forfeits_and_a_dropped_line_does_not(
    database: Database,
) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        saver = GameSaver(store, [Seat("Ada", ada.id), Seat("Computer")], "computer-easy")
        game = RecordedGame(seed=7, on_action=saver.action_taken)
        seats = players(7)
        for _ in range(30):
            next_action(game, seats)
        await saver.flush()
        assert await store.load_unfinished_game(ada.id) is not None  # dropped: kept open
        await saver.forfeit(0)
        assert await store.load_unfinished_game(ada.id) is None
        stats = await store.stats_for("Ada")
    assert stats is not None
    assert (stats.total.games, stats.total.losses) == (1, 1)


@run_async
async def test_a_resumed_game_goes_on_in_its_own_row(database: Database) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        seat_list = [Seat("Ada", ada.id), Seat("Computer")]
        saver = GameSaver(store, seat_list, "computer-easy")
        game = RecordedGame(seed=8, on_action=saver.action_taken)
        seats = players(8)
        for _ in range(20):
            next_action(game, seats)
        await saver.flush()

        saved = await store.load_unfinished_game(ada.id)
        assert saved is not None
        resumed = saved.resume()
        again = GameSaver(store, saved.seats, saved.opponent, game=resumed, game_id=saved.game_id)
        resumed.on_action = again.action_taken
        game.on_action = None  # the original plays on unsaved, in step with the resumed one
        resumed_seats, original_seats = players(80), players(80)
        for _ in range(20):
            next_action(resumed, resumed_seats)
            next_action(game, original_seats)
        await again.flush()
        latest = await store.load_unfinished_game(ada.id)
    assert latest is not None and latest.game_id == saved.game_id
    assert snapshot(latest.resume()) == snapshot(game)


@run_async
async def test_a_ruined_database_never_stops_the_game(
    sqlite_database: Database,
) -> None:
    async with sqlite_database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        saver = GameSaver(store, [Seat("Ada", ada.id), Seat("Computer")], "computer-easy")
        game = RecordedGame(seed=9, on_action=saver.action_taken)
        seats = players(9)
        next_action(game, seats)
        await saver.flush()
        await store.close()
        assert sqlite_database.path is not None
        sqlite_database.path.write_bytes(b"ruined" * 1000)
        while game.phase is not Phase.OVER:
            next_action(game, seats)
            await saver.flush()
        await saver.forfeit(0)
    assert saver.failure is not None
    assert "not available right now" in str(saver.failure)


def test_statistics_are_kept_by_the_kind_of_opponent() -> None:
    assert opponent_kind(2, 1, "expert") == "computer-expert"
    assert opponent_kind(2, 2, "expert") == "people"
    assert opponent_kind(4, 2, "easy") == "people-4p"
    assert opponent_kind(3, 1, "normal") == "computer-normal-3p"


class FlakyStore:
    """The real store, but every write fails while ``broken`` (a full disk, say)."""

    def __init__(self, store: object) -> None:
        self.store = store
        self.broken = True
        self.failed_writes = 0

    def __getattr__(self, name: str) -> object:
        method = getattr(self.store, name)

        async def call(*args: object, **kwargs: object) -> object:
            if self.broken:
                self.failed_writes += 1
                raise StorageUnavailableError("No space left on device")
            return await method(*args, **kwargs)

        return call


@run_async
async def test_a_store_that_fails_is_told_once_retried_and_catches_up(database: Database) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        flaky = FlakyStore(store)
        saver = GameSaver(flaky, [Seat("Ada", ada.id), Seat("Computer")], "computer-easy")  # type: ignore[arg-type]
        told: list[str] = []
        saver.on_trouble = told.append
        saver.retry_seconds = 0.01
        game = RecordedGame(seed=21, on_action=saver.action_taken)
        seats = players(21)
        for _ in range(30):
            next_action(game, seats)
            await saver.flush()  # returns at once while writes fail: the game never waits
        await until(lambda: flaky.failed_writes > 3, what="the saver trying again")
        assert told == [CANNOT_SAVE]  # told once, however many writes failed
        assert await store.load_unfinished_game(ada.id) is None  # nothing written yet
        flaky.broken = False
        await until(lambda: told[-1] == SAVING_AGAIN, what=lambda: f"saving again: {told}")
        assert told == [CANNOT_SAVE, SAVING_AGAIN]
        await saver.flush()
        latest = await store.load_unfinished_game(ada.id)
    assert latest is not None
    assert snapshot(latest.resume()) == snapshot(game)  # the newest position, not a stale one
