"""The turn timer: a countdown for the player to move, optional per challenge.

A pure value: it is started with the number of seconds a turn may take and the moment
it starts, and asked about a later moment (the table passes the event loop's clock, any
monotonic seconds). On time-out the table makes the move for the absent player with
``door.competition.turns.play_for``.

>>> timer = TurnTimer.start(60, now=100.0)
>>> timer.label(now=117.5), timer.expired(now=117.5)
('0:43', False)
>>> timer.label(now=160.0), timer.expired(now=160.0)
('0:00', True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from door.competition.errors import CompetitionError


@dataclass(frozen=True)
class TurnTimer:
    """``seconds`` a turn may take, counted from ``started``."""

    seconds: float
    started: float

    def __post_init__(self) -> None:
        if not self.seconds > 0:
            raise CompetitionError(f"a turn lasts some seconds, not {self.seconds}")

    @classmethod
    def start(cls, seconds: float, now: float) -> TurnTimer:
        return cls(seconds, now)

    def restart(self, now: float) -> TurnTimer:
        """The same timer for the next turn, starting at ``now``."""
        return TurnTimer(self.seconds, now)

    def remaining(self, now: float) -> float:
        """Seconds left at ``now`` (never below nothing)."""
        return max(0.0, self.started + self.seconds - now)

    def expired(self, now: float) -> bool:
        return self.remaining(now) <= 0

    def label(self, now: float) -> str:
        """Minutes and seconds left, rounded up: "0:42", "1:30"; "0:00" once expired."""
        whole = math.ceil(self.remaining(now))
        return f"{whole // 60}:{whole % 60:02d}"
