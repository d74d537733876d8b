"""engine.winprob_model: the start-of-deal tables against a plain recursion, and the
forward run from one position against the tables."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

from engine.winprob_model import (
    DealModel,
    chances_through,
    deal_stages,
    rotate,
    solve_start_table,
)

GOAL = 9


def toy(sides: int) -> DealModel:
    """Small, lopsided distributions so that order and ties matter; every deal scores."""
    if sides == 2:
        pegging = np.array([[0.0, 0.2, 0.1], [0.3, 0.1, 0.0], [0.1, 0.0, 0.2]])
        shows = ((1, np.array([0.5, 0.0, 0.3, 0.2])), (0, np.array([0.2, 0.2, 0.2, 0.2, 0.2])))
        return DealModel(2, pegging, shows)
    pegging = np.array([[0.2, 0.5, 0.3], [0.0, 0.6, 0.4], [0.6, 0.2, 0.2]])
    shows = (
        (1, np.array([0.4, 0.3, 0.3])),
        (2, np.array([0.1, 0.6, 0.3])),
        (0, np.array([0.3, 0.3, 0.2, 0.2])),
    )
    return DealModel(3, pegging, shows)


def recursion(model: DealModel):  # type: ignore[no-untyped-def]
    """Each role's chance by plain recursion over the deal's outcomes (tiny goal only)."""
    sides = model.sides
    stages = deal_stages(model)

    @cache
    def start(scores: tuple[int, ...]) -> tuple[float, ...]:
        return through(scores, 0)

    def through(scores: tuple[int, ...], stage: int) -> tuple[float, ...]:
        if stage == len(stages):
            nxt = start(scores[1:] + scores[:1])  # role 1 deals next
            return tuple(nxt[(role - 1) % sides] for role in range(sides))
        kind, role, dist = stages[stage]
        total = np.zeros(sides)
        if kind == "joint":
            for a, b in itertools.product(range(dist.shape[0]), range(dist.shape[1])):
                if not dist[a, b]:
                    continue
                s0, s1 = scores[0] + a, scores[1] + b
                if s0 >= GOAL and s1 >= GOAL:
                    total += dist[a, b] * np.array([0.5, 0.5])
                elif s0 >= GOAL or s1 >= GOAL:
                    total[0 if s0 >= GOAL else 1] += dist[a, b]
                else:
                    total += dist[a, b] * np.array(through((s0, s1), stage + 1))
            return tuple(total)
        for points, p in enumerate(dist):
            if not p:
                continue
            moved = list(scores)
            moved[role] += points
            if moved[role] >= GOAL:
                total[role] += p
            else:
                total += p * np.array(through(tuple(moved), stage + 1))
        return tuple(total)

    return start


@pytest.mark.parametrize("sides", [2, 3])
def test_the_table_is_the_recursion(sides: int) -> None:
    model = toy(sides)
    table = solve_start_table(model, goal=GOAL, tolerance=1e-13, max_rounds=200)
    exact = recursion(model)
    for scores in itertools.product(range(GOAL), repeat=sides):
        assert table[scores] == pytest.approx(exact(scores), abs=1e-9)


def test_probabilities_sum_to_one_and_reward_points() -> None:
    table = solve_start_table(toy(3), goal=GOAL)
    assert np.allclose(table.sum(axis=-1), 1.0)
    assert (np.diff(table[..., 0], axis=0) >= -1e-12).all()
    assert (np.diff(table[..., 1], axis=1) >= -1e-12).all()
    assert (np.diff(table[..., 2], axis=2) >= -1e-12).all()


@pytest.mark.parametrize("sides", [2, 3])
def test_running_one_deal_forward_gives_the_table(sides: int) -> None:
    model = toy(sides)
    table = solve_start_table(model, goal=GOAL, tolerance=1e-13, max_rounds=200)
    for scores in [(0,) * sides, (5,) * sides, tuple(range(4, 4 + sides))]:
        forward = chances_through(scores, deal_stages(model), table, goal=GOAL)
        assert forward == pytest.approx(table[scores], abs=1e-9)


def test_rotate_hands_the_deal_to_the_left() -> None:
    table = np.random.default_rng(1).random((4, 4, 4, 3))
    turned = rotate(table)
    assert (turned[1, 2, 3] == np.roll(table[2, 3, 1], 1)).all()


def test_the_docstring_examples_hold() -> None:
    import doctest

    import engine.winbar
    import engine.winprob
    import engine.winprob_model

    for module in (engine.winprob_model, engine.winprob, engine.winbar):
        assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_measured_deals_book_every_point_source(players: int) -> None:
    import random

    from engine.winprob_measure import measure_deals
    from engine.winprob_tables import model_from_counts

    counts = measure_deals(players, 4, random.Random(players), level="normal")
    assert counts.deals == 4
    assert (counts.hands.sum(axis=1) == 4).all()  # every hand counted, nothing included
    assert counts.crib.sum() == 4
    per_role = 1 if players != 3 else 3
    assert counts.pegging.sum() == 4 * per_role
    # One snapshot of the play still to come before each card laid.
    assert counts.rest.sum() == 4 * 4 * players * per_role
    model = model_from_counts(counts)
    assert [role for role, _ in model.shows] == [
        seat % model.sides for seat in (*range(1, players), 0)
    ]
    assert all(dist.sum() == pytest.approx(1.0) for _, dist in model.shows)
    if players == 2:
        assert len(counts.keeps) == 8 and all(len(row) == 7 for row in counts.keeps)


def test_a_three_sided_box_is_rotated_as_np_roll_rotates_it() -> None:
    """The rotated box is np.roll's, value for value and laid out as np.roll lays it
    (a matrix product's last bits follow the layout of what it multiplies)."""
    from engine.winprob_model import rotate_region
    from engine.winprob_tables import load_win_tables

    table = load_win_tables().start[3]
    for scores, box in [
        ((0, 0, 0), (5, 6, 7)),
        ((20, 31, 44), (70, 50, 45)),
        ((118, 0, 9), (3, 1, 2)),
    ]:
        index = tuple(slice(scores[role], scores[role] + box[role]) for role in (1, 2, 0))
        expected = np.roll(np.moveaxis(table[index], 2, 0), 1, axis=-1)
        got = rotate_region(table, scores, box)
        assert got.shape == expected.shape == (*box, 3)
        assert got.strides == expected.strides
        assert (got == expected).all()
