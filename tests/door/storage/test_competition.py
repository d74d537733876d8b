"""The competition tables: ratings and their history, matches, tournaments and
play-by-mail games, on SQLite always and PostgreSQL when CRIBBAGE_TEST_POSTGRES_URL is
set. A "restart" is a new Store (a new engine) on the same database."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from door.competition.errors import MatchOverError, MoveLimitError
from door.competition.pbm import PbmRules
from door.competition.rating import Rating, computer_rating
from door.competition.tournament import Tournament
from door.competition.turns import play_automatic, play_for, waiting_on
from door.storage.errors import CompetitionNotFoundError
from door.storage.matches import MatchStore
from door.storage.pbm_games import PbmGameChangedError, PbmGameStore
from door.storage.ratings import RatingStore
from door.storage.store import Seat, Store
from door.storage.tournaments import TournamentStore
from engine.computer.player import ComputerPlayer
from engine.rules.game import Phase
from engine.rules.record import RecordedGame
from tests.door.caller import run_async
from tests.door.competition.outcomes import won
from tests.door.storage.conftest import Database

START = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)


async def members(store: Store, *handles: str) -> list[Seat]:
    seats = []
    for handle in handles:
        account = await store.create_account(handle, "correct horse battery")
        seats.append(Seat(account.handle, account.id))
    return seats


# --- ratings ------------------------------------------------------------------------


@run_async
async def test_a_rated_game_moves_both_ratings_and_is_kept(database: Database) -> None:
    async with database.store() as store:
        ada, bob = await members(store, "Ada", "Bob")
        assert await RatingStore(store).rating(ada.account_id) == Rating()
        mine, theirs = await RatingStore(store).rate_game(
            ada.account_id, bob.account_id, won(0, 80), START
        )
        assert theirs is not None and mine.change > 0 and theirs.change < 0
    async with database.store() as store:
        assert await RatingStore(store).rating(ada.account_id) == pytest.approx(mine.after)
        assert await RatingStore(store).rating(bob.account_id) == pytest.approx(theirs.after)
        board = await RatingStore(store).rating_leaderboard()
        assert [(line.handle, line.games) for line in board] == [("Ada", 1), ("Bob", 1)]
        (entry,) = await RatingStore(store).rating_history(bob.account_id)
        assert (entry.opponent, entry.score) == ("Ada", 0.0)
        assert entry.change.label == theirs.label


@run_async
async def test_a_game_against_the_computer_rates_only_the_member(database: Database) -> None:
    async with database.store() as store:
        (ada,) = await members(store, "Ada")
        first, computer = await RatingStore(store).rate_game(
            ada.account_id, "expert", won(1, 100), START
        )
        assert computer is None and first.change < 0
        later = START + dt.timedelta(hours=1)
        second, _ = await RatingStore(store).rate_game(
            ada.account_id, "expert", won(1, 100), later, side=1
        )
        assert second.before == pytest.approx(first.after) and second.change > 0
        history = await RatingStore(store).rating_history(ada.account_id)
        assert [(h.opponent, h.score) for h in history] == [
            ("computer-expert", 1.0),
            ("computer-expert", 0.0),
        ]
        assert computer_rating("expert") == Rating(1600.0, 60.0)
        assert [line.handle for line in await RatingStore(store).rating_leaderboard()] == ["Ada"]


# --- matches ------------------------------------------------------------------------


@run_async
async def test_a_match_keeps_its_games_until_it_is_decided(database: Database) -> None:
    async with database.store() as store:
        ada, bob = await members(store, "Ada", "Bob")
        match_id = await MatchStore(store).start_match(ada, bob, 3, START, rated=True)
        stored = await MatchStore(store).add_match_game(match_id, won(0, 85), START)
        assert stored.match.line() == "Ada leads 1 to 0 in games, 3 to 0 in points"
        assert stored.finished_at is None
    async with database.store() as store:
        stored = await MatchStore(store).add_match_game(match_id, won(0, 100), START)
        assert stored.match.decided and stored.finished_at == START
        again = await MatchStore(store).match(match_id)
        assert again.match == stored.match and again.seats == (ada, bob) and again.rated
        assert again.match.line() == "Ada wins the match 2 to 0 in games, 5 to 0 in points"
        with pytest.raises(MatchOverError):
            await MatchStore(store).add_match_game(match_id, won(1, 100), START)
        assert len((await MatchStore(store).match(match_id)).match.games) == 2
        with pytest.raises(CompetitionNotFoundError):
            await MatchStore(store).match(match_id + 1)


# --- tournaments --------------------------------------------------------------------


@run_async
async def test_a_swiss_tournament_is_kept_round_by_round(database: Database) -> None:
    async with database.store() as store:
        seats = await members(store, "Ada", "Bob", "Cy", "Di", "Ed")
        ids = [seat.account_id for seat in seats]
        cup = Tournament("Spring Swiss", "swiss", 1, START, rounds=2)
        cup_id = await TournamentStore(store).create_tournament(cup, START)
        for number in ids:
            cup = cup.sign_up(number)
            assert await TournamentStore(store).sign_up(cup_id, number) == cup
        assert [(n, t.name) for n, t in await TournamentStore(store).tournaments()] == [
            (cup_id, "Spring Swiss")
        ]
        cup = cup.start(START)
        assert await TournamentStore(store).start_tournament(cup_id, START) == cup
    async with database.store() as store:  # the server restarted
        assert await TournamentStore(store).tournament(cup_id) == cup
        names = await TournamentStore(store).entrant_names(cup_id)
        assert sorted(names.values()) == ["Ada", "Bob", "Cy", "Di", "Ed"]
        first = cup.round(1)
        assert [(p.first, p.second) for p in first] == [
            (ids[0], ids[1]),
            (ids[2], ids[3]),
            (ids[4], None),
        ]
        cup = await TournamentStore(store).record_tournament_game(
            cup_id, ids[1], won(0, 90), side=0
        )
        cup = await TournamentStore(store).forfeit_tournament_match(
            cup_id, ids[3], scores=(100, 80)
        )
        assert cup.current_round == 2
        assert await TournamentStore(store).tournament(cup_id) == cup
        # After round 1: Bob (3, +31), Cy (2, +21: Di forfeited at 100), Ed (bye: 2, 0),
        # Di (0, -21), Ada (0, -31). So Ada, the lowest without a bye, rests in round 2,
        # and that bye counts at once: Ada (2, -31) now stands above Di.
        standings = [names[line.entrant] for line in cup.standings()]
        assert standings == ["Bob", "Cy", "Ed", "Ada", "Di"]
        assert [(p.first, p.second) for p in cup.round(2)] == [
            (ids[1], ids[2]),
            (ids[4], ids[3]),
            (ids[0], None),
        ]
        with pytest.raises(CompetitionNotFoundError):
            await TournamentStore(store).tournament(cup_id + 1)


# --- play-by-mail -------------------------------------------------------------------


async def move(
    pbm_games: PbmGameStore, pbm_id: int, now: dt.datetime, computer: ComputerPlayer
) -> int:
    """One caller's move as the table would make it: load, play, keep. Returns the seat."""
    saved = await pbm_games.pbm_game(pbm_id)
    game = saved.resume()
    play_automatic(game)
    seat = waiting_on(game)[0]
    saved.clock.check_move(seat, now)
    play_for(game, seat, computer)
    play_automatic(game)
    await pbm_games.save_pbm_move(pbm_id, game.recording, seat, now)
    return seat


@run_async
async def test_a_play_by_mail_game_goes_on_after_a_restart(database: Database) -> None:
    computer = ComputerPlayer("normal", random.Random(17))
    async with database.store() as store:
        ada, bob = await members(store, "Ada", "Bob")
        game = RecordedGame(seed=2026)
        play_automatic(game)  # the cut for the first deal decides nothing
        pbm_id = await PbmGameStore(store).start_pbm_game(
            ada, bob, game.recording, PbmRules(3), START
        )
        (saved,) = await PbmGameStore(store).pbm_games_for(bob.account_id)
        dealer = game.dealer
        names = ("Ada", "Bob")
        assert saved.status_line(ada.account_id if dealer == 1 else bob.account_id, START) == (
            f"{names[dealer]}'s move (3 days left)"
        )
        now = START
        for _ in range(5):
            now += dt.timedelta(hours=7)
            await move(PbmGameStore(store), pbm_id, now, computer)
        before = await PbmGameStore(store).pbm_game(pbm_id)
    async with database.store() as store:  # the server restarted: a new engine, same file
        after = await PbmGameStore(store).pbm_game(pbm_id)
        assert after.recording == before.recording and after.clock == before.clock
        assert after.resume().recording == before.recording
        to_move = after.waiting_on()[0]
        account = after.seats[to_move].account_id
        other = after.seats[1 - to_move].name
        one_hour_on = now + dt.timedelta(hours=1)
        assert (
            after.status_line(account, one_hour_on)
            == f"your move against {other} (2 days 23 hours left)"
        )
        for _ in range(400):
            game = (await PbmGameStore(store).pbm_game(pbm_id)).resume()
            play_automatic(game)
            if game.phase is Phase.OVER:
                break
            now += dt.timedelta(hours=5)
            await move(PbmGameStore(store), pbm_id, now, computer)
        outcome, game_id = await PbmGameStore(store).finish_pbm_game(pbm_id, game.recording)
        assert max(outcome.scores) == 121 and not outcome.forfeit
        assert await PbmGameStore(store).pbm_games_for(ada.account_id) == []
        finished = await PbmGameStore(store).pbm_game(pbm_id)
        assert finished.finished and finished.game_id == game_id
        winner = finished.seats[outcome.winner_side].name
        stats = await store.stats_for(winner)
        assert stats is not None and stats.total.wins == 1
        assert [line.opponent for line in stats.modes] == ["people-pbm"]
        assert "finished" in (await store.game_log(game_id))[0]


@run_async
async def test_todays_moves_stay_counted_across_a_restart(database: Database) -> None:
    computer = ComputerPlayer("easy", random.Random(1))
    async with database.store() as store:
        ada, bob = await members(store, "Ada", "Bob")
        game = RecordedGame(seed=99, dealer=0)
        pbm_id = await PbmGameStore(store).start_pbm_game(
            ada, bob, game.recording, PbmRules(3, 1), START
        )
        assert await move(PbmGameStore(store), pbm_id, START, computer) == 0  # Ada deals
    async with database.store() as store:
        saved = await PbmGameStore(store).pbm_game(pbm_id)
        assert saved.waiting_on() == (0, 1)  # both to throw to the crib
        game = saved.resume()
        play_for(game, 0, computer)
        with pytest.raises(MoveLimitError):
            await PbmGameStore(store).save_pbm_move(
                pbm_id, game.recording, 0, START + dt.timedelta(hours=2)
            )
        assert (await PbmGameStore(store).pbm_game(pbm_id)).recording == saved.recording
        next_day = dt.datetime(2026, 3, 2, 0, 5, tzinfo=dt.UTC)
        await PbmGameStore(store).save_pbm_move(pbm_id, game.recording, 0, next_day)
        assert (await PbmGameStore(store).pbm_game(pbm_id)).waiting_on() == (1,)


@run_async
async def test_a_player_out_of_time_forfeits_the_game(database: Database) -> None:
    computer = ComputerPlayer("easy", random.Random(2))
    async with database.store() as store:
        ada, bob = await members(store, "Ada", "Bob")
        game = RecordedGame(seed=5, dealer=1)
        pbm_id = await PbmGameStore(store).start_pbm_game(
            ada, bob, game.recording, PbmRules(2), START
        )
        assert await move(PbmGameStore(store), pbm_id, START, computer) == 1  # Bob deals
        moved = START + dt.timedelta(hours=1)
        assert await move(PbmGameStore(store), pbm_id, moved, computer) in (0, 1)
        # Someone is still to throw; nobody forfeits before two days have passed.
        assert (
            await PbmGameStore(store).forfeit_overdue_pbm_games(
                moved + dt.timedelta(days=2) - dt.timedelta(seconds=1)
            )
            == []
        )
    async with database.store() as store:
        saved = await PbmGameStore(store).pbm_game(pbm_id)
        (late,) = saved.waiting_on()
        settled = await PbmGameStore(store).forfeit_overdue_pbm_games(moved + dt.timedelta(days=2))
        assert [(number, outcome.forfeited_by) for number, outcome in settled] == [(pbm_id, late)]
        loser = saved.seats[late].name
        stats = await store.stats_for(loser)
        assert stats is not None and stats.total.losses == 1
        assert (
            await PbmGameStore(store).forfeit_overdue_pbm_games(moved + dt.timedelta(days=9)) == []
        )


@run_async
async def test_a_play_by_mail_save_must_carry_every_saved_move(database: Database) -> None:
    """Two copies of one game opened on two lines: the second to save, which lacks the
    first's move, is refused and changes nothing."""
    computer = ComputerPlayer("easy", random.Random(3))
    async with database.store() as store:
        ada, bob = await members(store, "Ada", "Bob")
        game = RecordedGame(seed=8, dealer=0)
        pbm_id = await PbmGameStore(store).start_pbm_game(
            ada, bob, game.recording, PbmRules(3), START
        )
        await move(PbmGameStore(store), pbm_id, START, computer)  # Ada deals
        opened = await PbmGameStore(store).pbm_game(pbm_id)
        first, second = opened.resume(), opened.resume()
        play_for(first, 0, computer)
        await PbmGameStore(store).save_pbm_move(pbm_id, first.recording, 0, START)
        play_for(second, 1, computer)
        with pytest.raises(PbmGameChangedError):
            await PbmGameStore(store).save_pbm_move(pbm_id, second.recording, 1, START)
        assert (await PbmGameStore(store).pbm_game(pbm_id)).recording == first.recording


@run_async
async def test_steps_nobody_decides_are_kept_without_touching_the_clock(
    database: Database,
) -> None:
    async with database.store() as store:
        ada, bob = await members(store, "Ada", "Bob")
        game = RecordedGame(seed=4)
        pbm_id = await PbmGameStore(store).start_pbm_game(
            ada, bob, game.recording, PbmRules(3, 1), START
        )
        play_automatic(game)  # the cut for the first deal
        later = START + dt.timedelta(hours=5)
        clock = await PbmGameStore(store).save_pbm_move(pbm_id, game.recording, None, later)
        saved = await PbmGameStore(store).pbm_game(pbm_id)
        assert saved.recording == game.recording and saved.clock == clock
        assert clock.waiting_since == START and clock.moves_on_day == (0, 0)


@run_async
async def test_finished_play_by_mail_games_are_listed_newest_first(database: Database) -> None:
    async with database.store() as store:
        ada, bob, cid = await members(store, "Ada", "Bob", "Cid")
        numbers = []
        for opponent in (bob, cid):
            game = RecordedGame(seed=len(numbers), dealer=0)
            numbers.append(
                await PbmGameStore(store).start_pbm_game(
                    ada, opponent, game.recording, PbmRules(1), START
                )
            )
        await PbmGameStore(store).forfeit_overdue_pbm_games(START + dt.timedelta(days=1))
        assert await PbmGameStore(store).pbm_games_for(ada.account_id) == []
        finished = await PbmGameStore(store).finished_pbm_games_for(ada.account_id)
        assert sorted(game.pbm_id for game in finished) == numbers
        assert all(game.finished and game.game_id is not None for game in finished)
        assert [
            g.pbm_id for g in await PbmGameStore(store).finished_pbm_games_for(bob.account_id)
        ] == [numbers[0]]
