"""A finished game's statistics, per seat, worked out by replaying its recording.

There is one source of truth: the recording. Nothing else about a game is trusted, so
the totals can always be rebuilt from the game logs. Pure: no database here.

Points are split the way players talk about them: pegging (everything scored in the play,
his heels included), hand and crib (what the owner was awarded in the show), and muggins
(points taken from another player's miscount, or lost to one).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.cards import format_cards
from engine.events import GameOver, HandDealt, Pegged, ShowScored
from engine.record import Recording, replay, replay_steps


@dataclass
class SeatStats:
    """What one seat did in one game; the fields match door.storage.schema.STAT_COUNTERS."""

    games: int = 1
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

    def counters(self) -> dict[str, int]:
        return {key: value for key, value in asdict(self).items() if isinstance(value, int)}


@dataclass(frozen=True)
class GameResult:
    """How a game ended: the winning side, the scores, each skunked side's kind of skunk
    ("skunk" or "double skunk"), and the seat that left early, if one did."""

    winner_side: int
    scores: tuple[int, ...]
    skunks: tuple[tuple[int, str], ...] = ()
    forfeited_by: int | None = None

    def to_json(self) -> str:
        return json.dumps(
            {
                "winner_side": self.winner_side,
                "scores": list(self.scores),
                "skunks": [list(skunk) for skunk in self.skunks],
                "forfeited_by": self.forfeited_by,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> GameResult:
        data: dict[str, Any] = json.loads(text)
        return cls(
            data["winner_side"],
            tuple(data["scores"]),
            tuple((side, kind) for side, kind in data["skunks"]),
            data["forfeited_by"],
        )


@dataclass(frozen=True)
class GameStats:
    result: GameResult
    seats: tuple[SeatStats, ...] = field(default_factory=tuple)


class UnfinishedGameError(ValueError):
    """Statistics asked of a game that neither ended nor was forfeited."""


def game_stats(recording: Recording, forfeited_by: int | None = None) -> GameStats:
    """Replay ``recording`` and total what each seat did.

    A game that reached 121 is scored as it ended. A game left unfinished counts only
    when ``forfeited_by`` names the seat that left: that seat's side loses, the leading
    other side wins, and nobody is skunked. Raises UnfinishedGameError for an unfinished
    game without a forfeit, and engine.record.RecordingError if the recording does not
    replay.
    """
    seats = [SeatStats() for _ in range(recording.players)]
    over: GameOver | None = None
    for _, events, _ in replay_steps(recording):
        for event in events:
            if isinstance(event, HandDealt):
                for stats in seats:
                    stats.hands_dealt += 1
            elif isinstance(event, Pegged):
                _count_points(seats, event, recording.players)
            elif isinstance(event, ShowScored):
                _count_show(seats[event.seat], event)
            elif isinstance(event, GameOver):
                over = event
    if over is not None:
        result = GameResult(over.winner_side, over.scores, over.skunks)
    elif forfeited_by is not None:
        game = replay(recording)  # where the game stood when the seat left
        if not 0 <= forfeited_by < game.players:
            raise ValueError(f"there is no seat {forfeited_by} to forfeit")
        result = _forfeit_result(tuple(game.scores), game.side_of(forfeited_by), forfeited_by)
    else:
        raise UnfinishedGameError("the game is not over and nobody forfeited it")
    skunk_kinds = dict(result.skunks)
    for seat, stats in enumerate(seats):
        side = seat % 2 if recording.players == 4 else seat
        if side == result.winner_side:
            stats.wins = 1
            stats.skunks_given = len(skunk_kinds)
            stats.double_skunks_given = sum(
                1 for kind in skunk_kinds.values() if kind == "double skunk"
            )
        else:
            stats.losses = 1
            stats.skunks_taken = 1 if side in skunk_kinds else 0
            stats.double_skunks_taken = 1 if skunk_kinds.get(side) == "double skunk" else 0
    return GameStats(result, tuple(seats))


def _count_points(seats: list[SeatStats], event: Pegged, players: int) -> None:
    stats = seats[event.seat]
    if event.reason == "hand":
        stats.hand_points += event.points
    elif event.reason == "crib":
        stats.crib_points += event.points
    elif event.reason.startswith("muggins"):
        # Muggins goes to the player after the one who miscounted.
        stats.muggins_taken += event.points
        seats[(event.seat - 1) % players].muggins_given += event.points
    else:
        stats.pegging_points += event.points


def _count_show(stats: SeatStats, event: ShowScored) -> None:
    if event.is_crib:
        stats.cribs_shown += 1
    else:
        stats.hands_shown += 1
        score = event.score
        if score.total > stats.best_hand_score or stats.best_hand_cards is None:
            stats.best_hand_score = score.total
            stats.best_hand_cards = format_cards((*score.hand, score.starter))


def _forfeit_result(scores: tuple[int, ...], quitting_side: int, seat: int) -> GameResult:
    others = [side for side in range(len(scores)) if side != quitting_side]
    leader = max(others, key=lambda side: (scores[side], -side))
    return GameResult(leader, scores, (), seat)
