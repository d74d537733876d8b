"""The words chat masks (``[chat] masked_words``): each is starred out where it stands
as a whole word, in any case, and in lookalike spellings (Cyrillic or full-width letters
in place of Latin: door/defence/lookalike.py), but not inside another word.

>>> mask = WordMask(["darn", "heck"])
>>> mask.masked("Darn it, what the HECK")
'**** it, what the ****'
>>> mask.masked("d\\u0430rn it")  # a Cyrillic a
'**** it'
>>> mask.masked("darning socks")
'darning socks'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from door.defence.lookalike import skeleton

_WORD: Final = re.compile(r"\w+")


class WordMask:
    """Stars out the words given; a mask of no words returns every line as it is."""

    def __init__(self, words: Iterable[str] = ()) -> None:
        self.words = tuple(word for word in words if word.strip())
        self._looks = frozenset(skeleton(word.strip()) for word in self.words)

    def __bool__(self) -> bool:
        return bool(self._looks)

    def masked(self, line: str) -> str:
        if not self._looks:
            return line
        # skeleton() is cached: a chat line's few words cost a dictionary look-up each
        # once they have been seen.
        return _WORD.sub(
            lambda word: "*" * len(word[0]) if skeleton(word[0]) in self._looks else word[0],
            line,
        )
