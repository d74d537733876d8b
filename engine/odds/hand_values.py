"""Exact expected values of a kept hand and of the crib, for every possible discard.

Everything is counted over the cards the player cannot see (46 with two
players, 47 with three or four). The suit-free part of a show (fifteens,
pairs, runs) depends only on the five ranks, so instead of scoring each of
the 45,540 (opponent's two cards, starter) completions of a crib one by one
we weight each (rank, rank, rank) completion by how many card combinations
make it and gather the points from ``RANK_TABLE``; flush and nob, the two
suit-dependent items, are counted in closed form. The results are exact (the
tests compare them with brute-force ``score_show`` loops).

The opponent's two crib cards are weighted by ``throw_weight``: how much more
often a real player throws that pair of ranks than a random thrower would.
A uniform weight gives the plain average over all unseen pairs.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from engine.odds.hand_tables import RANK_TABLE, RANKS, UNIFORM_WEIGHT, FloatArray
from engine.rules.cards import Card

JACK: Final = 10  # rank index of the jack
MAX_POINTS: Final = 30  # histogram length: a show scores 0..29
SUITS: Final = 4


@dataclass(frozen=True)
class Unseen:
    """The cards a player cannot see, as counts the formulas need."""

    present: npt.NDArray[np.bool_]  # [rank, suit]
    ranks: FloatArray  # cards left of each rank
    suits: FloatArray  # cards left of each suit
    total: int

    @classmethod
    def excluding(cls, seen: Sequence[Card]) -> Unseen:
        """Every card but ``seen``: the counts taken in plain Python from the seen
        cards' indices (a card's rank is its index over four, its suit the rest), the
        table of what is left made in one step (numpy a card at a time, then three
        sums, was a sixth of the normal level's discard)."""
        gone = {card.index for card in seen}
        present = np.ones(RANKS * SUITS, dtype=bool)
        present[list(gone)] = False
        ranks, suits = [float(SUITS)] * RANKS, [float(RANKS)] * SUITS
        for index in gone:
            ranks[index >> 2] -= 1
            suits[index & 3] -= 1
        return cls(
            present.reshape(RANKS, SUITS),
            np.array(ranks),
            np.array(suits),
            RANKS * SUITS - len(gone),
        )


def _ranks(cards: Sequence[Card]) -> list[int]:
    return [card.index // 4 for card in cards]


# --- the kept hand ---------------------------------------------------------


_BY_FOUR_RANKS: Final = RANK_TABLE.reshape(-1, RANKS)
"""``RANK_TABLE`` by the four kept cards' ranks as one number (base 13), then the
starter's rank."""


def _four_ranks(keep: Sequence[Card]) -> int:
    a, b, c, d = keep
    return (((a.index >> 2) * RANKS + (b.index >> 2)) * RANKS + (c.index >> 2)) * RANKS + (
        d.index >> 2
    )


def _suit_points(keep: Sequence[Card]) -> list[int]:
    """Flush and nob points of a kept hand for a starter of each suit: the flush four
    for any starter, five for one of its suit; his nob one for the jack's suit."""
    suit = keep[0].index & 3
    if all(card.index & 3 == suit for card in keep):
        points = [4] * SUITS
        points[suit] = 5
    else:
        points = [0] * SUITS
    for card in keep:
        if card.index >> 2 == JACK:
            points[card.index & 3] += 1
    return points


def hand_values(keeps: Sequence[Sequence[Card]], unseen: Unseen) -> FloatArray:
    """Expected show points of each four-card hand over every unseen starter.

    The flush and nob part is summed in plain Python, a hand at a time, rather than a
    few numpy calls a hand (which were two fifths of the normal level's discard): its
    sums are of whole numbers, exact in any order, so the values are the same to the
    bit."""
    suits: list[float] = unseen.suits.tolist()
    flush = 4 * sum(suits)  # four for a starter of any suit
    by_ranks, suit_part = [], []
    for keep in keeps:
        a, b, c, d = [card.index for card in keep]
        by_ranks.append((((a >> 2) * RANKS + (b >> 2)) * RANKS + (c >> 2)) * RANKS + (d >> 2))
        suit = a & 3
        value = flush + suits[suit] if b & 3 == suit and c & 3 == suit and d & 3 == suit else 0.0
        for index in (a, b, c, d):
            if index >> 2 == JACK:
                value += suits[index & 3]
        suit_part.append(value)
    rank_part = _BY_FOUR_RANKS[by_ranks] @ unseen.ranks
    result: FloatArray = (rank_part + np.array(suit_part)) / unseen.total
    return result


def hand_distributions(keeps: Sequence[Sequence[Card]], unseen: Unseen) -> FloatArray:
    """For each hand, the probability of each show total 0..29 over the unseen starters:
    every hand's points with every starter counted in one bincount, a row of 30 bins
    each (a hand scores 29 at most)."""
    starter_rank, starter_suit = np.nonzero(unseen.present)
    points = _BY_FOUR_RANKS[[_four_ranks(keep) for keep in keeps]][:, starter_rank].astype(np.intp)
    points += np.array([_suit_points(keep) for keep in keeps], dtype=np.intp)[:, starter_suit]
    points += (MAX_POINTS * np.arange(len(keeps)))[:, None]
    counts = np.bincount(points.ravel(), minlength=MAX_POINTS * len(keeps))
    out = counts.reshape(len(keeps), MAX_POINTS).astype(np.float64)
    result: FloatArray = out / unseen.total
    return result


# --- the crib, two players (two cards from each) ----------------------------


@dataclass(frozen=True)
class _CribWeights:
    """Per-decision sums shared by every discard: see ``crib_values_pair``."""

    rank_weight: FloatArray  # [rx, ry, rs] weighted count of (x, y, starter) completions
    total: float
    flush: FloatArray  # per suit: weighted completions that are all that suit
    nob_if_thrown: FloatArray  # per suit: weighted completions nobbing a thrown jack
    nob_unseen: float  # weighted completions nobbing a jack the opponent may throw


def _crib_weights(
    unseen: Unseen, weight: FloatArray, suits: Iterable[int] = range(SUITS)
) -> _CribWeights:
    """The sums for the throws whose flush and nob need only ``suits`` (the others' are
    left at zero): the win bar's one throw needs at most two of the four, and each is a
    few small numpy products (three quarters of the work for all four). Each sum worked
    out is the same numpy steps on the same arrays whichever suits are asked for, so the
    same to the bit."""
    n = unseen.ranks
    eye = np.eye(RANKS)
    # Ordered opponent pairs (x, y) by ranks, then the starter from what is left.
    pairs = n[:, None] * (n[None, :] - eye) * weight
    left = n[None, None, :] - eye[:, None, :] - eye[None, :, :]
    rank_weight = pairs[:, :, None] * left
    total = float(rank_weight.sum())
    pair_total = float(pairs.sum())
    diagonal = np.diag(weight)
    # Weighted ordered pairs that include a given card of rank r: 2 * (R[r] - w[r, r]).
    row = weight @ n
    flush = np.zeros(SUITS)
    nob_if_thrown = np.zeros(SUITS)
    for suit in suits:
        c = unseen.present[:, suit].astype(np.float64)
        suited_pairs = c @ weight @ c - c @ diagonal
        flush[suit] = 5 * suited_pairs * (unseen.suits[suit] - 2)
        # Starter s of this suit, the jack of this suit thrown by us: any pair without s.
        nob_if_thrown[suit] = float(c @ (pair_total - 2 * (row - diagonal)))
    nob_unseen = 0.0
    with_jack = 2 * (row[JACK] - weight[JACK, JACK] - weight[JACK])
    for suit in range(SUITS):
        if unseen.present[JACK, suit]:
            # Starter s of this suit (not the jack), the jack among the opponent's pair.
            others = unseen.present[:, suit].astype(np.float64)
            others[JACK] = 0
            nob_unseen += float(others @ with_jack)
    return _CribWeights(rank_weight, total, flush, nob_if_thrown, nob_unseen)


def _suits_of(throws: Sequence[Sequence[Card]]) -> set[int]:
    """The suits whose flush or nob sums the two-card ``throws`` need: a suited throw's
    suit, a thrown jack's."""
    suits = set()
    for a, b in throws:
        if a.suit is b.suit:
            suits.add(a.index & 3)
        suits.update(card.index & 3 for card in (a, b) if card.index >> 2 == JACK)
    return suits


def crib_values_pair(
    throws: Sequence[Sequence[Card]], unseen: Unseen, weight: FloatArray = UNIFORM_WEIGHT
) -> FloatArray:
    """Expected crib points for each two-card throw, the other two cards being unseen.

    ``weight[r1, r2]`` scales how likely the opponent is to throw ranks r1, r2.
    """
    w = _crib_weights(unseen, weight)
    ranks = np.array([_ranks(throw) for throw in throws], dtype=np.intp)
    gathered = RANK_TABLE[ranks[:, 0], ranks[:, 1]].reshape(len(throws), -1)
    values = gathered @ w.rank_weight.ravel()
    for row, (a, b) in enumerate(throws):
        if a.suit is b.suit:
            values[row] += w.flush[a.index % 4]
        values[row] += w.nob_unseen
        for card in (a, b):
            if card.index // 4 == JACK:
                values[row] += w.nob_if_thrown[card.index % 4]
    result: FloatArray = values / w.total
    return result


def crib_distributions_pair(
    throws: Sequence[Sequence[Card]], unseen: Unseen, weight: FloatArray = UNIFORM_WEIGHT
) -> FloatArray:
    """Approximate crib-point distributions per throw (flush and nob as independent extras)."""
    w = _crib_weights(unseen, weight, sorted(_suits_of(throws)))
    flat = w.rank_weight.ravel() / w.total
    out = np.zeros((len(throws), MAX_POINTS))
    for row, (a, b) in enumerate(throws):
        points = RANK_TABLE[a.index // 4, b.index // 4].ravel().astype(np.intp)
        counted = np.bincount(points, weights=flat, minlength=MAX_POINTS)[:MAX_POINTS]
        dist = counted.astype(np.float64)
        nob = w.nob_unseen + sum(
            w.nob_if_thrown[card.index % 4] for card in (a, b) if card.index // 4 == JACK
        )
        dist = add_chance(dist, nob / w.total, 1)
        if a.suit is b.suit:
            dist = add_chance(dist, w.flush[a.index % 4] / w.total / 5, 5)
        out[row] = dist
    return out


def add_chance(dist: FloatArray, p: float, points: int) -> FloatArray:
    """``dist`` with ``points`` more at chance ``p``, independently (a flush, his nob):
    what is pushed past the last bin is dropped."""
    shifted = np.zeros_like(dist)
    shifted[points:] = dist[:-points]
    result: FloatArray = (1 - p) * dist + p * shifted
    return result


# --- the crib, three and four players (one card from each) -----------------


def crib_values_single(throws: Sequence[Card], unseen: Unseen) -> FloatArray:
    """Expected crib points for each one-card throw; the other three cards are unseen.

    With three players the fourth crib card comes from the deck, with four from
    the partner; both are taken as random unseen cards.
    """
    n = unseen.ranks
    eye = np.eye(RANKS)
    x = n[:, None, None, None]
    y = n[None, :, None, None] - eye[:, :, None, None]
    z = n[None, None, :, None] - eye[:, None, :, None] - eye[None, :, :, None]
    s = n[None, None, None, :] - eye[:, None, None, :] - eye[None, :, None, :]
    s = s - eye[None, None, :, :]
    weight = (x * y * z * s).ravel()
    big_n = unseen.total
    total = float(big_n * (big_n - 1) * (big_n - 2) * (big_n - 3))
    ranks = np.array([card.index // 4 for card in throws], dtype=np.intp)
    values = RANK_TABLE[ranks].reshape(len(throws), -1) @ weight
    m = unseen.suits
    jack_unseen = [suit for suit in range(SUITS) if unseen.present[JACK, suit]]
    # A jack among the three unseen crib cards, the starter of its suit.
    nob_unseen = sum((m[suit] - 1) * 3 * (big_n - 2) * (big_n - 3) for suit in jack_unseen)
    for row, card in enumerate(throws):
        suit = card.index % 4
        values[row] += 5 * m[suit] * (m[suit] - 1) * (m[suit] - 2) * (m[suit] - 3)
        values[row] += nob_unseen
        if card.index // 4 == JACK:
            values[row] += m[suit] * (big_n - 1) * (big_n - 2) * (big_n - 3)
    result: FloatArray = values / total
    return result


def crib_distributions_single(throws: Sequence[Card], unseen: Unseen) -> FloatArray:
    """For each one-card throw, the probability of each crib total 0..29, the other three
    crib cards and the starter unseen (as ``crib_values_single``, whose means these have;
    flush and nob as independent extras, as ``crib_distributions_pair``)."""
    n = unseen.ranks
    eye = np.eye(RANKS)
    x = n[:, None, None, None]
    y = n[None, :, None, None] - eye[:, :, None, None]
    z = n[None, None, :, None] - eye[:, None, :, None] - eye[None, :, :, None]
    s = n[None, None, None, :] - eye[:, None, None, :] - eye[None, :, None, :]
    s = s - eye[None, None, :, :]
    big_n = unseen.total
    total = float(big_n * (big_n - 1) * (big_n - 2) * (big_n - 3))
    # The thrown card itself is seen, so these weights need no correction per throw.
    flat = (x * y * z * s).ravel() / total
    m = unseen.suits
    jack_unseen = [suit for suit in range(SUITS) if unseen.present[JACK, suit]]
    nob_unseen = sum((m[suit] - 1) * 3 * (big_n - 2) * (big_n - 3) for suit in jack_unseen)
    out = np.zeros((len(throws), MAX_POINTS))
    for row, card in enumerate(throws):
        points = RANK_TABLE[card.index // 4].ravel().astype(np.intp)
        counted = np.bincount(points, weights=flat, minlength=MAX_POINTS)[:MAX_POINTS]
        suit = card.index % 4
        nob = nob_unseen
        if card.index // 4 == JACK:
            nob += m[suit] * (big_n - 1) * (big_n - 2) * (big_n - 3)
        dist = add_chance(counted.astype(np.float64), nob / total, 1)
        flush = m[suit] * (m[suit] - 1) * (m[suit] - 2) * (m[suit] - 3) / total
        dist = add_chance(dist, flush, 5)
        out[row] = dist / dist.sum()  # the few 25s and more a flush would push past 29
    return out


# --- all the ways to split a hand -------------------------------------------


@cache
def _split_places(size: int, throw: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The places of the kept and the thrown cards of every split of ``size`` cards."""
    return tuple(
        (tuple(place for place in range(size) if place not in thrown), thrown)
        for thrown in itertools.combinations(range(size), throw)
    )


def splits(hand: Sequence[Card], throw: int) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """Every (kept, thrown) split of ``hand`` with ``throw`` cards thrown, in a fixed order."""
    card = hand.__getitem__
    return [
        (tuple(map(card, kept)), tuple(map(card, thrown)))
        for kept, thrown in _split_places(len(hand), throw)
    ]
