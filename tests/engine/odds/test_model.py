"""engine.odds.model: the start-of-deal tables against a plain recursion, and the
forward run from one position against the tables."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

from engine.odds.kept import KeptForTables, read_only
from engine.odds.model import DealModel, chances_through, deal_stages, rotate
from engine.odds.start_table import solve_start_table

pytestmark = pytest.mark.both_twins  # the two-sided run is in C and in Python

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

    import engine.odds.model
    import engine.odds.start_table
    import engine.odds.winbar
    import engine.odds.winprob

    modules = (engine.odds.model, engine.odds.start_table, engine.odds.winprob, engine.odds.winbar)
    for module in modules:
        assert doctest.testmod(module).failed == 0


def test_a_three_sided_box_is_rotated_as_np_roll_rotates_it() -> None:
    """The rotated box is np.roll's, value for value and laid out as np.roll lays it
    (a matrix product's last bits follow the layout of what it multiplies)."""
    from engine.odds.model import rotate_region
    from engine.odds.tables import load_win_tables

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


def trimmed_plainly(dist: np.ndarray) -> np.ndarray:
    """A stage's distribution as forward runs take it: the longest tail of at most a
    millionth dropped, the rest scaled back to one (rows and columns of a joint one)."""
    if dist.ndim == 2:
        rows = trimmed_plainly(dist.sum(axis=1)).size
        cols = trimmed_plainly(dist.sum(axis=0)).size
        kept = dist[:rows, :cols]
    else:
        kept = dist[: max(i for i in range(dist.size) if dist[i:].sum() > 1e-6) + 1]
    return kept / kept.sum()


def forward_in_order(scores, stages, start_table, goal=121):  # type: ignore[no-untyped-def]
    """Each role's chance, the scores' distribution pushed forward stage by stage in the
    order the points come (a role reaching the goal wins there, two at once in the play
    share), then the next deal's start values weighed by where the scores end."""
    sides = len(scores)
    stages = [(kind, role, trimmed_plainly(dist)) for kind, role, dist in stages]
    reach = [0] * sides
    for kind, role, dist in stages:
        for axis, extent in enumerate(dist.shape):
            reach[axis if kind == "joint" else role] += extent - 1
    box = tuple(min(goal - score, extra + 1) for score, extra in zip(scores, reach, strict=True))
    here = np.zeros(box)
    here[(0,) * sides] = 1.0
    won = np.zeros(sides)
    for kind, role, dist in stages:
        after = np.zeros(box)
        if kind == "joint":  # two sides
            for (a, b), chance in np.ndenumerate(dist):
                in0, in1 = max(box[0] - a, 0), max(box[1] - b, 0)  # staying short of it
                after[a : a + in0, b : b + in1] += chance * here[:in0, :in1]
                won[0] += chance * here[in0:, :in1].sum()
                won[1] += chance * here[:in0, in1:].sum()
                won += chance * here[in0:, in1:].sum() / 2
        else:
            for points, chance in enumerate(dist):
                stay = max(box[role] - points, 0)
                source = [slice(None)] * sides
                target = [slice(None)] * sides
                source[role], target[role] = slice(0, stay), slice(points, points + stay)
                after[tuple(target)] += chance * here[tuple(source)]
                source[role] = slice(stay, None)
                won[role] += chance * here[tuple(source)].sum()
        here = after
    # The next deal: role 1 deals, so the table's roles are ours turned by one.
    order = [*range(1, sides), 0]
    index = tuple(slice(scores[role], scores[role] + box[role]) for role in order)
    nxt = np.roll(np.moveaxis(np.asarray(start_table[index], dtype=np.float64), -2, 0), 1, -1)
    return np.tensordot(here, nxt, axes=sides) + won


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_forward_run_of_real_deals_is_the_plain_one(players: int) -> None:
    """At moments of a whole game, as the watcher and the first seat see them, the
    chances run through the rest of the deal are those of pushing the scores forward
    stage by stage in order (to 1e-12: the sums are not made in the same order). Near
    the end, where two sides may reach 121 in the deal and the order of the points
    decides, as much as in the middle, where the run may take each side's points
    together."""
    import random

    from engine.computer.player import ComputerPlayer
    from engine.computer.selfplay import next_action
    from engine.odds.tables import load_win_tables
    from engine.odds.winbar import hand_stages, view_of
    from engine.odds.winprob import role_sides
    from engine.rules.game import Game, Phase

    table = load_win_tables().start[players]
    game = Game(players, rng=random.Random(40 + players), dealer=0)
    seats = [ComputerPlayer("normal", random.Random(seat)) for seat in range(players)]
    moment, checked, close = 0, 0, 0
    while game.phase is not Phase.OVER:
        next_action(game, seats)
        moment += 1
        if game.phase not in (Phase.DISCARD, Phase.CUT, Phase.PLAY, Phase.SHOW):
            continue
        near = max(game.scores) > 95
        if not near and moment % 5:
            continue
        for seat in (None, 0):
            stages = hand_stages(game, view_of(game, seat))
            scores = [game.scores[side] for side in role_sides(players, game.dealer)]
            got = chances_through(scores, stages, table)
            expected = forward_in_order(scores, stages, table)
            assert got == pytest.approx(expected, abs=1e-12, rel=0)
            checked += 1
            close += near
    assert checked > 20 and close > 10


def test_work_on_a_read_only_distribution_is_kept_while_it_lives() -> None:
    """The trimmed stages of the shipped tables stay kept however many short-lived
    distributions (cribs once the starter is cut) come and go, and an entry goes with
    its array."""
    kept = KeptForTables()
    done: list[int] = []

    def work(dist: np.ndarray) -> np.ndarray:
        done.append(len(dist))
        return dist * 2

    table = read_only(np.ones(3))
    first = kept(table, work)
    for size in range(5000):  # more than any bound the old keeping had
        passing = read_only(np.ones(size % 7 + 1))
        kept(passing, work)
        del passing
    assert len(kept) == 1  # each passing one went as it was freed
    calls = len(done)
    assert kept(table, work) is first  # not worked out again
    assert len(done) == calls
    writeable = np.ones(2)
    kept(writeable, work)
    kept(writeable, work)
    assert len(done) == calls + 2 and len(kept) == 1  # a writeable one is never kept
    del table
    assert len(kept) == 0


def test_a_hand_and_crib_summed_once_are_the_same_sum_every_time_and_kept_bounded() -> None:
    """The dealer's hand and crib (read-only, as the bar's are) summed for one moment are
    summed alike for the next, as when both are new writeable arrays; and a server's worth
    of different pairs keeps no more than its bound."""
    from engine.odds import model

    rng = np.random.default_rng(4)
    pegging = read_only(np.full((3, 3), 1 / 9))
    model.clear_kept()
    for _ in range(3000):
        hand = rng.random(6)
        crib = rng.random(5)
        hand, crib = hand / hand.sum(), crib / crib.sum()
        kept_stages = [
            ("joint", -1, pegging),
            ("add", 0, read_only(hand)),
            ("add", 0, read_only(crib)),
        ]
        fresh = [("joint", -1, pegging.copy()), ("add", 0, hand.copy()), ("add", 0, crib.copy())]
        scores = (int(rng.integers(100, 118)), int(rng.integers(100, 118)))
        table = np.full((121, 121, 2), 0.5)
        first = chances_through(scores, kept_stages, table)
        again = chances_through(scores, kept_stages, table)
        assert first.tolist() == again.tolist() == chances_through(scores, fresh, table).tolist()
    assert 0 < len(model._SUMS) <= model._SUMS_KEPT
