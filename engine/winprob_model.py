"""Win chances for 2, 3 and 4 players from one deal's scoring distributions.

A position is the scores by *role*: role 0 is the dealer's side, role 1 the side on the
dealer's left, and so on (two sides with 2 players or two partnerships of 4, three with
3 players). One deal brings points in counting order:

1. the play (his heels with it): a joint distribution for two sides, one per role for
   three (independent, the earlier player to the dealer's left winning a tie at 121);
2. the shows, hand by hand from the dealer's left, the dealer's hand and crib last;
   a side wins the moment it reaches 121;
3. the deal passes left: role 1 deals next.

``solve_start_table`` finds, for every position at the start of a deal, each role's
chance to win: the fixed point of one deal (scores only grow, so it converges in about
as many rounds as a game has deals). ``chances_through`` runs the same arithmetic
forward from one position through the stages left of a deal, with whatever is known of
the hands in place of the averages: the mid-hand win bar and the coach use it.

>>> import numpy as np
>>> flat = np.ones(3) / 3
>>> model = DealModel(2, np.ones((2, 2)) / 4, ((1, flat), (0, flat)))
>>> table = solve_start_table(model, goal=6)
>>> round(float(table[0, 0].sum()), 9)
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

GOAL: Final = 121
_CUT: Final = 1e-12  # probabilities below this are dropped from a distribution
_TAIL: Final = 1e-6  # forward runs drop a distribution's tail of this much, renormalised


def sides_for(players: int) -> int:
    """Sides in a game: 2 with two players or two partnerships, 3 with three players."""
    return 3 if players == 3 else 2


@dataclass(frozen=True)
class DealModel:
    """One deal's points. ``pegging`` is a joint [role 0, role 1] table for two sides
    and a [3, points] table of per-role distributions for three; ``shows`` lists
    (role, distribution) in counting order (the dealer's hand with the crib last)."""

    players: int
    pegging: FloatArray
    shows: tuple[tuple[int, FloatArray], ...]

    @property
    def sides(self) -> int:
        return sides_for(self.players)


# --- stages: the same steps backward (whole table) and forward (one position) ----------

Stage = tuple[str, int, FloatArray]
"""("joint", -1, table) for two sides' play, ("add", role, distribution) otherwise."""


def deal_stages(model: DealModel) -> list[Stage]:
    """The model's stages in the order points arrive."""
    stages: list[Stage] = []
    if model.sides == 2:
        stages.append(("joint", -1, model.pegging))
    else:
        for role in (1, 2, 0):  # the first to play takes a tie at 121
            stages.append(("add", role, model.pegging[role]))
    stages.extend(("add", role, dist) for role, dist in model.shows)
    return stages


def _onehot(sides: int, role: int) -> FloatArray:
    vector = np.zeros(sides)
    vector[role] = 1.0
    return vector


def _axis_slice(sides: int, axis: int, part: slice) -> tuple[slice, ...]:
    index = [slice(None)] * (sides + 1)
    index[axis] = part
    return tuple(index)


def _back_add(table: FloatArray, role: int, dist: FloatArray) -> FloatArray:
    """Value before ``role`` scores ``dist``, given ``table`` after it (121 wins)."""
    sides = table.ndim - 1
    size = table.shape[role]
    pad_shape = list(table.shape)
    pad_shape[role] = len(dist)
    padded = np.concatenate([table, np.broadcast_to(_onehot(sides, role), pad_shape)], axis=role)
    out = np.zeros_like(table)
    for points in np.nonzero(dist > _CUT)[0]:
        out += dist[points] * padded[_axis_slice(sides, role, slice(points, points + size))]
    return out


def _back_joint(table: FloatArray, pegging: FloatArray) -> FloatArray:
    """Value before two sides peg ``pegging`` jointly (both past 120: even)."""
    size0, size1 = table.shape[0], table.shape[1]
    rows, cols = pegging.shape
    padded = np.empty((size0 + rows, size1 + cols, 2))
    padded[:size0, :size1] = table
    padded[size0:, :size1] = (1.0, 0.0)
    padded[:size0, size1:] = (0.0, 1.0)
    padded[size0:, size1:] = (0.5, 0.5)
    out = np.zeros_like(table)
    for a, b in zip(*np.nonzero(pegging > _CUT), strict=True):
        out += pegging[a, b] * padded[a : a + size0, b : b + size1]
    return out


def rotate(table: FloatArray) -> FloatArray:
    """A start-of-deal table seen from the deal before: ``out[s0, s1, ...][role]`` is the
    chance of that role of the *previous* deal when role 1 of it deals next."""
    sides = table.ndim - 1
    moved = np.moveaxis(table, sides - 1, 0)
    return np.roll(moved, 1, axis=-1)


def solve_start_table(
    model: DealModel,
    goal: int = GOAL,
    tolerance: float = 1e-9,
    max_rounds: int = 100,
    dtype: type = np.float64,
) -> FloatArray:
    """Each role's chance to win at the start of a deal, ``[s0, s1, (s2), role]``."""
    sides = model.sides
    table: FloatArray = np.full((goal,) * sides + (sides,), 1.0 / sides, dtype=dtype)
    stages = deal_stages(model)
    for _ in range(max_rounds):
        value = rotate(table)
        for kind, role, dist in reversed(stages):
            value = _back_joint(value, dist) if kind == "joint" else _back_add(value, role, dist)
        change = float(np.abs(value - table).max())
        table = value.astype(dtype)
        if change < tolerance:
            break
    return table


# --- one position forward ---------------------------------------------------------------


def _tail_end(dist: FloatArray) -> int:
    """How many leading points to keep so that at most ``_TAIL`` is dropped past them."""
    tail = np.cumsum(dist[::-1])[::-1]  # tail[i] = mass at i or more
    keep = np.nonzero(tail > _TAIL)[0]
    return int(keep[-1]) + 1 if len(keep) else 1


def _trim(dist: FloatArray) -> FloatArray:
    """The distribution without its negligible tail."""
    kept = dist[: _tail_end(dist)]
    result: FloatArray = kept / kept.sum()
    return result


def chances_through(
    scores: Sequence[int],
    stages: Sequence[Stage],
    start_table: FloatArray,
    goal: int = GOAL,
) -> FloatArray:
    """Each role's chance to win from ``scores`` (by role) through ``stages``, the rest of
    this deal, then ``start_table`` (by role, from ``solve_start_table``) for the next."""
    sides = len(scores)
    if any(score >= goal for score in scores):
        winner = next(role for role, score in enumerate(scores) if score >= goal)
        return _onehot(sides, winner)
    trimmed: list[Stage] = []
    reach = [0] * sides
    for kind, role, dist in stages:
        if kind == "joint":
            dist = dist[: _tail_end(dist.sum(axis=1)), : _tail_end(dist.sum(axis=0))]
            dist = dist / dist.sum()
            reach[0] += dist.shape[0] - 1
            reach[1] += dist.shape[1] - 1
        else:
            dist = _trim(dist)
            reach[role] += len(dist) - 1
        trimmed.append((kind, role, dist))
    # A side that cannot reach the goal this deal never ends the game, so its points
    # commute with everyone's: they are added up once and met at the end, not spread.
    joint = any(kind == "joint" for kind, _, _ in trimmed)
    settled = [
        not joint and score + extra < goal for score, extra in zip(scores, reach, strict=True)
    ]
    region = tuple(min(goal - score, extra + 1) for score, extra in zip(scores, reach, strict=True))
    box = tuple(1 if settled[role] else size for role, size in enumerate(region))
    mass = np.zeros(box)
    mass[(0,) * sides] = 1.0
    wins = np.zeros(sides)
    totals: list[FloatArray] = [np.ones(1) for _ in range(sides)]
    for kind, role, dist in trimmed:
        if kind == "joint":
            mass = _forward_joint(mass, dist, wins)
        elif settled[role]:
            totals[role] = np.convolve(totals[role], dist)
        else:
            mass = _forward_add(mass, role, dist, wins)
    later = rotate_region(start_table, scores, region)
    for role in range(sides):
        if settled[role]:
            weights = np.zeros(region[role])
            weights[: len(totals[role])] = totals[role]
            later = np.expand_dims(np.tensordot(later, weights, axes=([role], [0])), role)
    result: FloatArray = wins + np.tensordot(mass, later, axes=sides)
    return result


def _forward_add(mass: FloatArray, role: int, dist: FloatArray, wins: FloatArray) -> FloatArray:
    """``mass`` after ``role`` scores ``dist``; what passes the goal is booked in ``wins``."""
    size = mass.shape[role]
    out = np.zeros_like(mass)
    points = np.nonzero(dist > _CUT)[0]
    for step in points[points < size]:
        out[_axis_slice(mass.ndim - 1, role, slice(step, None))] += (
            float(dist[step]) * mass[_axis_slice(mass.ndim - 1, role, slice(0, size - step))]
        )
    # tail[k]: the mass at k or more along the role's axis, which ``k`` points short of
    # the box's end carries past the goal.
    others = tuple(axis for axis in range(mass.ndim) if axis != role)
    tail = np.zeros(size + 1)
    tail[:size] = mass.sum(axis=others)[::-1].cumsum()[::-1]
    wins[role] += float(dist[points] @ tail[np.maximum(size - points, 0)])
    return out


def _forward_joint(mass: FloatArray, pegging: FloatArray, wins: FloatArray) -> FloatArray:
    """``mass`` after two sides peg ``pegging`` jointly; what passes the goal is booked
    in ``wins`` (the first past it wins; both past it: even, as the play cannot say)."""
    size0, size1 = mass.shape
    rows, cols = pegging.shape
    # Staying in the box is a 2-D convolution, cut to the box: done by FFT, where a
    # shift-and-add per pegging outcome cost a millisecond a win bar.
    shape = (size0 + rows - 1, size1 + cols - 1)
    spectrum = np.fft.rfft2(mass, shape) * np.fft.rfft2(pegging, shape)
    out: FloatArray = np.fft.irfft2(spectrum, shape)[:size0, :size1]
    np.maximum(out, 0.0, out=out)  # round-off below zero
    # tail[i, j] is mass[i:, j:].sum(); what each outcome (a, b) carries past the goal
    # is read from it instead of summed again.
    tail = np.zeros((size0 + 1, size1 + 1))
    tail[:size0, :size1] = mass[::-1, ::-1].cumsum(axis=0).cumsum(axis=1)[::-1, ::-1]
    a, b = np.nonzero(pegging > _CUT)
    p = pegging[a, b]
    cut0, cut1 = np.maximum(size0 - a, 0), np.maximum(size1 - b, 0)
    both = tail[cut0, cut1]
    wins[0] += float(p @ (tail[cut0, 0] - both + both / 2))
    wins[1] += float(p @ (tail[0, cut1] - both + both / 2))
    return out


def rotate_region(start_table: FloatArray, scores: Sequence[int], box: Sequence[int]) -> FloatArray:
    """``rotate(start_table)`` over the box of scores from ``scores``, without building
    the whole rotated table."""
    sides = len(scores)
    order = list(range(1, sides)) + [0]
    index = tuple(slice(scores[role], scores[role] + box[role]) for role in order)
    region = np.moveaxis(start_table[index], sides - 1, 0)
    result: FloatArray = np.roll(region, 1, axis=-1)
    return result
