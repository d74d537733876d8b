"""engine.odds.after_play: the chances of a moment of the play through the values after
it are the forward run's, near the goal as far from it; and engine/odds/_after_play.c
against its Python twin, malformed arguments refused."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.odds import after_play
from engine.odds.after_play import PARTS, after_play_values, chance_through_crib
from engine.odds.kept import read_only
from engine.odds.model import GOAL, first_role_chance, first_role_table, trimmed_stages
from engine.odds.tables import load_win_tables

pytestmark = pytest.mark.both_twins


def random_dist(rng: random.Random, length: int) -> np.ndarray:
    dist = np.array([rng.random() ** 3 for _ in range(length)])
    dist[rng.randrange(length)] += 0.5
    return read_only(dist / dist.sum())


def random_play(rng: random.Random) -> np.ndarray:
    rows, cols = rng.randint(1, 14), rng.randint(1, 14)
    joint = np.array([[rng.random() ** 4 for _ in range(cols)] for _ in range(rows)])
    joint[0, 0] += 0.1
    return read_only(joint / joint.sum())


def trimmed(kind: str, role: int, dist: np.ndarray) -> np.ndarray:
    return trimmed_stages([(kind, role, dist)])[0][2]


def test_a_moment_of_the_play_is_the_forward_run_s_chance() -> None:
    """Random hands, cribs and plays still to come from random scores, half of them
    within 30 points of the goal; the values worked out from the scores now or from
    earlier ones."""
    rng = random.Random(48)
    table = load_win_tables().start[2]
    first_role = first_role_table(table)
    worst = 0.0
    for _ in range(2000):
        high = rng.choice((120, 120, 60))
        first, second = rng.randint(0, high), rng.randint(0, high)
        pegging = trimmed("joint", -1, random_play(rng))
        pone = trimmed("add", 1, random_dist(rng, rng.randint(1, 30)))
        hand = trimmed("add", 0, random_dist(rng, rng.randint(1, 30)))
        crib = trimmed("add", 0, random_dist(rng, rng.randint(1, 30)))
        early = (max(0, first - rng.randint(0, 3)), max(0, second - rng.randint(0, 3)))
        slack = 3 + rng.randint(0, 8)
        rows, cols = pegging.shape[0] + 29 + slack, pegging.shape[1] + slack
        after = after_play_values(first_role, *early, rows, cols, pone, hand)
        chance = chance_through_crib(after, first, second, crib, pegging)
        assert chance is not None
        stages = [("joint", -1, pegging), ("add", 1, pone), ("add", 0, hand), ("add", 0, crib)]
        expected = first_role_chance((first, second), stages, table)
        worst = max(worst, abs(chance - expected))
    assert worst < 1e-13


@pytest.mark.parametrize("own_deals", [True, False])
def test_values_before_the_cut_from_the_average_s_table_are_the_values(own_deals: bool) -> None:
    """The other's average hand counted once into a table over every score, then the
    seat's own hand: the values and the chances past the goal counting both give,
    near the goal as far from it, within the rounding of the sums."""
    rng = random.Random(51)
    first_role = first_role_table(load_win_tables().start[2])
    average = trimmed("add", 1, random_dist(rng, 25))
    worst = 0.0
    for _ in range(200):
        first, second = rng.randint(0, 120), rng.randint(0, 120)
        rows, cols = rng.randint(1, 60), rng.randint(1, 30)
        own = trimmed("add", 0, random_dist(rng, rng.randint(1, 30)))
        pone, hand = (average, own) if own_deals else (own, average)
        whole = after_play_values(first_role, first, second, rows, cols, pone, hand)
        made = after_play.before_cut_values(
            first_role, first, second, rows, cols, own, average, own_deals
        )
        assert made.values.shape == whole.values.shape
        worst = max(
            worst,
            float(np.abs(made.values - whole.values).max()),
            float(np.abs(made.passed - whole.passed).max()),
        )
    assert worst < 1e-14


def test_values_that_do_not_hold_the_scores_asked_for_say_so() -> None:
    first_role = first_role_table(load_win_tables().start[2])
    pegging = read_only(np.full((5, 5), 1 / 25))
    dist = read_only(np.full(10, 0.1))
    after = after_play_values(first_role, 40, 40, 5 + 9, 5, dist, dist)
    assert chance_through_crib(after, 40, 40, dist, pegging) is not None
    assert chance_through_crib(after, 39, 40, dist, pegging) is None  # before them
    assert chance_through_crib(after, 40, 41, dist, pegging) is None  # past their columns
    assert chance_through_crib(after, 41, 40, dist, pegging) is None  # past their rows
    near = after_play_values(first_role, 110, 116, 40, 40, dist, dist)
    assert near.values.shape == (GOAL - 110, GOAL - 116)
    assert chance_through_crib(near, 118, 120, dist, pegging) is not None


compiled = pytest.mark.skipif(PARTS.compiled is None, reason="_after_play.c was not built")


@compiled
def test_the_c_values_and_chances_are_the_pythons() -> None:
    """The values to the bit (the same sums in the same order); a chance to its last
    few bits (the play's sum is added in another order than numpy's), or None from
    both where the values have too few rows for the crib."""
    assert PARTS.compiled is not None
    rng = random.Random(7)
    first_role = first_role_table(load_win_tables().start[2])
    short = answered = 0
    for _ in range(500):
        first, second = rng.randint(0, 120), rng.randint(0, 120)
        rows, cols = rng.randint(1, 50), rng.randint(1, 20)
        rows, cols = min(rows, GOAL - first), min(cols, GOAL - second)
        pone, hand = random_dist(rng, rng.randint(1, 30)), random_dist(rng, rng.randint(1, 30))
        args = (first_role, first, second, rows, cols, pone, hand)
        (c_values, c_passed), (values, passed) = (
            PARTS.compiled.values(*args),
            PARTS.python.values(*args),
        )
        assert c_values.tobytes() == values.tobytes() and c_passed.tobytes() == passed.tobytes()
        pegging, crib = random_play(rng), random_dist(rng, rng.randint(1, 30))
        after = after_play.AfterPlay(first, second, values, passed)
        need0, need1 = min(GOAL - first, pegging.shape[0]), min(GOAL - second, pegging.shape[1])
        if need1 > cols:
            continue
        call = (values, passed, GOAL - first, 0, 0, need0, need1, crib, pegging)
        in_c, python = PARTS.compiled.through_crib(*call), PARTS.python.through_crib(*call)
        if python is None:  # too few rows for the crib
            assert in_c is None
            short += 1
        else:
            assert in_c == pytest.approx(python, abs=1e-15)
            answered += 1
        assert (chance_through_crib(after, first, second, crib, pegging) is None) == (
            python is None
        )
    assert short > 20 and answered > 100


@compiled
def test_the_c_refuses_what_it_would_read_or_write_past() -> None:
    assert PARTS.c_module is not None
    module = PARTS.c_module
    values, passed = np.zeros((5, 4)), np.zeros(4)
    crib, pegging = np.full(3, 1 / 3), np.full((2, 2), 0.25)
    module.through_crib(values, passed, 10, 0, 0, 2, 2, crib, pegging)
    assert module.through_crib(values, passed, 10, 3, 0, 2, 2, crib, pegging) is None  # rows
    for bad in (
        (values, passed, 10, 0, 3, 2, 2, crib, pegging),  # columns past the values
        (values, passed, 10, -1, 0, 2, 2, crib, pegging),  # a row before them
        (values, passed, 10, 0, 0, 3, 2, crib, pegging),  # more rows than the play
        (values, np.zeros(3), 10, 0, 0, 2, 2, crib, pegging),  # passed of other columns
        (values, passed, 0, 0, 0, 1, 1, crib, pegging),  # a score on the goal
    ):
        with pytest.raises(ValueError):
            module.through_crib(*bad)
    with pytest.raises(TypeError):
        module.through_crib(values.astype(np.float32), passed, 10, 0, 0, 2, 2, crib, pegging)
    first_role = first_role_table(load_win_tables().start[2])
    with pytest.raises(ValueError):
        module.after_play(first_role, 118, 0, crib, crib, np.zeros((5, 4)), np.zeros(4))
    with pytest.raises(ValueError):
        module.after_play(first_role, 0, 0, crib, crib, np.zeros((5, 4)), np.zeros(3))
    with pytest.raises(ValueError):  # read-only
        module.after_play(first_role, 0, 0, crib, crib, read_only(np.zeros((5, 4))), passed)
