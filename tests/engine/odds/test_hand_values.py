"""engine.odds.hand_values: the vectorised expectations against plain score_show loops."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from engine.odds.hand_tables import RANKS, load_tables
from engine.odds.hand_values import (
    Unseen,
    crib_distributions_pair,
    crib_distributions_single,
    crib_values_pair,
    crib_values_single,
    hand_distributions,
    hand_values,
    splits,
)
from engine.rules.cards import FULL_DECK, Card, parse_cards
from engine.rules.scoring import score_show


def brute_hand(keep: tuple[Card, ...], unseen: list[Card]) -> float:
    return sum(score_show(keep, starter).total for starter in unseen) / len(unseen)


def brute_crib_pair(
    throw: tuple[Card, ...], unseen: list[Card], weight: np.ndarray | None = None
) -> float:
    """The crib over every (opponent's two cards, starter) with the opponent's pair weighted."""
    total = norm = 0.0
    for x, y in itertools.combinations(unseen, 2):
        w = 1.0 if weight is None else float(weight[x.index // 4, y.index // 4])
        for starter in unseen:
            if starter is not x and starter is not y:
                total += w * score_show((*throw, x, y), starter, crib=True).total
                norm += w
    return total / norm


def brute_crib_single(card: Card, unseen: list[Card]) -> float:
    total = norm = 0
    for others in itertools.combinations(unseen, 3):
        for starter in unseen:
            if starter not in others:
                total += score_show((card, *others), starter, crib=True).total
                norm += 1
    return total / norm


# Hands chosen for the suit-dependent items: flushes, jacks for his nob, pairs.
HANDS = [
    "5H 5D JC QS 2H 9C",
    "JH JS 5H 5D 2H 9H",
    "2C 4C 6C 8C JC KD",
    "AS 2S 3S 4S 5S 6S",
    "7H 8H 8D 9S JD JC",
]


@pytest.mark.parametrize("text", HANDS)
def test_hand_values_match_every_starter(text: str) -> None:
    hand = parse_cards(text)
    unseen = [card for card in FULL_DECK if card not in hand]
    options = splits(hand, 2)
    keeps = [kept for kept, _ in options]
    values = hand_values(keeps, Unseen.excluding(hand))
    expected = [brute_hand(kept, unseen) for kept in keeps]
    assert values == pytest.approx(expected, abs=1e-12)
    dists = hand_distributions(keeps, Unseen.excluding(hand))
    assert dists.sum(axis=1) == pytest.approx(np.ones(len(keeps)))
    assert dists @ np.arange(dists.shape[1]) == pytest.approx(expected, abs=1e-12)


def test_hand_values_and_distributions_count_every_starter_exactly() -> None:
    """Random hands of five and six, with other cards seen too (as the win bar and the
    coach see them): each kept hand's distribution is the count of the unseen starters
    giving each total, and its value their mean, from score_show itself."""
    rng = random.Random(11)
    for _ in range(40):
        seen = rng.sample(FULL_DECK, rng.choice((5, 6)) + rng.randrange(6))
        hand = seen[: 6 if len(seen) % 2 else 5]
        unseen = [card for card in FULL_DECK if card not in seen]
        keeps = [kept for kept, _ in splits(hand, len(hand) - 4)]
        values = hand_values(keeps, Unseen.excluding(seen))
        dists = hand_distributions(keeps, Unseen.excluding(seen))
        for kept, value, dist in zip(keeps, values, dists, strict=True):
            counts = np.zeros(30)
            for starter in unseen:
                counts[score_show(kept, starter).total] += 1
            assert list(dist) == list(counts / len(unseen))
            assert value == pytest.approx(brute_hand(kept, unseen), abs=1e-12)


def _small_unseen(hand: list[Card], hidden: int, seed: int) -> tuple[list[Card], list[Card]]:
    """Treat all but ``hidden`` other cards as seen, so brute force stays quick."""
    rng = random.Random(seed)
    others = [card for card in FULL_DECK if card not in hand]
    unseen = sorted(rng.sample(others, hidden))
    seen = [card for card in FULL_DECK if card not in unseen]
    return unseen, seen


@pytest.mark.parametrize("text", HANDS)
def test_crib_values_match_every_completion(text: str) -> None:
    hand = parse_cards(text)
    unseen, seen = _small_unseen(hand, 24, seed=len(text))
    throws = [thrown for _, thrown in splits(hand, 2)]
    values = crib_values_pair(throws, Unseen.excluding(seen))
    for row in (0, 3, 7, 14):
        assert values[row] == pytest.approx(brute_crib_pair(throws[row], unseen), abs=1e-12)


def test_crib_values_with_all_cards_unseen() -> None:
    """The real case: 46 unseen cards, 45,540 completions per throw."""
    hand = parse_cards("JH JS 5H 5D 2H 9H")
    unseen = [card for card in FULL_DECK if card not in hand]
    throws = [thrown for _, thrown in splits(hand, 2)]
    values = crib_values_pair(throws, Unseen.excluding(hand))
    row = throws.index(tuple(parse_cards("JH JS")))
    assert values[row] == pytest.approx(brute_crib_pair(throws[row], unseen), abs=1e-12)


def test_weighted_crib_values_match_weighted_completions() -> None:
    rng = np.random.default_rng(5)
    raw = rng.uniform(0.2, 3.0, size=(RANKS, RANKS))
    weight = (raw + raw.T) / 2
    hand = parse_cards("JH 5S 5H 2D KC JD")
    unseen, seen = _small_unseen(hand, 22, seed=11)
    throws = [thrown for _, thrown in splits(hand, 2)]
    values = crib_values_pair(throws, Unseen.excluding(seen), weight)
    for row in range(0, 15, 2):
        expected = brute_crib_pair(throws[row], unseen, weight)
        assert values[row] == pytest.approx(expected, abs=1e-12)


def test_crib_distributions_have_the_exact_means() -> None:
    hand = parse_cards("5H 5D JC QS 2H 9C")
    unseen = Unseen.excluding(hand)
    throws = [thrown for _, thrown in splits(hand, 2)]
    dists = crib_distributions_pair(throws, unseen)
    assert dists.sum(axis=1) == pytest.approx(np.ones(15), abs=1e-6)
    means = dists @ np.arange(dists.shape[1])
    assert means == pytest.approx(crib_values_pair(throws, unseen), abs=1e-3)


def test_one_throw_s_crib_distribution_is_its_row_among_every_throw() -> None:
    """The win bar asks for one throw's crib, whose flush and nob need fewer suits' sums
    than every throw's: the distribution is still the same to the bit."""
    weight = load_tables().throw_weight["dealer"]
    rng = random.Random(5)
    for _ in range(60):
        seen = rng.sample(FULL_DECK, 6 + rng.randrange(4))
        unseen = Unseen.excluding(seen)
        throws = [thrown for _, thrown in splits(seen[:6], 2)]
        every = crib_distributions_pair(throws, unseen, weight)
        for row, thrown in enumerate(throws):
            assert crib_distributions_pair([thrown], unseen, weight)[0].tobytes() == (
                every[row].tobytes()
            )


@pytest.mark.parametrize("text", ["JH 5S 5H 2D KC", "2C 4C 6C 8C JC"])
def test_single_card_crib_values_match_every_completion(text: str) -> None:
    hand = parse_cards(text)
    unseen, seen = _small_unseen(hand, 20, seed=3)
    values = crib_values_single(hand, Unseen.excluding(seen))
    for row, card in enumerate(hand):
        assert values[row] == pytest.approx(brute_crib_single(card, unseen), abs=1e-12)


def test_single_card_crib_distributions_match_every_completion() -> None:
    # No jack and fewer than four hearts unseen: no nob, no flush, so the distribution is
    # exact and must equal the count over every (three cards, starter) completion.
    hand = parse_cards("5H 9H")
    unseen = parse_cards("AS 2D 3C 4S 5D 6C 7S 8D 9C TS QD KC 2H")
    seen = [card for card in FULL_DECK if card not in unseen]
    dists = crib_distributions_single(hand, Unseen.excluding(seen))
    for row, card in enumerate(hand):
        expected = np.zeros(dists.shape[1])
        for others in itertools.combinations(unseen, 3):
            for starter in unseen:
                if starter not in others:
                    expected[score_show((card, *others), starter, crib=True).total] += 1
        assert dists[row] == pytest.approx(expected / expected.sum(), abs=1e-12)


def test_single_card_crib_distributions_have_the_exact_means() -> None:
    hand = parse_cards("JH 5S 5H 2D KC")
    unseen = Unseen.excluding(hand)
    dists = crib_distributions_single(hand, unseen)
    assert dists.sum(axis=1) == pytest.approx(np.ones(5), abs=1e-12)
    means = dists @ np.arange(dists.shape[1])
    assert means == pytest.approx(crib_values_single(hand, unseen), abs=1e-3)


def test_splits_cover_every_discard_once() -> None:
    hand = parse_cards("AS 2S 3S 4S 5S 6S")
    options = splits(hand, 2)
    assert len(options) == 15
    assert len({thrown for _, thrown in options}) == 15
    for kept, thrown in options:
        assert sorted(kept + thrown) == sorted(hand)
    assert len(splits(hand[:5], 1)) == 5
