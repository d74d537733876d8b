"""engine/odds/_by_role.c against its Python twin (engine/odds/model.py's ``BY_ROLE``): the
same three-sided chances to within their sums' order, on the shipped float32 table and on a
small float64 one, for random deals' rests and every moment of real three-player games; and
malformed arguments refused, never read past."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from engine.odds import model
from engine.odds.kept import read_only
from engine.odds.model import BY_ROLE, chances_through
from engine.odds.tables import load_win_tables
from tests.engine.odds.twins import both_compared

pytestmark = pytest.mark.skipif(
    BY_ROLE.compiled is None, reason="engine/odds/_by_role.c was not built"
)
c_module = BY_ROLE.c_module


def random_dist(rng: random.Random, length: int) -> np.ndarray:
    dist = np.array([rng.random() ** 3 for _ in range(length)])
    dist[rng.randrange(length)] += 0.5
    return read_only(dist / dist.sum())


def test_random_rests_of_a_deal_give_the_pythons_chances() -> None:
    """Each role's adds of random lengths (one point up to sixty), from random scores:
    far from the goal the whole box is weighed, near it a role's points pass it."""
    rng = random.Random(3)
    table = load_win_tables().start[3]
    with both_compared(BY_ROLE) as calls:
        for _ in range(400):
            stages = [
                ("add", rng.randrange(3), random_dist(rng, rng.choice((1, rng.randint(2, 60)))))
                for _ in range(rng.randint(1, 5))
            ]
            high = rng.choice((120, 90, 60))
            scores = [rng.randint(0, high) for _ in range(3)]
            chances_through(scores, stages, table)
    assert len(calls) > 200


def test_a_float64_table_gives_the_pythons_chances() -> None:
    """A start table solved small (goal 9, float64), as the tests of the model make."""
    rng = random.Random(4)
    table = np.random.default_rng(4).random((9, 9, 9, 3))
    table /= table.sum(axis=-1, keepdims=True)
    with both_compared(BY_ROLE) as calls:
        for _ in range(300):
            stages = [("add", role, random_dist(rng, rng.randint(1, 6))) for role in range(3)]
            chances_through([rng.randint(0, 8) for _ in range(3)], stages, table, goal=9)
    assert len(calls) > 100


def test_every_moment_of_real_three_player_games_gives_the_pythons_chances() -> None:
    from engine.computer.player import ComputerPlayer
    from engine.computer.selfplay import next_action
    from engine.odds.winbar import forget, win_bar
    from engine.rules.game import Game, Phase

    forget()
    with both_compared(BY_ROLE) as calls:
        game = Game(3, rng=random.Random(5), dealer=0)
        seats = [ComputerPlayer("normal", random.Random(seat)) for seat in range(3)]
        while game.phase is not Phase.OVER:
            next_action(game, seats)
            for seat in (None, 0):
                win_bar(game, seat)
    assert len(calls) > 100


def good_call() -> list[Any]:
    table = load_win_tables().start[3]
    return [table, 10, 20, 30, np.full(5, 0.2), np.full(4, 0.25), np.full(2, 0.5)]


def test_a_good_call_is_the_pythons_box() -> None:
    args = good_call()
    got = c_module.box_sum(*args)  # type: ignore[union-attr]
    box = args[0][10:15, 20:24, 30:32].astype(np.float64)
    expected = np.einsum("i,j,k,ijkr->r", args[4], args[5], args[6], box)
    assert got == pytest.approx(tuple(expected), abs=1e-15)
    assert sum(got) == pytest.approx(1.0, abs=1e-4)  # a box of chances, the weights sum to 1


@pytest.mark.parametrize(
    ("place", "value"),
    [
        (0, np.zeros((9, 9, 9, 2), dtype=np.float32)),  # two chances a cell
        (0, np.zeros((9, 9, 9, 3), dtype=np.int32)),
        (0, np.zeros((9, 9, 3), dtype=np.float32)),
        (0, np.zeros((9, 9, 9, 6), dtype=np.float32)[..., ::2]),  # not contiguous
        (0, [[[[0.5] * 3] * 9] * 9] * 9),
        (1, -1),
        (2, 118),  # the box runs past the table
        (3, 120),
        (3, 1.5),
        (4, np.full(5, 0.2, dtype=np.float32)),
        (5, np.zeros(0)),
        (6, np.full((2, 1), 0.5)),
        (6, np.full(200, 0.005)),  # longer than the table
    ],
)
def test_malformed_arguments_are_refused(place: int, value: Any) -> None:
    args = good_call()
    args[place] = value
    with pytest.raises((TypeError, ValueError, BufferError)):
        c_module.box_sum(*args)  # type: ignore[union-attr]


def test_the_wrong_number_of_arguments_is_refused() -> None:
    with pytest.raises(TypeError):
        c_module.box_sum(*good_call()[:6])  # type: ignore[union-attr]
    assert model.BY_ROLE.module == "engine.odds._by_role"
