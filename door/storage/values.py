"""What the store hands out and takes in: accounts, seats, saved games, statistics, and the
log-in policy. Plain frozen values; nothing here touches the database."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from door.storage.schema import STAT_COUNTERS
from door.storage.settings import DatabaseSettings
from engine.rules.outcome import Outcome
from engine.rules.record import RecordedGame, Recording, replay

Clock = Callable[[], dt.datetime]
LeaderboardOrder = Literal["wins", "win_rate"]

MAX_NAME_LENGTH: Final = 20
MAX_OPPONENT_LENGTH: Final = 24
WRONG_LOGIN: Final = "Wrong handle or password."


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class LoginPolicy:
    """``max_failures`` wrong passwords within ``window`` lock an account for ``lockout``
    (0: never)."""

    max_failures: int = 5
    window: dt.timedelta = dt.timedelta(minutes=15)
    lockout: dt.timedelta = dt.timedelta(minutes=15)

    @classmethod
    def from_settings(cls, settings: DatabaseSettings) -> LoginPolicy:
        return cls(
            settings.max_failed_logins,
            dt.timedelta(seconds=settings.failed_login_window_seconds),
            dt.timedelta(seconds=settings.lockout_seconds),
        )


@dataclass(frozen=True)
class Account:
    id: int
    handle: str
    created_at: dt.datetime
    last_login_at: dt.datetime | None = None


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: an account, or just a name (a guest, the computer)."""

    name: str
    account_id: int | None = None


@dataclass(frozen=True)
class GameSummary:
    """One game in a list of games: its number (what ``cribbage-door replay`` takes),
    who sat where, and how it ended (``result`` None while it is not finished, or when
    it was closed without one)."""

    game_id: int
    players: int
    seats: tuple[Seat, ...]
    when: dt.datetime
    """When it finished, or was last saved while under way."""
    finished: bool
    result: Outcome | None = None

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.players == 4 else seat

    def seat_of(self, account_id: int) -> int | None:
        return next((n for n, s in enumerate(self.seats) if s.account_id == account_id), None)


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game as last saved; ``resume()`` rebuilds it to play on."""

    game_id: int
    recording: Recording
    seats: tuple[Seat, ...]
    opponent: str
    updated_at: dt.datetime
    table_settings: str | None = None
    """How a table between callers was set (door/app/table_settings.py), if kept."""

    def resume(self) -> RecordedGame:
        """The game as it stood, recording on (raises RecordingError if it no longer
        replays, which ``Store.load_unfinished_game`` has already ruled out)."""
        return replay(self.recording)


@dataclass(frozen=True)
class StatLine:
    """Totals for one mode (runs rule, counting, opponent), or for all modes together
    (then those three are "all")."""

    runs: str
    counting: str
    opponent: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    skunks_given: int = 0
    skunks_taken: int = 0
    double_skunks_given: int = 0
    double_skunks_taken: int = 0
    pegging_points: int = 0
    hand_points: int = 0
    crib_points: int = 0
    muggins_taken: int = 0
    muggins_given: int = 0
    hands_dealt: int = 0
    hands_shown: int = 0
    cribs_shown: int = 0
    best_hand_score: int = 0
    best_hand_cards: str | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def pegging_per_hand(self) -> float:
        return self.pegging_points / self.hands_dealt if self.hands_dealt else 0.0

    @property
    def average_hand(self) -> float:
        return self.hand_points / self.hands_shown if self.hands_shown else 0.0

    @property
    def average_crib(self) -> float:
        return self.crib_points / self.cribs_shown if self.cribs_shown else 0.0

    @classmethod
    def total(cls, lines: Sequence[StatLine]) -> StatLine:
        best = max(lines, key=lambda line: line.best_hand_score, default=None)
        sums = {name: sum(getattr(line, name) for line in lines) for name in STAT_COUNTERS}
        return cls(
            "all",
            "all",
            "all",
            **sums,
            best_hand_score=best.best_hand_score if best else 0,
            best_hand_cards=best.best_hand_cards if best else None,
        )


@dataclass(frozen=True)
class PlayerStats:
    account: Account
    modes: tuple[StatLine, ...]

    @property
    def total(self) -> StatLine:
        return StatLine.total(self.modes)


@dataclass(frozen=True)
class LeaderboardEntry:
    place: int
    handle: str
    games: int
    wins: int
    losses: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0
