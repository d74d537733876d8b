"""engine/odds/_before_cut.c against its Python twin (engine/odds/before_cut.py's
``BEFORE_CUT``): the same hands to the bit and the same cribs to within their sums' rounding,
for random hands, throws and cards seen; each twin against a count made card by card; and
malformed arguments refused, never read or written past."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest

from engine.odds.before_cut import BEFORE_CUT
from engine.odds.hand_tables import RANK_TABLE, UNIFORM_WEIGHT, load_tables
from engine.rules.cards import FULL_DECK, Card, parse_cards
from engine.rules.scoring import score_show

compiled = BEFORE_CUT.compiled
c_module = BEFORE_CUT.c_module
needs_c = pytest.mark.skipif(compiled is None, reason="engine/odds/_before_cut.c was not built")


def bits(cards: list[Card]) -> int:
    return sum(card.bit for card in cards)


def random_hand(rng: random.Random, trial: int) -> tuple[list[Card], list[Card]]:
    """Four cards and the cards seen with them (six to forty); every few trials a flush,
    and jacks often."""
    if trial % 5 == 0:
        suit = rng.randrange(4)
        hand = rng.sample([card for card in FULL_DECK if card.index % 4 == suit], 4)
    else:
        hand = rng.sample(FULL_DECK, 4)
    rest = [card for card in FULL_DECK if card not in hand]
    return hand, hand + rng.sample(rest, rng.randint(2, 36))


@needs_c
def test_random_hands_are_the_pythons_to_the_bit() -> None:
    rng = random.Random(11)
    for trial in range(3000):
        hand, seen = random_hand(rng, trial)
        crib = trial % 2 == 0
        python = BEFORE_CUT.python.hand(hand, bits(seen), crib)
        in_c = compiled.hand(hand, bits(seen), crib)  # type: ignore[union-attr]
        assert in_c.tobytes() == python.tobytes(), (hand, seen, crib)


@needs_c
def test_random_cribs_are_the_pythons_to_their_sums_rounding() -> None:
    """Each role's weights and random ones; the six cards of a discard up to most of the
    deck seen; suited throws (a flush may come) and thrown jacks (his nob) come up."""
    rng = random.Random(12)
    tables = load_tables()
    weights = [tables.throw_weight["pone"], tables.throw_weight["dealer"], UNIFORM_WEIGHT]
    suited = jacks = 0
    for trial in range(3000):
        weight = weights[trial % 3] if trial % 4 else rng.random() * np.ones((13, 13))
        hand, seen = random_hand(rng, trial)
        thrown = (hand[0], hand[1])
        suited += hand[0].suit is hand[1].suit
        jacks += any(card.rank.letter == "J" for card in thrown)
        python = BEFORE_CUT.python.crib(thrown, bits(seen), weight)
        in_c = compiled.crib(thrown, bits(seen), weight)  # type: ignore[union-attr]
        np.testing.assert_allclose(in_c, python, rtol=1e-12, atol=1e-15, err_msg=str(seen))
    assert suited > 700 and jacks > 300


@pytest.mark.parametrize("twin", ["python", "compiled"])
def test_a_hand_is_its_shows_counted_starter_by_starter(twin: str) -> None:
    chosen = getattr(BEFORE_CUT, twin)
    if chosen is None:
        pytest.skip("engine/odds/_before_cut.c was not built")
    rng = random.Random(3)
    for trial in range(40):
        hand, seen = random_hand(rng, trial)
        crib = trial % 3 == 0
        starters = [card for card in FULL_DECK if card not in seen]
        counted = np.zeros(30)
        for starter in starters:
            counted[score_show(hand, starter, crib=crib).total] += 1
        assert chosen.hand(hand, bits(seen), crib).tolist() == (counted / len(starters)).tolist()


@pytest.mark.parametrize("twin", ["python", "compiled"])
def test_a_crib_weighed_evenly_is_every_completion_counted(twin: str) -> None:
    """With an even weight the crib's ranks are exact: every pair of unseen cards with
    every other unseen starter, scored by score_show, has the same mean as the twin's
    distribution (flush and nob are taken as independent, so only the mean is exact)."""
    chosen = getattr(BEFORE_CUT, twin)
    if chosen is None:
        pytest.skip("engine/odds/_before_cut.c was not built")
    for text in ("5H 5D 2C 3D 9S 7H", "JH 4H 2H 3H KS QC", "JS JC 6D 9D 7S KH"):
        cards = parse_cards(text)
        thrown = (cards[0], cards[1])
        unseen = [card for card in FULL_DECK if card not in cards]
        total = count = 0
        for x, y in itertools.combinations(unseen, 2):
            for starter in unseen:
                if starter not in (x, y):
                    total += score_show([*thrown, x, y], starter, crib=True).total
                    count += 1
        dist = chosen.crib(thrown, bits(cards), UNIFORM_WEIGHT)
        assert float(dist @ np.arange(30)) == pytest.approx(total / count, rel=1e-12)
        assert float(dist.sum()) == pytest.approx(1.0, rel=1e-12)


def hand_call() -> list[Any]:
    cards = parse_cards("JH 5H 2C 3D 9S 7H")
    return [RANK_TABLE, tuple(card.index for card in cards[:4]), bits(cards), False, np.zeros(30)]


def crib_call() -> list[Any]:
    cards = parse_cards("JH 5H 2C 3D 9S 7H")
    weight = load_tables().throw_weight["pone"]
    return [RANK_TABLE, weight, cards[0].index, cards[1].index, bits(cards), np.zeros(30)]


@needs_c
def test_good_calls_fill_the_bins() -> None:
    args = hand_call()
    assert c_module.hand_counts(*args) == 46 and args[4].sum() == 46  # type: ignore[union-attr]
    args = crib_call()
    total, flush, nob = c_module.crib_weights(*args)  # type: ignore[union-attr]
    assert args[5].sum() == pytest.approx(total) and flush > 0 and nob > 0


BAD_TABLES = [
    RANK_TABLE.astype(np.int16),
    RANK_TABLE[:12],
    np.zeros(13**5, dtype=np.int8),
]
BAD_BINS = [
    np.zeros(29),
    np.zeros(31),
    np.zeros(30, dtype=np.float32),
    np.zeros((30, 1)),
    bytes(240),  # not writeable
]


@needs_c
@pytest.mark.parametrize(
    ("place", "value"),
    [(0, table) for table in BAD_TABLES]
    + [(4, bins) for bins in BAD_BINS]
    + [
        (1, (1, 2, 3)),
        (1, [1, 2, 3, 4]),
        (1, (1, 2, 3, 52)),
        (1, (1, 2, 3, "4")),
        (1, (1, 2, 3, 50)),  # not among the seen
        (2, -1),
        (2, 1 << 52),
        (2, 1.5),
    ],
)
def test_a_malformed_hand_call_is_refused(place: int, value: Any) -> None:
    args = hand_call()
    args[place] = value
    with pytest.raises((TypeError, ValueError, BufferError)):
        c_module.hand_counts(*args)  # type: ignore[union-attr]
    assert not isinstance(args[4], np.ndarray) or not args[4].any()


@needs_c
@pytest.mark.parametrize(
    ("place", "value"),
    [(0, table) for table in BAD_TABLES]
    + [(5, bins) for bins in BAD_BINS]
    + [
        (1, np.ones((13, 13), dtype=np.float32)),
        (1, np.ones((13, 12))),
        (1, np.ones((26, 13))[::2]),  # not contiguous
        (1, [[1.0] * 13] * 13),
        (2, 52),
        (3, -1),
        (3, 40),  # not among the seen
        (2, parse_cards("5H")[0].index),  # the same card twice
        (4, "7"),
        (4, 1 << 52),
    ],
)
def test_a_malformed_crib_call_is_refused(place: int, value: Any) -> None:
    args = crib_call()
    args[place] = value
    with pytest.raises((TypeError, ValueError, BufferError)):
        c_module.crib_weights(*args)  # type: ignore[union-attr]
    assert not isinstance(args[5], np.ndarray) or not args[5].any()


@needs_c
def test_the_wrong_number_of_arguments_is_refused() -> None:
    with pytest.raises(TypeError):
        c_module.hand_counts(*hand_call()[:4])  # type: ignore[union-attr]
    with pytest.raises(TypeError):
        c_module.crib_weights(*crib_call()[:5])  # type: ignore[union-attr]
