"""What a click on the screen means: the hit map a drawn frame publishes, and the keys a
click becomes.

A screen that can be clicked says, with each frame it draws, which regions of it stand
for which keys (a card of the hand: the keys that put the bar there and mark it; the
words ``RETURN throw`` on the status line: RETURN). The session keeps the map of the frame
last sent, and a click is turned into those keys before any screen's key loop sees it:
the screens go on reading keys, and a click elsewhere is dropped without a word.

>>> hits = HitMap((Hit(23, 1, 13, (Key.ENTER,)),))
>>> hits.keys_for(Mouse(MouseButton.LEFT, column=5, row=23))
(Key.ENTER,)
>>> hits.keys_for(Mouse(MouseButton.LEFT, column=14, row=23))
()
>>> paged = hits.scrolled_by(Key.PGUP, Key.PGDN)  # a screen that pages: the wheel turns it
>>> paged.keys_for(Mouse(MouseButton.WHEEL_DOWN, column=40, row=5))
(Key.PGDN,)
>>> hits.keys_for(Mouse(MouseButton.WHEEL_DOWN, column=40, row=5))
()
>>> [hit.keys for hit in key_line_hits("RETURN throw  DEL unmark  <- -> move  c chat", 23)]
[(Key.ENTER,), (Key.DELETE,), (Key.LEFT,), (Key.RIGHT,), (Key.printable('c'),)]
>>> [hit.keys for hit in key_line_hits("PgUp back  any other key: back to the game", 23)]
[(Key.PGUP,), (Key.ESCAPE,)]
"""

from __future__ import annotations

import functools
import re
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import Final

from door.term.canvas import picture_top
from door.term.keys import Key, KeyName, Mouse, MouseButton  # noqa: F401  (the doctest)

MAX_CLICK_KEYS: Final = 6
"""The most keys one click stands for (a member's number on the sysop's list, up to five
digits, and RETURN; a cut's card number is two erasures and two digits)."""


@dataclass(frozen=True, slots=True)
class Hit:
    """Columns ``start`` up to (not including) ``end`` of ``rows`` rows from ``row`` stand
    for ``keys``."""

    row: int
    start: int
    end: int
    keys: tuple[Key, ...]
    rows: int = 1

    def __post_init__(self) -> None:
        if not 0 < len(self.keys) <= MAX_CLICK_KEYS:
            raise ValueError(f"a click stands for 1 to {MAX_CLICK_KEYS} keys, not {self.keys}")
        if any(key.name is KeyName.MOUSE for key in self.keys):
            raise ValueError("a click cannot stand for another click")


@dataclass(frozen=True, slots=True)
class HitMap:
    """The clickable regions of one frame; the first that holds a click wins. ``wheel``:
    the keys the wheel stands for, up and down (a screen's own keys for scrolling its
    list or turning its pages), wherever it turns over the screen; None where nothing
    scrolls."""

    hits: tuple[Hit, ...] = ()
    wheel: tuple[Key, Key] | None = None

    def keys_for(self, mouse: Mouse) -> tuple[Key, ...]:
        """The keys a click at ``mouse`` stands for; () for a click on nothing, and for
        anything else (a button going up, the wheel where nothing scrolls)."""
        if mouse.button in (MouseButton.WHEEL_UP, MouseButton.WHEEL_DOWN):
            if self.wheel is None:
                return ()
            return (self.wheel[mouse.button is MouseButton.WHEEL_DOWN],)
        if not mouse.is_click:
            return ()
        for hit in self.hits:
            if hit.row <= mouse.row < hit.row + hit.rows and hit.start <= mouse.column < hit.end:
                return hit.keys
        return ()

    def __add__(self, other: HitMap) -> HitMap:
        return HitMap(self.hits + other.hits, self.wheel or other.wheel)

    def scrolled_by(self, up: Key, down: Key) -> HitMap:
        """The same regions, and the wheel turned up is ``up``, down ``down``."""
        return replace(self, wheel=(up, down))

    def moved_down(self, rows: int) -> HitMap:
        """The same regions ``rows`` lower (a picture drawn in the middle of a tall window)."""
        if not rows:
            return self
        return HitMap(tuple(replace(hit, row=hit.row + rows) for hit in self.hits), self.wheel)


NO_HITS: Final = HitMap()


class LaterHits:
    """A frame's hit map worked out when a click on the frame comes, not when it is
    drawn: most frames are never clicked, and the table's map cost a tenth of its frame
    (bench/screen_cost.py --frames). ``make(*args)`` works it out from nothing but
    ``args``, the values the frame was drawn from, kept as they were then: by the time
    of the click the screen has moved on. Worked out once, at the first click."""

    __slots__ = ("_make", "_args", "_down", "_map")

    def __init__(self, make: Callable[..., HitMap], *args: Hashable) -> None:
        self._make = make
        self._args = args
        self._down = 0
        self._map: HitMap | None = None

    @property
    def map(self) -> HitMap:
        """The hit map itself (worked out now, the first time)."""
        if self._map is None:
            self._map = self._make(*self._args).moved_down(self._down)
        return self._map

    def keys_for(self, mouse: Mouse) -> tuple[Key, ...]:
        return self.map.keys_for(mouse)

    def moved_down(self, rows: int) -> LaterHits:
        """The same regions ``rows`` lower, still worked out only when clicked."""
        if not rows:
            return self
        moved = LaterHits(self._make, *self._args)
        moved._down = self._down + rows
        return moved


FrameHits = HitMap | LaterHits
"""What a click on a frame means: its map, or how to work it out from the frame's values."""


class CentredHits:
    """The map of a 24-row frame, read where the picture is when the click comes: the
    renderer sends the frame centred in a taller window, and centres it anew when the
    window is resized, without the screen drawing again (one waiting for a key: the
    arrival, a form, a notice). ``rows()`` is the window's height then. Read where the
    picture was drawn first, a tap on the web page's first screen on a phone held
    upright (the page's size came just after that screen) did nothing."""

    __slots__ = ("_hits", "_rows")

    def __init__(self, hits: FrameHits, rows: Callable[[], int]) -> None:
        self._hits = hits
        self._rows = rows

    def keys_for(self, mouse: Mouse) -> tuple[Key, ...]:
        return self._hits.moved_down(picture_top(self._rows())).keys_for(mouse)


_KEY_WORDS: Final = {
    "RETURN": Key.ENTER,
    "ENTER": Key.ENTER,
    "DEL": Key.DELETE,
    "BS": Key.BACKSPACE,
    "ESC": Key.ESCAPE,
    "^L": Key.CTRL_L,
    "^C": Key.CTRL_C,
    "F1": Key.F1,
    "TAB": Key.TAB,
    "PGUP": Key.PGUP,
    "PGDN": Key.PGDN,
    "SPACE": Key.printable(" "),
    "<-": Key.LEFT,
    "->": Key.RIGHT,
}

_SEGMENT: Final = re.compile(r"\S+(?: \S+)*")
"""A status line's offers are separated by two spaces or more; words within one by one."""
_SENTENCE_SEGMENT: Final = re.compile(r"\S+(?: (?<!\. )\S+)*")
"""In a sentence that ends with offers (``... auto count. Y accept  N decline``) the end
of a sentence separates them too."""
_WORD: Final = re.compile(r"\S+")
_ANY_KEY: Final = re.compile(r"any (?:other )?key: (\w+)")
"""An offer of any key: its words are clicked as Esc to go back, RETURN otherwise."""


def key_named(word: str) -> Key | None:
    """The key a status line's word names (``RETURN``, ``DEL``, ``c``), or None."""
    key = _KEY_WORDS.get(word.upper())
    if key is not None:
        return key
    if len(word) == 1 and word.isprintable() and word != " ":
        return Key.printable(word)
    if "/" in word:
        # PgDn/RETURN: two keys that do the same, the first stands for both; 1-99/O:
        # what is typed (a number) or a key, the key.
        for part in word.split("/"):
            if part.upper() in _KEY_WORDS or (len(part) == 1 and part.isalpha()):
                return key_named(part)
    return None


@functools.lru_cache(maxsize=1024)
def key_line_hits(
    text: str, row: int, column: int = 1, *, in_sentences: bool = False
) -> tuple[Hit, ...]:
    """The offers of a line of keys (the status line, a menu row) drawn at ``row`` from
    ``column``: each ``KEY words``
    (``RETURN throw``, ``c chat``) stands for its key over all its words; the arrows of
    ``<- -> move`` for one arrow each (cached: a screen offers the same few lines at
    every frame). Words that name no key (``Waiting``, ``1-6``)
    stand for nothing. ``in_sentences``: a line of words that offers keys after them
    (a notice), where only a capital (``Y accept``) or a named key offers one."""
    hits: list[Hit] = []
    for segment in (_SENTENCE_SEGMENT if in_sentences else _SEGMENT).finditer(text):
        words = list(_WORD.finditer(segment.group()))
        arrows = [word for word in words if word.group() in ("<-", "->")]
        if arrows:
            for word in arrows:
                start = column + segment.start() + word.start()
                hits.append(Hit(row, start, start + 2, (_KEY_WORDS[word.group()],)))
            continue
        first = words[0].group()
        key = key_named(first)
        anything = _ANY_KEY.match(segment.group())
        if anything and not in_sentences:
            # "any other key: back to the game" (help), "any key: go on" (a notice)
            key = Key.ESCAPE if anything.group(1) == "back" else Key.ENTER
        if in_sentences and not (first.isupper() and len(words) > 1):
            key = None  # "2 players": a word of the sentence, not a key
        if key is not None:
            hits.append(Hit(row, column + segment.start(), column + segment.end(), (key,)))
    return tuple(hits)


class ClickKeys:
    """One session's clicks: the hit map of the frame last drawn, and the keys of a click
    not yet read (a click that stands for two keys gives them one read at a time)."""

    def __init__(self) -> None:
        self.hits: FrameHits | CentredHits = NO_HITS
        self._pending: deque[Key] = deque()

    def pending(self) -> Key | None:
        """The next key of the last click, if it stood for more than one."""
        return self._pending.popleft() if self._pending else None

    def translate(self, key: Key) -> Key | None:
        """``key`` itself, or for a click the first key it stands for (None: a click on
        nothing, which is dropped)."""
        if key.mouse is None:
            return key
        keys = self.hits.keys_for(key.mouse)
        if not keys:
            return None
        self._pending.extend(keys[1:])
        return keys[0]

    def forget(self) -> int:
        """Drop the rest of the last click; how many keys that was."""
        dropped = len(self._pending)
        self._pending.clear()
        return dropped
