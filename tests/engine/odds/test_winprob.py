"""Win chances before a deal: the figures players know, the edges, and bad input."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.odds.winprob import win_chances
from engine.rules.errors import CribbageError


def test_the_first_dealer_wins_about_56_percent() -> None:
    # The figure cribbage players quote for the first deal of a 2-player game.
    dealer, pone = win_chances((0, 0), dealer=0)
    assert 0.54 <= dealer <= 0.57
    assert dealer + pone == pytest.approx(1.0)


@pytest.mark.parametrize(("mine", "theirs"), [(0, 0), (60, 80), (91, 100), (115, 118), (120, 0)])
@pytest.mark.parametrize("i_deal", [True, False])
def test_a_point_more_never_lowers_my_chance(mine: int, theirs: int, i_deal: bool) -> None:
    dealer = 0 if i_deal else 1
    now = win_chances((mine, theirs), dealer)[0]
    if mine < 120:
        assert win_chances((mine + 1, theirs), dealer)[0] >= now
    if theirs < 120:
        assert win_chances((mine, theirs + 1), dealer)[0] <= now


def test_the_chances_do_not_depend_on_seat_numbers() -> None:
    assert win_chances((91, 100), dealer=1) == tuple(reversed(win_chances((100, 91), dealer=0)))


def test_a_player_on_121_has_won() -> None:
    assert win_chances((121, 40), dealer=1) == (1.0, 0.0)


@pytest.mark.parametrize(
    ("scores", "dealer", "message"),
    [
        ((1, 2, 3, 4), 0, "not 4 scores for 4 players"),
        ((-1, 0), 0, "from 0 to 121"),
        ((0, 122), 0, "from 0 to 121"),
        ((121, 121), 0, "only one"),
        ((True, 0), 0, "whole number"),
        ((0.5, 0), 0, "whole number"),
        ((0, 0), True, "whole number"),
        ((0, 0), 2, "seat from 0 to 1"),
        ("00", 0, "list of whole numbers"),
        (None, 0, "list of whole numbers"),
    ],
)
def test_bad_input_is_the_engines_own_error(scores: object, dealer: object, message: str) -> None:
    with pytest.raises(CribbageError, match=message):
        win_chances(scores, dealer)  # type: ignore[arg-type]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "door.cli", "winprob", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_command_numbers_seats_from_1() -> None:
    result = run_cli("91", "100", "--dealer", "2")
    assert result.returncode == 0, result.stderr
    dealer, pone = win_chances((100, 91), dealer=0)
    assert f"seat 2 (dealer on 100): {dealer:6.1%}" in result.stdout
    assert f"seat 1 (pone   on  91): {pone:6.1%}" in result.stdout


def test_the_command_refuses_a_dealer_who_is_not_a_seat() -> None:
    result = run_cli("91", "100", "--dealer", "3")
    assert result.returncode == 2
    assert result.stderr.strip() == "cribbage-door winprob: --dealer must be a seat from 1 to 2"


@pytest.mark.parametrize(
    ("scores", "dealer", "players"),
    [((0, 0, 0), 0, 3), ((90, 110, 60), 2, 3), ((0, 0), 3, 4), ((100, 80), 1, 4)],
)
def test_three_and_four_players_chances_sum_to_one(
    scores: tuple[int, ...], dealer: int, players: int
) -> None:
    chances = win_chances(scores, dealer, players)
    assert len(chances) == len(scores)
    assert sum(chances) == pytest.approx(1.0)
    assert all(0 < chance < 1 for chance in chances)


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_three_players_a_point_more_never_hurts(dealer: int) -> None:
    for scores in [(0, 0, 0), (100, 90, 110), (60, 61, 62), (119, 0, 118)]:
        now = win_chances(scores, dealer)
        for side in range(3):
            if scores[side] < 120:
                more = list(scores)
                more[side] += 1
                better = win_chances(more, dealer)
                assert better[side] >= now[side] - 1e-4
                assert all(better[o] <= now[o] + 1e-4 for o in range(3) if o != side)


def test_three_players_at_the_start_the_dealer_leads_and_seats_rotate() -> None:
    dealer, left, right = win_chances((0, 0, 0), 0)
    assert dealer > left > right  # the crib, then the first count of the show
    assert win_chances((0, 0, 0), 1) == pytest.approx((right, dealer, left), abs=1e-4)


def test_four_players_are_two_sides_and_the_dealers_partner_shares_the_crib() -> None:
    by_seat = [win_chances((50, 70), dealer, 4) for dealer in range(4)]
    assert by_seat[0] == by_seat[2] and by_seat[1] == by_seat[3]
    first = win_chances((0, 0), 0, 4)
    assert 0.52 < first[0] < 0.62  # the first crib's edge, a little more than two players'


@pytest.mark.parametrize(
    ("args", "lines"),
    [
        (("30", "50", "40", "--dealer", "3"), ["seat 1 (pone", "seat 3 (dealer on 40)"]),
        (("80", "90", "--players", "4", "--dealer", "4"), ["seats 2 and 4 (dealer on 90)"]),
    ],
)
def test_the_command_prints_three_and_four_player_chances(
    args: tuple[str, ...], lines: list[str]
) -> None:
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr
    for line in lines:
        assert line in result.stdout
    percents = [
        float(line.rsplit(" ", 1)[1].rstrip("%")) for line in result.stdout.splitlines()[1:]
    ]
    assert sum(percents) == pytest.approx(100.0, abs=0.2)
