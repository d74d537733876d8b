"""door/table/seats.py: the order a hand is shown in."""

from __future__ import annotations

import random

from door.table.seats import display_order
from engine.rules.cards import FULL_DECK, parse_cards


def test_a_hand_shows_by_rank_then_clubs_diamonds_hearts_spades() -> None:
    deck = list(FULL_DECK)
    random.Random(7).shuffle(deck)
    ranks = "A23456789TJQK"
    shown = [f"{rank}{suit}" for rank in ranks for suit in "CDHS"]
    assert sorted(deck, key=display_order) == parse_cards(" ".join(shown))


def test_a_dealt_hand_sorts_the_same_however_it_came() -> None:
    hand = parse_cards("KS 5H 5C JD AS 5D")
    assert sorted(hand, key=display_order) == parse_cards("AS 5C 5D 5H JD KS")
    assert sorted(reversed(hand), key=display_order) == sorted(hand, key=display_order)
