"""Defence against password guessing that cannot be turned against an account's owner.

An account-wide lock-out lets anyone lock a member out of their own account. Here wrong
passwords are counted per account *and source address*: each pair gets a growing delay
before its next try is even checked, so a guesser slows to a crawl while the owner,
from their own address, answers at once. An address that fails across many accounts
(or very often) is refused for a while, for every account. One connection gets at most
``TRIES_PER_CONNECTION`` passwords. An unknown handle counts exactly as a wrong password
for an existing one: the same delays, the same answer.

>>> now = [0.0]
>>> guard = LoginGuard(clock=lambda: now[0])
>>> for _ in range(4):
...     guard.failed("ada", "10.0.0.9")
>>> guard.delay("ada", "10.0.0.9"), guard.delay("ada", "10.0.0.1")
(4.0, 0.0)
>>> guard.succeeded("ada", "10.0.0.9")
>>> guard.delay("ada", "10.0.0.9")
0.0
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Final, TypeVar

from door.logtext import escaped
from door.metrics.tally import TALLY
from door.storage.errors import LoginError
from door.storage.rules import handle_key

logger = logging.getLogger(__name__)
T = TypeVar("T")

TRIES_PER_CONNECTION: Final = 3
FREE_FAILURES: Final = 2
"""Wrong passwords (per account and address) before any delay: typos are free."""
MAX_DELAY_SECONDS: Final = 60.0
WINDOW_SECONDS: Final = 15 * 60
"""Failures older than this are forgotten."""
ACCOUNTS_PER_ADDRESS: Final = 5
FAILURES_PER_ADDRESS: Final = 15
"""An address that fails for this many accounts, or this many times, within the window
is refused for ``ADDRESS_REFUSAL_SECONDS``, whichever account it tries."""
ADDRESS_REFUSAL_SECONDS: Final = 15 * 60
MAX_TRACKED: Final = 100_000
"""Pairs and addresses remembered at most; past it the oldest are forgotten."""

ADDRESS_REFUSED: Final = "Too many failed log-ins from your address: try again later."
TOO_MANY_TRIES: Final = "Too many wrong passwords on this call. Goodbye!"


@dataclass
class _Failures:
    count: int = 0
    last: float = 0.0


@dataclass
class _AddressFailures:
    count: int = 0
    last: float = 0.0
    accounts: set[str] = field(default_factory=set)
    refused_until: float = 0.0


class LoginGuard:
    """The door's memory of failed log-ins; see the module docstring."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._pairs: dict[tuple[str, str], _Failures] = {}
        self._addresses: dict[str, _AddressFailures] = {}
        self.share: Callable[[str, str, str], None] | None = None
        """Told of each failure and success here ("failed"/"succeeded", handle, address)
        so that the door's other workers count them too (door/cluster/remote.py)."""

    def delay(self, handle: str, address: str) -> float:
        """Seconds the next try for ``handle`` from ``address`` waits before it is checked."""
        failures = self._pairs.get((handle_key(handle), address))
        if failures is None or failures.last <= self._clock() - WINDOW_SECONDS:
            return 0.0
        over = failures.count - FREE_FAILURES
        return 0.0 if over <= 0 else min(MAX_DELAY_SECONDS, 2.0**over)

    def refused(self, address: str) -> bool:
        """Whether ``address`` is refused every log-in for now."""
        record = self._addresses.get(address)
        return record is not None and record.refused_until > self._clock()

    def failed(self, handle: str, address: str, *, here: bool = True) -> None:
        """A wrong password (``here``: at this worker, to be shared with the others)."""
        if here:
            TALLY.signins["failed"] += 1
        if here and self.share is not None:
            self.share("failed", handle, address)
        now = self._clock()
        key = handle_key(handle)
        pair = self._pairs.get((key, address))
        if pair is None or pair.last <= now - WINDOW_SECONDS:
            pair = self._pairs[(key, address)] = _Failures()
        pair.count += 1
        pair.last = now
        record = self._addresses.get(address)
        if record is None or record.last <= now - WINDOW_SECONDS:
            record = self._addresses[address] = _AddressFailures(
                refused_until=record.refused_until if record is not None else 0.0
            )
        record.count += 1
        record.last = now
        if len(record.accounts) < ACCOUNTS_PER_ADDRESS:
            record.accounts.add(key)
        if (
            len(record.accounts) >= ACCOUNTS_PER_ADDRESS or record.count >= FAILURES_PER_ADDRESS
        ) and record.refused_until <= now:
            record.refused_until = now + ADDRESS_REFUSAL_SECONDS
            logger.warning(
                "log-ins from %s refused for %d minutes after %d failures for %d accounts",
                escaped(address),
                ADDRESS_REFUSAL_SECONDS // 60,
                record.count,
                len(record.accounts),
            )
        if len(self._pairs) > MAX_TRACKED or len(self._addresses) > MAX_TRACKED:
            self._forget_oldest()

    def succeeded(self, handle: str, address: str, *, here: bool = True) -> None:
        if here:
            TALLY.signins["ok"] += 1
        if here and self.share is not None:
            self.share("succeeded", handle, address)
        self._pairs.pop((handle_key(handle), address), None)

    def _forget_oldest(self) -> None:
        now = self._clock()
        for pairs in (self._pairs, self._addresses):
            stale = [key for key, value in pairs.items() if value.last <= now - WINDOW_SECONDS]
            for key in stale:
                if not getattr(pairs[key], "refused_until", 0.0) > now:
                    del pairs[key]
            if len(pairs) > MAX_TRACKED:
                for key in sorted(pairs, key=lambda k: pairs[k].last)[: len(pairs) // 10]:
                    del pairs[key]


class TooManyTries(Exception):
    """The connection used up its passwords: the caller is told and the line closed."""


class LoginAttempts:
    """One connection's log-in tries, checked against the door's ``LoginGuard``."""

    def __init__(
        self,
        guard: LoginGuard,
        address: str,
        tries: int = TRIES_PER_CONNECTION,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.guard = guard
        self.address = address
        self.tries_left = tries
        self._sleep = sleep

    @property
    def exhausted(self) -> bool:
        return self.tries_left <= 0

    async def verify(self, handle: str, check: Callable[[], Awaitable[T]]) -> T:
        """What ``check()`` returns (it raises LoginError for a wrong handle or password,
        which must look alike), counted for ``handle`` from this address. Raises
        LoginError when the address is refused, TooManyTries once no try is left."""
        if self.exhausted:
            raise TooManyTries(TOO_MANY_TRIES)
        self.tries_left -= 1
        if self.guard.refused(self.address):
            TALLY.refused["bans"] += 1
            raise LoginError(ADDRESS_REFUSED)
        delay = self.guard.delay(handle, self.address)
        if delay:
            await self._sleep(delay)
        try:
            result = await check()
        except LoginError:
            self.guard.failed(handle, self.address)
            raise
        self.guard.succeeded(handle, self.address)
        return result
