"""Whole games for the storage tests: recorded, with every event they caused."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.computer.selfplay import RandomPlayer, next_action, true_count
from engine.rules.events import Event
from engine.rules.game import CountingMode, Game
from engine.rules.record import RecordedGame, Recording
from engine.rules.scoring import RunsRule


class CarelessCounter(RandomPlayer):
    """Claims the true count only some of the time, so muggins happens."""

    def claim(self, game: Game, seat: int) -> int:
        return max(0, min(29, true_count(game) + self.rng.choice((-2, 0, 0, 3))))


@dataclass(frozen=True)
class PlayedGame:
    recording: Recording
    events: tuple[Event, ...]
    game: RecordedGame


def played_game(
    seed: int,
    players: int = 2,
    *,
    runs: RunsRule = "free",
    counting: CountingMode = "auto",
    actions: int | None = None,
) -> PlayedGame:
    """A random game to the end (or to ``actions`` actions), with its events in order."""
    game = RecordedGame(players, seed=seed, runs=runs, counting=counting)
    seats = [CarelessCounter(random.Random(seed * 7 + seat)) for seat in range(players)]
    events: list[Event] = []
    while game.winner_side is None and (actions is None or game.actions_taken < actions):
        events.extend(next_action(game, seats))
    return PlayedGame(game.recording, tuple(events), game)
