"""Every (four-card hand, starter) pair scored at once: the show's exact distribution.

Each of the 270,725 hands meets each of the 48 starters it does not contain,
12,994,800 pairs in all, and every pair is scored and counted. The work is
vectorised with NumPy; the points for ranks come from the same table that
``score_show`` uses, and flush and nob follow the same rules.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.rules.cards import FULL_DECK, Rank
from engine.rules.scoring import RANK_POINTS

HANDS = 270_725
PAIRS = 12_994_800


@dataclass(frozen=True)
class Distribution:
    """``counts[p]`` is how many (hand, starter) pairs score ``p`` points."""

    counts: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.counts)

    @property
    def mean(self) -> float:
        return sum(points * count for points, count in enumerate(self.counts)) / self.total


class _Stopwatch:
    def __init__(self, timings: dict[str, float] | None) -> None:
        self.timings = timings
        self.last = time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        if self.timings is not None:
            self.timings[stage] = now - self.last
        self.last = now


def _hand_arrays() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """All four-card hands as card indices, and each hand's rank-multiset key."""
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 4)),
        dtype=np.int64,
        count=HANDS * 4,
    )
    hands = flat.reshape(HANDS, 4)
    ranks = hands // 4  # index = (rank - 1) * 4 + suit
    keys = (5**ranks).sum(axis=1)
    return hands, keys


def show_distributions(
    timings: dict[str, float] | None = None,
) -> tuple[Distribution, Distribution]:
    """The hand and crib distributions over all 12,994,800 (hand, starter) pairs.

    ``timings``, if given, receives the seconds each stage took.
    """
    clock = _Stopwatch(timings)
    hands, keys = _hand_arrays()
    clock.lap("enumerate the 270,725 hands")
    suits = hands % 4
    ranks = hands // 4

    # Points from ranks: a (hand multiset, starter rank) table gathered per pair.
    unique_keys, multiset_of_hand = np.unique(keys, return_inverse=True)
    starter_rank = np.array([card.index // 4 for card in FULL_DECK])
    rank_table = np.array(
        [
            # five of a rank cannot happen: those pairs are never counted
            [RANK_POINTS.get(int(key) + 5**starter, 0) for starter in range(13)]
            for key in unique_keys
        ],
        dtype=np.int8,
    )
    clock.lap("rank-multiset table (1,820 x 13)")
    points = rank_table[multiset_of_hand[:, None], starter_rank[None, :]]
    clock.lap("gather rank points per pair")

    # The suit-dependent items.
    starter_suit = np.array([card.index % 4 for card in FULL_DECK])
    flush_suit = np.where((suits == suits[:, :1]).all(axis=1), suits[:, 0], -1)
    flush_with_starter = flush_suit[:, None] == starter_suit[None, :]
    has_flush = (flush_suit >= 0)[:, None]
    jack = int(Rank.JACK) - 1
    jack_suits = np.where(ranks == jack, 1 << suits, 0).sum(axis=1)
    nob = ((jack_suits[:, None] >> starter_suit[None, :]) & 1).astype(bool)

    starter_in_hand = np.zeros((HANDS, 52), dtype=bool)
    starter_in_hand[np.arange(HANDS)[:, None], hands] = True
    clock.lap("flush, nob and starter masks")

    # int8 throughout: the arrays have 14 million cells, and wider
    # temporaries cost more than the arithmetic.
    invalid_bucket = np.int8(30)
    crib_points = points + nob.astype(np.int8) + flush_with_starter.astype(np.int8) * np.int8(5)
    hand_points = crib_points + (has_flush & ~flush_with_starter).astype(np.int8) * np.int8(4)
    crib_points[starter_in_hand] = invalid_bucket
    hand_points[starter_in_hand] = invalid_bucket
    hand_counts = np.bincount(hand_points.ravel().view(np.uint8), minlength=31)[:30]
    crib_counts = np.bincount(crib_points.ravel().view(np.uint8), minlength=31)[:30]
    clock.lap("add up and count both tables")
    return (
        Distribution(tuple(int(count) for count in hand_counts)),
        Distribution(tuple(int(count) for count in crib_counts)),
    )
