"""The confirm dialog every key that cannot be undone goes through (leave the door,
disconnect a caller, quit a game): a question answered Y or N.

Pure: ``answer(key)`` is True for Y, False for N or Esc, None for a key that is neither
(the screen then says so and asks again).

>>> leave = Confirm("Leave the door?")
>>> leave.answer(Key.printable("y")), leave.answer(Key.ESCAPE), leave.answer(Key.ENTER)
(True, False, None)
>>> leave.prompt
'Leave the door? Press Y or N.'
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Final

from door.term.keys import Key

STATUS: Final = "Y yes  N no  Esc no"
LINE_WIDTH: Final = 66
"""The longest line of the dialog's text: its box (six wider) stays inside 80 columns."""


@dataclass(frozen=True)
class Confirm:
    question: str
    consequence: str = ""
    """What happens on yes, when the question alone does not say."""

    @property
    def prompt(self) -> str:
        return f"{self.question} Press Y or N."

    @property
    def lines(self) -> tuple[str, ...]:
        """The dialog's text, for a screen that shows it in a box."""
        body = (*textwrap.wrap(self.consequence, LINE_WIDTH), "") if self.consequence else ()
        return (*body, "Press Y to go ahead, N or Esc to stay.")

    def answer(self, key: Key) -> bool | None:
        if key.char in ("y", "Y"):
            return True
        if key.char in ("n", "N") or key == Key.ESCAPE:
            return False
        return None

    @staticmethod
    def not_an_answer(key: Key) -> str:
        name = repr(key.char) if key.is_printable else key.name.value
        return f"The {name} key is not an answer: press Y or N."
