"""A game in a member's list of games (door/screens/game_list.py): how it ended, as each
of its players reads it."""

from __future__ import annotations

import datetime as dt

import pytest

from door.screens.game_list import RESULT_WIDTH, game_line, result_text
from door.storage.values import GameSummary, Seat
from engine.rules.outcome import Outcome

WHEN = dt.datetime(2026, 3, 2, 9, 5, tzinfo=dt.UTC)
ADA, BOB = 1, 2


def forfeited(*, claimed: bool) -> GameSummary:
    """Bob (seat 1) forfeited to Ada at 40 to 60: he left, or Ada claimed it from him."""
    outcome = Outcome(0, (60, 40), (), forfeited_by=1, claimed=claimed)
    return GameSummary(7, 2, (Seat("Ada", ADA), Seat("Bob", BOB)), WHEN, True, outcome)


@pytest.mark.parametrize(
    ("claimed", "viewer", "result"),
    [
        (False, BOB, "you left it: a loss"),
        (False, ADA, "won by forfeit"),
        (False, None, "Ada won by forfeit"),
        # A game claimed from Bob, who had not moved, read "you left it" to him.
        (True, BOB, "claimed from you: lost"),
        (True, ADA, "won by a claim"),
        (True, None, "Ada won by a claim"),
    ],
)
def test_a_forfeit_reads_as_left_or_claimed(claimed: bool, viewer: int | None, result: str) -> None:
    game = forfeited(claimed=claimed)
    assert result_text(game, viewer) == result
    assert len(result) < RESULT_WIDTH  # the names after it stay in their column
    assert game_line(game, viewer).endswith(f"  {result:<{RESULT_WIDTH - 1}} Ada vs Bob")
