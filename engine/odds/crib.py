"""A crib once the starter is cut: its distribution over the cards the other player may
have thrown, weighted by how often players throw them (the computer's pegging near the
end, and the win bar after the cut). The loop over the unseen pairs is also in C
(engine/odds/_crib.c), used where it was built."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from compiled_parts import Twin
from engine.odds.hand_tables import RANK_TABLE, RANKS, FloatArray
from engine.rules.cards import FULL_DECK, Card, Rank

CribOfUnseen = Callable[[tuple[Card, ...], Card, int, FloatArray], FloatArray]
CribCounts = Callable[..., Any]


@cache
def _deck_pairs() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Every pair of the deck's cards, the lower index first, in row order: the two
    cards' indices, and for a starter of each suit the pair's ranks as one index into a
    13 x 13 table, plus 169 if one of the two is the jack of that suit (nob)."""
    first, second = np.triu_indices(len(FULL_DECK), 1)
    ranks = (first // 4) * RANKS + second // 4
    jacks = [(Rank.JACK - 1) * 4 + suit for suit in range(4)]
    nob = np.stack([(first == jack) | (second == jack) for jack in jacks])
    return first, second, ranks + RANKS * RANKS * nob


def _crib_given_starter(
    discards: tuple[Card, ...], starter: Card, seen: int, weight: FloatArray
) -> FloatArray:
    """Our crib's distribution once the starter is known, over the pone's two
    cards, weighted by how often a pone throws them; ``seen``: the cards out of the pool
    as bits by card index (the discards and the starter among them).

    The pairs of unseen cards are taken from the deck's pairs (``_deck_pairs``) whose
    cards are both unseen, in the order pairs of the unseen cards alone would come in:
    each pair has the same points and weight, and each bin sums them in the same order,
    as in a count over the unseen cards' pairs themselves (the tests compare the two)."""
    first, second, codes = _deck_pairs()
    unseen = np.ones(len(FULL_DECK), dtype=bool)
    unseen[[index for index in range(len(FULL_DECK)) if seen >> index & 1]] = False
    pair = unseen[first] & unseen[second]
    suit = starter.index % 4
    code = codes[suit][pair]
    d1, d2 = discards
    # Points by code: RANK_TABLE[d1, d2, x, y, starter], one more for nob.
    by_ranks = RANK_TABLE[d1.index // 4, d2.index // 4, :, :, starter.index // 4].ravel()
    points = np.concatenate([by_ranks, by_ranks + 1], dtype=np.intp)[code]
    nob = (Rank.JACK - 1) * 4 + suit  # the index of the jack of the starter's suit
    if nob in (d1.index, d2.index):
        points += 1
    if d1.suit is starter.suit and d2.suit is starter.suit:
        points += 5 * ((first[pair] % 4 == suit) & (second[pair] % 4 == suit))
    flat = weight.ravel()
    crib = np.bincount(points, weights=np.concatenate([flat, flat])[code], minlength=30)[:30]
    result: FloatArray = crib / crib.sum()
    return result


def _crib_counts_in_c(crib_counts: CribCounts) -> CribOfUnseen:
    """``_crib_given_starter`` with engine/odds/_crib.c's ``crib_counts``: one loop over the
    unseen pairs, in the same order, each bin the same sum."""

    def crib_given_starter_in_c(
        discards: tuple[Card, ...], starter: Card, seen: int, weight: FloatArray
    ) -> FloatArray:
        first, second = discards
        crib = np.zeros(30)
        crib_counts(RANK_TABLE, weight, first.index, second.index, starter.index, seen, crib)
        result: FloatArray = crib / crib.sum()
        return result

    return crib_given_starter_in_c


CRIB: Final = Twin[CribOfUnseen](
    "engine.odds._crib",
    python=_crib_given_starter,
    compiled=lambda c: _crib_counts_in_c(c.crib_counts),
)
"""The crib once the starter is cut, in C where engine/odds/_crib.c was built."""


def crib_given_starter(
    discards: tuple[Card, ...], starter: Card, kept: tuple[Card, ...], weight: FloatArray
) -> FloatArray:
    """Our crib's distribution once the starter is known, over the other player's two
    cards, weighted by ``weight`` (how often a player in their role throws them); ``kept``
    and the starter are not in the pool."""
    seen = starter.bit
    for card in (*discards, *kept):
        seen |= card.bit
    return CRIB.chosen(discards, starter, seen, weight)


def crib_given_seen(
    discards: tuple[Card, ...], starter: Card, seen: int, weight: FloatArray
) -> FloatArray:
    """``crib_given_starter`` with the cards out of the pool given as bits by card index
    (``seen``, which holds the discards and the starter): as a win bar's view keeps them,
    not turned into cards and back."""
    return CRIB.chosen(discards, starter, seen, weight)
