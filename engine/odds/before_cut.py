"""What a known hand, and a crib half known, may score before the starter is cut: the win
bar's distributions between the discard and the cut. Their loops are also in C
(engine/odds/_before_cut.c), used where it was built: at the cut they were a third of a
two-player bar's time (numpy's small products, a few microseconds a call each).

>>> from engine import parse_cards
>>> hand = parse_cards("5H 5D 5C JS")
>>> seen = sum(card.bit for card in hand)
>>> dist = hand_over_starters(hand, seen, crib=False)
>>> round(float(dist.sum()), 12), int(dist.argmax()), float(dist[29] * 48)  # the 5S: 29
(1.0, 14, 1.0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

import numpy as np

from compiled_parts import Twin
from engine.odds.hand_tables import RANK_TABLE, FloatArray
from engine.odds.hand_values import MAX_POINTS, Unseen, add_chance, crib_distributions_pair
from engine.rules.cards import FULL_DECK, Card, Rank


def _cards_of(bits: int) -> list[Card]:
    """The cards whose bits are set, in the deck's order."""
    return [card for card in FULL_DECK if bits & card.bit]


def _hand_python(cards: Sequence[Card], seen: int, crib: bool) -> FloatArray:
    """What ``cards`` score with each starter outside ``seen``, all alike: the count of
    starters giving each total, over their number. The points are ``score_show``'s: the
    four cards' ranks with the starter's in ``RANK_TABLE``, and what the starter's suit
    adds (a flush, his nob), gathered for all starters at once."""
    unseen = np.ones(len(FULL_DECK), dtype=bool)
    unseen[[card.index for card in _cards_of(seen)]] = False
    starters = np.flatnonzero(unseen)
    r0, r1, r2, r3 = (card.index // 4 for card in cards)
    by_suit = np.zeros(4, dtype=np.intp)
    suit = cards[0].index % 4
    if all(card.index % 4 == suit for card in cards):
        if crib:
            by_suit[suit] += 5
        else:
            by_suit += 4
            by_suit[suit] += 1
    for card in cards:
        if card.rank is Rank.JACK:
            by_suit[card.index % 4] += 1
    points = RANK_TABLE[r0, r1, r2, r3][starters // 4] + by_suit[starters % 4]
    dist = np.bincount(points, minlength=MAX_POINTS).astype(np.float64)
    result: FloatArray = dist / dist.sum()
    return result


def _crib_python(thrown: tuple[Card, Card], seen: int, weight: FloatArray) -> FloatArray:
    unseen = Unseen.excluding(_cards_of(seen))
    row: FloatArray = crib_distributions_pair([thrown], unseen, weight)[0]
    return row


class BeforeCut(NamedTuple):
    hand: Callable[[Sequence[Card], int, bool], FloatArray]
    crib: Callable[[tuple[Card, Card], int, FloatArray], FloatArray]


def _in_c(c_module: object) -> BeforeCut:
    counts = c_module.hand_counts  # type: ignore[attr-defined]
    weights = c_module.crib_weights  # type: ignore[attr-defined]

    def hand_in_c(cards: Sequence[Card], seen: int, crib: bool) -> FloatArray:
        bins = np.zeros(MAX_POINTS)
        starters = counts(RANK_TABLE, tuple(card.index for card in cards), seen, crib, bins)
        result: FloatArray = bins / starters
        return result

    def crib_in_c(thrown: tuple[Card, Card], seen: int, weight: FloatArray) -> FloatArray:
        first, second = thrown
        bins = np.zeros(MAX_POINTS)
        total, flush, nob = weights(RANK_TABLE, weight, first.index, second.index, seen, bins)
        dist = add_chance(bins / total, nob / total, 1)
        if flush:
            dist = add_chance(dist, flush / total / 5, 5)
        return dist

    return BeforeCut(hand_in_c, crib_in_c)


BEFORE_CUT: Final = Twin[BeforeCut](
    "engine.odds._before_cut",
    python=BeforeCut(_hand_python, _crib_python),
    compiled=_in_c,
)
"""The two distributions, in C where engine/odds/_before_cut.c was built (the same
distributions to within the rounding of their sums)."""


def hand_over_starters(cards: Sequence[Card], seen: int, crib: bool) -> FloatArray:
    """What the four ``cards`` (all seen) score with each starter outside ``seen`` (bits
    by card index), all alike: a crib's if ``crib`` (its flush only with the starter)."""
    return BEFORE_CUT.chosen.hand(cards, seen, crib)


def crib_before_cut(thrown: tuple[Card, Card], seen: int, weight: FloatArray) -> FloatArray:
    """What a two-player crib holding ``thrown`` may score before the cut, the other two
    cards and the starter from outside ``seen`` (bits by card index), the other player's
    pair weighted by ``weight`` (how often a player in their role throws those ranks):
    ``engine.odds.hand_values.crib_distributions_pair`` for one throw."""
    return BEFORE_CUT.chosen.crib(thrown, seen, weight)
