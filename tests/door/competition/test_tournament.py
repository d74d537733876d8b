"""Tournaments: round robin by the circle method, Swiss paired by game points then spread
with no repeat pairings and byes to the lowest-ranked entrant who has not had one, and
standings by game points then spread. Expected pairings are worked out by hand."""

from __future__ import annotations

import datetime as dt
import itertools
import random
from dataclasses import replace

import pytest

from door.competition.errors import PairingError, TournamentError
from door.competition.tournament import (
    Pairing,
    Standing,
    Tournament,
    round_robin,
    standings,
    swiss_pairings,
)
from tests.door.competition.outcomes import forfeited, won

NOON = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 8, 11])
def test_round_robin_meets_everyone_once(count: int) -> None:
    entrants = list(range(1, count + 1))
    rounds = round_robin(entrants)
    assert len(rounds) == count - 1 + count % 2
    met = [frozenset(pair) for pairs in rounds for pair in pairs if pair[1] is not None]
    assert sorted(map(sorted, met)) == sorted(map(sorted, itertools.combinations(entrants, 2)))
    for pairs in rounds:
        seated = [entrant for pair in pairs for entrant in pair if entrant is not None]
        assert sorted(seated) == entrants  # everyone once a round
    byes = [pair[0] for pairs in rounds for pair in pairs if pair[1] is None]
    assert sorted(byes) == (entrants if count % 2 else [])


def test_round_robin_turns_the_circle_round_the_first_entrant() -> None:
    # The circle method: 1 stays put, the others move one place clockwise each round.
    rounds = round_robin([1, 2, 3, 4, 5, 6])
    assert rounds[0] == [(1, 6), (2, 5), (3, 4)]
    assert rounds[1] == [(1, 5), (6, 4), (2, 3)]
    assert rounds[2] == [(1, 4), (5, 3), (6, 2)]


def test_round_robin_with_an_odd_number_gives_the_bye_in_turn() -> None:
    rounds = round_robin([1, 2, 3])
    assert rounds == [[(1, None), (2, 3)], [(1, 3), (2, None)], [(1, 2), (3, None)]]


def played(round_number: int, pairs: list[tuple[int, int | None]], *games) -> list[Pairing]:
    """Pairings of a round, each with its one game (None for a bye)."""
    return [
        Pairing(round_number, table, first, second, () if game is None else (game,))
        for table, ((first, second), game) in enumerate(zip(pairs, games, strict=True), start=1)
    ]


def test_swiss_pairs_by_game_points_then_spread_without_repeats() -> None:
    entrants = [1, 2, 3, 4, 5, 6]
    assert swiss_pairings(entrants, []) == [(1, 2), (3, 4), (5, 6)]
    first = played(
        1,
        [(1, 2), (3, 4), (5, 6)],
        won(0, 100),  # 1 beats 2: 2 points, +21
        won(1, 80),  # 4 skunks 3: 3 points, +41
        won(0, 115),  # 5 beats 6: 2 points, +6
    )
    # Standings: 4 (3, +41), 1 (2, +21), 5 (2, +6), 6 (0, -6), 2 (0, -21), 3 (0, -41).
    assert [line.entrant for line in standings(entrants, first)] == [4, 1, 5, 6, 2, 3]
    # 4 meets 1; 5 has met 6, so 5 meets 2; 6 meets 3.
    assert swiss_pairings(entrants, first) == [(4, 1), (5, 2), (6, 3)]


def test_swiss_gives_the_bye_to_the_lowest_ranked_without_one() -> None:
    entrants = [1, 2, 3, 4, 5]
    # Round 1: all level, so sign-up order ranks them and 5, the last, rests.
    assert swiss_pairings(entrants, []) == [(1, 2), (3, 4), (5, None)]
    first = played(1, [(1, 2), (3, 4), (5, None)], won(0, 100), won(0, 111), None)
    # 1 (2, +21), 3 (2, +10), 5 (2, 0: a bye is a win without spread), 4 (0, -10), 2 (0, -21)
    table = standings(entrants, first)
    assert [line.entrant for line in table] == [1, 3, 5, 4, 2]
    assert table[2] == Standing(5, game_points=2, spread=0, wins=1, byes=1)
    assert swiss_pairings(entrants, first) == [(1, 3), (5, 4), (2, None)]


def test_the_bye_passes_up_when_the_lowest_have_had_theirs() -> None:
    entrants = [1, 2, 3]
    history = played(1, [(1, 2), (3, None)], won(0, 100), None)
    history += played(2, [(1, 3), (2, None)], won(0, 100), None)
    # 1 (4 points) has had no bye; 2 and 3 have, and stand level (2 points, -21), so
    # sign-up order puts 2 first. 2 and 3 have not met.
    assert swiss_pairings(entrants, history) == [(2, 3), (1, None)]


@pytest.mark.parametrize("count", [4, 5, 6, 7, 8])
def test_a_whole_swiss_never_repeats_a_pairing_or_a_bye(count: int) -> None:
    rng = random.Random(count)
    entrants = list(range(10, 10 + count))
    history: list[Pairing] = []
    for number in range(1, count - 1 + count % 2 + 1):
        pairs = swiss_pairings(entrants, history)
        games = [
            None if b is None else won(rng.randrange(2), rng.randrange(50, 121)) for _, b in pairs
        ]
        history += played(number, pairs, *games)
    met = [frozenset(p.entrants) for p in history if not p.bye]
    assert len(met) == len(set(met))
    byes = [p.first for p in history if p.bye]
    assert len(byes) == len(set(byes)) == (count if count % 2 else 0)


def test_swiss_refuses_a_round_that_would_repeat_a_pairing() -> None:
    entrants = [1, 2, 3, 4]
    history: list[Pairing] = []
    for number, pairs in enumerate(round_robin(entrants), start=1):
        history += played(number, pairs, *[won(0, 100)] * len(pairs))
    with pytest.raises(PairingError):
        swiss_pairings(entrants, history)


def test_standings_count_a_dropped_game_settled_as_a_forfeit() -> None:
    entrants = [1, 2]
    history = [Pairing(1, 1, 1, 2, (forfeited(1, (70, 90)), won(1, 85)))]
    # Game 1: 2 left at 90 to 70: a plain win for 1, +31 (121 - 90). Game 2: 2 skunks 1, +36.
    assert standings(entrants, history, games_per_match=2) == [
        Standing(2, game_points=3, spread=5, wins=1, losses=1),
        Standing(1, game_points=2, spread=-5, wins=1, losses=1),
    ]


def test_a_two_game_bye_is_worth_two_wins() -> None:
    table = standings([1, 2, 3], [Pairing(1, 2, 3, None)], games_per_match=2)
    assert table[0] == Standing(3, game_points=4, spread=0, wins=2, byes=1)


def swiss_cup(**changes) -> Tournament:
    options = dict(name="Spring Swiss", kind="swiss", games_per_match=1, starts_at=NOON, rounds=2)
    options.update(changes)
    return Tournament(**options)


def test_a_tournament_takes_sign_ups_until_it_starts() -> None:
    cup = swiss_cup().sign_up(7).sign_up(8).sign_up(7).sign_up(9).withdraw(9)
    assert cup.entrants == (7, 8)
    assert not cup.can_start(NOON - dt.timedelta(minutes=1))
    with pytest.raises(TournamentError):
        cup.start(NOON - dt.timedelta(minutes=1))
    with pytest.raises(TournamentError):
        swiss_cup().sign_up(7).start(NOON)  # one player is no tournament
    started = cup.start(NOON)
    assert started.status == "running" and started.current_round == 1
    with pytest.raises(TournamentError):
        started.sign_up(9)


@pytest.mark.parametrize(
    "changes",
    [
        {"kind": "knockout"},
        {"name": " "},
        {"name": "x" * 41},
        {"games_per_match": 0},
        {"rounds": None},
        {"starts_at": dt.datetime(2026, 3, 1, 12)},
    ],
)
def test_a_tournament_that_cannot_be_played_is_refused(changes: dict) -> None:
    with pytest.raises(TournamentError):
        swiss_cup(**changes)


def test_a_tournament_without_a_time_never_starts_by_itself() -> None:
    cup = swiss_cup(starts_at=None).sign_up(1).sign_up(2)
    assert not cup.can_start(NOON + dt.timedelta(days=365))
    with pytest.raises(TournamentError, match="when the sysop starts it"):
        cup.start(NOON)
    assert replace(cup, starts_at=NOON).start(NOON).status == "running"  # the sysop's G


def test_a_swiss_tournament_plays_its_rounds_and_finishes() -> None:
    cup = swiss_cup()
    for entrant in (1, 2, 3, 4):
        cup = cup.sign_up(entrant)
    cup = cup.start(NOON)
    assert [(p.first, p.second) for p in cup.round(1)] == [(1, 2), (3, 4)]
    # 2 wins at table 1, playing side 1 of its own game: the store keeps 1 as side 0.
    cup = cup.record(2, won(0, 95), side=0)
    assert cup.round(1)[0].games[0].winner_side == 1
    assert not cup.round_over
    cup = cup.record(3, won(1, 60), side=1)  # 3 double-skunks 4: 3 game points
    assert cup.current_round == 2
    # 3 (3, +61), 2 (2, +26), 1 (0, -26), 4 (0, -61)
    assert [(p.first, p.second) for p in cup.round(2)] == [(3, 2), (1, 4)]
    with pytest.raises(TournamentError):
        cup.record(5, won(0, 100))
    cup = cup.record(2, won(0, 100))
    cup = cup.forfeit_match(4, scores=(70, 60))  # 4 never came back: 1 wins, +51
    assert cup.status == "finished"
    assert [(line.entrant, line.game_points, line.spread) for line in cup.standings()] == [
        (2, 4, 47),
        (3, 3, 40),
        (1, 2, 25),
        (4, 0, -112),
    ]
    with pytest.raises(TournamentError):
        cup.record(1, won(0, 100))


def test_a_round_robin_runs_until_everyone_has_met() -> None:
    cup = Tournament("Club night", "round robin", games_per_match=1, starts_at=NOON)
    for entrant in (1, 2, 3):
        cup = cup.sign_up(entrant)
    cup = cup.start(NOON)
    assert cup.total_rounds == 3
    for _ in range(3):
        pairing = next(p for p in cup.round(cup.current_round) if not p.bye)
        cup = cup.record(pairing.first, won(0, 100))
    assert cup.status == "finished"
    assert [line.byes for line in cup.standings()] == [1, 1, 1]


def test_a_swiss_of_more_rounds_than_its_entrants_can_fill_ends_when_all_have_met() -> None:
    # By hand: a Swiss of 3 rounds starting "now" started as its second member signed
    # up; after round 1 neither a game nor the sysop's forfeit could be recorded
    # ("Everyone left has met"), and it stayed in round 1 for good.
    pair = swiss_cup(rounds=3).sign_up(1).sign_up(2).start(NOON)
    assert pair.total_rounds == 1
    assert pair.record(1, won(0, 100)).status == "finished"
    assert pair.forfeit_match(2).status == "finished"
    four = swiss_cup(rounds=5)
    for entrant in (1, 2, 3, 4):
        four = four.sign_up(entrant)
    four = four.start(NOON)
    assert four.total_rounds == 3
    while four.status == "running":
        pairing = next(p for p in four.round(four.current_round) if not four.settled(p))
        four = four.record(pairing.first, won(0, 100))
    assert four.current_round == 3
    assert all(line.games == 3 for line in four.standings())


def test_a_swiss_that_cannot_pair_its_next_round_ends_on_its_standings() -> None:
    # Three rounds of six in which everyone of 1-3 met everyone of 4-6: what is left
    # is two triangles, and no fourth round pairs all six without a repeat.
    played = [
        [(1, 4), (2, 5), (3, 6)],
        [(1, 5), (2, 6), (3, 4)],
        [(1, 6), (2, 4), (3, 5)],
    ]
    pairings = tuple(
        Pairing(number, table, first, second, (won(0, 100),))
        for number, pairs in enumerate(played, start=1)
        for table, (first, second) in enumerate(pairs, start=1)
    )
    last = replace(pairings[-1], games=())
    cup = swiss_cup(rounds=5, entrants=(1, 2, 3, 4, 5, 6), status="running")
    cup = replace(cup, pairings=(*pairings[:-1], last))
    assert cup.total_rounds == 5
    after = cup.record(3, won(0, 100))
    assert after.status == "finished" and after.current_round == 3
