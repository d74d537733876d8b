"""engine.odds.position: the win-probability table against simulation and common sense."""

from __future__ import annotations

import numpy as np
import pytest

from engine.odds.hand_tables import DealDistributions
from engine.odds.position import GOAL, Position, shipped_position


def toy_distributions() -> DealDistributions:
    """Small made-up distributions, so the arithmetic can be checked by simulation."""
    pegging = np.zeros((7, 5))
    pegging[1:7, 0:5] = 1.0
    pegging /= pegging.sum()
    hand = np.ones(13) / 13  # 0..12
    crib = np.ones(9) / 9  # 0..8
    return DealDistributions(pegging, hand, hand, crib)


@pytest.fixture(scope="module")
def toy() -> Position:
    return Position(toy_distributions())


def simulate(dist: DealDistributions, dealer: int, pone: int, games: int, seed: int) -> float:
    """The dealer's share of wins, playing the model deal by deal."""
    rng = np.random.default_rng(seed)
    flat = dist.pegging.ravel()
    cols = dist.pegging.shape[1]
    dealer_show = np.convolve(dist.dealer_hand, dist.crib)
    wins = 0.0
    for _ in range(games):
        scores = [dealer, pone]  # [current dealer, current pone]
        first = 0  # index into scores of the original dealer
        while True:
            cell = rng.choice(len(flat), p=flat)
            scores[0] += cell // cols
            scores[1] += cell % cols
            if scores[0] >= GOAL or scores[1] >= GOAL:
                if scores[0] >= GOAL and scores[1] >= GOAL:
                    winner = int(rng.integers(2))
                else:
                    winner = 0 if scores[0] >= GOAL else 1
                break
            scores[1] += rng.choice(len(dist.pone_hand), p=dist.pone_hand)
            if scores[1] >= GOAL:
                winner = 1
                break
            scores[0] += rng.choice(len(dealer_show), p=dealer_show)
            if scores[0] >= GOAL:
                winner = 0
                break
            scores = [scores[1], scores[0]]
            first = 1 - first
        wins += winner == first
    return wins / games


@pytest.mark.parametrize(("dealer", "pone"), [(100, 100), (90, 110), (112, 95)])
def test_table_agrees_with_simulation(toy: Position, dealer: int, pone: int) -> None:
    games = 4000
    simulated = simulate(toy.dist, dealer, pone, games, seed=dealer * 1000 + pone)
    exact = toy.win_chance(dealer, pone, dealer=True)
    spread = 4 * np.sqrt(exact * (1 - exact) / games)
    assert abs(simulated - exact) < spread


def test_table_is_a_probability_and_rewards_points(toy: Position) -> None:
    table = toy.table
    assert (table >= 0).all() and (table <= 1).all()
    assert (np.diff(table, axis=0) >= -1e-9).all()  # more points for the dealer: better
    assert (np.diff(table, axis=1) <= 1e-9).all()  # more for the pone: worse


def test_the_pone_counts_first(toy: Position) -> None:
    # Both on 120: the dealer wins only by pegging first (the pone pegs nothing a
    # fifth of the time in the toy model, the dealer always pegs).
    assert toy.win_chance(120, 120, dealer=True) > 0.5
    # The pone on 120 against a dealer far behind: the pone's hand or pegging wins.
    assert toy.win_chance(0, 120, dealer=True) < 0.01
    assert toy.win_chance(120, 0, dealer=False) > 0.99


def test_deal_chance_with_average_shows_is_the_table(toy: Position) -> None:
    dist = toy.dist
    for me, opp in [(0, 0), (60, 80), (100, 115), (118, 104)]:
        as_dealer = toy.deal_chance(me, opp, True, toy.dealer_show, dist.pone_hand)
        assert as_dealer == pytest.approx(toy.win_chance(me, opp, dealer=True), abs=1e-9)
        as_pone = toy.deal_chance(me, opp, False, dist.pone_hand, toy.dealer_show)
        assert as_pone == pytest.approx(toy.win_chance(me, opp, dealer=False), abs=1e-9)


def test_after_pegging_counts_in_show_order(toy: Position) -> None:
    sure_four = np.zeros(30)
    sure_four[4] = 1.0
    # As pone I count first: four points from 117 wins whatever the dealer holds.
    after = toy.after_pegging(False, sure_four, toy.dealer_show)
    assert after[117, 117] == pytest.approx(1.0)
    # As dealer the pone counts first: at 117 against 117, their 4+ (9 of 13) wins.
    after = toy.after_pegging(True, sure_four, toy.dist.pone_hand)
    assert after[117, 117] == pytest.approx(4 / 13)


def test_shipped_table_is_fair_at_the_start() -> None:
    position = shipped_position()
    # The first dealer has the edge of the first crib, a few per cent, not more.
    assert 0.5 < position.win_chance(0, 0, dealer=True) < 0.6
    assert position.win_chance(0, 0, dealer=True) + position.win_chance(0, 0, dealer=False) == (
        pytest.approx(1.0)
    )
