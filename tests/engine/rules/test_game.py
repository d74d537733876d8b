"""The game state machine, driven through its actions with stacked decks."""

import random
import subprocess
import sys

import pytest

from engine import Card, IllegalActionError, InvalidClaimError, parse_cards
from engine.rules.events import (
    CountReset,
    CutForDeal,
    GameOver,
    GoSaid,
    Pegged,
    ShowScored,
    StarterCut,
)
from engine.rules.game import Game, Phase
from engine.rules.outcome import Outcome
from tests.stacked import StackedRandom

C = Card.parse


def two_player_game(
    seat0: str, seat1: str, starter: str = "2C", dealer: int = 0, **options: object
) -> Game:
    """Seat 0 and seat 1 are dealt these six cards each; the starter is stock card 1."""
    rng = StackedRandom(f"{seat0} {seat1} {starter}")
    game = Game(2, rng=rng, dealer=dealer, **options)  # type: ignore[arg-type]
    game.deal()
    return game


def pegged(events: list, seat: int | None = None) -> list[tuple[int, int, str]]:
    return [
        (e.seat, e.points, e.reason)
        for e in events
        if isinstance(e, Pegged) and (seat is None or e.seat == seat)
    ]


def play_all(game: Game, plays: str) -> list:
    events = []
    for card in parse_cards(plays):
        assert game.turn is not None
        events += game.play(game.turn, card)
    return events


def test_rule_text_go_example_one() -> None:
    # A (pone, seat 1) holds 10 10 9 6; B (dealer, seat 0) holds 7 6 5 4.
    game = two_player_game("7S 6S 5S 4S KC QC", "TD TC 9H 6H KH QH")
    game.discard(0, parse_cards("KC QC"))
    game.discard(1, parse_cards("KH QH"))
    game.cut(1)
    assert game.turn == 1
    events = play_all(game, "9H 6S 6H 5S")
    assert pegged(events) == [(0, 2, "fifteen two"), (1, 2, "a pair for two")]
    assert game.count == 26
    # A cannot play: the go is taken for A, and B plays on.
    assert game.turn == 0
    assert any(isinstance(e, GoSaid) and e.seat == 1 for e in events)
    events = game.play(0, C("4S"))
    assert pegged(events) == [(0, 3, "a run of three for 3"), (0, 1, "one for the go")]
    assert any(isinstance(e, CountReset) and e.leader == 1 for e in events)
    assert game.count == 0
    events = play_all(game, "TD 7S TC")
    assert pegged(events) == [(1, 1, "one for last")]
    assert game.scores == [2 + 3 + 1, 2 + 1]
    assert game.phase is Phase.SHOW


def test_rule_text_go_example_two_runs_do_not_cross_a_reset() -> None:
    # A (pone) holds 10 8 7 5; B (dealer) holds 7 6 5 4.
    game = two_player_game("7S 6S 5S 4S KC QC", "TD 8H 7H 5H KH QH")
    game.discard(0, parse_cards("KC QC"))
    game.discard(1, parse_cards("KH QH"))
    game.cut(1)
    events = play_all(game, "8H 7S 7H 6S")
    played = [e.count for e in events if type(e).__name__ == "CardPlayed"]
    assert played == [8, 15, 22, 28]
    assert game.count == 0  # neither could play at 28, so the count started again
    assert pegged(events) == [
        (0, 2, "fifteen two"),
        (1, 2, "a pair for two"),
        (0, 1, "one for the go"),
    ]
    events = game.play(1, C("5H"))  # 7 and 6 were in the last count: no run
    assert pegged(events) == []


def test_thirty_one_scores_two_and_never_also_one_for_last() -> None:
    game = two_player_game("5S 6S 7S 3C KC QC", "AH 2H 3H 4H KH QH")
    game.discard(0, parse_cards("KC QC"))
    game.discard(1, parse_cards("KH QH"))
    game.cut(1)
    events = play_all(game, "AH 5S 2H 6S 3H 7S 4H")
    events = game.play(0, C("3C"))
    assert game.phase is Phase.SHOW
    reasons = [reason for _, _, reason in pegged(events)]
    assert any("thirty-one" in reason for reason in reasons)
    assert "one for last" not in reasons


def test_his_heels_pays_the_dealer_two() -> None:
    game = two_player_game("7S 6S 5S 4S KC QC", "TD 8H 7H 5H KH QH", starter="JD")
    game.discard(0, parse_cards("KC QC"))
    game.discard(1, parse_cards("KH QH"))
    events = game.cut(1)
    assert isinstance(events[0], StarterCut) and events[0].card is C("JD")
    assert pegged(events) == [(0, 2, "two for his heels")]


def test_the_cut_is_a_card_number_from_one_to_the_stock_size() -> None:
    for players, stock in ((2, 40), (3, 36), (4, 32)):
        game = Game(players, rng=random.Random(1), dealer=0)
        game.deal()
        for seat in range(players):
            game.discard(seat, game.hand(seat)[: game.discard_count])
        assert game.stock_size == stock
        for bad in (0, stock + 1, -3):
            with pytest.raises(IllegalActionError, match=f"1 to {stock}"):
                game.cut(bad)
        assert game.phase is Phase.CUT
        game.cut(stock)
        assert game.phase in (Phase.PLAY, Phase.OVER)


def test_actions_out_of_turn_or_phase_change_nothing() -> None:
    game = two_player_game("7S 6S 5S 4S KC QC", "TD 8H 7H 5H KH QH")
    with pytest.raises(IllegalActionError):
        game.play(1, C("TD"))  # still discarding
    with pytest.raises(IllegalActionError, match="Throw 2"):
        game.discard(0, parse_cards("KC"))
    with pytest.raises(IllegalActionError, match="do not hold"):
        game.discard(0, parse_cards("KC KH"))
    game.discard(0, parse_cards("KC QC"))
    with pytest.raises(IllegalActionError, match="already"):
        game.discard(0, parse_cards("7S 6S"))
    game.discard(1, parse_cards("KH QH"))
    game.cut(1)
    with pytest.raises(IllegalActionError, match="not your turn"):
        game.play(0, C("7S"))
    with pytest.raises(IllegalActionError, match="do not hold"):
        game.play(1, C("7S"))
    with pytest.raises(IllegalActionError, match="cannot say go"):
        game.go(1)
    assert game.hand(1) == tuple(parse_cards("TD 8H 7H 5H"))
    assert game.count == 0 and game.scores == [0, 0]


def test_a_card_past_31_is_refused() -> None:
    game = two_player_game("TS JS 5S 4S KC QC", "TD JD QD 5H KH QH")
    game.discard(0, parse_cards("KC QC"))
    game.discard(1, parse_cards("KH QH"))
    game.cut(1)
    play_all(game, "TD TS 5H")
    assert game.count == 25 and game.turn == 0
    with pytest.raises(IllegalActionError, match="cannot pass 31"):
        game.play(0, C("JS"))
    assert game.count == 25 and C("JS") in game.hand(0)
    assert game.playable(0) == (C("5S"), C("4S"))


def manual_game_at_show(claim_seat1: object = None) -> Game:
    game = two_player_game(
        "7S 6S 5S 4S KC QC", "TD TC 9H 6H KH QH", counting="manual", starter="2C"
    )
    game.discard(0, parse_cards("KC QC"))
    game.discard(1, parse_cards("KH QH"))
    game.cut(1)
    play_all(game, "9H 6S 6H 5S")
    game.play(0, C("4S"))
    play_all(game, "TD 7S TC")
    assert game.phase is Phase.SHOW and game.showing == (1, False)
    return game


def test_manual_counting_exact_claim() -> None:
    game = manual_game_at_show()
    before = list(game.scores)
    # pone: TD TC 9H 6H + 2C: 9+6 = 15 (2), pair of tens (2) -> 4
    events = game.count_hand(4)
    shown = events[0]
    assert isinstance(shown, ShowScored)
    assert (shown.claim, shown.awarded, shown.muggins, shown.muggins_seat) == (4, 4, 0, None)
    assert game.scores == [before[0], before[1] + 4]


def test_manual_counting_over_claim_scores_nothing_and_the_opponent_takes_the_count() -> None:
    game = manual_game_at_show()
    before = list(game.scores)
    events = game.count_hand("9")
    assert pegged(events) == [(0, 4, "muggins on the hand")]
    assert game.scores == [before[0] + 4, before[1]]


def test_manual_counting_under_claim_gives_the_opponent_what_was_missed() -> None:
    game = manual_game_at_show()
    before = list(game.scores)
    events = game.count_hand(" 1 ")
    assert pegged(events) == [(1, 1, "hand"), (0, 3, "muggins on the hand")]
    assert game.scores == [before[0] + 3, before[1] + 1]


@pytest.mark.parametrize("bad", ["", "abc", "30", "-1", "4.5", "٤", None, 99, -2])
def test_bad_claims_are_refused_and_can_be_entered_again(bad: object) -> None:
    game = manual_game_at_show()
    before = list(game.scores)
    with pytest.raises(InvalidClaimError):
        game.count_hand(bad)  # type: ignore[arg-type]
    assert game.scores == before and game.showing == (1, False)
    game.count_hand(4)
    assert game.showing == (0, False)


def test_a_claim_of_nineteen_gets_the_traditional_remark() -> None:
    game = manual_game_at_show()
    shown = game.count_hand(19)[0]
    assert isinstance(shown, ShowScored)
    assert "Nineteen" in shown.remark and shown.awarded == 0 and shown.muggins == 4


def test_automatic_counting_takes_no_claim_and_counts_in_order() -> None:
    game = two_player_game("7S 6S 5S 4S KC QC", "TD TC 9H 6H KH QH", starter="2C")
    game.discard(0, parse_cards("KC QC"))
    game.discard(1, parse_cards("KH QH"))
    game.cut(1)
    play_all(game, "9H 6S 6H 5S")
    game.play(0, C("4S"))
    play_all(game, "TD 7S TC")
    with pytest.raises(IllegalActionError, match="automatic"):
        game.count_hand(4)
    order = []
    while game.phase is Phase.SHOW:
        for event in game.count_hand():
            if isinstance(event, ShowScored):
                order.append((event.seat, event.is_crib, event.score.total))
    # pone first, then the dealer, then the dealer's crib (KC QC KH QH + 2C: two pairs)
    # dealer: 7S 6S 5S 4S + 2C: two fifteens, a run of four, a four-card flush
    assert order == [(1, False, 4), (0, False, 4 + 4 + 4), (0, True, 4)]
    assert game.phase is Phase.DEAL and game.dealer == 1


def test_the_game_ends_the_instant_121_is_reached_even_mid_show() -> None:
    game = two_player_game("7S 6S 5S 4S KC QC", "TD TC 9H 6H KH QH", starter="2C")
    game.discard(0, parse_cards("KC QC"))
    game.discard(1, parse_cards("KH QH"))
    game.cut(1)
    play_all(game, "9H 6S 6H 5S")
    game.play(0, C("4S"))
    play_all(game, "TD 7S TC")
    game.scores[1] = 118  # the pone counts first and needs 3 of the hand's 4
    game.scores[0] = 60
    events = game.count_hand()
    over = events[-1]
    assert isinstance(over, GameOver)
    # The hand is worth 4 and 118 + 4 is 122, but the peg stops in the game hole.
    assert over.winner_side == 1 and over.scores == (60, 121)
    assert over.skunks == ((0, "double skunk"),)
    assert game.outcome() == Outcome(1, (60, 121), ((0, "double skunk"),))
    assert game.outcome().describe(["Dealer", "Pone"]) == "Pone won 121 to 60 (a double skunk)"
    assert game.phase is Phase.OVER
    with pytest.raises(IllegalActionError, match="over"):
        game.count_hand()
    follow_on = game.next_game()
    assert follow_on.dealer == 0 and follow_on.phase is Phase.DEAL


def test_pegging_out_during_the_play_stops_the_hand() -> None:
    game = two_player_game("7S 6S 5S 4S KC QC", "TD TC 9H 6H KH QH")
    game.discard(0, parse_cards("KC QC"))
    game.discard(1, parse_cards("KH QH"))
    game.cut(1)
    game.scores[0] = 119
    game.scores[1] = 85
    events = play_all(game, "9H 6S")
    assert isinstance(events[-1], GameOver)
    assert events[-1].skunks == ((1, "skunk"),)
    assert game.phase is Phase.OVER and game.turn is None


def test_cut_for_deal_lowest_deals_and_ties_cut_again() -> None:
    rng = StackedRandom("5H 5S", "KD 3C")
    game = Game(2, rng=rng)
    events = game.cut_for_deal()
    assert [type(e) for e in events] == [CutForDeal, CutForDeal]
    assert events[0].dealer is None and events[1].dealer == 1
    assert game.dealer == 1 and game.phase is Phase.DEAL


def test_three_players_each_hold_five_and_the_crib_gets_one_from_the_deck() -> None:
    game = Game(3, rng=random.Random(5), dealer=2)
    game.deal()
    assert [len(game.hand(seat)) for seat in range(3)] == [5, 5, 5]
    assert len(game.crib) == 1
    for seat in range(3):
        game.discard(seat, game.hand(seat)[:1])
    assert len(game.crib) == 4 and game.cutter == 1
    game.cut(1)
    assert game.turn == 0  # left of the dealer leads


def test_partners_share_a_score() -> None:
    game = Game(4, rng=random.Random(8), dealer=3)
    assert game.sides == 2 and [game.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    game.deal()
    for seat in range(4):
        game.discard(seat, game.hand(seat)[:1])
    game.cut(5)
    while game.phase is Phase.PLAY:
        seat = game.turn
        assert seat is not None
        for event in game.play(seat, game.playable(seat)[0]):
            if isinstance(event, Pegged):
                assert event.side == event.seat % 2
                assert game.scores[event.side] >= event.score
    order = []
    while game.phase is Phase.SHOW:
        for event in game.count_hand():
            if isinstance(event, ShowScored):
                order.append((event.seat, event.is_crib))
    assert order == [(0, False), (1, False), (2, False), (3, False), (3, True)]
    assert game.phase is Phase.DEAL and game.dealer == 0


@pytest.mark.parametrize(
    "options",
    [{"players": 5}, {"players": 1}, {"runs": "loose"}, {"counting": "maybe"}, {"dealer": 2}],
)
def test_bad_game_options_are_refused(options: dict) -> None:
    with pytest.raises(IllegalActionError):
        Game(**options)


def test_the_same_seed_plays_the_same_game() -> None:
    from engine.computer.selfplay import RandomPlayer, play_game

    def record(seed: int) -> tuple:
        rng = random.Random(seed)
        game = Game(2, rng=random.Random(seed))
        result = play_game(game, [RandomPlayer(rng), RandomPlayer(rng)])
        return (result.scores, result.actions, result.winner_seat)

    assert record(11) == record(11)
    assert record(11) != record(12)


def test_importing_the_engine_loads_no_io() -> None:
    code = (
        "import sys, engine, engine.rules.game, engine.computer.selfplay; "
        "bad = [m for m in ('door', 'asyncio', 'socket', 'telnetlib3', 'asyncssh') "
        "if m in sys.modules]; print(bad)"
    )
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert output.stdout.strip() == "[]", output.stderr


def test_the_public_api_comes_from_the_top_level_package() -> None:
    import engine

    for name in ("parse_cards", "score_show", "score_peg", "Game", "CribbageError"):
        assert hasattr(engine, name), name
    assert engine.score_show(parse_cards("5H 5D JS QC"), C("5S")).total == 21
    assert isinstance(engine.score_peg(parse_cards("7S 5H 6D"), "free"), int)
    game = engine.Game(2, rng=random.Random(4), dealer=1)
    game.deal()
    assert len(game.hand(0)) == 6
