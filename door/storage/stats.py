"""A finished game's statistics, per seat, worked out by replaying its recording.

There is one source of truth: the recording. Nothing else about a game is trusted, so
the totals can always be rebuilt from the game logs. Pure: no database here.

Points are split the way players talk about them: pegging (everything scored in the play,
his heels included), hand and crib (what the owner was awarded in the show), and muggins
(points taken from another player's miscount, or lost to one).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from typing import Any

from engine.rules.cards import format_cards
from engine.rules.events import HandDealt, Pegged, ShowScored
from engine.rules.outcome import Outcome
from engine.rules.record import Action, Recording, replay, replay_steps


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


def outcome_to_json(outcome: Outcome) -> str:
    """The outcome as kept beside a finished game's log (``forfeited_by`` is a side)."""
    return json.dumps(
        {
            "winner_side": outcome.winner_side,
            "scores": list(outcome.scores),
            "skunks": [list(skunk) for skunk in outcome.skunks],
            "forfeited_by": outcome.forfeited_by,
            **({"claimed": True} if outcome.claimed else {}),
        }
    )


def outcome_from_json(text: str) -> Outcome:
    data: dict[str, Any] = json.loads(text)
    return Outcome(
        data["winner_side"],
        tuple(data["scores"]),
        tuple((side, kind) for side, kind in data["skunks"]),
        data["forfeited_by"],
        data.get("claimed") is True,  # (absent before claims were kept)
    )


@dataclass(frozen=True)
class GameStats:
    result: Outcome
    seats: tuple[SeatStats, ...]
    recording: Recording
    """The game as it ended: with the forfeit written in, when a seat left it."""


class UnfinishedGameError(ValueError):
    """Statistics asked of a game that neither ended nor was forfeited."""


def game_stats(recording: Recording, forfeited_by: int | None = None) -> GameStats:
    """Replay ``recording`` and total what each seat did.

    A game that reached 121 is scored as it ended. A game left unfinished counts only
    when ``forfeited_by`` names the seat that left: the forfeit is written into the
    recording and played (``Game.forfeit``: that seat's side loses, nobody is skunked).
    A game that reached 121 for ``forfeited_by``'s side is theirs forfeited at its end
    (``forfeited_at_end``: the computer won it in the seat of a caller whose line was
    down, door/table/forfeits.py); the recording stays as it was played.
    Raises UnfinishedGameError for an unfinished game without a forfeit, ValueError for
    a seat that does not exist, and engine.rules.record.RecordingError if the recording does
    not replay.
    """
    ended = replay(recording).outcome() if forfeited_by is not None else None
    if forfeited_by is not None and ended is None:
        if type(forfeited_by) is not int or not 0 <= forfeited_by < recording.players:
            raise ValueError(f"there is no seat {forfeited_by} to forfeit")
        recording = replace(
            recording, actions=(*recording.actions, Action("forfeit", (forfeited_by,)))
        )
    seats = [SeatStats() for _ in range(recording.players)]
    outcome: Outcome | None = None
    for _, events, game in replay_steps(recording):
        for event in events:
            if isinstance(event, HandDealt):
                for stats in seats:
                    stats.hands_dealt += 1
            elif isinstance(event, Pegged):
                _count_points(seats, event, recording.players)
            elif isinstance(event, ShowScored):
                _count_show(seats[event.seat], event)
        outcome = game.outcome()
    if outcome is None:
        raise UnfinishedGameError("the game is not over and nobody forfeited it")
    if forfeited_by is not None and ended is not None and not ended.forfeit:
        forfeiter = forfeited_by % 2 if recording.players == 4 else forfeited_by
        if outcome.won(forfeiter):
            outcome = forfeited_at_end(outcome, forfeiter)
    for seat, stats in enumerate(seats):
        side = seat % 2 if recording.players == 4 else seat
        if outcome.won(side):
            stats.wins = 1
            stats.skunks_given = len(outcome.skunks)
            stats.double_skunks_given = sum(
                1 for _, kind in outcome.skunks if kind == "double skunk"
            )
        else:
            stats.losses = 1
            stats.skunks_taken = 1 if outcome.skunk_of(side) else 0
            stats.double_skunks_taken = 1 if outcome.skunk_of(side) == "double skunk" else 0
    return GameStats(outcome, tuple(seats), recording)


def forfeited_at_end(outcome: Outcome, side: int) -> Outcome:
    """``outcome``, a game that ``side`` won at 121, counted as ``side``'s forfeit: the
    best placed other side wins it at the scores it ended at, and nobody is skunked."""
    others = [other for other in range(outcome.sides) if other != side]
    winner = max(others, key=lambda other: outcome.scores[other])
    return Outcome(winner, outcome.scores, (), forfeited_by=side)


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
