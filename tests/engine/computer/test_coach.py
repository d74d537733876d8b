"""engine.computer.coach: known-best choices are named, costs are against them, reviews sort."""

from __future__ import annotations

import random

import pytest

from engine.computer import play, sampled_play
from engine.computer.coach import analyse_claim, analyse_discard, analyse_play, review_game
from engine.computer.discard_draws import FEWEST_ACCEPTED
from engine.computer.levels import MASTER_PLAY_FROM
from engine.computer.player import ComputerPlayer
from engine.computer.sampled_play import SAMPLES
from engine.computer.selfplay import RandomPlayer, next_action
from engine.rules.cards import Card, parse_cards
from engine.rules.errors import IllegalActionError
from engine.rules.game import Game, Phase
from engine.rules.record import RecordedGame
from tests.stacked import StackedRandom


def dealt(order: str, players: int = 2, counting: str = "auto") -> Game:
    game = Game(players, rng=StackedRandom(order), dealer=0, counting=counting)  # type: ignore[arg-type]
    game.deal()
    return game


FOUR_FIVES = "KH QD 9C 8S 7H 4D 5H 5D 5S 5C 2H 9D 6C"


@pytest.mark.parametrize("seat", [0, 1])
def test_the_coach_names_the_obvious_discard(seat: int) -> None:
    game = dealt(FOUR_FIVES if seat == 1 else "5H 5D 5S 5C 2H 9D KH QD 9C 8S 7H 4D 6C")
    bad = parse_cards("5H 5D")
    analysis = analyse_discard(game, seat, bad)
    assert {str(card) for card in analysis.best.cards} == {"2H", "9D"}
    assert analysis.best.label.startswith("keep 5H 5D 5S 5C")
    assert analysis.chosen.cards == tuple(bad)
    assert analysis.points_cost > 5
    assert analysis.chance_cost > 0
    assert len(analysis.options) == 15
    good = analyse_discard(game, seat, parse_cards("2H 9D"))
    assert good.is_best and good.chance_cost == 0 and good.points_cost == 0
    assert "the best choice" in good.describe()
    assert "cost" in analysis.describe() and "2H 9D" in analysis.describe()


def test_the_crib_counts_by_who_deals() -> None:
    # 5 5 thrown: worth keeping away from the other's crib, welcome in one's own.
    order = "5H 5D JC QS 2H 9C KH QD 8C 7S 4H 3D 6C"
    as_dealer = analyse_discard(dealt(order), 0, parse_cards("5H 5D"))
    pone_order = "KH QD 8C 7S 4H 3D 5H 5D JC QS 2H 9C 6C"
    as_pone = analyse_discard(dealt(pone_order), 1, parse_cards("5H 5D"))
    assert as_dealer.chosen.points > as_pone.chosen.points + 5


def test_thirty_one_is_the_obvious_play() -> None:
    game = dealt("TH QC 4D 2C 3C 8H KD AS 6C 7D QH JS 5S")
    game.discard(0, parse_cards("3C 8H"))
    game.discard(1, parse_cards("QH JS"))
    game.cut(1)
    for seat, card in ((1, "KD"), (0, "TH"), (1, "AS")):
        game.play(seat, Card.parse(card))
    assert game.turn == 0 and game.count == 21
    analysis = analyse_play(game, 0, Card.parse("2C"), thrown=parse_cards("3C 8H"))
    assert analysis.best.cards == (Card.parse("QC"),)
    assert analysis.best_for_points.cards == (Card.parse("QC"),)
    assert analysis.points_cost > 1.5
    assert {option.label for option in analysis.options} == {"play QC", "play 4D", "play 2C"}
    assert analyse_play(game, 0, Card.parse("QC")).is_best


def test_a_short_claim_costs_what_it_misses() -> None:
    game = dealt(FOUR_FIVES, counting="manual")
    game.discard(0, parse_cards("7H 4D"))
    game.discard(1, parse_cards("2H 9D"))
    game.cut(1)
    while game.phase is Phase.PLAY:
        assert game.turn is not None
        game.play(game.turn, game.playable(game.turn)[0])
    assert game.showing == (1, False)
    # 5 5 5 5 with 6C: four fifteens (8), double pair royal (12) = 20.
    analysis = analyse_claim(game, 12)
    assert analysis.best.claim == 20
    assert analysis.points_cost == pytest.approx(16)  # 8 missed, and 8 to the other player
    assert analysis.chance_cost > 0
    assert analyse_claim(game, 20).is_best
    over = analyse_claim(game, 24)  # an over-claim scores nothing: all 20 go to muggins
    assert over.points_cost == pytest.approx(40)


def test_analyses_refuse_the_wrong_moment() -> None:
    game = dealt(FOUR_FIVES)
    with pytest.raises(IllegalActionError):
        analyse_play(game, 1, Card.parse("5H"))
    with pytest.raises(IllegalActionError):
        analyse_discard(game, 1, parse_cards("KH QD"))  # not in the pone's hand
    with pytest.raises(IllegalActionError):
        analyse_claim(game, 3)


def test_a_review_finds_the_random_players_mistakes_worst_first() -> None:
    game = RecordedGame(2, seed=5, dealer=0)
    seats = [RandomPlayer(random.Random(1)), ComputerPlayer("master", random.Random(2))]
    while game.phase is not Phase.OVER:
        next_action(game, seats)
    mistakes = review_game(game.recording, limit=8)
    assert len(mistakes) == 8
    costs = [(m.analysis.chance_cost, m.analysis.points_cost) for m in mistakes]
    assert costs == sorted(costs, key=lambda c: (-c[0], -c[1]))
    assert all(not m.analysis.is_best for m in mistakes)
    assert sum(m.analysis.seat == 0 for m in mistakes) >= 6  # the random player's
    only_master = review_game(game.recording, seats=[1])
    assert all(m.analysis.seat == 1 for m in only_master)


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_player_discards_are_weighed_too(players: int) -> None:
    game = Game(players, rng=random.Random(players), dealer=0)
    game.deal()
    for seat in range(players):
        hand = game.hand(seat)
        analysis = analyse_discard(game, seat, hand[:1])
        assert len(analysis.options) == 5
        assert analysis.best.chance == max(option.chance for option in analysis.options)
        assert analysis.chance_cost == analysis.best.chance - analysis.chosen.chance
        assert all(0 < option.chance < 1 for option in analysis.options)


def test_a_mistake_reads_as_one_line() -> None:
    game = RecordedGame(2, seed=9, dealer=0)
    game.deal()
    hand = game.hand(1)
    analysis = analyse_discard(game, 1, hand[:2])
    best = {str(card) for card in analysis.best.cards}
    worst = analysis.options[-1]
    game.discard(0, game.hand(0)[:2])
    game.discard(1, worst.cards)
    mistakes = review_game(game.recording, seats=[1])
    assert len(mistakes) == 1
    line = mistakes[0].describe(["Ada", "Bob"])
    assert line.startswith("Hand 1, Bob: Throwing ")
    assert all(card in line for card in best)


def test_at_two_players_the_coach_names_the_card_the_master_lays() -> None:
    # The coach weighed a play by the expert's search, every unseen card as likely, and its
    # best card was another than the master's in 28 of 101 plays of these four games (a
    # choice of ranks each). Weighed as the master weighs it (what the opponent laid and
    # passed up, the last seven cards searched over hands drawn through the discard), 5.
    agreed = tried = 0
    for seed in range(4):
        game = Game(2, rng=random.Random(seed))
        players = [
            ComputerPlayer("master", rng=random.Random(seed)),
            ComputerPlayer("expert", rng=random.Random(seed + 1)),
        ]
        while game.winner_side is None:
            if game.phase is Phase.PLAY and game.turn == 0:
                ranks = {card.rank for card in game.playable(0)}
                if len(ranks) > 1:
                    card = players[0].play(game, 0)
                    analysis = analyse_play(game, 0, card, thrown=game.thrown_by(0))
                    agreed += analysis.best.cards[0].rank == card.rank
                    tried += 1
            next_action(game, players)
    assert tried > 80
    assert agreed >= 0.9 * tried, (agreed, tried)


def test_where_the_master_plays_to_win_the_coach_names_its_card() -> None:
    # From MASTER_PLAY_FROM the master lays the card of the best chance to win, and ranks
    # its full search cannot tell apart (a jack and a queen, say) it tells apart by its
    # deep search. The coach ordered such ties by points and named another card in 4 of
    # the 91 plays with a choice of ranks in these games.
    named: list[tuple[Card, Card]] = []
    for seed in range(8):
        game = Game(2, rng=random.Random(seed))
        players = [
            ComputerPlayer("master", rng=random.Random(seed)),
            ComputerPlayer("expert", rng=random.Random(seed + 1)),
        ]
        while game.winner_side is None:
            to_win = game.phase is Phase.PLAY and max(game.scores) >= MASTER_PLAY_FROM
            if to_win and game.turn == 0 and len({c.rank for c in game.playable(0)}) > 1:
                card = players[0].play(game, 0)
                analysis = analyse_play(game, 0, card, thrown=game.thrown_by(0))
                named.append((card, analysis.best.cards[0]))
            next_action(game, players)
    assert len(named) > 80
    assert [(laid, best) for laid, best in named if laid.rank != best.rank] == []


def _searched_to_the_end() -> Game:
    """A game (master against expert) at the master's first play with seven cards or fewer
    in the two hands, more than one rank to choose from: where it searches to the end."""
    game = Game(2, rng=random.Random(0))
    players = [
        ComputerPlayer("master", rng=random.Random(0)),
        ComputerPlayer("expert", rng=random.Random(1)),
    ]
    while not (
        game.phase is Phase.PLAY
        and game.turn == 0
        and len(game.hand(0)) + len(game.hand(1)) <= 7
        and len({card.rank for card in game.playable(0)}) > 1
    ):
        next_action(game, players)
    return game


def test_the_coach_draws_the_opponents_hands_once_for_points_and_chances(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # At two players the coach weighs each card for points and for the chance to win over
    # the same hands drawn through the expert's discard (seeded by the position); it drew
    # them twice, once for each.
    drawn: list[list[tuple[int, ...]]] = []
    real = play.hands_through_discard

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        drawn.append(real(*args, **kwargs))
        return drawn[-1]

    game = _searched_to_the_end()
    monkeypatch.setattr(play, "hands_through_discard", spy)
    analysis = analyse_play(game, 0, game.playable(0)[0], thrown=game.thrown_by(0))
    assert len(drawn) == 1
    assert len(drawn[0]) >= FEWEST_ACCEPTED  # the search ran over them
    assert len(analysis.options) > 1


def test_where_too_few_hands_come_through_the_discard_the_coach_draws_them_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Where fewer than FEWEST_ACCEPTED hands come through the expert's discard, the hands
    # are drawn by the keep model's weights (seeded by the position); the coach drew those
    # twice, once for points and once for the chance to win.
    drawn: list[list[tuple[int, ...]]] = []
    real = sampled_play.sample_hands

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        drawn.append(real(*args, **kwargs))
        return drawn[-1]

    game = _searched_to_the_end()
    monkeypatch.setattr(play, "hands_through_discard", lambda *args, **kwargs: [])
    monkeypatch.setattr(sampled_play, "sample_hands", spy)
    analysis = analyse_play(game, 0, game.playable(0)[0], thrown=game.thrown_by(0))
    assert len(drawn) == 1
    assert len(drawn[0]) == SAMPLES  # the search ran over them
    assert len(analysis.options) > 1


def test_the_coach_asks_no_search_to_tell_apart_cards_equal_for_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The master tells apart the cards its full search values the same with its deep
    # search; the coach shows the points but lays no card by them, and ran that search
    # for the points' ties too (up to 35 ms over six cards). Game 1's first five plays
    # searched to the end hold one such tie (the fifth), and the chance's ties are still
    # told apart: the coach names the master's card (the test above).
    deep_for_points = 0
    coaching = False  # (the master's own plays tell its points' ties apart, as ever)
    real = play.play_values

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal deep_for_points
        deep_for_points += coaching and kwargs.get("deep", False) and not kwargs["chance"]
        return real(*args, **kwargs)

    monkeypatch.setattr(play, "play_values", spy)
    game = Game(2, rng=random.Random(1))
    players = [
        ComputerPlayer("master", rng=random.Random(1)),
        ComputerPlayer("expert", rng=random.Random(2)),
    ]
    analysed = 0
    while analysed < 5:
        if (
            game.phase is Phase.PLAY
            and game.turn == 0
            and len(game.hand(0)) + len(game.hand(1)) <= 7
            and len({card.rank for card in game.playable(0)}) > 1
        ):
            coaching = True
            analysis = analyse_play(game, 0, game.playable(0)[0], thrown=game.thrown_by(0))
            coaching = False
            assert len(analysis.options) > 1
            analysed += 1
        next_action(game, players)
    assert deep_for_points == 0
