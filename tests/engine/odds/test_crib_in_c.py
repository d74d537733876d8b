"""engine/odds/_crib.c against its Python twin (engine/odds/crib.py's ``CRIB``): the same
crib to the bit, for random throws, starters and cards seen; and malformed arguments refused,
never read or written past."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from engine.odds.crib import CRIB
from engine.odds.hand_tables import RANK_TABLE, load_tables
from engine.rules.cards import FULL_DECK, Card, parse_cards

pytestmark = pytest.mark.skipif(CRIB.compiled is None, reason="engine/odds/_crib.c was not built")
crib = CRIB.c_module


def bits(*cards: Card) -> int:
    """The cards out of the pool, as the twins take them: bits by card index."""
    seen = 0
    for card in cards:
        seen |= card.bit
    return seen


def test_random_cribs_are_the_pythons_to_the_bit() -> None:
    """Each role's weights and random ones; four kept cards (the computer's own crib) up
    to most of the deck seen (a win bar late in the play); flushes and nobs come up."""
    rng = random.Random(7)
    tables = load_tables()
    weights = [tables.throw_weight["pone"], tables.throw_weight["dealer"]]
    flushes = nobs = 0
    for trial in range(4000):
        weight = (
            weights[trial % 2]
            if trial % 3
            else np.array([[rng.random() for _ in range(13)] for _ in range(13)])
        )
        cards = rng.sample(FULL_DECK, 3 + rng.randint(4, 40))
        discards, starter, kept = tuple(cards[:2]), cards[2], tuple(cards[3:])
        if trial % 7 == 0:  # the crib's two cards of the starter's suit: a flush may come
            same = [card for card in FULL_DECK if card.suit is starter.suit and card != starter]
            discards = tuple(rng.sample(same, 2))
            kept = tuple(card for card in kept if card not in discards and card != starter)
        flushes += all(card.suit is starter.suit for card in discards)
        nobs += any(card.rank.letter == "J" and card.suit is starter.suit for card in discards)
        seen = bits(*discards, starter, *kept)
        python = CRIB.python(discards, starter, seen, weight)
        in_c = CRIB.compiled(discards, starter, seen, weight)
        assert in_c.tobytes() == python.tobytes(), (discards, starter, kept)
    assert flushes > 400 and nobs > 50


def test_a_crib_the_tests_of_the_computer_know() -> None:
    cards = parse_cards("JH 5H 2C 3D 9S 7H 4H")
    discards, kept, starter = tuple(cards[:2]), tuple(cards[2:6]), cards[6]
    weight = load_tables().throw_weight["pone"]
    seen = bits(*discards, starter, *kept)
    got = CRIB.compiled(discards, starter, seen, weight)
    assert got.tobytes() == CRIB.python(discards, starter, seen, weight).tobytes()
    # The jack and five thrown make fifteen two whatever comes with them, and the jack is
    # of the starter's suit: three points at least.
    assert got.sum() == pytest.approx(1.0) and not got[:3].any() and got[3] > 0


def good_call() -> list[Any]:
    weight = load_tables().throw_weight["pone"]
    seen = sum(card.bit for card in parse_cards("JH 5H 2C 3D 9S 7H 4H"))
    return [RANK_TABLE, weight, 40, 17, 19, seen, np.zeros(30)]


def test_a_good_call_fills_the_bins() -> None:
    args = good_call()
    crib.crib_counts(*args)
    assert args[6].sum() > 0


@pytest.mark.parametrize(
    ("place", "value", "error"),
    [
        (0, RANK_TABLE.astype(np.int16), TypeError),
        (0, RANK_TABLE[:12], TypeError),
        (0, np.zeros(13**5, dtype=np.int8), TypeError),
        (1, np.ones((13, 13), dtype=np.float32), TypeError),
        (1, np.ones((13, 12)), TypeError),
        (1, np.ones((26, 13))[::2], (TypeError, BufferError, ValueError)),  # not contiguous
        (1, [[1.0] * 13] * 13, TypeError),
        (2, 52, ValueError),
        (3, -1, ValueError),
        (4, "7", TypeError),
        (5, -1, TypeError),
        (5, 1 << 52, ValueError),
        (5, 1.5, TypeError),
        (6, np.zeros(29), TypeError),
        (6, np.zeros(31), TypeError),
        (6, np.zeros(30, dtype=np.float32), TypeError),
        (6, np.zeros((30, 1)), TypeError),
        (6, bytes(240), (TypeError, BufferError)),  # not writeable
    ],
)
def test_malformed_arguments_are_refused(place: int, value: Any, error: Any) -> None:
    args = good_call()
    args[place] = value
    with pytest.raises(error):
        crib.crib_counts(*args)


def test_a_read_only_bin_array_is_refused() -> None:
    args = good_call()
    args[6].flags.writeable = False
    with pytest.raises((TypeError, BufferError, ValueError)):
        crib.crib_counts(*args)
    assert not args[6].any()


def test_the_wrong_number_of_arguments_is_refused() -> None:
    with pytest.raises(TypeError):
        crib.crib_counts()
    with pytest.raises(TypeError):
        crib.crib_counts(*good_call()[:6])
