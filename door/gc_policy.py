"""Short full collections however many callers are on: what lives long is frozen.

A full garbage collection walks every object the collector tracks. With a thousand
callers that is over a million objects (each session's screens, table, game and
connection), and the walk took 330-400 ms with every caller waiting
(``bench/load.py --full-gc``). ``gc.freeze()`` moves every tracked object into a
permanent generation that no collection walks. The door freezes after each middle
collection, when what is left has lived through two collections and is long-lived, so
the old generation only ever holds what arrived since, and a full collection walks a
few thousand objects instead of every session.

A frozen object is still freed by reference counting when its last reference goes; only
a frozen *cycle* is never freed. The door's own objects let go of each other when a
call or a game ends (``tests/door/cycles.py`` checks it on whole games over telnet and
SSH), but libraries leave some behind: asyncio's socket transports and asyncssh's
connections end as small cycles. So the policy keeps count: once the frozen objects are
``SWEEP_GROWTH`` times as many as after the last sweep, it unfreezes them and runs one
full collection, which frees those cycles. That pause is as long as a full collection
ever was, but it comes only when what is kept has doubled (callers arriving by the
hundred, or a long day of calls), where Python's own policy runs one each time the old
generation grows by a quarter. Each sweep is logged.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Any, Final

logger = logging.getLogger(__name__)

SWEEP_GROWTH: Final = 2.0
"""Frozen objects, against the count after the last sweep, that call for the next."""
SWEEP_FLOOR: Final = 100_000
"""No sweep below this many frozen objects: a door with a few callers never needs one."""


class FreezePolicy:
    """A ``gc.callbacks`` entry: freeze after each middle or full collection, and sweep
    (unfreeze, collect, freeze) on the event loop when the frozen count has grown."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        growth: float = SWEEP_GROWTH,
        floor: int = SWEEP_FLOOR,
    ) -> None:
        self._loop = loop
        self._growth, self._floor = growth, floor
        self._limit = max(floor, int(gc.get_freeze_count() * growth))
        self._sweep_due = False
        self.sweeps = 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation", 0) < 1:
            return
        # Right after a middle (or full) collection the young generations are empty and
        # the old one holds what survived: long-lived, so out of every later walk.
        gc.freeze()
        if not self._sweep_due and gc.get_freeze_count() > self._limit:
            # Not here: a collection cannot start inside another's callback, and this
            # may be any thread that allocated (the computer thinks in a pool).
            self._sweep_due = True
            self._loop.call_soon_threadsafe(self.sweep)

    def sweep(self) -> None:
        """Free the cycles that died frozen: one full collection over everything."""
        before = gc.get_freeze_count()
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        pause = time.perf_counter() - started
        kept = gc.get_freeze_count()
        self._limit = max(self._floor, int(kept * self._growth))
        self._sweep_due = False
        self.sweeps += 1
        logger.info(
            "garbage sweep: %d long-lived objects, %d after; %d freed in cycles in %.0f ms;"
            " next sweep past %d",
            before,
            kept,
            freed,
            pause * 1000,
            self._limit,
        )


def install(loop: asyncio.AbstractEventLoop, **limits: Any) -> FreezePolicy:
    """Start freezing long-lived objects (after start-up's own ``gc.freeze()``);
    ``limits``: ``FreezePolicy``'s ``growth`` and ``floor``."""
    policy = FreezePolicy(loop, **limits)
    gc.callbacks.append(policy)
    return policy


def uninstall(policy: FreezePolicy) -> None:
    """Stop: what is frozen stays frozen (as start-up's objects do)."""
    if policy in gc.callbacks:
        gc.callbacks.remove(policy)
