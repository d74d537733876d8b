"""engine/odds/_forward.c against its Python twin (engine/odds/model.py's ``FORWARD``): the
same chance, to the last few bits, on random stages and at every moment of real games; and
malformed arguments refused, never read past."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from engine.odds import model as winprob_model
from engine.odds.model import FORWARD, chances_through, first_role_table
from engine.odds.tables import load_win_tables
from tests.engine.odds.twins import both_compared

pytestmark = pytest.mark.skipif(
    FORWARD.compiled is None, reason="engine/odds/_forward.c was not built"
)
forward = FORWARD.c_module

Call = tuple[Any, ...]


def random_dist(rng: random.Random, length: int) -> np.ndarray:
    dist = np.array([rng.random() ** 3 for _ in range(length)])
    dist[rng.randrange(length)] += 0.5
    return winprob_model.read_only(dist / dist.sum())


def random_stages(rng: random.Random) -> list[winprob_model.Stage]:
    """A deal's rest as a door may ask for it: maybe the play (a joint table), then a
    few shows of either role in any order, some of one point only."""
    stages: list[winprob_model.Stage] = []
    if rng.random() < 0.7:
        rows, cols = rng.randint(1, 14), rng.randint(1, 14)
        joint = np.array([[rng.random() ** 4 for _ in range(cols)] for _ in range(rows)])
        joint[0, 0] += 0.1
        stages.append(("joint", -1, winprob_model.read_only(joint / joint.sum())))
    for _ in range(rng.randint(0 if stages else 1, 4)):
        length = 1 if rng.random() < 0.2 else rng.randint(2, 30)
        stages.append(("add", rng.randint(0, 1), random_dist(rng, length)))
    return stages


@pytest.mark.parametrize("players", [2, 4])
def test_random_stages_give_the_pythons_chance(players: int) -> None:
    """Thousands of random deals' rests from random scores, near the goal as often as
    far from it, through ``chances_through`` (which trims, merges, postpones and takes
    each role's points together as it would for a win bar)."""
    rng = random.Random(players)
    table = load_win_tables().start[players]
    with both_compared(FORWARD) as calls:
        for _ in range(3000):
            high = rng.choice((120, 120, 60))
            scores = [rng.randint(0, high), rng.randint(0, high)]
            chances_through(scores, random_stages(rng), table)
    assert len(calls) == 3000


@pytest.mark.parametrize("players", [2, 4])
def test_every_moment_of_real_games_gives_the_pythons_chance(players: int) -> None:
    from engine.computer.player import ComputerPlayer
    from engine.computer.selfplay import next_action
    from engine.odds.winbar import forget, win_bar
    from engine.rules.game import Game, Phase

    forget()
    with both_compared(FORWARD) as calls:
        for seed in (1, 2):
            game = Game(players, rng=random.Random(seed), dealer=0)
            seats = [ComputerPlayer("normal", random.Random(seat)) for seat in range(players)]
            while game.phase is not Phase.OVER:
                next_action(game, seats)
                for seat in (None, 0):
                    win_bar(game, seat)
    # A seat of two's bars after the cut go through engine/odds/_after_play.c instead.
    assert len(calls) > 250


def good_call() -> list[Any]:
    joint = np.full((3, 3), 1 / 9)
    stages = [("joint", -1, joint), ("add", 1, np.full(4, 0.25)), ("add", 0, np.full(5, 0.2))]
    before = [(0, 0), (2, 2), (2, 5)]
    return [(100, 90), stages, before, (7, 9), first_role_table(load_win_tables().start[2])]


def test_a_good_call_is_the_pythons() -> None:
    args = good_call()
    first = forward.through_two_sides(*args)
    python = FORWARD.python(*args[:4], load_win_tables().start[2])
    assert first == pytest.approx(python, abs=1e-15)
    assert 0.0 < first < 1.0


def test_strided_arrays_are_read_as_the_python_reads_them() -> None:
    """A start table whose rows are not laid out as C's (copied, not read in place) and
    distributions that are views with steps give the same chance."""
    args = good_call()
    table = args[4]
    turned = np.ascontiguousarray(table.T).T  # the same values, laid out by columns
    wide = np.zeros(10)
    wide[::2] = 0.2  # every other value: a view whose step is two doubles
    args[1] = [*args[1][:2], ("add", 0, wide[::2])]
    expected = forward.through_two_sides(*args)
    args[4] = turned
    assert forward.through_two_sides(*args) == expected
    python = FORWARD.python(*args[:4], load_win_tables().start[2])
    assert expected == pytest.approx(python, abs=1e-15)


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda a: a.__setitem__(0, (1,)), ValueError),  # one score
        (lambda a: a.__setitem__(0, (-1, 3)), ValueError),
        (lambda a: a.__setitem__(0, "ab"), TypeError),
        (lambda a: a.__setitem__(3, (0, 9)), ValueError),  # an empty region
        (lambda a: a.__setitem__(3, (30, 9)), ValueError),  # past the table's edge
        (lambda a: a.__setitem__(0, (2**62, 0)), (ValueError, OverflowError)),
        (lambda a: a.__setitem__(1, None), TypeError),
        (lambda a: a[1].__setitem__(0, ["joint", -1, np.ones((2, 2))]), TypeError),
        (lambda a: a[1].__setitem__(0, ("both", -1, np.ones((2, 2)))), ValueError),
        (lambda a: a[1].__setitem__(0, (b"joint", -1, np.ones((2, 2)))), TypeError),
        (lambda a: a[1].__setitem__(1, ("add", 2, np.ones(3))), ValueError),
        (lambda a: a[1].__setitem__(1, ("add", 1, np.ones((3, 3)))), TypeError),
        (lambda a: a[1].__setitem__(1, ("add", 1, np.ones(3, dtype=np.float32))), TypeError),
        (lambda a: a[1].__setitem__(1, ("add", 1, np.ones(3, dtype=np.int64))), TypeError),
        (lambda a: a[1].__setitem__(1, ("add", 1, np.ones(0))), ValueError),
        (lambda a: a[1].__setitem__(1, ("add", 1, [0.5, 0.5])), TypeError),
        (lambda a: a[1].__setitem__(0, ("joint", -1, np.ones(3))), TypeError),
        (lambda a: a[2].pop(), ValueError),  # a pair short of the stages
        (lambda a: a[2].__setitem__(0, (0, 0, 0)), ValueError),
        (lambda a: a[2].__setitem__(1, (9, 9)), ValueError),  # more before than after
        (lambda a: a.__setitem__(4, np.ones(121)), TypeError),
        (lambda a: a.__setitem__(4, np.ones((121, 121), dtype=np.float32)), TypeError),
    ],
)
def test_malformed_arguments_are_refused(change: Any, error: Any) -> None:
    args = good_call()
    args[1], args[2] = list(args[1]), list(args[2])
    change(args)
    with pytest.raises(error):
        forward.through_two_sides(*args)


def test_the_wrong_number_of_arguments_is_refused() -> None:
    with pytest.raises(TypeError):
        forward.through_two_sides()
    with pytest.raises(TypeError):
        forward.through_two_sides(*good_call(), None)


def test_no_stages_is_the_tables_own_value() -> None:
    table = load_win_tables().start[2]
    first = forward.through_two_sides((30, 40), [], [], (1, 1), first_role_table(table))
    assert first == first_role_table(table)[30, 40]
