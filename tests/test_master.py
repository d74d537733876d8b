"""The master level: legal everywhere (see test_ai), wins against weak play, and plays
to win where points and the chance to win disagree."""

from __future__ import annotations

import subprocess
import sys

from engine.ai import LEVELS, ComputerPlayer, choose_discard, choose_play
from engine.cards import format_cards, parse_cards
from engine.selfplay import RandomPlayer, run_selfplay


def test_master_is_the_level_above_expert() -> None:
    assert LEVELS[-2:] == ("expert", "master")


def test_master_beats_a_random_player() -> None:
    totals = run_selfplay(
        30,
        seed=3,
        a=lambda rng: ComputerPlayer("master", rng),
        b=RandomPlayer,
    )
    assert totals.wins_by_label["A"] >= 26


def test_master_keeps_the_obvious_hand() -> None:
    hand = parse_cards("5H 5D 5S 5C 2H 9D")
    for dealer in (True, False):
        thrown = choose_discard(hand, dealer=dealer, level="master", my_score=40, opp_score=50)
        assert format_cards(thrown) == "2H 9D"


def test_master_takes_the_game_hole_over_points() -> None:
    # On 119 with the count at 21: the ten makes 31 and wins; nothing else can matter.
    card = choose_play(
        parse_cards("TD 4S 2C"),
        parse_cards("KH QS AS"),
        level="master",
        my_score=119,
        opp_score=119,
        opp_cards_left=2,
    )
    assert card is not None and str(card) == "TD"


def test_the_command_plays_master() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "door.cli", "selfplay", "--games", "2", "--a", "master"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "A (master) against B (random)" in result.stdout
