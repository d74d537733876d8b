"""A random stream seeded now and made the first time it is used.

A table gives the computer in each seat, and its canned chat replies, streams of their
own, so that neither ever shifts the deck's shuffles. Most are never drawn from: a
caller's own seat has a computer only in case it must take over, and few callers chat
to the computer. A ``random.Random`` holds its whole state (2.5 KB) from the start, and
a session kept two of them unused; this holds a seed until something draws from it.

>>> import random
>>> later = random_later(random.Random(7))
>>> now = random.Random(random.Random(7).getrandbits(64))
>>> [later.random() for _ in range(3)] == [now.random() for _ in range(3)]
True
"""

from __future__ import annotations

import random
from typing import Any, cast


class _LaterRandom:
    __slots__ = ("_seed", "_made")

    def __init__(self, seed: int) -> None:
        self._seed = seed
        self._made: random.Random | None = None

    def __getattr__(self, name: str) -> Any:
        # Only names a Random has and this object does not: its methods.
        made = self._made
        if made is None:
            made = self._made = random.Random(self._seed)
        return getattr(made, name)


def random_later(parent: random.Random) -> random.Random:
    """A stream of its own, seeded from ``parent`` now (so ``parent`` moves on exactly as
    if it were made now), holding no state until first drawn from."""
    return cast(random.Random, _LaterRandom(parent.getrandbits(64)))
