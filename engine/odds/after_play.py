"""Two sides' chances once the play is over, worked out once a deal and narrowed by the
crib at each moment of its play: the win bar of a seat of two during the play and the
show (there the play still to come is nothing, and a hand counted brings no more).

A seat's view of the rest of a deal changes in two ways while the play goes on: the
play still to come and the scores at every play, and the crib (the other's cards played
cannot be in it) at every play of the other's. The hands (the pone's, counted first, and
the dealer's) stay the same until the other's is seen whole. So the chance after the
play is worked out without the crib, once, over the scores the rest of the play may
bring (``after_play_values``: the pone's hand, then the dealer's, then the next deal),
and each moment takes the crib and the play still to come through it alone
(``chance_through_crib``): a few thousand products in place of the whole forward run.

The dealer's crib comes last in counting order, after the pone's hand: taking it first
is exact as long as the dealer reaching the goal with hand and crib (``dealer >= 121``)
counts only where the pone did not reach it first, which the values past the goal say
(``AfterPlay.passed``: the pone's chance of staying short). The chances are the forward
run's (``engine.odds.model.first_role_chance``) but for the rounding of the sums, a few
parts in 10^15 (tests/engine/odds/test_after_play.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

import numpy as np

from compiled_parts import Twin
from engine.odds.model import GOAL, TAIL, FloatArray, chance_through_play


class AfterPlay(NamedTuple):
    """Role 0's chance once the play is over with the crib still to count, from scores
    ``(first + i, second + j)``: ``values[i, j]`` under the goal, ``passed[j]`` for role 0
    on the goal or past it (the pone's chance of not reaching it with its hand)."""

    first: int
    second: int
    values: FloatArray
    passed: FloatArray


def after_play_values(
    first_role: FloatArray,
    first: int,
    second: int,
    rows: int,
    cols: int,
    pone: FloatArray,
    dealer_hand: FloatArray,
) -> AfterPlay:
    """``AfterPlay`` over ``rows`` x ``cols`` scores from ``(first, second)`` (fewer where
    they reach the goal), before the pone counts ``pone`` and the dealer ``dealer_hand``,
    then the next deal from ``first_role`` (``engine.odds.model.first_role_table``).

    Each value is its terms summed in one order whatever the box (a point's at a time,
    the pone's then the dealer's), so values worked out over two boxes are the same."""
    rows, cols = min(rows, GOAL - first), min(cols, GOAL - second)
    values, passed = PARTS.chosen.values(first_role, first, second, rows, cols, pone, dealer_hand)
    return AfterPlay(first, second, values, passed)


def _values_python(
    first_role: FloatArray,
    first: int,
    second: int,
    rows: int,
    cols: int,
    pone: FloatArray,
    dealer_hand: FloatArray,
) -> tuple[FloatArray, FloatArray]:
    """``after_play_values``' work: the values and the chances past the goal (the
    table's last row and column are the goal's)."""
    goal0, goal1 = first_role.shape
    dealer_rows = min(rows + len(dealer_hand) - 1, goal0 - first)
    # The pone's points: none of the table's scores past the goal (the pone has won).
    wide = np.zeros((dealer_rows, cols + len(pone) - 1))
    inside = min(wide.shape[1], goal1 - second)
    wide[:, :inside] = first_role[first : first + dealer_rows, second : second + inside]
    counted = np.zeros((dealer_rows, cols))
    passed = np.zeros(cols)
    short = np.zeros(cols + len(pone) - 1)
    short[:inside] = 1.0
    for points, weight in enumerate(pone.tolist()):
        if not weight:
            continue  # adds nothing: a hand known is one weight (the C skips it too)
        counted += weight * wide[:, points : points + cols]
        passed += weight * short[points : points + cols]
    # Then the dealer's: past the goal, role 0 wins if the pone did not first.
    below = np.empty((rows + len(dealer_hand) - 1, cols))
    below[:dealer_rows] = counted
    below[dealer_rows:] = passed
    values = np.zeros((rows, cols))
    for points, weight in enumerate(dealer_hand.tolist()):
        if weight:
            values += weight * below[points : points + rows]
    return values, passed


_ONE: Final = np.ones(1)
"""A hand that brings no points (counted, or taken into a table made before)."""

_AVERAGE_FIRST: dict[
    tuple[int, int, bool], tuple[FloatArray, FloatArray, FloatArray, FloatArray]
] = {}
"""Tables of the values after the play with the other's average hand counted, by the
start table's and the average's ids and whether the average is the pone's, with the
arrays themselves (so that neither id can be reused while it is kept)."""


def before_cut_values(
    first_role: FloatArray,
    first: int,
    second: int,
    rows: int,
    cols: int,
    own: FloatArray,
    average: FloatArray,
    own_deals: bool,
) -> AfterPlay:
    """``after_play_values`` for a seat of two before the cut, whose own hand is ``own``
    and the other's the same ``average`` at every table: the average's part is a table
    made once (``_average_counted``), so only the seat's own hand is counted here. The
    chances are ``after_play_values``' but for the rounding of the sums."""
    rows, cols = min(rows, GOAL - first), min(cols, GOAL - second)
    table, passed = _average_counted(first_role, average, pone=own_deals)
    if own_deals:  # the pone's average counted first, in the table: then the dealer's own
        values, _ = PARTS.chosen.values(table, first, second, rows, cols, _ONE, own)
        return AfterPlay(first, second, values, passed[second : second + cols].copy())
    values, passed = PARTS.chosen.values(table, first, second, rows, cols, own, _ONE)
    return AfterPlay(first, second, values, passed)


def _average_counted(
    first_role: FloatArray, average: FloatArray, *, pone: bool
) -> tuple[FloatArray, FloatArray]:
    """The values after the play over every score with only ``average`` counted: the
    pone's (``pone``; rows past the goal hold the chance of its staying short, one for
    each point a dealer's hand may bring, so a dealer's hand is counted through them
    as through values made whole) or the dealer's (the pone's hand then counted
    through it as through the start table)."""
    key = (id(first_role), id(average), pone)
    known = _AVERAGE_FIRST.get(key)
    if known is None or known[0] is not first_role or known[1] is not average:
        goal0, goal1 = first_role.shape
        if pone:
            counted, passed = PARTS.chosen.values(first_role, 0, 0, goal0, goal1, average, _ONE)
            table = np.vstack([counted, np.broadcast_to(passed, (SHOW_ROWS, goal1))])
        else:
            table, passed = PARTS.chosen.values(first_role, 0, 0, goal0, goal1, _ONE, average)
        if len(_AVERAGE_FIRST) > 8:
            _AVERAGE_FIRST.clear()  # tables made on the fly (tests)
        known = _AVERAGE_FIRST[key] = (first_role, average, np.ascontiguousarray(table), passed)
    return known[2], known[3]


SHOW_ROWS: Final = 30
"""The most points a hand may bring (29), and one: the rows past the goal a table of
the pone's average counted holds."""


def _values_in_c(after_play: Callable[..., None]) -> Values:
    """``_values_python`` with engine/odds/_after_play.c's ``after_play``: the same sums in
    the same order."""

    def values_in_c(
        first_role: FloatArray,
        first: int,
        second: int,
        rows: int,
        cols: int,
        pone: FloatArray,
        dealer_hand: FloatArray,
    ) -> tuple[FloatArray, FloatArray]:
        values, passed = np.empty((rows, cols)), np.empty(cols)
        after_play(first_role, first, second, pone, dealer_hand, values, passed)
        return values, passed

    return values_in_c


def _through_crib_python(
    values: FloatArray,
    passed: FloatArray,
    goal_row: int,
    row: int,
    col: int,
    need0: int,
    need1: int,
    crib: FloatArray,
    pegging: FloatArray,
) -> float | None:
    """``chance_through_crib``'s work, from ``values[row, col]`` (row ``goal_row`` is the
    goal's), over ``need0`` x ``need1`` scores: the crib trimmed (as
    ``engine.odds.model`` trims a distribution, its sums added one at a time), its
    points a point at a time, then the play; None where ``values`` has too few rows for
    the crib."""
    weights = crib.tolist()
    kept, tail = 1, 0.0
    for points in range(len(weights) - 1, 0, -1):
        tail += weights[points]
        if tail > TAIL:
            kept = points + 1
            break
    total = 0.0
    for weight in weights[:kept]:
        total += weight
    last = row + need0 + kept - 1
    if min(last, goal_row) > len(values):
        return None
    below = values[row : min(goal_row, last), col : col + need1]
    if last > goal_row:  # the crib's rows on the goal or past it
        passing = np.broadcast_to(passed[col : col + need1], (last - goal_row, need1))
        below = np.vstack([below, passing])
    after = np.zeros((need0, need1))
    for points, weight in enumerate(weights[:kept]):
        if weight / total:
            after += weight / total * below[points : points + need0]
    return chance_through_play(after, pegging)


Values = Callable[
    [FloatArray, int, int, int, int, FloatArray, FloatArray], tuple[FloatArray, FloatArray]
]
ThroughCrib = Callable[
    [FloatArray, FloatArray, int, int, int, int, int, FloatArray, FloatArray], float | None
]


class Parts(NamedTuple):
    """The module's two compiled parts."""

    values: Values
    through_crib: ThroughCrib


PARTS: Final = Twin[Parts](
    "engine.odds._after_play",
    python=Parts(_values_python, _through_crib_python),
    compiled=lambda c: Parts(_values_in_c(c.after_play), c.through_crib),
)
"""The values after the play and a moment through them, in C where
engine/odds/_after_play.c was built."""


def chance_through_crib(
    after: AfterPlay, first: int, second: int, crib: FloatArray, pegging: FloatArray
) -> float | None:
    """Role 0's chance from scores ``(first, second)``, under the goal, with ``pegging``
    still to come in the play (a joint table, trimmed) and then ``crib`` for the dealer
    once the hands are counted (trimmed here, as ``engine.odds.model`` trims it); None
    when ``after`` does not hold the scores it needs (work them out again from these)."""
    row, col = first - after.first, second - after.second
    goal_row = GOAL - after.first
    need0, need1 = min(GOAL - first, pegging.shape[0]), min(GOAL - second, pegging.shape[1])
    if row < 0 or col < 0 or col + need1 > after.values.shape[1]:
        return None
    return PARTS.chosen.through_crib(
        after.values, after.passed, goal_row, row, col, need0, need1, crib, pegging
    )
