"""Play-by-mail games: a two-player game played over days, each move whenever its player
calls.

The rules here are the clock's; the game itself is an ``engine.rules.record.RecordedGame``,
kept in the store as its recording after every move. Every moment is passed in: nothing
here reads the clock.

- The player to move has ``days_per_move`` days from the last move (anyone's, or the
  start) to make it; a player still to move after that forfeits the game. When both
  are still to throw to the crib, the one who has been silent longer is the one who
  forfeits.
- A player may make at most ``moves_per_day`` moves on one (UTC) calendar day, if the
  sysop sets a limit, so that a game lasts the days it is meant to.

>>> import datetime as dt
>>> start = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
>>> clock = PbmClock.start(PbmRules(days_per_move=3), start)
>>> clock.status_line(1, ("Ada", "Bob"), (1,), start + dt.timedelta(hours=20))
'your move against Ada (2 days left)'
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from door.competition.errors import CompetitionError, MoveLimitError

DAY: Final = dt.timedelta(days=1)
HOUR: Final = dt.timedelta(hours=1)


@dataclass(frozen=True)
class PbmRules:
    """How long a move may wait, and how many moves a player may make a day (None: no
    limit)."""

    days_per_move: int = 3
    moves_per_day: int | None = None

    def __post_init__(self) -> None:
        if self.days_per_move < 1:
            raise CompetitionError("A play-by-mail move needs at least a day.")
        if self.moves_per_day is not None and self.moves_per_day < 1:
            raise CompetitionError("A play-by-mail player needs at least one move a day.")


def _check_moment(now: dt.datetime) -> None:
    if now.tzinfo is None:
        raise CompetitionError("play-by-mail moments need their time zone")


def _day(now: dt.datetime) -> dt.date:
    return now.astimezone(dt.UTC).date()


def time_left_words(left: dt.timedelta) -> str:
    """ "3 days left", "2 days 23 hours left", "1 day left", "5 hours left", "under an
    hour left", "time is up". The hours are said beside the days: a new game's "2 days
    left" read wrong under "Move within 3 days"."""
    if left <= dt.timedelta(0):
        return "time is up"
    if left >= DAY:
        days, hours = left // DAY, left % DAY // HOUR
        words = f"{days} day{'s' if days != 1 else ''}"
        if hours:
            words += f" {hours} hour{'s' if hours != 1 else ''}"
        return f"{words} left"
    if left >= HOUR:
        hours = left // HOUR
        return f"{hours} hour{'s' if hours != 1 else ''} left"
    return "under an hour left"


@dataclass(frozen=True)
class PbmClock:
    """A play-by-mail game's clock: when the current wait began, and per seat when it
    last moved and how many moves it made on that day."""

    rules: PbmRules
    waiting_since: dt.datetime
    last_moved: tuple[dt.datetime | None, dt.datetime | None] = (None, None)
    moves_on_day: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        _check_moment(self.waiting_since)

    @classmethod
    def start(cls, rules: PbmRules, now: dt.datetime) -> PbmClock:
        """The clock of a game that starts at ``now``."""
        return cls(rules, now)

    # --- the deadline ---------------------------------------------------------------

    @property
    def deadline(self) -> dt.datetime:
        """When the player now to move runs out of time."""
        return self.waiting_since + self.rules.days_per_move * DAY

    def time_left(self, now: dt.datetime) -> dt.timedelta:
        return max(self.deadline - now, dt.timedelta(0))

    def overdue(self, now: dt.datetime) -> bool:
        return now >= self.deadline

    def forfeiter(self, waiting: Sequence[int], now: dt.datetime) -> int | None:
        """The seat that forfeits at ``now``: of the seats the game waits for (see
        ``door.competition.turns.waiting_on``), the one silent longest once the deadline
        has passed; None while there is time (or nobody is waited for)."""
        if not waiting or not self.overdue(now):
            return None
        never = dt.datetime.min.replace(tzinfo=dt.UTC)
        return min(waiting, key=lambda seat: (self.last_moved[seat] or never, seat))

    # --- moves a day ------------------------------------------------------------------

    def moves_left_today(self, seat: int, now: dt.datetime) -> int | None:
        """Moves ``seat`` may still make on ``now``'s day (None: no limit)."""
        limit = self.rules.moves_per_day
        if limit is None:
            return None
        last = self.last_moved[seat]
        made = self.moves_on_day[seat] if last is not None and _day(last) == _day(now) else 0
        return max(limit - made, 0)

    def check_move(self, seat: int, now: dt.datetime) -> None:
        """Raise MoveLimitError if ``seat`` has made today's moves."""
        if self.moves_left_today(seat, now) == 0:
            raise MoveLimitError(
                f"You have made your {self.rules.moves_per_day} moves for today: "
                "your next move can be made tomorrow (UTC)."
            )

    def moved(self, seat: int, now: dt.datetime) -> PbmClock:
        """The clock after ``seat`` moved at ``now``: the wait starts again. Raises
        MoveLimitError when the seat has no moves left today."""
        _check_moment(now)
        self.check_move(seat, now)
        last = self.last_moved[seat]
        made = self.moves_on_day[seat] if last is not None and _day(last) == _day(now) else 0
        last_moved = list(self.last_moved)
        last_moved[seat] = now
        counts = list(self.moves_on_day)
        counts[seat] = made + 1
        return replace(
            self,
            waiting_since=now,
            last_moved=(last_moved[0], last_moved[1]),
            moves_on_day=(counts[0], counts[1]),
        )

    # --- words for the lobby ----------------------------------------------------------

    def status_line(
        self, seat: int, names: tuple[str, str], waiting: Sequence[int], now: dt.datetime
    ) -> str:
        """The lobby's line for ``seat``: "your move against Ada (2 days left)", or
        "Ada's move (1 day left)" while the other player is to move."""
        opponent = names[1 - seat]
        left = time_left_words(self.time_left(now))
        if seat in waiting:
            if self.moves_left_today(seat, now) == 0:
                return f"your move against {opponent} (today's moves made; {left})"
            return f"your move against {opponent} ({left})"
        return f"{opponent}'s move ({left})"
