"""The door's table service (door/app/table_service.py): it makes the tables and keeps
their games through each table's listener. Against a real store (SQLite, and PostgreSQL
when CRIBBAGE_TEST_POSTGRES_URL names a server)."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from door.app.door import Door
from door.app.presence import Presence
from door.app.records import Records
from door.app.table_service import RESUMED_TEXT, CallersGame, TableService
from door.config import config_from_mapping
from door.table.options import GameOptions
from door.ui.session import Session
from engine.computer.selfplay import RandomPlayer, next_action
from engine.rules.record import RecordedGame
from tests.door.caller import run_async
from tests.door.fake_terminal import FakeTerminal
from tests.door.storage.conftest import Database
from tests.door.waiting import until

CONFIG = config_from_mapping({"game": {"computer_pause_seconds": 0, "level": "easy"}})


@run_async
async def test_a_members_table_is_saved_as_it_goes_set_again_and_set_aside(
    database: Database,
) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", "correct horse")
        bob = await store.create_account("Bob", "battery staple")
        records = Records(store)
        presence = Presence("Sysop", random.Random(1))
        await presence.enter("Ada", Session(FakeTerminal()), account=ada)
        await presence.enter("Bob", Session(FakeTerminal()), account=bob)
        service = TableService(CONFIG, presence, records)

        table = service.between_callers(GameOptions(), ["Ada", "Bob"], rng=random.Random(5))
        assert isinstance(table.listener, CallersGame)
        assert [seat.account_id for seat in table.seats] == [ada.id, bob.id]
        assert isinstance(table.game, RecordedGame)
        players = [RandomPlayer(random.Random(seat)) for seat in range(2)]
        for _ in range(12):
            next_action(table.game, players)
        await table.until_saved()
        number = table.saved_as()
        assert number is not None  # the table answers for its keeper

        saved = await records.game_between_callers_to_resume(bob)
        assert saved is not None and saved.game_id == number
        again = service.resumed(saved, rng=random.Random(6))
        assert again.saved_as() == number  # saving on in the same row
        assert again.game.recording.actions == table.game.recording.actions
        assert again.back_text == RESUMED_TEXT
        assert all(seat.sat_down for seat in again.seats)  # each waits for its caller

        table.close()
        said = len(presence.chat)
        again.abandoned = True  # everyone left it: its keeper sets the game aside
        again.close()
        await records.close()
        assert await records.game_between_callers_to_resume(ada) is None
        # The lobby never read that the resumed game began: one a table each restart.
        assert len(presence.chat) == said, presence.chat[-1]


def test_the_door_owns_one_table_service_its_sessions_share() -> None:
    door = Door(CONFIG)
    assert door.tables.presence is door.presence
    assert door.tables.records is door.records


@run_async
async def test_a_tournament_game_resumed_after_its_match_was_settled_no_longer_counts(
    database: Database,
) -> None:
    # By hand (callers): a tournament game saved at a door stop came back a tournament
    # game though the sysop had settled its match meanwhile; quitting it named the match.
    async with database.store() as store:
        ada = await store.create_account("Ada", "correct horse")
        bob = await store.create_account("Bob", "battery staple")
        records = Records(store)
        tournaments = records.tournaments
        assert tournaments is not None
        start = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
        number = await tournaments.create("Friday Cup", "round robin", 1, start, 1)
        for account in (ada, bob):
            await tournaments.toggle_entry(number, account.id)
        await tournaments.start_now(number)
        presence = Presence("Sysop", random.Random(1))
        await presence.enter("Ada", Session(FakeTerminal()), account=ada)
        await presence.enter("Bob", Session(FakeTerminal()), account=bob)
        service = TableService(CONFIG, presence, records)
        options = GameOptions(tournament=number)
        table = service.between_callers(options, ["Ada", "Bob"], rng=random.Random(5))
        players = [RandomPlayer(random.Random(seat)) for seat in range(2)]
        for _ in range(12):
            next_action(table.game, players)
        await table.until_saved()
        saved = await records.game_between_callers_to_resume(ada)
        assert saved is not None
        # Its match still open, it comes back a tournament game, nothing said.
        again = service.resumed(saved, rng=random.Random(6))
        await service.count_only_if_match_open(again)
        assert again.options.tournament == number and again.back_text == RESUMED_TEXT
        again.close()
        await tournaments.forfeit(number, ada.id)  # the sysop settles it, the door stopped
        settled = service.resumed(saved, rng=random.Random(6))
        await service.count_only_if_match_open(settled)
        assert settled.options.tournament == 0
        told = "The sysop settled this match; this game no longer counts."
        assert settled.back_text == f"{RESUMED_TEXT} {told}"
        table.close()
        settled.abandoned = True
        settled.close()
        await records.close()


@pytest.mark.parametrize("players", [2, 3, 4])
@run_async
async def test_the_lobby_reads_who_won_when_a_table_of_callers_ends_its_game(
    players: int,
) -> None:
    # The lobby's chat said "Ada vs Bob: a game begins." and nothing at its end.
    presence = Presence("Sysop", random.Random(1))
    await presence.enter("Ada", Session(FakeTerminal()))
    await presence.enter("Bob", Session(FakeTerminal()))
    service = TableService(CONFIG, presence, Records())
    names: list[str | None] = ["Ada", "Bob", None, None][:players]
    table = service.between_callers(GameOptions(players=players), names, rng=random.Random(5))
    game = table.game
    randoms = [RandomPlayer(random.Random(seat)) for seat in range(players)]
    while game.winner_side is None:
        next_action(game, randoms)
    table.start()  # the table finds the game played out, and ends it
    await until(lambda: table.over)

    # Each side named as the table's title names it: partners together, at four.
    sides = [" & ".join(table.names[seat :: game.sides]) for seat in range(game.sides)]
    winner = game.winner_side
    loser = max((score, side) for side, score in enumerate(game.scores) if side != winner)[1]
    said = presence.chat[-1]
    assert said.speaker == ""  # a notice, as the line of its beginning
    assert said.text.startswith(
        f"{table.title}: {sides[winner]} won 121 to {game.scores[loser]}"
    ), said.text
    assert table.title == " vs ".join(sides)


@pytest.mark.parametrize(
    ("claimed_by", "how"),
    [(0, "a claim at {} ({} kept it waiting)"), (None, "forfeit at {} ({} left)")],
)
@pytest.mark.parametrize(
    "names", [("Ada", "Bob"), ("Bartholomew Smithers", "Maximiliana Feathers")]
)
@run_async
async def test_the_lobby_reads_a_claim_and_a_forfeit_as_such(
    claimed_by: int | None, how: str, names: tuple[str, str]
) -> None:
    # Between two 20-letter names the claim's line was cut at 120 letters, mid-word.
    presence = Presence("Sysop", random.Random(1))
    for name in names:
        await presence.enter(name, Session(FakeTerminal()))
    service = TableService(CONFIG, presence, Records())
    table = service.between_callers(GameOptions(rated=True), list(names), rng=random.Random(5))
    randoms = [RandomPlayer(random.Random(seat)) for seat in range(2)]
    while min(table.game.scores) == 0 or len(set(table.game.scores)) == 1:
        next_action(table.game, randoms)  # a score for each, not the same
    first, second = table.game.scores
    told = f"{names[0]} claimed the game." if claimed_by is not None else ""
    table.forfeited_by(table.seats[1], told, by=claimed_by)  # as stalls.py and forfeits.py do
    # The winner's score first, as in "Ada won 121 to 98", though it may be the lower.
    said = how.format(f"{first} to {second}", names[1])
    assert presence.chat[-1].text == f"{names[0]} vs {names[1]}: {names[0]} won by {said}."


@pytest.mark.parametrize(
    ("claimed", "how"),
    [
        (True, "a claim at {} in games ({} kept it waiting)"),
        (False, "forfeit at {} in games ({} left)"),
    ],
)
@pytest.mark.parametrize("leaver_won_the_first", [False, True])
@run_async
async def test_the_lobby_reads_a_match_forfeited_between_two_of_its_games(
    claimed: bool, how: str, leaver_won_the_first: bool
) -> None:
    # Between games no game is in play to end: the lobby read the first game's end and
    # then nothing, though the match was over.
    presence = Presence("Sysop", random.Random(1))
    for name in ("Ada", "Bob"):
        await presence.enter(name, Session(FakeTerminal()))
    service = TableService(CONFIG, presence, Records())
    options = GameOptions(rated=True, best_of=3)
    table = service.between_callers(options, ["Ada", "Bob"], rng=random.Random(5))
    randoms = [RandomPlayer(random.Random(seat)) for seat in range(2)]
    while table.game.winner_side is None:
        next_action(table.game, randoms)
    first_winner = table.game.winner_side
    outcome = table.game.outcome()
    assert table.match is not None and outcome is not None
    table.match = table.match.add(outcome)  # as the table counts a game of its match
    leaver = first_winner if leaver_won_the_first else 1 - first_winner
    stays = 1 - leaver
    names = table.names
    told = f"{names[stays]} claimed the match." if claimed else ""
    by = stays if claimed else None
    table.forfeited_by(table.seats[leaver], told, by=by)  # as stalls.py and forfeits.py do
    # The winner's games first, as in "Ada won 121 to 98", though they may be fewer.
    stood = "0 to 1" if leaver_won_the_first else "1 to 0"
    said = how.format(stood, names[leaver])
    assert presence.chat[-1].text == f"Ada vs Bob: {names[stays]} won the match by {said}."


@run_async
async def test_the_lobby_reads_a_game_everyone_left() -> None:
    presence = Presence("Sysop", random.Random(1))
    for name in ("Ada", "Bob"):
        await presence.enter(name, Session(FakeTerminal()))
    service = TableService(CONFIG, presence, Records())
    table = service.between_callers(GameOptions(), ["Ada", "Bob"], rng=random.Random(5))
    people = [table.sit(seat, Session(FakeTerminal())) for seat in range(2)]
    said = len(presence.chat)
    table.person_quit(people[0])  # a friendly game: the computer plays Ada's seat
    assert not table.over and len(presence.chat) == said
    table.person_quit(people[1])
    assert table.over and table.abandoned
    assert presence.chat[-1].text == "Ada vs Bob: the game was abandoned (everyone left)."
