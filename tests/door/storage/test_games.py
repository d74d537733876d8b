"""Saved games, finished games, statistics, the leaderboard and game logs in the store."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from door.storage.errors import GameNotFoundError
from door.storage.store import Seat, Store
from engine.rules.events import CardPlayed, GameOver, HandDealt, Pegged, ShowScored
from tests.door.caller import run_async
from tests.door.storage.conftest import Database
from tests.door.storage.games import PlayedGame, played_game
from tests.engine.rules.test_record import snapshot

PASSWORD = "correct horse"


@run_async
async def test_a_game_saved_after_every_action_resumes_where_it_stopped(
    database: Database,
) -> None:
    partial = played_game(seed=21, actions=60)
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        new = dataclasses.replace(partial.recording, actions=())
        game_id = await store.start_game(
            new, [Seat("Ada", ada.id), Seat("Computer")], "computer-normal"
        )
        # Save as a session would: the whole recording after each action.
        for count in range(1, len(partial.recording.actions) + 1):
            prefix = dataclasses.replace(
                partial.recording, actions=partial.recording.actions[:count]
            )
            await store.save_game(game_id, prefix)

    async with database.store() as store:  # a restart: a new connection, nothing cached
        saved = await store.load_unfinished_game(ada.id)
    assert saved is not None
    assert saved.game_id == game_id
    assert saved.recording == partial.recording
    assert saved.seats == (Seat("Ada", ada.id), Seat("Computer", None))
    assert saved.opponent == "computer-normal"
    assert snapshot(saved.resume()) == snapshot(partial.game)


@run_async
async def test_an_older_save_arriving_late_does_not_overwrite_a_newer(database: Database) -> None:
    game = played_game(seed=22, actions=30)
    older = dataclasses.replace(game.recording, actions=game.recording.actions[:10])
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        game_id = await store.start_game(older, [Seat("Ada", ada.id), Seat("Computer")], "human")
        await store.save_game(game_id, game.recording)
        await store.save_game(game_id, older)
        saved = await store.load_unfinished_game(ada.id)
        assert saved is not None and saved.recording == game.recording
        with pytest.raises(GameNotFoundError):
            await store.save_game(game_id + 100, older)


@run_async
async def test_a_finished_game_is_no_longer_offered_and_cannot_be_saved_or_finished_again(
    database: Database,
) -> None:
    whole = played_game(seed=23)
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        seats = [Seat("Ada", ada.id), Seat("Computer")]
        game_id = await store.start_game(whole.recording, seats, "computer-easy")
        result = await store.finish_game(game_id, whole.recording)
        assert result.winner_side == whole.game.winner_side
        assert await store.load_unfinished_game(ada.id) is None
        with pytest.raises(GameNotFoundError):
            await store.save_game(game_id, whole.recording)
        with pytest.raises(GameNotFoundError):
            await store.finish_game(game_id, whole.recording)
        stats = await store.stats_for("ada")
    assert stats is not None and stats.total.games == 1  # counted once


def expected_seat_totals(game: PlayedGame, seat: int) -> dict[str, int]:
    """What one seat did, counted straight from the events the game gave while it was
    played (not from a replay)."""
    points: Counter[str] = Counter()
    shows = [e for e in game.events if isinstance(e, ShowScored) and e.seat == seat]
    for event in game.events:
        if isinstance(event, Pegged) and event.seat == seat:
            kind = event.reason if event.reason in ("hand", "crib") else "pegging"
            points["muggins" if event.reason.startswith("muggins") else kind] += event.points
    over = next(e for e in game.events if isinstance(e, GameOver))
    won = over.winner_side == seat
    return {
        "games": 1,
        "wins": int(won),
        "losses": int(not won),
        "skunks_given": len(over.skunks) if won else 0,
        "skunks_taken": 0 if won else len(over.skunks),
        "pegging_points": points["pegging"],
        "hand_points": points["hand"],
        "crib_points": points["crib"],
        "muggins_taken": points["muggins"],
        "hands_dealt": sum(1 for e in game.events if isinstance(e, HandDealt)),
        "hands_shown": sum(1 for e in shows if not e.is_crib),
        "cribs_shown": sum(1 for e in shows if e.is_crib),
        "best_hand_score": max(e.score.total for e in shows if not e.is_crib),
    }


@run_async
async def test_statistics_after_games_match_what_the_games_reported(database: Database) -> None:
    games = [played_game(seed, counting="manual") for seed in (31, 32, 33)]
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        bob = await store.create_account("Bob", PASSWORD)
        for game in games:
            seats = [Seat("Ada", ada.id), Seat("Bob", bob.id)]
            await store.record_game_result(game.recording, seats, "human")
        ada_stats = await store.stats_for("Ada")
        bob_stats = await store.stats_for("BOB")
    assert ada_stats is not None and bob_stats is not None
    for seat, stats in ((0, ada_stats), (1, bob_stats)):
        assert len(stats.modes) == 1
        line = stats.modes[0]
        assert (line.runs, line.counting, line.opponent) == ("free", "manual", "human")
        expected = Counter[str]()
        for game in games:
            expected.update(expected_seat_totals(game, seat))
        expected["best_hand_score"] = max(
            expected_seat_totals(game, seat)["best_hand_score"] for game in games
        )
        for name, value in expected.items():
            assert getattr(line, name) == value, name
        # Every point a side scored is in exactly one of the columns.
        total_points = sum(game.game.scores[seat] for game in games)
        columns = line.pegging_points + line.hand_points + line.crib_points + line.muggins_taken
        assert columns == total_points
    # Muggins one player takes is muggins the other gave.
    assert ada_stats.modes[0].muggins_taken == bob_stats.modes[0].muggins_given
    assert ada_stats.modes[0].muggins_given == bob_stats.modes[0].muggins_taken
    assert ada_stats.modes[0].muggins_taken + ada_stats.modes[0].muggins_given > 0
    best = ada_stats.modes[0]
    assert best.best_hand_cards is not None and len(best.best_hand_cards.split()) == 5


@run_async
async def test_statistics_are_kept_per_mode_and_totalled(database: Database) -> None:
    free = played_game(41)
    exact = played_game(42, runs="exact")
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        seats = [Seat("Ada", ada.id), Seat("Computer")]
        await store.record_game_result(free.recording, seats, "computer-easy")
        await store.record_game_result(exact.recording, seats, "computer-easy")
        await store.record_game_result(free.recording, seats, "computer-expert")
        stats = await store.stats_for("Ada")
    assert stats is not None
    modes = {(line.runs, line.opponent): line.games for line in stats.modes}
    assert modes == {
        ("free", "computer-easy"): 1,
        ("exact", "computer-easy"): 1,
        ("free", "computer-expert"): 1,
    }
    assert stats.total.games == 3
    assert stats.total.wins == sum(line.wins for line in stats.modes)
    assert stats.total.best_hand_score == max(line.best_hand_score for line in stats.modes)


@run_async
async def test_a_forfeited_game_is_a_loss_for_the_seat_that_left(database: Database) -> None:
    partial = played_game(seed=51, actions=40)
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        game_id = await store.start_game(
            partial.recording, [Seat("Ada", ada.id), Seat("Computer")], "computer-normal"
        )
        result = await store.finish_game(game_id, partial.recording, forfeited_by=0)
        stats = await store.stats_for("Ada")
        log = await store.game_log(game_id)
    assert result.winner_side == 1 and result.forfeited_by == 0
    assert stats is not None
    assert (stats.total.games, stats.total.wins, stats.total.losses) == (1, 0, 1)
    assert stats.total.skunks_taken == 0
    # The log tells the end as it happened, once: no "not finished" beside "finished".
    assert "Ada left the game: Computer won by forfeit." in " ".join(log)
    assert "not finished" not in " ".join(log) and "finished" in log[0]


async def results(store: Store, winner: int, loser: int, count: int) -> None:
    """``count`` games in which account ``winner`` beat account ``loser``."""
    game = played_game(61)
    won = game.game.winner_side
    assert won is not None
    seats = [Seat("Loser", loser), Seat("Loser", loser)]
    seats[won] = Seat("Winner", winner)
    for _ in range(count):
        await store.record_game_result(game.recording, seats, "human")


@run_async
async def test_the_leaderboard_ranks_by_wins_and_by_win_rate_with_a_minimum(
    database: Database,
) -> None:
    async with database.store() as store:
        ids = {}
        for handle in ("Ada", "Bob", "Cy", "Di", "Ed"):
            ids[handle] = (await store.create_account(handle, PASSWORD)).id
        await results(store, ids["Bob"], ids["Di"], 4)  # Bob 4-0
        await results(store, ids["Di"], ids["Bob"], 4)  # Bob 4-4, Di 4-4
        await results(store, ids["Ada"], ids["Ed"], 3)  # Ada 3-0
        await results(store, ids["Cy"], ids["Ed"], 2)  # Cy 2-0, Ed 0-5
        by_wins = await store.leaderboard("wins")
        by_rate = await store.leaderboard("win_rate", min_games=3)
        top_two = await store.leaderboard("wins", limit=2)
    # Bob and Di both have 4 wins in 8 games: the handle breaks the tie.
    assert [(e.place, e.handle, e.wins, e.games) for e in by_wins] == [
        (1, "Bob", 4, 8),
        (2, "Di", 4, 8),
        (3, "Ada", 3, 3),
        (4, "Cy", 2, 2),
        (5, "Ed", 0, 5),
    ]
    # Cy (2 games) is under the minimum; Ada's 100% comes first.
    assert [(e.handle, round(e.win_rate, 2)) for e in by_rate] == [
        ("Ada", 1.0),
        ("Bob", 0.5),
        ("Di", 0.5),
        ("Ed", 0.0),
    ]
    assert [e.handle for e in top_two] == ["Bob", "Di"]


@run_async
async def test_the_game_log_tells_every_play_and_the_result(database: Database) -> None:
    game = played_game(71)
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        game_id = await store.record_game_result(
            game.recording, [Seat("Ada", ada.id), Seat("Computer")], "computer-normal"
        )
        log = await store.game_log(game_id)
        with pytest.raises(GameNotFoundError, match=f"no game {game_id + 1}"):
            await store.game_log(game_id + 1)
    text = "\n".join(log)
    assert log[0].startswith(f"Game {game_id}, started ") and log[0].endswith("finished.")
    names = ("Ada", "Computer")
    plays = [
        f"{names[event.seat]} plays {event.card}, count {event.count}."
        for event in game.events
        if isinstance(event, CardPlayed)
    ]
    assert len(plays) > 20
    position = 0
    for play in plays:  # every play, in the order it was made
        position = text.find(play, position)
        assert position >= 0, play
    winner = names[game.game.winner_side]  # type: ignore[index]
    assert f"{winner} won the game" in log[-1] or f"{winner} won the game" in log[-2]
