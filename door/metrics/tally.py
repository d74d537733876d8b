"""The counts the door's hot paths bump: plain integers and floats in one module-level
object, read at scrape time by door/metrics/collect.py.

Everything here runs on the event loop's thread, so a count is a plain ``+= 1``: no lock
(prometheus_client's own counters take one per increment) and nothing allocated per key.
This module imports nothing heavy, so door/term/terminal.py may import it freely.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Final

KEY_SECONDS_BUCKETS: Final = (
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
)  # fmt: skip
"""Upper bounds of the key-to-screen histogram: a frame within a few milliseconds is the
door at ease; past a tenth of a second a caller feels it."""


class Tally:
    """Counts since this process started (a worker's own)."""

    def __init__(self) -> None:
        self.keys = 0
        self.frames = 0
        self.bytes_sent = 0
        self.key_buckets = [0] * (len(KEY_SECONDS_BUCKETS) + 1)  # the last is +Inf
        self.key_seconds_sum = 0.0
        self.signins: dict[str, int] = {"ok": 0, "failed": 0}
        self.refused: dict[str, int] = {"limits": 0, "bans": 0, "load": 0}
        self.save_failures = 0
        self.database_waits = 0
        self.database_wait_seconds = 0.0
        self.computer_decisions = 0
        self.computer_seconds = 0.0
        self.win_bar_updates = 0
        self.win_bar_seconds = 0.0
        self.win_bar_skipped = 0
        """Moments whose bar was never worked out: the game moved on first."""
        self.win_bar_lag_seconds = 0.0
        """From asking for a moment's bar (its key's frame) to its being worked out."""
        self.gc_pauses = 0
        self.gc_seconds = 0.0

    def key_answered(self, seconds: float) -> None:
        """A frame answering a key went out ``seconds`` after the key came in."""
        self.key_buckets[bisect_left(KEY_SECONDS_BUCKETS, seconds)] += 1
        self.key_seconds_sum += seconds


TALLY: Final = Tally()
"""This process's counts."""
