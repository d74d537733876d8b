"""The highlight bar that picks cards from a hand: the discard (mark N cards, RETURN
throws them) and the play (RETURN plays the card under the bar).

Pure: ``feed(key)`` moves the bar or marks and says what happened, with a reason for
a refusal; the screen draws ``bar`` and ``marked`` and asks the engine to act on
``chosen``.

>>> from engine.rules.cards import Card
>>> hand = [Card.parse(text) for text in ("AH", "5S", "5D", "JC", "QH", "KS")]
>>> picker = CardPicker(hand, need=2)
>>> [picker.feed(key).name for key in (Key.RIGHT, Key.ENTER, Key.RIGHT, Key.ENTER)]
['MOVED', 'MARKED', 'MOVED', 'MARKED']
>>> picker.feed(Key.ENTER).name, [str(card) for card in picker.chosen]
('CHOSEN', ['5S', '5D'])
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from door.term.keys import DESELECT_KEYS, Key
from engine.rules.cards import Card

_LEFT_KEYS = frozenset({Key.LEFT, Key.UP})
_RIGHT_KEYS = frozenset({Key.RIGHT, Key.DOWN})


class Pick(enum.Enum):
    MOVED = "moved"
    MARKED = "marked"
    UNMARKED = "unmarked"
    CHOSEN = "chosen"
    """RETURN with the choice complete: ``chosen`` holds it."""
    REFUSED = "refused"
    """``refusal`` says why."""
    NOT_PICKING = "not picking"


def digit_of(key: Key) -> int | None:
    """The digit a key types (ASCII 0-9 only: ``int("²")`` would raise), or None."""
    return int(key.char) if key.is_printable and key.char in "0123456789" else None


def move_bar(bar: int, key: Key, size: int, *, digits: bool = True) -> int | None:
    """Where a bar over ``size`` places goes for ``key``, or None if the key does not
    move it (arrows wrap round; Home, End; a digit goes to that place)."""
    if key in _LEFT_KEYS:
        return (bar - 1) % size
    if key in _RIGHT_KEYS:
        return (bar + 1) % size
    if key == Key.HOME:
        return 0
    if key == Key.END:
        return size - 1
    digit = digit_of(key) if digits else None
    if digit is not None and 1 <= digit <= size:
        return digit - 1
    return None


@dataclass
class CardPicker:
    """``need`` cards to mark before RETURN chooses them (a discard); with ``need`` 0,
    RETURN chooses the card under the bar (a play). ``unplayable`` cards can be under
    the bar but not chosen, each with ``why_not``."""

    cards: Sequence[Card]
    need: int = 0
    bar: int = 0
    unplayable: Collection[Card] = frozenset()
    why_not: dict[Card, str] = field(default_factory=dict)
    marked: list[Card] = field(default_factory=list)
    refusal: str = ""

    def __post_init__(self) -> None:
        if not self.cards:
            raise ValueError("a picker needs cards to pick from")
        if not 0 <= self.bar < len(self.cards) or self.cards[self.bar] in self.unplayable:
            playable = [i for i, card in enumerate(self.cards) if card not in self.unplayable]
            self.bar = playable[0] if playable else 0

    @property
    def complete(self) -> bool:
        return self.need > 0 and len(self.marked) == self.need

    @property
    def chosen(self) -> list[Card]:
        if self.need:
            return list(self.marked) if self.complete else []
        return [self.cards[self.bar]]

    def feed(self, key: Key) -> Pick:
        self.refusal = ""
        moved = move_bar(self.bar, key, len(self.cards))
        if moved is not None:
            self.bar = moved
            return Pick.MOVED
        if digit_of(key) is not None:
            held = len(self.cards)
            return self._refuse(
                "You hold 1 card: press 1."
                if held == 1
                else f"You hold {held} cards: press 1 to {held}."
            )
        under = self.cards[self.bar]
        if key == Key.ENTER:
            if not self.need:
                if under in self.unplayable:
                    return self._refuse(self.why_not.get(under, "That card cannot be played now."))
                return Pick.CHOSEN
            if self.complete:
                return Pick.CHOSEN
            if under in self.marked:
                return self._refuse("That card is marked already: move the bar to another one.")
            self.marked.append(under)
            return Pick.MARKED
        if key in DESELECT_KEYS and self.need:
            if under in self.marked:
                self.marked.remove(under)
            elif self.marked:
                self.marked.pop()
            else:
                return self._refuse("No card is marked: RETURN marks the card under the bar.")
            return Pick.UNMARKED
        return Pick.NOT_PICKING

    def _refuse(self, why: str) -> Pick:
        self.refusal = why
        return Pick.REFUSED
