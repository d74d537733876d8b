"""The table in words for a screen reader: cards named ("ten of diamonds"), a hand read
out numbered, the score and the board as sentences.

Pure functions of cards and scores, so the reader at a table (door/table/reader.py) says
the same things the same way and a wording is tested without a table.

>>> from engine.rules.cards import Card
>>> card_words(Card.parse("TD"))
'ten of diamonds'
>>> spoken("Computer plays 5♥ (count 15). The starter is 10♠.")
'Computer plays five of hearts (count 15). The starter is ten of spades.'
>>> spoken("You throw 5♥ 10♦ K♣ to your crib.")
'You throw five of hearts, ten of diamonds and king of clubs to your crib.'
>>> numbered([Card.parse("5H"), Card.parse("JC")])
'1 five of hearts, 2 jack of clubs'
>>> score_line(("You", "Computer"), (45, 52), dealer=0)
'You 45, Computer 52, you deal.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from engine.rules.cards import Card, Rank, Suit

WINNING_SCORE: Final = 121

_RANK_WORDS: Final = {
    Rank.ACE: "ace",
    Rank.TWO: "two",
    Rank.THREE: "three",
    Rank.FOUR: "four",
    Rank.FIVE: "five",
    Rank.SIX: "six",
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
}
_SUIT_WORDS: Final = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.CLUBS: "clubs",
}
_RANK_BY_FACE: Final = {("10" if rank is Rank.TEN else rank.letter): rank for rank in Rank}
_SUIT_BY_SYMBOL: Final = {suit.symbol: suit for suit in Suit}
_FACE: Final = re.compile(
    "(?<![0-9A-Za-z])(10|[2-9AJQK])([" + "".join(_SUIT_BY_SYMBOL) + "])",
)
"""A card as the screens write it (door/screens/cards.py's ``card_face``: ``5♥``,
``10♠``): the suit symbols are used for nothing else, so a face in a sentence is a card."""
_FACES: Final = re.compile(f"{_FACE.pattern}(?: {_FACE.pattern})*")
"""One face, or several side by side (a throw: ``5♥ 6♦``)."""


def card_words(card: Card) -> str:
    """``ten of diamonds``."""
    return f"{_RANK_WORDS[card.rank]} of {_SUIT_WORDS[card.suit]}"


def cards_words(cards: Sequence[Card]) -> str:
    """``five of hearts, jack of clubs and ace of spades``: cards read out."""
    return _listed([card_words(card) for card in cards])


def numbered(cards: Sequence[Card]) -> str:
    """``1 five of hearts, 2 jack of clubs``: the numbers typed to throw or play them."""
    return ", ".join(f"{number} {card_words(card)}" for number, card in enumerate(cards, 1))


def spoken(text: str) -> str:
    """A sentence of the table's with every card face in it named in words; faces
    written side by side ("5♥ 6♦") are read as a list ("five of hearts and six of
    diamonds")."""

    def named(match: re.Match[str]) -> str:
        faces = _FACE.findall(match.group(0))
        return _listed([_face_words(rank, suit) for rank, suit in faces])

    return _FACES.sub(named, text)


def _face_words(rank: str, suit: str) -> str:
    return f"{_RANK_WORDS[_RANK_BY_FACE[rank]]} of {_SUIT_WORDS[_SUIT_BY_SYMBOL[suit]]}"


def _listed(named: list[str]) -> str:
    if not named:
        return "no cards"
    if len(named) == 1:
        return named[0]
    return ", ".join(named[:-1]) + " and " + named[-1]


def score_line(names: Sequence[str], scores: Sequence[int], dealer: int | None) -> str:
    """``You 45, Computer 52, you deal.``: each side's score, and who deals. ``names``
    are the sides as the listener reads them ("You" for their own)."""
    parts = [f"{name} {score}" for name, score in zip(names, scores, strict=True)]
    line = ", ".join(parts)
    if dealer is not None:
        who = names[dealer]
        line += ", you deal" if who == "You" else f", {who} deals"
    return line + "."


def board_line(names: Sequence[str], scores: Sequence[int]) -> str:
    """``You are on hole 45, 76 to go. Computer is on hole 52, 69 to go.``"""
    sentences = []
    for name, score in zip(names, scores, strict=True):
        verb = "are" if name == "You" else "is"
        left = WINNING_SCORE - score
        where = f"on hole {score}" if score else "not yet on the board"
        togo = "the game is won" if left <= 0 else f"{left} to go"
        sentences.append(f"{name} {verb} {where}, {togo}.")
    return " ".join(sentences)
