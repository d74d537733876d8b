"""Choosing people from a numbered list by their numbers: whom to challenge, whose game
to watch, whom the sysop pages.

Pure: ``feed(key, listed)`` takes a key and the list as it stands now (people come and
go while the caller chooses) and says whether the choice is made (True), cancelled
(False) or goes on (None), with ``error`` saying what was wrong with the key.

>>> picker = Picker(2, lambda name: "That is you." if name == "Ada" else "")
>>> listed = ["Ada", "Bob", "Cy"]
>>> picker.feed(Key.printable("1"), listed), picker.error
(None, 'That is you.')
>>> picker.feed(Key.printable("3"), listed), picker.feed(Key.printable("2"), listed)
(None, None)
>>> picker.numbers(listed), picker.feed(Key.ENTER, listed), picker.chosen
('3 2', True, ['Cy', 'Bob'])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from door.term.keys import DESELECT_KEYS, Key

T = TypeVar("T")

DIGITS = "123456789"
"""The list's numbers a key can choose: the first nine."""


@dataclass
class Picker(Generic[T]):
    """Up to ``most`` of a list, chosen by number; ``refusal`` says why one may not be
    chosen ("" if they may)."""

    most: int
    refusal: Callable[[T], str]
    chosen: list[T] = field(default_factory=list)
    error: str = ""

    @property
    def prompt(self) -> str:
        """One person is chosen by their number alone; several are chosen, then RETURN."""
        if self.most == 1:
            return "Press the number of a person in the list."
        return f"Press the number of each person in the list (up to {self.most}), then RETURN."

    @property
    def status(self) -> str:
        if self.most == 1:
            return "1-9 choose  Esc cancel"
        return "1-9 choose  RETURN done  BS unchoose  Esc cancel"

    def keep_listed(self, listed: Sequence[T]) -> None:
        """Whoever left the list is not chosen any more."""
        self.chosen = [one for one in self.chosen if one in listed]

    def numbers(self, listed: Sequence[T]) -> str:
        """The chosen ones' numbers in the list, as typed ("3 2")."""
        return " ".join(str(listed.index(one) + 1) for one in self.chosen)

    def feed(self, key: Key, listed: Sequence[T]) -> bool | None:
        """True once the choice is made, False if cancelled, None while it goes on."""
        self.error = ""
        digit = key.char if key.is_printable and key.char in DIGITS else ""
        if digit:
            return self._number(int(digit), listed)
        if key == Key.ENTER:
            if self.chosen:
                return True
            self.error = "Choose someone first, or press Esc."
        elif key in DESELECT_KEYS:
            if self.chosen:
                self.chosen.pop()
        elif key == Key.ESCAPE:
            return False
        else:
            self.error = "Press a number from the list, RETURN when done, Esc to cancel."
        return None

    def _number(self, number: int, listed: Sequence[T]) -> bool | None:
        if number > len(listed):
            self.error = f"There is no number {number} in the list."
            return None
        one = listed[number - 1]
        if one in self.chosen:
            self.chosen.remove(one)
        elif refused := self.refusal(one):
            self.error = refused
        elif len(self.chosen) >= self.most:
            self.error = f"Choose at most {self.most}: BS unchooses."
        else:
            self.chosen.append(one)
            return True if self.most == 1 else None
        return None
