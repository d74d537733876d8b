"""A token bucket: at most ``rate`` events a second on average, ``burst`` at once.

Pure and clock-injected, so it is tested without sleeping:

>>> now = [0.0]
>>> bucket = TokenBucket(rate=2, burst=3, clock=lambda: now[0])
>>> bucket.take(5)
3
>>> bucket.take()
0
>>> now[0] = 1.0
>>> bucket.take(5)
2
>>> bucket.seconds_until(2)
1.0
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

INPUT_BYTES_PER_SECOND: Final = 16 * 1024
INPUT_BURST_BYTES: Final = 64 * 1024
"""What one caller's connection may send, its protocol's commands included (a telnet
window-size change is nine bytes, an RLogin one twelve): each is parsed in Python as it
arrives, so past this the connection is not read from until it is back under the rate.
Keys are far fewer."""


class TokenBucket:
    """``burst`` tokens to start with, refilled at ``rate`` a second up to ``burst``."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError(f"a token bucket needs rate > 0 and burst >= 1, not {rate}, {burst}")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._at = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now

    @property
    def tokens(self) -> float:
        self._refill()
        return self._tokens

    def take(self, wanted: int = 1) -> int:
        """Take up to ``wanted`` whole tokens; returns how many were granted."""
        # _refill and min() written out: every key and every read of a caller's
        # connection takes from a bucket (issue #48).
        now = self._clock()
        tokens = self._tokens + (now - self._at) * self.rate
        if tokens > self.burst:
            tokens = float(self.burst)
        self._at = now
        granted = wanted if wanted <= tokens else int(tokens)
        self._tokens = tokens - granted
        return granted

    def seconds_until(self, tokens: float) -> float:
        """How long until the bucket holds ``tokens`` (at most ``burst``) again."""
        self._refill()
        missing = min(tokens, self.burst) - self._tokens
        return max(0.0, missing / self.rate)
