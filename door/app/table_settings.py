"""How a table between callers was set, kept with each of its games in the store.

A game between callers is saved after every action; if the door (or the worker holding
it) stops, the table is set again from the store. Its options (a rated game, a
tournament's, the turn timer, the match length) and the games of the match already
played are kept as JSON beside the game (``games.table_settings``), written when the
game is first saved, so the table set again is the same kind of table. Settings that
no longer read (another version, damage) are ignored: the game goes on as a plain one.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from door.table.options import GameOptions
from engine.rules.outcome import Outcome


def settings_text(options: GameOptions, match_games: tuple[Outcome, ...]) -> str:
    return json.dumps(
        {
            "options": dataclasses.asdict(options),
            "match": [_outcome_record(outcome) for outcome in match_games],
        }
    )


def read_settings(text: str | None) -> tuple[GameOptions | None, tuple[Outcome, ...]]:
    """The options and the match's games so far; (None, ()) for settings that do not
    read."""
    if not text:
        return None, ()
    try:
        record = json.loads(text)
        options = GameOptions(**record["options"])
        games = tuple(_outcome(item) for item in record.get("match", ()))
    except (ValueError, TypeError, KeyError):
        return None, ()
    return options, games


def _outcome_record(outcome: Outcome) -> dict[str, Any]:
    return {
        "winner": outcome.winner_side,
        "scores": list(outcome.scores),
        "skunks": [[side, kind] for side, kind in outcome.skunks],
        "forfeited_by": outcome.forfeited_by,
    }


def _outcome(item: dict[str, Any]) -> Outcome:
    skunks = tuple((int(side), kind) for side, kind in item.get("skunks", ()))
    if any(kind not in ("skunk", "double skunk") for _, kind in skunks):
        raise ValueError("not a skunk")
    forfeited = item.get("forfeited_by")
    return Outcome(
        int(item["winner"]),
        tuple(int(score) for score in item["scores"]),
        skunks,  # type: ignore[arg-type]
        None if forfeited is None else int(forfeited),
    )
