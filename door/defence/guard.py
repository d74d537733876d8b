"""Limits per source address, checked the moment a connection arrives, before a byte of
it is read: how many connections one address may hold at once, and how many it may
open a minute. A door on a public port otherwise lets one address fill every slot.

>>> now = [0.0]
>>> guard = AddressGuard(max_at_once=2, per_minute=2, clock=lambda: now[0])
>>> guard.admit("10.0.0.1"), guard.admit("10.0.0.1"), guard.admit("10.0.0.1")
(None, None, 'Too many connections from your address at once.')
>>> guard.release("10.0.0.1")
>>> guard.admit("10.0.0.1")
'Too many new connections from your address: wait a minute.'
>>> guard.admit("10.0.0.2") is None
True
>>> guard.closed  # one released, two refused
3
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Final

from door.defence.bans import BansInForce
from door.defence.log_limit import SourceLog
from door.metrics.tally import TALLY

logger = logging.getLogger(__name__)

AT_ONCE_MESSAGE: Final = "Too many connections from your address at once."
PER_MINUTE_MESSAGE: Final = "Too many new connections from your address: wait a minute."
PRUNE_EVERY: Final = 1000
"""Admissions between sweeps that forget addresses with nothing open or recent."""


class AddressGuard:
    """Counts connections per address; ``admit`` says why one is refused, or None."""

    def __init__(
        self,
        max_at_once: int,
        per_minute: int,
        clock: Callable[[], float] = time.monotonic,
        bans: BansInForce | None = None,
    ) -> None:
        self.bans = bans or BansInForce()
        """The sysop's bans, checked before the limits (door/defence/bans.py)."""
        self.max_at_once = max_at_once
        self.per_minute = per_minute
        self._clock = clock
        self._open: dict[str, int] = {}
        self._recent: dict[str, deque[float]] = {}
        self.arrived = 0
        """Connections that asked to come in since the start, let in or refused."""
        self.closed = 0
        """Connections gone since the start, refused or released (door/gc_policy.py
        sweeps by it)."""
        self.refusals = SourceLog(logger, clock=clock)
        """Where the transports say they refused a connection: one line per address and
        minute, so that an address hammering the door is not a line per connection."""

    def admit(self, address: str) -> str | None:
        """Count a new connection from ``address`` unless it is over a limit; a refused
        connection is not counted (and must not be released)."""
        now = self._clock()
        self.arrived += 1
        if self.arrived % PRUNE_EVERY == 0:
            self._prune(now)
        banned = self.bans.refusal(address)
        if banned is not None:
            self.closed += 1
            return banned
        if self._open.get(address, 0) >= self.max_at_once:
            self.closed += 1
            TALLY.refused["limits"] += 1
            return AT_ONCE_MESSAGE
        recent = self._recent.setdefault(address, deque(maxlen=self.per_minute))
        while recent and recent[0] <= now - 60:
            recent.popleft()
        if len(recent) >= self.per_minute:
            self.closed += 1
            TALLY.refused["limits"] += 1
            return PER_MINUTE_MESSAGE
        recent.append(now)
        self._open[address] = self._open.get(address, 0) + 1
        return None

    def hold(self, address: str) -> bool:
        """Count a connection that ``admit`` refused but that stays open a moment to be
        told why (a banned SSH caller waits for its banner): within the at-once limit,
        so that refusing cannot be turned into holding; released as any other."""
        if self._open.get(address, 0) >= self.max_at_once:
            self.closed += 1
            return False
        self._open[address] = self._open.get(address, 0) + 1
        return True

    def release(self, address: str) -> None:
        """A connection ``admit`` counted has closed."""
        self.closed += 1
        left = self._open.get(address, 0) - 1
        if left > 0:
            self._open[address] = left
        else:
            self._open.pop(address, None)

    def open_from(self, address: str) -> int:
        return self._open.get(address, 0)

    def _prune(self, now: float) -> None:
        for address in [
            a for a, times in self._recent.items() if not times or times[-1] <= now - 60
        ]:
            if address not in self._open:
                del self._recent[address]


def address_of(peername: object) -> str:
    """The host part of a socket's peer name ("" when there is none)."""
    if isinstance(peername, tuple) and peername:
        return str(peername[0])
    return str(peername or "")
