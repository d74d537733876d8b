"""How a game is played, as one value from the lobby to the engine to storage, and how a
game ended for one seat.

The computer's levels are the engine's (``engine.computer.levels.LEVELS``): defined once, there.

>>> options = GameOptions(players=3).with_next_level()
>>> options.level, options.players
('expert', 3)
>>> GameOptions.from_json(options.to_json()) == options
True
>>> GameOptions(level="genius")
Traceback (most recent call last):
...
ValueError: level must be one of easy, normal, expert, not 'genius'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final, get_args

from door.competition.match import MATCH_LENGTHS
from engine.computer.levels import LEVELS
from engine.rules.game import CountingMode
from engine.rules.outcome import Outcome
from engine.rules.scoring import RunsRule

COMPUTER_NAME: Final = "Computer"
RUNS: Final[tuple[str, ...]] = get_args(RunsRule)
COUNTING: Final[tuple[str, ...]] = get_args(CountingMode)
PLAYERS: Final = (2, 3, 4)
TURN_TIMERS: Final = (0, 30, 60, 120)
"""Seconds a decision may take in a timed game (0: untimed)."""

__all__ = ["COMPUTER_NAME", "COUNTING", "GameOptions", "GameResult", "LEVELS", "PLAYERS", "RUNS"]


@dataclass(frozen=True)
class GameOptions:
    """Pegging runs, show counting, the computer's level, and players (2, 3, or 4 in two
    partnerships; the computer fills seats nobody takes). Checked when made: a value that
    exists is one the engine plays."""

    runs: RunsRule = "free"
    counting: CountingMode = "auto"
    level: str = "normal"
    players: int = 2
    best_of: int = 1
    """One game, or a match: the best of 3, 5 or 7, scored in game points (two sides)."""
    rated: bool = False
    """A challenge between two members that moves their ratings (opt-in)."""
    turn_seconds: int = 0
    """Seconds each decision may take (0: no timer); past them the computer moves."""
    tournament: int = 0
    """The tournament whose match this game is part of (0: none): its result counts there."""

    def __post_init__(self) -> None:
        for name, allowed in (("runs", RUNS), ("counting", COUNTING), ("level", LEVELS)):
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
        if type(self.players) is not int or self.players not in PLAYERS:
            raise ValueError(f"players must be 2, 3 or 4, not {self.players!r}")
        if type(self.best_of) is not int or self.best_of not in MATCH_LENGTHS:
            raise ValueError(f"a match is the best of 1, 3, 5 or 7 games, not {self.best_of!r}")
        if type(self.turn_seconds) is not int or self.turn_seconds not in TURN_TIMERS:
            raise ValueError(
                f"a turn timer is one of {', '.join(map(str, TURN_TIMERS))} seconds, "
                f"not {self.turn_seconds!r}"
            )
        if type(self.tournament) is not int or self.tournament < 0:
            raise ValueError(f"a tournament is a number, not {self.tournament!r}")
        if self.tournament and self.players != 2:
            raise ValueError("a tournament game is between two players")
        if type(self.rated) is not bool:
            raise ValueError(f"rated is yes or no, not {self.rated!r}")
        if self.rated and self.players != 2:
            raise ValueError("a rated game is between two players")
        if self.best_of > 1 and self.players == 3:
            raise ValueError("a match is between two sides: 2 players, or 4 in partnerships")

    def with_(self, **changes: Any) -> GameOptions:
        return dataclasses.replace(self, **changes)

    def with_next_level(self) -> GameOptions:
        return self.with_(level=LEVELS[(LEVELS.index(self.level) + 1) % len(LEVELS)])

    def with_next_players(self) -> GameOptions:
        """The next number of players; three players play single games."""
        players = PLAYERS[(PLAYERS.index(self.players) + 1) % len(PLAYERS)]
        best_of = 1 if players == 3 else self.best_of
        return self.with_(players=players, best_of=best_of, rated=self.rated and players == 2)

    def with_next_match_length(self) -> GameOptions:
        """One game, best of 3, 5, 7, and round again. Raises ValueError for three
        players (a match is between two sides)."""
        index = MATCH_LENGTHS.index(self.best_of)
        return self.with_(best_of=MATCH_LENGTHS[(index + 1) % len(MATCH_LENGTHS)])

    def with_next_turn_timer(self) -> GameOptions:
        """No timer, 30, 60, 120 seconds a decision, and round again."""
        index = TURN_TIMERS.index(self.turn_seconds)
        return self.with_(turn_seconds=TURN_TIMERS[(index + 1) % len(TURN_TIMERS)])

    @property
    def timer_text(self) -> str:
        return "no timer" if not self.turn_seconds else f"{self.turn_seconds} s a turn"

    @property
    def match_text(self) -> str:
        return "one game" if self.best_of == 1 else f"best of {self.best_of}"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameOptions:
        """Options stored by ``to_json``; raises ValueError for anything else."""
        known = {field.name for field in dataclasses.fields(cls)}
        if not isinstance(data, dict) or set(data) - known:
            raise ValueError(f"not game options: {data!r}")
        return cls(**data)


@dataclass(frozen=True)
class GameResult:
    """The end of a game as one seat sees it: the game's ``Outcome`` (engine's
    ``Game.outcome()``; None for a game given up with no winner, when everyone left),
    the seat's ``side``, and the ``scores`` where the game stood."""

    outcome: Outcome | None
    side: int
    scores: tuple[int, ...]

    @property
    def quit(self) -> bool:
        """The seat's side left the game before its end, or the game was given up."""
        return self.outcome is None or self.outcome.forfeited_by == self.side

    @property
    def caller_won(self) -> bool:
        return self.outcome is not None and self.outcome.won(self.side)

    @property
    def caller_score(self) -> int:
        return self.scores[self.side]

    @property
    def computer_score(self) -> int:
        """The best opposing score (the computer's, in a game against it)."""
        return max(score for side, score in enumerate(self.scores) if side != self.side)

    @property
    def skunk(self) -> str | None:
        """The loser's skunk, if any: ours when we lost, the lowest other side's when we won."""
        if self.outcome is None:
            return None
        if not self.caller_won:
            return self.outcome.skunk_of(self.side)
        others = [side for side in range(len(self.scores)) if side != self.side]
        return self.outcome.skunk_of(min(others, key=self.scores.__getitem__))
