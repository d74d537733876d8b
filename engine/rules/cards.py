"""Ranks, suits, cards and the deck, with a notation that parses and prints symmetrically."""

from __future__ import annotations

import enum
import random
import re
from collections.abc import Iterable, Sequence
from typing import Final

from engine.rules.errors import IllegalActionError, NotationError

RANK_LETTERS: Final = "A23456789TJQK"


class Rank(enum.IntEnum):
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self - 1]

    @property
    def pips(self) -> int:
        """Counting value: ace 1, ten and court cards 10."""
        return min(int(self), 10)

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read ``A 2..9 T J Q K`` (any case) or ``10``; raises NotationError."""
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not a rank: use A, 2-9, T (or 10), J, Q or K")
        token = text.strip().upper()
        if token == "10":
            return cls.TEN
        if len(token) == 1 and token in RANK_LETTERS:
            return cls(RANK_LETTERS.index(token) + 1)
        raise NotationError(f"{text!r} is not a rank: use A, 2-9, T (or 10), J, Q or K")


class Suit(enum.Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read ``S H D C`` (any case) or a suit symbol; raises NotationError."""
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not a suit: use S, H, D or C")
        token = text.strip()
        for suit in cls:
            if token.upper() == suit.value or token in _SYMBOL_ALIASES[suit]:
                return suit
        raise NotationError(f"{text!r} is not a suit: use S, H, D or C")


PIPS: Final = (0, *(Rank(number).pips for number in range(1, 14)))
"""Counting value by rank number 1..13 (0 unused): the searches index it by rank, which
is quicker than asking a Rank."""

_SUIT_SYMBOLS: Final = {
    Suit.SPADES: "\u2660",
    Suit.HEARTS: "\u2665",
    Suit.DIAMONDS: "\u2666",
    Suit.CLUBS: "\u2663",
}
_SYMBOL_ALIASES: Final = {
    Suit.SPADES: ("\u2660", "\u2664"),
    Suit.HEARTS: ("\u2665", "\u2661"),
    Suit.DIAMONDS: ("\u2666", "\u2662"),
    Suit.CLUBS: ("\u2663", "\u2667"),
}
_SUIT_ORDER: Final = {suit: position for position, suit in enumerate(Suit)}


class Card:
    """A playing card: an immutable, ordered value (by rank, then suit).

    There is exactly one instance per card, so ``is`` and ``==`` agree and
    cards are cheap dictionary keys. The extra slots are precomputed for the
    scorers, which look them up millions of times a second.
    """

    __slots__ = ("rank", "suit", "pips", "index", "bit", "show_code", "nob_bit")

    rank: Rank
    suit: Suit
    pips: int
    index: int
    bit: int
    show_code: int
    nob_bit: int

    def __new__(cls, rank: Rank | int, suit: Suit) -> Card:
        try:
            return _ALL[(int(rank) - 1) * 4 + _SUIT_ORDER[suit]]
        except (NameError, KeyError, IndexError):
            pass
        if not 1 <= int(rank) <= 13 or not isinstance(suit, Suit):
            raise NotationError(f"no such card: rank {rank!r}, suit {suit!r}")
        card = object.__new__(cls)
        index = (int(rank) - 1) * 4 + _SUIT_ORDER[suit]
        fields = {
            "rank": Rank(rank),
            "suit": suit,
            "pips": Rank(rank).pips,
            "index": index,
            "bit": 1 << index,
            # show_code = rank weight above bit 52, the card's own bit below.
            # Base 5 holds up to four cards of a rank, so the sum of five
            # codes names the multiset of ranks in its high part, and its
            # low part has five bits set exactly when the cards differ.
            "show_code": (5 ** (int(rank) - 1) << 52) | 1 << index,
            # The jack that scores his nob when this card is the starter (none
            # when the starter is that jack itself).
            "nob_bit": 0 if rank == Rank.JACK else 1 << ((Rank.JACK - 1) * 4 + _SUIT_ORDER[suit]),
        }
        for name, value in fields.items():
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit]]:
        return (Card, (self.rank, self.suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card such as ``TD``, ``10d``, ``QH`` or ``5♠``; raises NotationError."""
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not a card: write rank then suit, e.g. 5H or TD")
        token = text.strip()
        if len(token) < 2:
            raise NotationError(f"{text!r} is not a card: write rank then suit, e.g. 5H or TD")
        try:
            return cls(Rank.parse(token[:-1]), Suit.parse(token[-1]))
        except NotationError:
            raise NotationError(
                f"{text!r} is not a card: write rank then suit, e.g. 5H or TD"
            ) from None

    def __str__(self) -> str:
        return self.rank.letter + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index


_ALL: Final[list[Card]] = []
_ALL.extend(Card(rank, suit) for rank in Rank for suit in Suit)
FULL_DECK: Final[tuple[Card, ...]] = tuple(_ALL)

_SEPARATORS = re.compile(r"[\s,]+")


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces or commas, e.g. ``"5H 5D 5S JC"``.

    Raises NotationError naming the first bad token, or on a repeated card.
    """
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a list of cards: write them as text, e.g. 5H 5D")
    cards = [Card.parse(token) for token in _SEPARATORS.split(text.strip()) if token]
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise NotationError(f"{card} appears twice")
        seen.add(card)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """The inverse of parse_cards: ``format_cards(parse_cards(s))`` is canonical."""
    return " ".join(str(card) for card in cards)


def pip_total(cards: Iterable[Card]) -> int:
    return sum(card.pips for card in cards)


class Deck:
    """The 52 cards in an order fixed by an injected random source."""

    def __init__(self, rng: random.Random, cards: Sequence[Card] = FULL_DECK) -> None:
        if not isinstance(rng, random.Random):
            raise IllegalActionError(f"a deck is shuffled by a random.Random, not {rng!r}")
        self._cards = list(cards)
        rng.shuffle(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def deal(self, count: int) -> list[Card]:
        """Take cards from the top; raises IllegalActionError if too few are left."""
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise IllegalActionError(f"deal a whole number of cards, not {count!r}")
        if count > len(self._cards):
            raise IllegalActionError(f"only {len(self._cards)} cards are left to deal")
        taken, self._cards = self._cards[:count], self._cards[count:]
        return taken

    @property
    def stock(self) -> tuple[Card, ...]:
        return tuple(self._cards)
