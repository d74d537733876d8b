"""The keys a frame offers on its key bar, for a page that shows them as buttons (the
web page on a touch screen: door/resources/web/door.mjs). A phone's soft keyboard has no
RETURN, Esc or arrows that a door knows, so the page shows those beside the terminal;
they follow what the screen takes now rather than being one fixed row.

Every screen says its keys on the picture's last row, the status line (door/screens/
frame.py's ``draw_status``), and a click there is already read as the key it offers
(door/term/clicks.py's ``key_line_hits``): an offer is that, with what to send.

>>> [(offer.label, offer.words) for offer in key_bar_offers(
...     "<- -> or 1-6 move  RETURN mark  DEL unmark  c chat  ? help  ^L redraw  q quit")]
... # doctest: +NORMALIZE_WHITESPACE
[('<-', 'left'), ('->', 'right'), ('RETURN', 'RETURN mark'), ('DEL', 'DEL unmark'),
 ('c', 'c chat'), ('?', '? help'), ('q', 'q quit')]
>>> key_bar_offers("Y yes  N no  Esc no")[2]
Offer(label='Esc', words='Esc no', send='\\x1b')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

from door.term.canvas import SCREEN_ROWS, Canvas, picture_top
from door.term.clicks import key_line_hits
from door.term.keys import Key, encode_key

MAX_OFFERS: Final = 11
"""Buttons at most: with the page's keyboard key, two rows of six on a phone held upright
(360 to 390 px wide); the longest key bar offers seven (the table's, ^L left out)."""
LEFT_OUT: Final = frozenset({Key.CTRL_L})
"""Keys a page does not need a button for: it never needs redrawing."""
_LABELS: Final = {
    Key.ENTER: "RETURN",
    Key.ESCAPE: "Esc",
    Key.DELETE: "DEL",
    Key.BACKSPACE: "BS",
    Key.LEFT: "<-",
    Key.RIGHT: "->",
    Key.PGUP: "PgUp",
    Key.PGDN: "PgDn",
    Key.TAB: "Tab",
    Key.F1: "F1",
    Key.CTRL_C: "^C",
}
_ARROW_WORDS: Final = {Key.LEFT: "left", Key.RIGHT: "right"}


@dataclass(frozen=True, slots=True)
class Offer:
    """One key on offer: ``label`` as the key bar names it (``RETURN``, ``c``, ``<-``),
    ``words`` the whole offer (``RETURN throw``: what a screen reader says for the
    button), ``send`` what pressing it sends, as the caller's terminal would."""

    label: str
    words: str
    send: str


def offers_of(canvas: Canvas) -> tuple[Offer, ...]:
    """The keys ``canvas``'s key bar offers (its picture's last row)."""
    row = picture_top(canvas.rows) + SCREEN_ROWS - 1
    if row >= canvas.rows:
        return ()
    return key_bar_offers(canvas.text(row).strip())


@functools.lru_cache(maxsize=256)
def key_bar_offers(text: str) -> tuple[Offer, ...]:
    """The keys a key bar's ``text`` offers, each once, in its order (cached: a screen
    offers the same few bars at every frame)."""
    offers: list[Offer] = []
    seen: set[Key] = set()
    for hit in key_line_hits(text, 0, column=0):
        key = hit.keys[0]
        if key in LEFT_OUT or key in seen or key.mouse is not None:
            continue
        seen.add(key)
        words = _ARROW_WORDS.get(key) or text[hit.start : hit.end]
        label = _LABELS.get(key) or (key.char if key.is_printable else words.split(" ")[0])
        try:
            send = encode_key(key).decode("utf-8")
        except KeyError:  # a key with no bytes of its own: no button
            continue
        offers.append(Offer(label, words, send))
    return tuple(offers[:MAX_OFFERS])
