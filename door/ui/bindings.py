"""Key bindings: a screen declares each of its keys once (the key, the words that offer
it, the action it runs), and the lines that offer keys (a menu row, the status line) are
made from those declarations, so a key and its words cannot drift apart and no screen
dispatches keys through an if/elif over characters (Textual's ``BINDINGS``).

A line remembers where each binding's words stand in it, so a later screen can tell
which key a click on the line means.

>>> keys = Bindings((
...     Binding("c", "chat", "Chat", status=True),
...     Binding("?", "help", "Help", also=(Key.F1,), status=True),
...     Binding("y", "accept", when="invited"),
... ))
>>> keys.menu_line().text
'C Chat  ? Help'
>>> line = keys.status_line("Press a key  ")
>>> line.text, line.at(13).action, line.at(12)
('Press a key  c chat  ? help', 'chat', None)
>>> keys.find(Key.printable("C")).action, keys.find(Key.F1).action
('chat', 'help')
>>> keys.find(Key.printable("y"), lambda condition: False) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from door.term.keys import Key


@dataclass(frozen=True)
class Binding:
    """One key of a screen.

    ``key`` is the character the caller types ("c", "?", "1"; a letter in either case),
    or "" for a binding of named keys alone; ``also`` holds named keys that do the same
    (F1 for help, Ctrl-C for quit, Esc). ``action`` names the screen's method the key
    runs. ``label`` is the words that offer the key in the screen's menu ("" for a key
    the screen offers elsewhere, or only while it means something, such as Y when a
    challenge is there to accept); ``status`` offers it on the status line too.
    ``when`` names a condition of the screen: the key works only while it holds
    (otherwise it is a key that does nothing here)."""

    key: str
    action: str
    label: str = ""
    also: tuple[Key, ...] = ()
    status: bool = False
    when: str = ""

    def __post_init__(self) -> None:
        if self.key and (len(self.key) != 1 or not self.key.isprintable() or self.key == " "):
            raise ValueError(f"a binding's key is one printable character, not {self.key!r}")
        if not self.key and not self.also:
            raise ValueError(f"the binding for {self.action!r} has no key")
        if self.status and not self.label:
            raise ValueError(f"the binding for {self.action!r} has no words for the status line")

    def matches(self, key: Key) -> bool:
        if key in self.also:
            return True
        return bool(self.key) and key.is_printable and key.char.lower() == self.key.lower()

    def offer(self, *, capitals: bool) -> str:
        """The binding as a line offers it: ``C Chat`` in a menu, ``c chat`` on the
        status line."""
        if capitals:
            return f"{self.key.upper()} {self.label}"
        return f"{self.key} {self.label}".lower()


@dataclass(frozen=True)
class KeyLine:
    """A line of keys on offer, and where each binding's words stand in it: ``places``
    holds (first column, column after the last, binding), counted from the line's start."""

    text: str
    places: tuple[tuple[int, int, Binding], ...]

    def at(self, column: int) -> Binding | None:
        """The binding whose words are at ``column`` of the line, if any."""
        for start, end, binding in self.places:
            if start <= column < end:
                return binding
        return None


@dataclass(frozen=True)
class Bindings:
    """A screen's keys, in the order its menu offers them."""

    bindings: tuple[Binding, ...]

    def __post_init__(self) -> None:
        # A key may be bound twice only by two bindings with conditions (which say when
        # each works).
        seen: dict[str, Binding] = {}
        for binding in self.bindings:
            taken = [binding.key.lower()] if binding.key else []
            taken += [str(key) for key in binding.also]
            for key in taken:
                earlier = seen.get(key)
                if earlier is not None and not (earlier.when and binding.when):
                    raise ValueError(f"{key} is bound twice: {earlier.action} and {binding.action}")
                seen[key] = binding

    def find(self, key: Key, holds: Callable[[str], bool] = bool) -> Binding | None:
        """The binding ``key`` runs now; ``holds(condition)`` says whether a binding's
        ``when`` holds (bindings without one always work)."""
        for binding in self.bindings:
            if binding.matches(key) and (not binding.when or holds(binding.when)):
                return binding
        return None

    def menu_line(self, prefix: str = "", separator: str = "  ") -> KeyLine:
        """Every binding with words, as a menu offers them (``P Play the computer``)."""
        return _line(prefix, separator, (b for b in self.bindings if b.label), capitals=True)

    def status_line(self, prefix: str = "", separator: str = "  ") -> KeyLine:
        """The bindings offered on the status line, as it offers them (``c chat``)."""
        return _line(prefix, separator, (b for b in self.bindings if b.status), capitals=False)


def _line(prefix: str, separator: str, bindings: Iterable[Binding], *, capitals: bool) -> KeyLine:
    text, places = prefix, list[tuple[int, int, Binding]]()
    for binding in bindings:
        if places:
            text += separator
        words = binding.offer(capitals=capitals)
        places.append((len(text), len(text) + len(words), binding))
        text += words
    return KeyLine(text, tuple(places))
