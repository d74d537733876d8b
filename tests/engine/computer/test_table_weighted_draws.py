"""The table's draws weighed by what each seat did (engine/computer/table_sampled.py,
``weighted``; levels.MASTER_TABLE_WEIGHTED_DRAWS): they never deal a card seen or a rank
the goes rule out, a rank weighed more is dealt more often and one weighed 0 never, the
same position draws the same hands, the ranks a seat passed up are those the two-player
reading finds, malformed weights are refused, and the switch changes the master's cards."""

from __future__ import annotations

import random

import pytest

from engine.computer import table_play
from engine.computer.levels import MASTER_TABLE_WEIGHTED_DRAWS
from engine.computer.opponent import DECLINED, declined_ranks
from engine.computer.player import ComputerPlayer
from engine.computer.selfplay import next_action
from engine.computer.table_full_play import TABLE_FULL_PLAY
from engine.computer.table_sampled import (
    least_pips,
    passed_up,
    sample_weighted_table_hands,
    seat_weights,
    table_draws,
)
from engine.rules.cards import PIPS
from engine.rules.game import Game, Phase
from tests.engine.computer.test_table_full_play import expert_turns


@pytest.mark.parametrize("players", [3, 4])
def test_weighted_draws_deal_only_unseen_cards_that_fit_the_goes_and_replay(players: int) -> None:
    """At turns of real games: each weighted draw holds only cards the seat has not seen,
    as many as each seat holds, none its goes rule out; drawing again from the same
    position gives the same hands, and the weights move the draws off the uniform ones."""
    differ = 0
    for turn, (game, seat) in enumerate(expert_turns(players, 2)):
        if turn % 3:
            continue
        absolute = [(seat + offset) % players for offset in range(players)]
        least = least_pips(game, absolute)
        thrown = game.crib[:1]
        seen = [*game.hand(seat), *thrown, *(play.card for play in game.plays), game.starter]
        unseen = [4] * 14
        for card in seen:
            assert card is not None
            unseen[int(card.rank)] -= 1
        _, _, deals = table_draws(game, seat, thrown, 0, samples=8, weighted=True)
        assert deals
        for deal in deals:
            assert [len(hand) for hand in deal] == [len(game.hand(o)) for o in absolute[1:]]
            dealt = [rank for hand in deal for rank in hand]
            assert all(dealt.count(rank) <= unseen[rank] for rank in set(dealt))
            for hand, fewest in zip(deal, least[1:], strict=True):
                assert all(PIPS[rank] >= fewest for rank in hand)
        again = table_draws(game, seat, thrown, 0, samples=8, weighted=True)[2]
        assert again == deals
        differ += deals != table_draws(game, seat, thrown, 0, samples=8)[2]
    assert differ > 10


def test_a_rank_weighed_more_is_dealt_more_often_and_weight_zero_never() -> None:
    """Four fives and four tens unseen, one card to each of two seats: the first seat
    weighs fives 9 to 1 (about nine in ten of its cards fives), the second never takes a
    ten (weight 0), so it holds a five in every deal."""
    pool = [0] * 14
    pool[5], pool[10] = 4, 4
    first = [1.0] * 14
    first[5] = 9.0
    second = [1.0] * 14
    second[10] = 0.0
    deals = sample_weighted_table_hands(
        pool, (1, 1), (1, 1), (first, second), 2000, random.Random(3)
    )
    assert len(deals) == 2000
    assert all(deal[1] == (5,) for deal in deals)
    fives = sum(deal[0] == (5,) for deal in deals) / len(deals)
    # The first seat draws first (the same fewest pips: seats in order): 36 / 40 = 0.9,
    # and 2,000 deals put 0.87 and 0.93 about four and a half deviations off.
    assert 0.87 < fives < 0.93


def test_no_deal_when_a_seat_has_too_few_cards_of_weight() -> None:
    pool = [0] * 14
    pool[5], pool[10] = 1, 4
    weight = [1.0] * 14
    weight[10] = 0.0
    assert sample_weighted_table_hands(pool, (2,), (1,), (weight,), 4, random.Random(1)) == []
    # and a go that rules the fives out leaves only weight-0 tens
    assert sample_weighted_table_hands(pool, (1,), (6,), (weight,), 4, random.Random(1)) == []


@pytest.mark.parametrize(
    "weights",
    [
        ([1.0] * 13,),
        ([1.0] * 13 + [-1.0],),
        ([1.0] * 13 + [float("nan")],),
        ([1.0] * 13 + [float("inf")],),
        ([1.0] * 14, [1.0] * 14),
    ],
)
def test_malformed_weights_are_refused(weights: tuple[list[float], ...]) -> None:
    pool = [0] + [4] * 13
    with pytest.raises(ValueError, match="weights"):
        sample_weighted_table_hands(pool, (1,), (1,), weights, 4, random.Random(1))


def test_the_ranks_a_seat_passed_up_are_the_two_player_readings() -> None:
    """At two players the one other seat's passed-up ranks are what
    ``opponent.declined_ranks`` (written for two players) finds, at every turn of real
    games, and they are often some; each is weighed DECLINED times the keep model."""
    some = 0
    for game, seat in expert_turns(2, 4):
        other = 1 - seat
        found = passed_up(game, other)
        assert found == declined_ranks(game, seat)
        some += bool(found)
        plain = seat_weights_without_declines(game, other)
        weight = seat_weights(game, other)
        for rank in range(1, 14):
            expected = plain[rank] * (DECLINED if rank in found else 1.0)
            assert weight[rank] == pytest.approx(expected)
    assert some > 5


def seat_weights_without_declines(game: Game, other: int) -> tuple[float, ...]:
    from engine.computer.opponent import opponent_weights

    role = "dealer" if other == game.dealer else "pone"
    return opponent_weights(role, [int(p.card.rank) for p in game.plays if p.seat == other])


def master_cards(players: int, seed: int) -> list[str]:
    """Every card seat 0 (a master, against experts; at four its partner a master too)
    lays in a game."""
    rng = random.Random(seed)
    levels = ["master", "expert"] * 2 if players == 4 else ["master", "expert", "expert"]
    seats = [ComputerPlayer(level, random.Random(rng.getrandbits(64))) for level in levels]
    game = Game(players, rng=random.Random(rng.getrandbits(64)), dealer=seed % players)
    laid = []
    while game.phase is not Phase.OVER:
        if game.phase is Phase.PLAY and game.turn == 0:
            card = seats[0].play(game, 0)
            laid.append(str(card))
            game.play(0, card)
            continue
        next_action(game, seats)  # type: ignore[arg-type]
    return laid


def master_cards_with(weighted: frozenset[int], seeds: range) -> list[list[str]]:
    table_play.MASTER_TABLE_WEIGHTED_DRAWS = weighted
    try:
        return [master_cards(4, seed) for seed in seeds]
    finally:
        table_play.MASTER_TABLE_WEIGHTED_DRAWS = MASTER_TABLE_WEIGHTED_DRAWS


@pytest.mark.skipif(TABLE_FULL_PLAY.compiled is None, reason="_table_peg.c not built")
def test_the_switch_changes_the_masters_cards_at_four() -> None:
    """With the switch on at four the master lays other cards than with uniform draws in
    the same games (from the same seeds); each way replays."""
    weighted = master_cards_with(frozenset({4}), range(3))
    assert weighted == master_cards_with(frozenset({4}), range(3))
    assert weighted != master_cards_with(frozenset(), range(3))
