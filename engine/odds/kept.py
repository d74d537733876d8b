"""Work kept for read-only distributions, as long as each array lives: the forward runs
ask for the same few trimmed tables and tails at every play (engine/odds/model.py)."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import partial

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


def read_only(array: FloatArray) -> FloatArray:
    """``array``, no longer writeable: a table that forward runs may keep work for."""
    array.flags.writeable = False
    return array


class KeptForTables:
    """Work done on read-only distributions (the shipped tables' own, their trimmed
    copies, the crib once the starter is cut), by the array's id, for as long as the
    array lives: a win bar asks for the same few at every play. Work on a writeable
    array is not kept.

    An entry goes when its array does (a weak reference's callback), so the id cannot
    be reused while it is kept, and what is kept is bounded by the arrays the engine
    itself keeps. (So ``work`` must make a new array, not a view of its argument: a
    view would keep its array alive, and with it the entry.) It was a dict of at most
    1,024 emptied when full: at 1,200 tables the four thousand cribs in
    ``engine.odds.winbar``'s cache filled it every few seconds, and every table's trimmed
    stages were worked out again."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[weakref.ref[FloatArray], FloatArray]] = {}

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        self._kept.clear()

    def __call__(self, dist: FloatArray, work: Callable[[FloatArray], FloatArray]) -> FloatArray:
        key = id(dist)
        known = self._kept.get(key)
        if known is not None and known[0]() is dist:
            return known[1]  # kept, so read-only: looked up first, as most are
        if dist.flags.writeable:
            return work(dist)
        result = read_only(work(dist))
        self._kept[key] = (weakref.ref(dist, partial(self._forget, key)), result)
        return result

    def _forget(self, key: int, _gone: weakref.ref[FloatArray]) -> None:
        # Called as the array is freed, before its id can be given to another.
        self._kept.pop(key, None)
