"""Whose move a game waits for, and the move the computer makes for a player whose turn
timer ran out; and the timer's countdown."""

from __future__ import annotations

import random

import pytest

from door.competition.errors import CompetitionError
from door.competition.turn_timer import TurnTimer
from door.competition.turns import play_automatic, play_for, waiting_on
from engine.computer.player import ComputerPlayer
from engine.rules.game import Phase
from engine.rules.record import RecordedGame, replay


def test_the_game_waits_for_the_dealer_then_both_throwers() -> None:
    game = RecordedGame(seed=7)
    assert game.phase is Phase.CUT_FOR_DEAL and waiting_on(game) == ()
    play_automatic(game)
    assert game.phase is Phase.DEAL and waiting_on(game) == (game.dealer,)
    game.deal()
    assert waiting_on(game) == (0, 1)
    game.discard(1, game.hand(1)[:2])
    assert waiting_on(game) == (0,)
    game.discard(0, game.hand(0)[:2])
    assert waiting_on(game) == (game.cutter,)


def test_a_timed_out_discard_is_the_computers_choice_for_that_hand() -> None:
    game = RecordedGame(seed=11, dealer=0)
    game.deal()
    twin = replay(game.recording)  # the same deal, to ask the computer on its own
    expected = ComputerPlayer("expert", random.Random(3)).discard(twin, 1)
    play_for(game, 1, ComputerPlayer("expert", random.Random(3)))
    assert game.has_discarded(1)
    assert sorted(map(str, game.recording.actions[-1].args[1])) == sorted(map(str, expected))
    with pytest.raises(CompetitionError):
        play_for(game, 1, ComputerPlayer("expert"))  # seat 1 has thrown: nothing to do


def test_timed_out_moves_can_play_a_whole_game() -> None:
    game = RecordedGame(seed=5, counting="manual")
    computer = ComputerPlayer("normal", random.Random(5))
    for _ in range(2000):
        play_automatic(game)
        if game.phase is Phase.OVER:
            break
        play_for(game, waiting_on(game)[0], computer)
    outcome = game.outcome()
    assert outcome is not None and not outcome.forfeit
    assert max(outcome.scores) == 121


@pytest.mark.parametrize(
    ("seconds", "elapsed", "label", "expired"),
    [
        (60, 0, "1:00", False),
        (60, 17.5, "0:43", False),  # rounded up: 42.5 seconds left show as 0:43
        (60, 18, "0:42", False),
        (90, 0.2, "1:30", False),
        (60, 59.9, "0:01", False),
        (60, 60, "0:00", True),
        (60, 300, "0:00", True),
        (600, 1, "9:59", False),
    ],
)
def test_the_timer_counts_down(seconds: float, elapsed: float, label: str, expired: bool) -> None:
    timer = TurnTimer.start(seconds, now=1000.0)
    assert timer.label(1000.0 + elapsed) == label
    assert timer.expired(1000.0 + elapsed) is expired
    assert timer.remaining(1000.0 + elapsed) == pytest.approx(max(0.0, seconds - elapsed))


def test_the_timer_starts_again_for_the_next_turn() -> None:
    timer = TurnTimer.start(30, now=0.0).restart(100.0)
    assert timer.label(110.0) == "0:20" and not timer.expired(110.0)
    with pytest.raises(CompetitionError):
        TurnTimer.start(0, now=0.0)
