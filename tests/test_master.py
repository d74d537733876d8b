"""The master level: legal everywhere (see test_ai), wins against weak play, and plays
to win where points and the chance to win disagree."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.ai import LEVELS, ComputerPlayer, choose_discard, choose_play, opponent_weights
from engine.ai_pegging import _none_table
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


def test_a_pone_who_keeps_a_king_mostly_keeps_two() -> None:
    # A pone throws kings to the dealer's crib unless they pair; a kept seven comes with
    # an eight or a six far more often than with a ten.
    kings = opponent_weights("pone", [13])
    assert kings[13] > 3 * opponent_weights("pone", [])[13]
    sevens = opponent_weights("pone", [7])
    assert sevens[8] > 1.5 > 0.5 > sevens[10]


def test_a_weighted_pool_draws_as_the_card_pool_does() -> None:
    # Ten cards of 16 units each, two held: missing three cards is missing 48 units.
    assert _none_table(160, 2, 16)[48] == pytest.approx(_none_table(10, 2)[3])
    assert _none_table(10, 2)[3] == pytest.approx(7 / 10 * 6 / 9)


def test_master_does_not_pair_a_king_the_pone_led() -> None:
    # The pone led a king. Every unseen card as likely, pairing it (two points) is best,
    # as the expert plays; but a pone keeps a king almost only with another, so the
    # master expects a pair royal back and plays the six.
    hand, count = parse_cards("3S 9S KD 6C"), parse_cards("KH")
    position = {
        "played": count,
        "starter": parse_cards("JC")[0],
        "dealer": True,
        "opp_cards_left": 3,
        "my_score": 20,
        "opp_score": 20,
    }
    assert str(choose_play(hand, count, level="expert", **position)) == "KD"  # type: ignore[arg-type]
    master = choose_play(hand, count, level="master", opp_played=count, **position)  # type: ignore[arg-type]
    assert str(master) == "6C"
