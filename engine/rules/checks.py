"""Checks of values handed to the engine's public functions, so that a wrong type is the
engine's own error with a message fit to show, never a TypeError from deep inside."""

from __future__ import annotations

from itertools import repeat

from engine.rules.cards import Card
from engine.rules.errors import IllegalActionError


def is_whole_number(value: object) -> bool:
    """An int that is not a bool: to Python True is 1, but never a seat or a card number."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(value: object, what: str) -> int:
    """``value`` if it is a whole number; raises IllegalActionError naming ``what``."""
    if not is_whole_number(value):
        raise IllegalActionError(f"{what} must be a whole number, not {value!r}")
    assert isinstance(value, int)
    return value


def card_list(cards: object, what: str) -> list[Card]:
    """``cards`` as a list if it is a list or tuple of Cards; raises IllegalActionError."""
    # map keeps the check in C: a generator's frame a card cost more than the check.
    if not isinstance(cards, list | tuple) or not all(map(isinstance, cards, repeat(Card))):
        raise IllegalActionError(f"{what} must be a list of cards, not {cards!r}")
    return list(cards)


def distinct_cards(cards: list[Card], what: str) -> None:
    """Raises IllegalActionError naming ``what`` if it holds a card twice."""
    if len(set(cards)) != len(cards):
        raise IllegalActionError(f"{what} holds a card twice")
