"""How the show writes cards: each card's face, and a scoring item's cards by rank, then
by suit letter (door/screens/cards.py ``card_face``, door/screens/show.py ``item_text``)."""

from __future__ import annotations

import random

from door.screens.cards import card_face
from door.screens.show import item_text
from engine.rules.cards import FULL_DECK, Card
from engine.rules.scoring import ScoreItem

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def test_every_card_is_written_rank_then_suit_symbol_a_ten_as_10() -> None:
    for card in FULL_DECK:
        rank, suit = str(card)[:-1], str(card)[-1]
        assert card_face(card) == ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit]


def test_an_items_cards_are_written_by_rank_then_suit_letter() -> None:
    cards = tuple(Card.parse(text) for text in ("KS", "5H", "5C", "TD", "5S"))
    item = ScoreItem("pair royal", cards, 6)
    assert item_text(item) == "pair royal 5♣ 5♥ 5♠ 10♦ K♠ = 6"
    assert item_text(item, short=True) == "3 of a kind 5♣ 5♥ 5♠ 10♦ K♠ = 6"
    rng = random.Random(12)
    for _ in range(500):
        cards = tuple(rng.sample(FULL_DECK, rng.randrange(1, 6)))
        written = item_text(ScoreItem("run of 3", cards, 3)).split(" ")[3:-2]
        letters = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
        ranks = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
        order = [(ranks.index(face[:-1]), letters[face[-1]]) for face in written]
        assert order == sorted(order) and len(written) == len(cards)
        assert sorted(written) == sorted(card_face(card) for card in cards)
