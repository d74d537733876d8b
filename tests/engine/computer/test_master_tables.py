"""The master at a table of three or four: each throw for the chance to win with the crib
counted for its owner, a pegging search over every seat in turn, legal and repeatable."""

from __future__ import annotations

import random

import pytest

from engine.computer.discard import choose_discard
from engine.computer.pegging import unseen_ranks
from engine.computer.player import ComputerPlayer
from engine.computer.selfplay import play_game
from engine.computer.table_search import OutOfNodes, TableSearch
from engine.rules.cards import format_cards, parse_cards
from engine.rules.game import Game
from tests.stacked import StackedRandom


def _master_throw(scores: list[int]) -> str:
    # Seat 0 holds QD QC 5C 7S 6S; seat 1 deals, so the crib is seat 1's.
    game = Game(3, rng=StackedRandom("QD QC 5C 7S 6S"), dealer=1)
    game.deal()
    game.scores = scores
    return format_cards(ComputerPlayer("master", random.Random(1)).discard(game, 0))


def test_a_crib_costs_what_a_point_to_its_owner_costs() -> None:
    # On 100, with the crib's owner on 112 about to win, the master gives the crib a
    # queen, the card that helps it least. With the owner far behind on 70 and the
    # other rival on 112, the crib's points hardly matter: it throws the seven and keeps
    # QQ 5 6, the better hand for the race with the leader. The expert (the master's
    # play at three before) throws the queen either way.
    assert _master_throw([100, 112, 70]) == "QC"
    assert _master_throw([100, 70, 112]) == "7S"
    hand = parse_cards("QD QC 5C 7S 6S")
    expert = choose_discard(hand, dealer=False, players=3, my_score=100, opp_score=112)
    assert format_cards(expert) == "QC"


def _lead(held: tuple[int, ...]) -> int:
    """The rank the master leads from a five and a king, four at the table with no
    score to speak of, ``held`` the cards each seat holds (counted from ours)."""
    mine = (5, 13)
    pool = unseen_ranks([5, 13, 1, 2, 3, 4, 6, 7, 8])
    search = TableSearch(False, (0, 1, 0, 1), (0.01, -0.01), (81, 81), 0.5)
    values = search.choose(mine, held, (), pool, 0, sum(held))
    return max(values, key=values.__getitem__)


def test_a_five_is_led_to_a_partner_not_to_an_opponent() -> None:
    # A five led lets whoever lays next make fifteen with any of the sixteen tens.
    # With the opponent on our left to play next, the master leads the king; with that
    # opponent out of cards, the partner lays next: the master leads the five for them.
    assert _lead((2, 1, 1, 1)) == 13
    assert _lead((2, 0, 1, 1)) == 5


@pytest.mark.parametrize("players", [3, 4])
def test_the_master_plays_legal_games_at_the_table(players: int) -> None:
    # play_game checks the game's invariants after every action: any illegal throw or
    # card raises. Masters in every seat, and against experts.
    for seed in range(2):
        rng = random.Random(seed)
        seats = [
            ComputerPlayer("master" if seat % 2 == 0 or seed else "expert", random.Random(seat))
            for seat in range(players)
        ]
        record = play_game(Game(players, rng=rng, dealer=0), seats)
        assert max(record.scores) >= 121


@pytest.mark.parametrize("players", [3, 4])
def test_the_master_at_the_table_repeats_itself_with_a_seed(players: int) -> None:
    def game_with(seed: int) -> tuple[object, ...]:
        seats = [ComputerPlayer("master", random.Random(seed + seat)) for seat in range(players)]
        record = play_game(Game(players, rng=random.Random(seed), dealer=1), seats)
        return record.scores, record.actions, record.winner_seat

    assert game_with(7) == game_with(7)


def test_the_search_stops_at_its_budget_of_nodes() -> None:
    # The deeper look-ahead is bounded by nodes (a play's 50 ms): past them it gives up,
    # and the player keeps the shallower answer.
    pool = unseen_ranks([5, 13, 1, 2, 3, 4, 6, 7, 8])
    search = TableSearch(False, (0, 1, 0, 1), (0.01, -0.01), (81, 81), 0.5, budget=50)
    with pytest.raises(OutOfNodes):
        search.choose((5, 13, 1, 2), (4, 4, 4, 4), (), pool, 0, 5)
    assert search.nodes == 51
