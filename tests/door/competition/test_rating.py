"""Glicko-2 ratings, checked against Glickman's own worked example ("Example of the
Glicko-2 system", glicko.net): a player rated 1500, RD 200, volatility 0.06, with
tau 0.5, beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300) in one
rating period, and ends at 1464.06, RD 151.52, volatility 0.05999. The paper rounds its
intermediate steps to four decimals, so the last printed digit is allowed a hundredth."""

from __future__ import annotations

import math

import pytest

from door.competition.errors import CompetitionError
from door.competition.rating import (
    COMPUTER_LEVELS,
    COMPUTER_RATINGS,
    Rating,
    RatingChange,
    computer_rating,
    rate,
    rate_game,
    score_of,
)
from tests.door.competition.outcomes import forfeited, won


def test_glickmans_example() -> None:
    after = rate(
        Rating(1500, 200, 0.06),
        [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)],
        tau=0.5,
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    # Glickman's step 6: phi* = sqrt(phi^2 + sigma^2); on the display scale
    # sqrt(200^2 + (0.06 * 173.7178)^2) = 200.27.
    after = rate(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500
    assert after.volatility == 0.06
    assert after.deviation == pytest.approx(math.sqrt(200**2 + (0.06 * 173.7178) ** 2))
    assert after.deviation == pytest.approx(200.27, abs=0.005)


def test_between_equals_the_winner_gains_what_the_loser_loses() -> None:
    mine, theirs = rate_game(Rating(1500, 200), Rating(1500, 200), 1.0)
    assert theirs is not None
    assert mine.change > 0
    assert mine.after.rating - 1500 == pytest.approx(1500 - theirs.after.rating)
    assert mine.after.deviation < 200 and theirs.after.deviation < 200


def test_the_computer_keeps_its_rating_whatever_happens() -> None:
    member = Rating(1500, 80)
    for level in COMPUTER_LEVELS:
        for score in (0.0, 1.0):
            change, computer = rate_game(member, level, score)
            assert computer is None
            assert COMPUTER_RATINGS[level] == computer_rating(level)
            assert (change.change > 0) == (score == 1.0)


def test_the_computer_levels_rise_in_strength() -> None:
    ratings = [computer_rating(level).rating for level in COMPUTER_LEVELS]
    assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings)
    assert COMPUTER_LEVELS == ("easy", "normal", "expert", "master")


def test_beating_a_stronger_computer_is_worth_more() -> None:
    member = Rating(1500, 80)
    gains = [rate_game(member, level, 1.0)[0].change for level in COMPUTER_LEVELS]
    assert gains == sorted(gains) and gains[0] < gains[-1]


def test_an_unknown_level_or_score_is_refused() -> None:
    with pytest.raises(CompetitionError):
        computer_rating("grandmaster")
    with pytest.raises(CompetitionError):
        rate(Rating(), [(Rating(), 2.0)])
    with pytest.raises(CompetitionError):
        Rating(1500, 0)


@pytest.mark.parametrize(
    ("before", "after", "label", "shown"),
    [
        (1500.0, 1512.4, "+12", "Rating 1512? (+12)"),
        (1500.4, 1493.0, "\N{MINUS SIGN}7", "Rating 1493? (\N{MINUS SIGN}7)"),
        (1500.2, 1499.9, "\N{PLUS-MINUS SIGN}0", "Rating 1500? (\N{PLUS-MINUS SIGN}0)"),
    ],
)
def test_the_change_reads_as_the_difference_of_the_shown_ratings(
    before: float, after: float, label: str, shown: str
) -> None:
    change = RatingChange(Rating(before), Rating(after, 200))
    assert change.label == label
    assert change.line() == shown


def test_a_settled_rating_loses_its_question_mark() -> None:
    assert str(Rating(1523.4, 350)) == "1523?"
    assert str(Rating(1523.6, 60)) == "1524"


def test_a_game_is_worth_one_to_the_winner_forfeits_included() -> None:
    assert score_of(won(0, 100), 0) == 1.0
    assert score_of(won(0, 100), 1) == 0.0
    assert score_of(forfeited(0, (100, 50)), 1) == 1.0
