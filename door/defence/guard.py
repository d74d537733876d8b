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

A web page and its WebSocket are one new connection: the page's load is counted, and the
session it opens within the minute is its own (door/transports/web_guard.py).

>>> guard = AddressGuard(max_at_once=8, per_minute=2, clock=lambda: now[0])
>>> guard.page_loaded("10.0.0.3"), guard.session_opened("10.0.0.3")
(None, None)
>>> guard.session_opened("10.0.0.3"), guard.session_opened("10.0.0.3")  # no page of theirs
(None, 'Too many new connections from your address: wait a minute.')
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
"""Counts between sweeps that forget addresses with nothing in the minute."""


class MinuteWindow:
    """How often each address did something in the last minute, up to ``limit``.

    >>> window = MinuteWindow(2)
    >>> window.take("a", 0.0), window.take("a", 1.0), window.take("a", 2.0)
    (True, True, False)
    >>> window.take("a", 60.5), window.take("b", 60.5)
    (True, True)
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._times: dict[str, deque[float]] = {}
        self._taken = 0

    def take(self, address: str, now: float) -> bool:
        """Count one more for ``address`` unless it had ``limit`` within the minute."""
        self._taken += 1
        if self._taken % PRUNE_EVERY == 0:
            self._prune(now)
        times = self._recent(address, now)
        if len(times) >= self.limit:
            return False
        times.append(now)
        return True

    def spend_oldest(self, address: str, now: float) -> bool:
        """Use up the oldest of the minute (True), or say there was none (False)."""
        times = self._recent(address, now)
        if not times:
            return False
        times.popleft()
        return True

    def _prune(self, now: float) -> None:
        """Forget the addresses with nothing in the minute."""
        for address in [
            a for a, times in self._times.items() if not times or times[-1] <= now - 60
        ]:
            del self._times[address]

    def _recent(self, address: str, now: float) -> deque[float]:
        times = self._times.setdefault(address, deque(maxlen=self.limit))
        while times and times[0] <= now - 60:
            times.popleft()
        return times


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
        self._recent = MinuteWindow(per_minute)
        """New connections (telnet, SSH, a web page or a session) in the last minute."""
        self._pages = MinuteWindow(per_minute)
        """Web pages loaded in the last minute whose session has not opened yet."""
        self.arrived = 0
        """Connections that asked to come in since the start, let in or refused."""
        self.closed = 0
        """Connections gone since the start, refused or released (door/gc_policy.py
        sweeps by it)."""
        self.refusals = SourceLog(logger, clock=clock)
        """Where the transports say they refused a connection: one line per address and
        minute, so that an address hammering the door is not a line per connection."""

    def admit(self, address: str, *, new: bool = True) -> str | None:
        """Count a new connection from ``address`` unless it is over a limit; a refused
        connection is not counted (and must not be released). One that is not ``new``
        (a web connection, which may only fetch the page's files) is held to the bans
        and the limit at once but not counted in the minute."""
        now = self._clock()
        self.arrived += 1
        banned = self.bans.refusal(address)
        if banned is not None:
            self.closed += 1
            return banned
        if self._open.get(address, 0) >= self.max_at_once:
            self.closed += 1
            TALLY.refused["limits"] += 1
            return AT_ONCE_MESSAGE
        if new and not self._recent.take(address, now):
            self.closed += 1
            TALLY.refused["limits"] += 1
            return PER_MINUTE_MESSAGE
        self._open[address] = self._open.get(address, 0) + 1
        return None

    def page_loaded(self, address: str) -> str | None:
        """The web page was asked for, on a connection already admitted (not ``new``):
        one new connection in the minute, which pays for the session the page opens."""
        now = self._clock()
        if not self._recent.take(address, now):
            TALLY.refused["limits"] += 1
            return PER_MINUTE_MESSAGE
        self._pages.take(address, now)
        return None

    def session_opened(self, address: str) -> str | None:
        """A web session (a WebSocket) opens on a connection already admitted: the page
        loaded from the address within the minute paid for it, or it is a new connection
        in the minute itself (a page that is not ours, a program, a flood)."""
        now = self._clock()
        if self._pages.spend_oldest(address, now) or self._recent.take(address, now):
            return None
        TALLY.refused["limits"] += 1
        return PER_MINUTE_MESSAGE

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


def address_of(peername: object) -> str:
    """The host part of a socket's peer name ("" when there is none)."""
    if isinstance(peername, tuple) and peername:
        return str(peername[0])
    return str(peername or "")


def peer_text(peername: object) -> str:
    """A socket's peer name as the log and a caller's ``peer`` write it, address and
    port: an IPv6 address in brackets, as in a URL, where "2001:db8::1:0" read as the
    address 2001:db8::1:0 with no port ("" when there is none).

    >>> peer_text(("203.0.113.7", 4711)), peer_text(("2001:db8::1", 0, 0, 0))
    ('203.0.113.7:4711', '[2001:db8::1]:0')
    """
    if isinstance(peername, tuple) and len(peername) >= 2:
        host, port = peername[0], peername[1]
        return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"
    return str(peername or "")


def system_peer(system: str, peername: object) -> str:
    """A linked BBS's caller's peer: the BBS's tag and its address, as the log writes
    it ("FRIEND (203.0.113.7)"): the BBS's port says nothing of which caller it is."""
    return f"{system} ({address_of(peername)})"


def _system_and_address(peer: str) -> tuple[str, str] | None:
    """A ``system_peer``'s tag and address; None for any other peer."""
    system, opened, inside = peer.rpartition(" (")
    return (system, inside[:-1]) if opened and inside.endswith(")") else None


def peer_system(peer: str) -> str:
    """The linked BBS's tag in a ``system_peer`` ("" for any other peer): its callers
    share its address, so a ban of one of them is a ban of their name, not of that.

    >>> peer_system("FRIEND (2001:db8::7)"), peer_system("[2001:db8::1]:0")
    ('FRIEND', '')
    """
    parts = _system_and_address(peer)
    return parts[0] if parts is not None else ""


def peer_address(peer: str) -> str:
    """The address in a ``peer_text`` (brackets and port taken off), or in a
    ``system_peer`` (the BBS's: a linked BBS's callers all come from it), or text of no
    port ("local") itself; an unbracketed IPv6 peer as a worker before the brackets wrote
    it loses its last part, the port.

    >>> peer_address("[2001:db8::1]:0"), peer_address("203.0.113.7:4711")
    ('2001:db8::1', '203.0.113.7')
    >>> peer_address("FRIEND (2001:db8::7)"), peer_address("FRIEND (192.0.2.7)")
    ('2001:db8::7', '192.0.2.7')
    """
    parts = _system_and_address(peer)
    if parts is not None:
        return parts[1]
    if peer.startswith("["):
        return peer[1:].partition("]")[0]
    return peer.rsplit(":", 1)[0] if ":" in peer else peer
