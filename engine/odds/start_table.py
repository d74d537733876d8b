"""Each role's chance to win from every position at the start of a deal (the shipped
tables' source, bench/gen_winprob_tables.py): one deal's stages worked backward over the
whole table, and the deal passed on, until nothing changes, the fixed point of one deal
(scores only grow, so it converges in about as many rounds as a game has deals).

>>> import numpy as np
>>> from engine.odds.model import DealModel
>>> flat = np.ones(3) / 3
>>> model = DealModel(2, np.ones((2, 2)) / 4, ((1, flat), (0, flat)))
>>> table = solve_start_table(model, goal=6)
>>> round(float(table[0, 0].sum()), 9)
1.0
"""

from __future__ import annotations

from typing import Final

import numpy as np

from engine.odds.model import GOAL, DealModel, FloatArray, deal_stages, onehot, rotate

_CUT: Final = 1e-12  # probabilities below this are dropped from a distribution


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
    padded = np.concatenate([table, np.broadcast_to(onehot(sides, role), pad_shape)], axis=role)
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
