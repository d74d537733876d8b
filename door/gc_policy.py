"""Short garbage collections however many callers are on: what lives long is frozen.

A full garbage collection walks every object the collector tracks. With a thousand
callers that is over a million objects (each session's screens, table, game and
connection), and the walk took 330-400 ms with every caller waiting
(``bench/load.py --full-gc``). ``gc.freeze()`` moves every tracked object into a
permanent generation that no collection walks.

The door freezes the young generation on a timer (every ``YOUNG_EVERY`` seconds; the
collector still walks it every ``serve.YOUNG_COLLECTION`` allocations should a burst
come first). Play makes no cyclic garbage: at 1,200 callers playing, 25 s of young
collections found not one object in a cycle (``gc.DEBUG_SAVEALL``), so what a tick of
play leaves behind is either freed by reference counting already or lives on. Walking
it to learn that took 8-10 % of the server's processor time and pauses of 30-40 ms. So
a tick *walks* the young (collects them, then freezes what lived) only when garbage may
be there:
- connections arrived or closed since the last walk (their handshakes and transports
  make cycles: about two objects a caller's arrival, in the load bench);
- the last walk found some (it walks on until a walk comes back clean);
- every ``WALK_EVERY`` ticks whatever happened, so that a source of cycles nobody
  foresaw is found within seconds and walked after from then on.
Otherwise it freezes them unwalked (``gc.freeze()`` costs nothing however many there
are). A cycle let go in a quiet tick is frozen with the rest and waits for a sweep,
below. bench/load.py at 1,200 callers, three pairs against walking every tick: 8-14 %
less processor time a key, and the full collection it times 13.8 ms where it was 31 ms
(5.7-10.0 ms at 480 callers).

A frozen object is still freed by reference counting when its last reference goes; only
a frozen *cycle* is never freed. The door's own objects let go of each other when a
call or a game ends (``tests/door/cycles.py`` checks it on whole games over telnet and
SSH), but libraries leave some behind: asyncio's socket transports and asyncssh's
connections end as small cycles. So now and then the policy *sweeps*: it unfreezes
everything, runs one full collection, which frees those cycles, and freezes again.
That pause is as long as a full collection ever was (over 300 ms with a thousand
callers), so it comes only when there is garbage to free: once as many connections
have closed (or been refused) since the last sweep as there are callers now, and at
least ``SWEEP_CALLS_FLOOR``, so each closed connection pays for about one session's
share of the walk. Callers arriving by the hundred bring no sweep. For garbage that
connections do not account for, a backstop: a sweep once the frozen objects per caller
have grown ``SWEEP_GROWTH`` times since the last. Counting them walks every frozen
object (at 1,200 callers, over half a million: 67-75 ms, every caller waiting), so the
policy counts only once the process's resident memory per caller has grown
``COUNT_GROWTH`` times from the least it has been since it last counted: frozen objects
that matter take memory. Each sweep is logged.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time
from collections.abc import Callable
from typing import Any, Final

logger = logging.getLogger(__name__)

YOUNG_EVERY: Final = 0.05
"""Seconds between ticks. A walk takes what lived through the last tick's worth of
play, so the tick sets the longest young pause: bench/load.py at 1,200 callers, two
alternating pairs, 13-15 ms at 0.05 s against 33-34 ms at 0.2 s, for no more CPU a
key (a quiet tick only freezes, which costs nothing). When every tick walked, 0.2 s
had been the best (bench/load.py at 400 callers, against no timer and 0.05 s)."""
WALK_EVERY: Final = 100
"""Ticks (5 s) after which one walks however quiet they were."""
SWEEP_CHECK_SECONDS: Final = 30.0
"""How often the policy looks whether a sweep is due (it reads the resident memory;
it counts the frozen objects only when that has grown: ``COUNT_GROWTH``)."""
SWEEP_CALLS_FLOOR: Final = 500
"""Closed connections that call for a sweep however few callers are on."""
SWEEP_GROWTH: Final = 4.0
"""Frozen objects per caller, against the figure after the last sweep, that call for
the next."""
COUNT_GROWTH: Final = 1.2
"""Resident memory per caller, against the least since the frozen objects were last
counted, that has them counted again."""
CALLER_ALLOWANCE: Final = 100
"""Added to the callers in counting frozen objects per caller: with none on, the door's
own objects (tables, texts, the computer's) are all there is."""


def resident_bytes() -> int:
    """The process's resident memory (its peak where /proc is not there: it is only
    compared with itself); 0 where neither can be read, so that every check counts."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
    except ImportError:  # not on this system (Windows), as in door/file_limit.py
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


_PAGE: Final = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class FreezePolicy:
    """A ``gc.callbacks`` entry that freezes what lives through any collection, with the
    event-loop timers that freeze (or collect) the young generation and sweep when due."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        connections_closed: Callable[[], int] = lambda: 0,
        callers: Callable[[], int] = lambda: 0,
        *,
        connections_seen: Callable[[], int] = lambda: 0,
        young_every: float = YOUNG_EVERY,
        walk_every: int = WALK_EVERY,
        check_every: float = SWEEP_CHECK_SECONDS,
        calls_floor: int = SWEEP_CALLS_FLOOR,
        growth: float = SWEEP_GROWTH,
        resident: Callable[[], int] = resident_bytes,
    ) -> None:
        self._loop = loop
        self._closed, self._callers = connections_closed, callers
        self._young_every, self._check_every = young_every, check_every
        self._seen, self._walk_every = connections_seen, walk_every
        self._seen_at_walk = connections_seen()
        self._quiet_ticks = 0
        self._found = 0
        """Objects the last collection found in cycles."""
        self.walks = 0
        """Ticks that walked the young (for tests and benches)."""
        self._calls_floor, self._growth = calls_floor, growth
        self._closed_at_sweep = connections_closed()
        self._per_caller_at_sweep = self._per_caller(gc.get_freeze_count())
        self._resident = resident
        self._resident_at_count = self._per_caller(resident())
        self.counts = 0
        """Times the frozen objects were counted for a check (for tests)."""
        self.sweeps = 0
        self._young_timer = loop.call_later(young_every, self._tick)
        self._check_timer = loop.call_later(check_every, self._check)

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        # Whatever a collection leaves has lived through it. No counting here: it is
        # O(objects) and a collection may come in any thread (the computer's pool).
        if phase == "stop" and gc.isenabled():
            self._found = info.get("collected", 0)
            gc.freeze()

    def _tick(self) -> None:
        self.tick()
        self._young_timer = self._loop.call_later(self._young_every, self._tick)

    def tick(self) -> None:
        """Walk the young generation if garbage may be there, else freeze it unwalked.
        With the collector turned off (a test that must see every cycle made,
        tests/door/cycles.py), neither."""
        if not gc.isenabled():
            return
        seen = self._seen()
        if self._found or seen != self._seen_at_walk or self._quiet_ticks >= self._walk_every:
            self._seen_at_walk, self._quiet_ticks = seen, 0
            self.walks += 1
            gc.collect(0)  # the callback notes what it found, and freezes
        else:
            self._quiet_ticks += 1
            gc.freeze()

    def _check(self) -> None:
        reason = self.sweep_reason() if gc.isenabled() else ""
        if reason:
            self.sweep(reason)
        self._check_timer = self._loop.call_later(self._check_every, self._check)

    def _per_caller(self, frozen: int) -> float:
        return frozen / (self._callers() + CALLER_ALLOWANCE)

    def sweep_reason(self) -> str:
        """Why a sweep is due now, or "" if it is not."""
        closed = self._closed() - self._closed_at_sweep
        if closed >= max(self._calls_floor, self._callers()):
            return f"{closed} connections closed"
        resident = self._per_caller(self._resident())
        if resident < self._resident_at_count * COUNT_GROWTH:
            # Measured from the least since the count: callers arriving bring it down.
            self._resident_at_count = min(self._resident_at_count, resident)
            return ""
        self._resident_at_count = resident
        self.counts += 1
        per_caller = self._per_caller(gc.get_freeze_count())
        if per_caller > self._per_caller_at_sweep * self._growth:
            return f"{per_caller:.0f} frozen objects per caller"
        return ""

    def stop(self) -> None:
        self._young_timer.cancel()
        self._check_timer.cancel()

    def sweep(self, reason: str = "asked") -> None:
        """Free the cycles that died frozen: one full collection over everything."""
        before = gc.get_freeze_count()
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()  # the callback freezes again
        pause = time.perf_counter() - started
        kept = gc.get_freeze_count()
        self._per_caller_at_sweep = self._per_caller(kept)
        self._resident_at_count = self._per_caller(self._resident())
        self._closed_at_sweep = self._closed()
        self.sweeps += 1
        logger.info(
            "garbage sweep (%s): %d long-lived objects, %d after; %d freed in cycles in %.0f ms",
            reason,
            before,
            kept,
            freed,
            pause * 1000,
        )


def install(loop: asyncio.AbstractEventLoop, **options: Any) -> FreezePolicy:
    """Start freezing long-lived objects (after start-up's own ``gc.freeze()``);
    ``options``: ``FreezePolicy``'s (``connections_closed`` and ``callers``, counted
    when a sweep is due, the timers, the limits)."""
    policy = FreezePolicy(loop, **options)
    gc.callbacks.append(policy)
    return policy


def uninstall(policy: FreezePolicy) -> None:
    """Stop: what is frozen stays frozen (as start-up's objects do)."""
    policy.stop()
    if policy in gc.callbacks:
        gc.callbacks.remove(policy)
