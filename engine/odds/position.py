"""Board position: the chance to win from a score, for choices near the end.

``start_of_deal[d, p]`` is the chance that the dealer, on ``d`` points, wins
against a pone on ``p`` when a new deal begins. It is the fixed point of one
deal's arithmetic, in the order the points arrive:

1. the play (his heels included): the dealer and the pone peg
   ``pegging[dp, pp]`` points (a joint distribution); if both would pass 120
   we call it even;
2. the pone counts their hand (``pone_hand``) and wins on reaching 121;
3. the dealer counts hand and crib (``dealer_hand`` convolved with ``crib``);
4. otherwise the pone deals next, so the dealer's chance is one minus the
   table at the swapped scores.

The distributions come from self-play (``engine/data/ai_tables.json``). The
same steps, with the computer's own hand or crib distribution in place of the
average one, value a discard or a pegging line near the end of the game.
"""

from __future__ import annotations

from functools import cache
from typing import Final

import numpy as np

from engine.odds.hand_tables import DealDistributions, FloatArray, load_tables

GOAL: Final = 121
_ITERATIONS: Final = 60
_TOLERANCE: Final = 1e-10


def _shift_sum(grid: FloatArray, dist: FloatArray, axis: int, beyond: float) -> FloatArray:
    """``out[i] = sum_k dist[k] * grid[i + k]`` along ``axis``, with ``beyond`` past the end."""
    size = grid.shape[axis]
    pad = [(0, 0), (0, 0)]
    pad[axis] = (0, len(dist))
    padded = np.pad(grid, pad, constant_values=beyond)
    out = np.zeros_like(grid)
    for points, p in enumerate(dist):
        if p:
            out += p * (
                padded[points : points + size] if axis == 0 else padded[:, points : points + size]
            )
    return out


def _convolve(a: FloatArray, b: FloatArray) -> FloatArray:
    result: FloatArray = np.convolve(a, b)
    return result


def _after_pegging(
    table: FloatArray,
    first_show: FloatArray,
    second_show: FloatArray,
) -> FloatArray:
    """Chance that the player who counts *second* (the dealer) wins, after the play.

    Indexed [dealer score, pone score], both under 121. ``table`` is the
    start-of-deal table; ``first_show`` is the pone's show distribution,
    ``second_show`` the dealer's (hand and crib).
    """
    # After both shows the pone deals: the dealer's chance is 1 - table[pone, dealer].
    after = 1.0 - table.T
    dealer_counted = _shift_sum(after, second_show, axis=0, beyond=1.0)
    result: FloatArray = _shift_sum(dealer_counted, first_show, axis=1, beyond=0.0)
    return result


def _through_pegging(after: FloatArray, pegging: FloatArray) -> FloatArray:
    """Chance the dealer wins at the start of the play, given the after-play chances."""
    size = after.shape[0]
    rows, cols = pegging.shape
    padded = np.empty((size + rows, size + cols))
    padded[:size, :size] = after
    padded[size:, :size] = 1.0  # the dealer pegged out
    padded[:size, size:] = 0.0  # the pone pegged out
    padded[size:, size:] = 0.5  # both would: call it even
    out = np.zeros_like(after)
    for dp, pp in zip(*np.nonzero(pegging), strict=True):
        out += pegging[dp, pp] * padded[dp : dp + size, pp : pp + size]
    return out


def start_of_deal_table(dist: DealDistributions) -> FloatArray:
    """Solve for the start-of-deal table by iterating one deal until it stops changing."""
    dealer_show = _convolve(dist.dealer_hand, dist.crib)
    table = np.full((GOAL, GOAL), 0.5)
    for _ in range(_ITERATIONS):
        after = _after_pegging(table, dist.pone_hand, dealer_show)
        new = _through_pegging(after, dist.pegging)
        change = float(np.abs(new - table).max())
        table = new
        if change < _TOLERANCE:
            break
    return table


class Position:
    """Win chances for one set of deal distributions (see the module docstring)."""

    def __init__(self, dist: DealDistributions) -> None:
        self.dist = dist
        self.dealer_show = _convolve(dist.dealer_hand, dist.crib)
        self.table = start_of_deal_table(dist)

    def win_chance(self, my_score: int, opp_score: int, dealer: bool) -> float:
        """The chance to win at the start of a deal (``dealer``: whether I deal it)."""
        if my_score >= GOAL:
            return 1.0
        if opp_score >= GOAL:
            return 0.0
        if dealer:
            return float(self.table[my_score, opp_score])
        return 1.0 - float(self.table[opp_score, my_score])

    def after_pegging(self, dealer: bool, my_show: FloatArray, opp_show: FloatArray) -> FloatArray:
        """My chance to win once the play is over, indexed [my score, opp score].

        ``my_show`` and ``opp_show`` are the distributions of what each side
        counts in the show (the dealer's includes the crib).
        """
        if dealer:
            return _after_pegging(self.table, opp_show, my_show)
        # As pone I count first: my chance is 1 - the dealer's, transposed.
        dealer_view = _after_pegging(self.table, my_show, opp_show)
        result: FloatArray = 1.0 - dealer_view.T
        return result

    def deal_chance(
        self,
        my_score: int,
        opp_score: int,
        dealer: bool,
        my_show: FloatArray,
        opp_show: FloatArray,
    ) -> float:
        """My chance to win from the start of the play with these show distributions."""
        after = self.after_pegging(dealer, my_show, opp_show)
        pegging = self.dist.pegging if dealer else self.dist.pegging.T
        total = 0.0
        for mine, theirs in zip(*np.nonzero(pegging), strict=True):
            p = float(pegging[mine, theirs])
            me, opp = my_score + mine, opp_score + theirs
            if me >= GOAL and opp >= GOAL:
                total += 0.5 * p
            elif me >= GOAL:
                total += p
            elif opp < GOAL:
                total += p * float(after[me, opp])
        return total


@cache
def shipped_position() -> Position:
    """The Position for the shipped tables, built once (about a tenth of a second)."""
    return Position(load_tables().distributions)
