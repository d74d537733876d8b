"""A rated game the computer finished in a dropped caller's seat (door/table/forfeits.py):
Bob's line drops, the computer plays his seat to the end, and he has not called back.
His side's win is no win of his: his forfeit once the reconnect wait is over, counted for
neither before; Ada's win stands as played, and so does a game Bob came back to. Against
a real store (SQLite, and PostgreSQL when CRIBBAGE_TEST_POSTGRES_URL names a server)."""

from __future__ import annotations

import random

import pytest

from door.app.presence import Presence
from door.app.records import Records
from door.app.table_service import TableService
from door.config import config_from_mapping
from door.storage.ratings import RatingStore
from door.storage.store import Store
from door.table.flow import Table
from door.table.options import GameOptions
from door.ui.session import Session
from engine.computer.selfplay import RandomPlayer, next_action
from tests.door.caller import run_async
from tests.door.fake_terminal import FakeTerminal
from tests.door.storage.conftest import Database
from tests.door.waiting import until

ADA, BOB = 0, 1


def play_to_the_last_action(table: Table, winner: int) -> None:
    """Plays ``table``'s game (random moves) up to the action that ends it with ``winner``
    (that side) winning: the moves are tried on a copy first, chosen by their seeds."""
    for seed in range(0, 100, 2):
        trial = table.game.snapshot()
        randoms = [RandomPlayer(random.Random(seed + seat)) for seat in range(2)]
        steps = 0
        while trial.outcome() is None:
            next_action(trial, randoms)
            steps += 1
        outcome = trial.outcome()
        if outcome is not None and outcome.winner_side == winner:
            break
    else:
        raise AssertionError(f"no random game won by side {winner}")
    randoms = [RandomPlayer(random.Random(seed + seat)) for seat in range(2)]
    for _ in range(steps - 1):
        next_action(table.game, randoms)
    assert table.game.outcome() is None
    table.last_randoms = randoms  # type: ignore[attr-defined]


def take_the_last_action(table: Table) -> None:
    """The action that ends the game, told at the table as the host tells every one."""
    table.log(next_action(table.game, table.last_randoms))  # type: ignore[attr-defined]


async def rated_table(store: Store, *, wait_over: bool) -> tuple[TableService, Table, Presence]:
    """Ada at a rated game with Bob, whose line has dropped (the computer plays him): for
    longer than the reconnect wait of 1 second (``wait_over``), or just now."""
    ada = await store.create_account("Ada", "correct horse")
    bob = await store.create_account("Bob", "battery staple")
    presence = Presence("Sysop", random.Random(1))
    await presence.enter("Ada", Session(FakeTerminal()), account=ada)
    await presence.enter("Bob", Session(FakeTerminal()), account=bob)
    config = config_from_mapping(
        {"game": {"computer_pause_seconds": 0, "reconnect_wait_seconds": 1}}
    )
    service = TableService(config, presence, Records(store))
    options = GameOptions(rated=True)
    table = service.between_callers(options, ["Ada", "Bob"], rng=random.Random(5))
    table.sit(0, Session(FakeTerminal()))
    table.sit(1, Session(FakeTerminal()))
    bob_seat = table.seats[1]
    table.person_dropped(bob_seat.person)  # type: ignore[arg-type]
    bob_seat.computer_plays = True  # Ada pressed p
    if wait_over:
        bob_seat.away_since -= 2
    return service, table, presence


def told_ada(presence: Presence) -> list[str]:
    ada = presence.find("Ada")
    assert ada is not None
    return ada.notes


async def ratings(store: Store) -> tuple[int, int]:
    rating_store = RatingStore(store)
    found = []
    for name in ("Ada", "Bob"):
        account = await store.account(name)
        assert account is not None
        found.append((await rating_store.rating(account.id)).rating)
    return found[0], found[1]


async def wins_and_losses(store: Store, name: str) -> tuple[int, int]:
    stats = await store.stats_for(name)
    assert stats is not None
    return stats.total.wins, stats.total.losses


@run_async
async def test_the_computers_win_for_bob_after_the_wait_is_bobs_forfeit(
    database: Database,
) -> None:
    # Before: rated and recorded as Bob's win, 121 to whatever, played by the computer.
    async with database.store() as store:
        service, table, presence = await rated_table(store, wait_over=True)
        play_to_the_last_action(table, BOB)
        take_the_last_action(table)
        assert table.over and not table.abandoned
        outcome = table.outcome()
        assert outcome is not None and (outcome.winner_side, outcome.forfeited_by) == (0, 1)
        assert table.game.outcome() is not None and table.game.outcome().winner_side == 1
        told = "The computer won for Bob, who did not call back within 1 second: "
        assert table.forfeit_text == f"{told}Bob forfeits the game to Ada."
        ended = f"Ada won by forfeit at {table.game.scores[ADA]} to 121 (Bob left)."
        assert presence.chat[-1].text == f"Ada vs Bob: {ended}"
        await until(lambda: any("Rating" in line for line in told_ada(presence)))
        await table.until_saved()
        await service.records.close()
        ada_rating, bob_rating = await ratings(store)
        assert ada_rating > 1500 > bob_rating
        assert await wins_and_losses(store, "Ada") == (1, 0)
        assert await wins_and_losses(store, "Bob") == (0, 1)


@run_async
async def test_the_computers_win_for_bob_within_the_wait_counts_for_neither(
    database: Database,
) -> None:
    async with database.store() as store:
        service, table, presence = await rated_table(store, wait_over=False)
        play_to_the_last_action(table, BOB)
        take_the_last_action(table)
        assert table.over and table.abandoned
        said = "The computer won for Bob, whose line was down: the game ends, counted for neither."
        assert table.forfeit_text == said
        notice = "Ada vs Bob: the game ends, counted for neither (Bob's line was down)."
        assert presence.chat[-1].text == notice
        assert table.end_text() == "The game is over."
        await table.until_saved()
        await service.records.close()
        assert await ratings(store) == (1500, 1500)
        assert await wins_and_losses(store, "Ada") == (0, 0)
        assert await wins_and_losses(store, "Bob") == (0, 0)


@pytest.mark.parametrize(
    ("bob_back", "winner"),
    [(False, ADA), (True, BOB)],
    ids=["Ada won while Bob was away", "Bob came back before the end"],
)
@run_async
async def test_a_win_of_the_other_side_or_after_bob_came_back_stands_as_played(
    database: Database, bob_back: bool, winner: int
) -> None:
    async with database.store() as store:
        service, table, presence = await rated_table(store, wait_over=True)
        play_to_the_last_action(table, winner)
        if bob_back:
            table.sit(1, Session(FakeTerminal()))
        take_the_last_action(table)
        table.start()  # the host finds the game over, and ends it as played
        await until(lambda: table.over)
        outcome = table.game.outcome()
        assert outcome is not None and outcome.winner_side == winner and not outcome.forfeit
        assert table.forfeit_text == ""
        await until(lambda: any("Rating" in line for line in told_ada(presence)))
        await table.until_saved()
        await service.records.close()
        ada_rating, bob_rating = await ratings(store)
        assert (ada_rating > bob_rating) == (winner == 0)
        assert await wins_and_losses(store, ("Ada", "Bob")[winner]) == (1, 0)
