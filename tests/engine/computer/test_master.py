"""The master level: legal everywhere (see test_player), wins against weak play, and plays
to win where points and the chance to win disagree."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.computer.discard import choose_discard
from engine.computer.levels import LEVELS
from engine.computer.opponent import declined_ranks, opponent_weights
from engine.computer.pegging import chance_none_held
from engine.computer.play import choose_play
from engine.computer.player import ComputerPlayer
from engine.computer.selfplay import RandomPlayer, run_selfplay
from engine.rules.cards import Card, format_cards, parse_cards
from engine.rules.game import Game
from tests.stacked import StackedRandom


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
    assert chance_none_held(160, 2, 16)[48] == pytest.approx(chance_none_held(10, 2)[3])
    assert chance_none_held(10, 2)[3] == pytest.approx(7 / 10 * 6 / 9)


def test_master_does_not_pair_a_king_the_pone_led() -> None:
    # The pone led a king. Every unseen card as likely, pairing it (two points) is best,
    # as the expert plays; but a pone keeps a king almost only with another, so the
    # master expects a pair royal back and plays a low card (the six or the three, worth
    # the same within the draws' noise).
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
    assert str(master) in {"6C", "3S"}


def test_the_ranks_a_player_passed_up_points_with() -> None:
    game = Game(2, rng=StackedRandom("5S 4D TH KC 2C 3C TS 9H 7H 6H 2D 3D AS"), dealer=0)
    game.deal()
    game.discard(0, parse_cards("2C 3C"))
    game.discard(1, parse_cards("2D 3D"))
    game.cut(1)
    game.play(1, Card.parse("TS"))
    game.play(0, Card.parse("4D"))  # 14: the five (fifteen) and the ten (a pair) passed up
    assert declined_ranks(game, 1) == [5, 10]
    assert declined_ranks(game, 0) == []  # a lead passes nothing up
    game.play(1, Card.parse("7H"))  # 21: an ace (fifteen) or a four (a pair) would have pegged
    assert declined_ranks(game, 0) == [1, 4]  # ranks that would have pegged, held or not
    assert declined_ranks(game, 1) == [5, 10]


def test_master_lays_a_card_they_showed_they_cannot_pair() -> None:
    # We led a king and the dealer laid a two (12), passing up fifteen with a five and
    # the pair. Our five (17) risks only being paired, which a player holding a five
    # would have shown by taking the fifteen; so the master lays it and keeps the ten
    # and the six. Taking every unseen card as likely, it fears the pair and lays the ten.
    hand, count = parse_cards("6C 5D TS"), parse_cards("KD 2D")
    position = {
        "played": count,
        "starter": Card.parse("8S"),
        "dealer": False,
        "opp_cards_left": 3,
        "my_score": 30,
        "opp_score": 30,
        "opp_played": parse_cards("2D"),
    }
    # The six-ply search (the master's before it searched the last six cards over sampled
    # hands, and still its tie-breaker there).
    six_ply = {"sampled_from": 0, **position}
    blind = choose_play(hand, count, level="master", **six_ply)  # type: ignore[arg-type]
    assert str(blind) == "TS"
    told = choose_play(hand, count, level="master", opp_declined=[5, 13], **six_ply)  # type: ignore[arg-type]
    assert str(told) == "5D"
    # As shipped (six cards: the full search over sampled hands), the five as well.
    shipped = choose_play(hand, count, level="master", opp_declined=[5, 13], **position)  # type: ignore[arg-type]
    assert str(shipped) == "5D"
