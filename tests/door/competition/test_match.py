"""Matches scored as cribbage clubs of the American Cribbage Congress score games: 2 game
points a win, 3 a skunk (the loser under 91), 0 a loss; spread is the points won by less
the points lost by, counted from the game hole (121)."""

from __future__ import annotations

import pytest

from door.competition.errors import CompetitionError, MatchOverError
from door.competition.match import (
    ACC_SCORING,
    Match,
    ScoringRules,
    game_points,
    match_from_outcomes,
    spread,
)
from engine.rules.outcome import Outcome
from tests.door.competition.outcomes import forfeited, won

# (outcome, side, game points under ACC scoring, spread)
GAME_CASES = [
    (won(0, 100), 0, 2, 21),
    (won(0, 100), 1, 0, -21),
    (won(1, 91), 1, 2, 30),  # 91 is past the skunk line
    (won(1, 90), 1, 3, 31),  # 90 is a skunk
    (won(1, 90), 0, 0, -31),
    (won(0, 61), 0, 3, 60),
    (won(0, 60), 0, 3, 61),  # a double skunk counts as a skunk in ACC play
    (won(0, 0), 1, 0, -121),
    (forfeited(0, (80, 65)), 1, 2, 41),  # left while ahead: still a plain win, from 80
    (forfeited(1, (40, 30)), 0, 2, 91),  # a forfeit skunks nobody
    (forfeited(1, (40, 30)), 1, 0, -91),
]


@pytest.mark.parametrize(("outcome", "side", "points", "margin"), GAME_CASES)
def test_a_game_is_worth_game_points_and_spread(
    outcome: Outcome, side: int, points: int, margin: int
) -> None:
    assert game_points(outcome, side) == points
    assert spread(outcome, side) == margin


def test_a_home_rule_can_make_the_double_skunk_worth_more() -> None:
    home = ScoringRules(double_skunk=4)
    assert game_points(won(0, 60), 0, home) == 4
    assert game_points(won(0, 61), 0, home) == 3
    assert game_points(won(0, 60), 0, ACC_SCORING) == 3


def test_scoring_rules_that_shrink_from_win_to_skunk_are_refused() -> None:
    with pytest.raises(CompetitionError):
        ScoringRules(win=3, skunk=2)


def test_three_handed_games_make_no_match() -> None:
    three = Outcome(0, (121, 80, 100), ((1, "skunk"),))
    with pytest.raises(CompetitionError):
        game_points(three, 0)
    with pytest.raises(CompetitionError):
        Match(("Ada", "Bob"), 3).add(three)


@pytest.mark.parametrize("best_of", [0, 2, 4, 9])
def test_a_match_is_one_game_or_the_best_of_3_5_or_7(best_of: int) -> None:
    with pytest.raises(CompetitionError):
        Match(("Ada", "Bob"), best_of)


def test_a_one_game_match_is_decided_by_its_game() -> None:
    match = Match(("Ada", "Bob"))
    assert not match.decided and match.winner is None
    match = match.add(won(1, 85))
    assert match.decided and match.winner == 1
    assert match.points == (0, 3) and match.spreads == (-36, 36)
    assert match.line() == "Bob wins the match 1 to 0 in games, 3 to 0 in points"


def test_a_best_of_five_reads_between_games_and_ends_at_three_wins() -> None:
    match = Match(("Ada", "Bob"), best_of=5)
    assert match.line() == "Ada v Bob: best of 5, first to 3 games"
    match = match.add(won(0, 88))  # Ada skunks Bob: 3
    assert match.line() == "Ada leads 1 to 0 in games, 3 to 0 in points"
    match = match.add(won(1, 75))  # Bob skunks Ada: 3
    assert match.line() == "Ada and Bob are level at 1 to 1 in games, 3 to 3 in points"
    match = match.add(won(0, 112))  # Ada wins: 2
    assert match.line() == "Ada leads 2 to 1 in games, 5 to 3 in points"
    assert match.next_game == 4 and not match.decided
    match = match.add(won(1, 119))  # Bob wins: 2
    assert match.line() == "Ada and Bob are level at 2 to 2 in games, 5 to 5 in points"
    assert match.wins == (2, 2) and match.points == (5, 5)
    match = match.add(won(0, 101))
    assert match.decided and match.winner == 0 and match.wins == (3, 2)
    assert match.points == (7, 5)
    assert match.spreads == (14, -14)  # +33 -46 +9 -2 +20, each 121 less the loser's score
    assert match.line() == "Ada wins the match 3 to 2 in games, 7 to 5 in points"
    with pytest.raises(MatchOverError):
        match.add(won(1, 100))


def test_level_in_games_but_not_in_points_says_who_leads_on_points() -> None:
    match = match_from_outcomes(("Ada", "Bob"), 3, [won(0, 110), won(1, 80)])
    assert match.line() == "Level at 1 to 1 in games; Bob leads 3 to 2 in points"


def test_a_match_stops_at_the_decisive_game_even_if_games_remain() -> None:
    match = match_from_outcomes(("Ada", "Bob"), 7, [won(1, 100)] * 4)
    assert match.decided and match.winner == 1 and len(match.games) == 4
