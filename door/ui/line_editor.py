"""The one line editor every text entry uses: chat, names, passwords, counts, cut numbers.

Pure: ``feed(key)`` changes the text and says what happened; nothing here reads a key or
writes to a terminal, so it is tested alone and drawn by whichever screen holds it.

>>> editor = LineEditor(limit=5)
>>> for char in "cribbage":
...     _ = editor.feed(Key.printable(char))
>>> editor.text, editor.refusal
('cribb', 'At most 5 characters.')
>>> editor.feed(Key.LEFT), editor.feed(Key.BACKSPACE), editor.text
(<Edit.MOVED: 'moved'>, <Edit.CHANGED: 'changed'>, 'crib')
>>> editor.feed(Key.ENTER)
<Edit.DONE: 'done'>
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field

from door.term.ansi import sanitize
from door.term.keys import Key

MASK = "*"


class Edit(enum.Enum):
    """What a key did to the line."""

    CHANGED = "changed"
    """The text changed."""
    MOVED = "moved"
    """Only the cursor moved."""
    DONE = "done"
    """RETURN: the line is finished."""
    CANCELLED = "cancelled"
    """Esc: the caller left the line."""
    REFUSED = "refused"
    """An editing key that could not apply (the line is full, nothing to erase...);
    ``refusal`` says why."""
    NOT_EDITING = "not editing"
    """Not a key a line takes (F1, Tab, Ctrl-C...): the screen decides."""


@dataclass
class LineEditor:
    """A line of at most ``limit`` printable characters with a cursor.

    Keys: characters insert at the cursor; Backspace erases before it; Delete erases
    under it (before it at the end of the line, since some terminals send DEL for
    Backspace); Ctrl-U erases the line; Left/Right, Home/End move; RETURN finishes; Esc
    cancels. ``allowed`` (if given) refuses characters the caller's terminal cannot show
    or the field does not take (digits only, say), with ``allowed_hint`` as the reason.
    ``masked`` shows ``*`` for each character (passwords)."""

    limit: int
    text: str = ""
    masked: bool = False
    allowed: Callable[[str], bool] | None = None
    allowed_hint: str = "That character cannot be typed here."
    cursor: int = field(default=-1)
    refusal: str = ""
    """Why the last key was refused ("" after any key that was not)."""

    def __post_init__(self) -> None:
        if self.limit < 1:
            raise ValueError(f"a line holds at least one character, not {self.limit}")
        self.text = sanitize(self.text, self.limit)
        if not 0 <= self.cursor <= len(self.text):
            self.cursor = len(self.text)

    def set(self, text: str) -> None:
        """Replace the text (cleaned, cut to the limit), cursor at its end."""
        self.text = sanitize(text, self.limit)
        self.cursor = len(self.text)

    def clear(self) -> None:
        self.set("")

    def feed(self, key: Key) -> Edit:
        """Apply one key; see ``Edit`` for the answers."""
        self.refusal = ""
        if key == Key.ENTER:
            return Edit.DONE
        if key == Key.ESCAPE:
            return Edit.CANCELLED
        if key.is_printable:
            return self._insert(key.char)
        if key == Key.BACKSPACE or (key == Key.DELETE and self.cursor == len(self.text)):
            if self.cursor == 0:
                return self._refuse("Nothing to erase.")
            self.text = self.text[: self.cursor - 1] + self.text[self.cursor :]
            self.cursor -= 1
            return Edit.CHANGED
        if key == Key.DELETE:
            self.text = self.text[: self.cursor] + self.text[self.cursor + 1 :]
            return Edit.CHANGED
        if key == Key.CTRL_U:
            if not self.text:
                return self._refuse("Nothing to erase.")
            self.clear()
            return Edit.CHANGED
        moves = {
            Key.LEFT: self.cursor - 1,
            Key.RIGHT: self.cursor + 1,
            Key.HOME: 0,
            Key.END: len(self.text),
        }
        if key in moves:
            self.cursor = min(max(moves[key], 0), len(self.text))
            return Edit.MOVED
        return Edit.NOT_EDITING

    def _insert(self, char: str) -> Edit:
        clean = sanitize(char, 1)
        if not clean:
            return self._refuse("That character cannot be typed here.")
        if self.allowed is not None and not self.allowed(clean):
            return self._refuse(self.allowed_hint)
        if len(self.text) >= self.limit:
            return self._refuse(f"At most {self.limit} characters.")
        self.text = self.text[: self.cursor] + clean + self.text[self.cursor :]
        self.cursor += 1
        return Edit.CHANGED

    def _refuse(self, why: str) -> Edit:
        self.refusal = why
        return Edit.REFUSED

    def shown(self, width: int) -> tuple[str, int]:
        """What a field ``width`` cells wide shows, and the cursor's column in it: the
        text (or its mask), scrolled so that the cursor is always in view."""
        if width < 1:
            return "", 0
        text = MASK * len(self.text) if self.masked else self.text
        # Text that fits is shown whole (the cursor may stand just after it); longer
        # text scrolls so that the cursor's cell is inside the field.
        start = 0 if len(text) <= width else max(0, self.cursor - width + 1)
        return text[start : start + width], self.cursor - start
