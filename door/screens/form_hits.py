"""What a click on a screen of the arrival and the account means (the arrival menu, the
log-in, sign-up and new-password forms, a saved game's choices, the statistics, the
leaderboard, a notice, a yes or no), read from the frame as it is drawn, so the map
cannot drift from the words:

- every offer of the key bar (``RETURN next  BS erase  Esc back``) is its key;
- a bar that offers "any key" (``any key: go on``, ``any other key: back``) makes a click
  anywhere else that key too (RETURN to go on, Esc to go back);
- with ``choices``, a line drawn as a key and its words (`` L   Log in with your
  handle``, ``R  resume it``) is that key over the whole line.

>>> from door.term.canvas import Canvas
>>> canvas = Canvas()
>>> _ = canvas.put(6, 8, " L   Log in with your handle and password")
>>> _ = canvas.put(23, 1, "L log in  G guest")
>>> hits = form_hits(canvas, choices=True)
>>> hits.keys_for(Mouse(MouseButton.LEFT, column=30, row=6))
(Key.printable('L'),)
>>> hits.keys_for(Mouse(MouseButton.LEFT, column=12, row=23))
(Key.printable('G'),)
>>> hits.keys_for(Mouse(MouseButton.LEFT, column=30, row=7))
()
"""

from __future__ import annotations

import re
from typing import Final

from door.screens.layout import SCREEN_COLS, STATUS_ROW
from door.term.canvas import SCREEN_ROWS, Canvas
from door.term.clicks import Hit, HitMap, key_line_hits
from door.term.keys import Key, Mouse, MouseButton  # noqa: F401  (the doctest)

_ANY_KEY: Final = re.compile(r"any (?:other )?key: (\w+)")
"""(As door/term/clicks.py reads the offer on the bar itself.)"""
_CHOICE: Final = re.compile(r"^ *(\S) {2,}\S")
"""A line of choices: one character, two spaces or more, then its words."""


def form_hits(canvas: Canvas, *, choices: bool = False) -> HitMap:
    """The hit map of ``canvas``, a 24-row frame with its key bar on the status row;
    ``choices``: its lines of choices above the bar are clicked too."""
    bar = canvas.text(STATUS_ROW)
    hits = list(key_line_hits(bar, STATUS_ROW, column=0))
    if choices:
        for row in range(1, STATUS_ROW - 1):  # below the title, above the message
            found = _CHOICE.match(canvas.text(row))
            if found:
                hits.append(Hit(row, 0, SCREEN_COLS, (Key.printable(found.group(1)),)))
    anything = _ANY_KEY.search(bar)
    if anything:
        key = Key.ESCAPE if anything.group(1) == "back" else Key.ENTER
        hits.append(Hit(0, 0, SCREEN_COLS, (key,), rows=SCREEN_ROWS))
    return HitMap(tuple(hits))
