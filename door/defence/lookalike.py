"""Names that look alike: the confusable skeleton of Unicode TR39 (UTS #39).

Two names with the same skeleton are the same name to a reader: ``Аda`` with a Cyrillic
``А``, ``Ada`` with a zero-width space inside, or ``Ａda`` in full width, are all ``Ada``.
The skeleton here is NFKC, case folding and the removal of format and zero-width
characters, then Unicode's confusables mapping (confusables.txt, as the maintained
``confusable-homoglyphs`` package ships it), repeated until nothing changes.

>>> skeleton("\\u0410da") == skeleton("ADA") == skeleton("A\\u200bda") == skeleton("\\uff21da")
True
>>> skeleton("Sys\\u043ep") == skeleton("sysop")
True
>>> skeleton("Ada") == skeleton("Eda")
False
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Final

from confusable_homoglyphs.confusables import confusables_data

_MAX_ROUNDS: Final = 4


def _prototype(char: str) -> str:
    """What confusables.txt maps ``char`` to (itself for a prototype).

    The package keeps, for each character in the file, the characters it is confusable
    with: a source character lists just its prototype, a prototype lists every source
    mapped to it. When a pair lists only each other, the direction is lost; either
    choice folds both to one character, which is all a comparison needs."""
    entries = confusables_data.get(char)
    if not entries or len(entries) != 1:
        return char
    target = entries[0]["c"]
    back = confusables_data.get(target)
    if back is not None and len(back) == 1 and back[0]["c"] == char:
        return min(char, target)
    return target


_PROTOTYPES: Final[dict[str, str]] = {}


def _mapped(char: str) -> str:
    cached = _PROTOTYPES.get(char)
    if cached is None:
        cached = _PROTOTYPES[char] = _prototype(char)
    return cached


def _invisible(char: str) -> bool:
    # Format characters (Cf: zero-width joiners, bidi controls, soft hyphen) and the
    # few other default-ignorable ones a name could hide.
    return unicodedata.category(char) == "Cf" or char in "\u115f\u1160\u3164\uffa0\u034f"


@functools.lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """The key under which names that look alike are equal."""
    text = "".join(char for char in unicodedata.normalize("NFKC", name) if not _invisible(char))
    for _ in range(_MAX_ROUNDS):
        folded = unicodedata.normalize("NFD", text.casefold())
        mapped = unicodedata.normalize("NFD", "".join(_mapped(char) for char in folded))
        mapped = "".join(char for char in mapped if not _invisible(char))
        if mapped == text:
            break
        text = mapped
    return " ".join(text.split())


def looks_like(name: str, other: str) -> bool:
    return skeleton(name) == skeleton(other)
