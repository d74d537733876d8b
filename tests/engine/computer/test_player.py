"""engine.computer.player: discard decisions experts agree on, determinism, and whole games."""

from __future__ import annotations

import doctest
import itertools
import random

import numpy as np
import pytest

import engine.computer.discard
import engine.computer.play
from engine.computer.discard import choose_discard
from engine.computer.levels import LEVELS
from engine.computer.opponent import least_pips_left
from engine.computer.player import ComputerPlayer
from engine.computer.selfplay import play_game, run_selfplay
from engine.odds.crib import crib_given_starter
from engine.odds.hand_tables import load_tables
from engine.rules.cards import FULL_DECK, Card, format_cards, parse_cards
from engine.rules.errors import IllegalActionError
from engine.rules.events import ShowScored
from engine.rules.game import Game
from engine.rules.scoring import score_show


def throws(hand: str, **options: object) -> str:
    thrown = choose_discard(parse_cards(hand), **options)  # type: ignore[arg-type]
    return " ".join(sorted(card.rank.letter for card in thrown))


# Dealer's discards from published advice: George Rasmussen's "small hand rule"
# (cribbage.org tips) and the issue's own example. Suits are mixed so no flush
# decides anything.
DEALER_DECISIONS = [
    ("5H 5D JC QS 2H 9C", "2 9"),  # keep 5-5-J-Q
    ("2C TD 4H TS 3S 5D", "2 3"),  # keep 4-5-10-10, give the crib 2-3
    ("3C 6D 8H 6S 2S JD", "2 3"),  # keep 6-6-8-J
    ("4C 2D TH 9S JD AH", "4 A"),  # keep 2-9-10-J
    ("8C 7D 4H 6S QD 5H", "7 8"),  # keep 4-5-6-Q
    ("2C 5D TH KS 8D 9H", "5 K"),  # keep 2-8-9-10
]


@pytest.mark.parametrize(("hand", "thrown"), DEALER_DECISIONS)
def test_dealer_discards_as_experts_do(hand: str, thrown: str) -> None:
    assert throws(hand, dealer=True) == thrown


# As pone the fives stay home and the crib gets cards that do not work together.
# The last two are from Cribbage Pro's pone discard quiz (2013), decided by the
# results of many games on its servers: split the run to give dealer 9-Q, and
# give A-7 rather than 7-8.
PONE_DECISIONS = [
    ("5H 5D JC QS 2H 9C", "2 9"),
    ("AC 2D 3H 4S 5D 6C", "2 A"),  # keep 3-4-5-6 (Schell: worth the risk of A-2)
    ("5C 5S TD KH 7D 2C", "2 7"),  # never the fives into their crib
    ("2S 3H 9D TC JS QH", "9 Q"),
    ("AS 2H 3D 4C 7D 8H", "7 A"),
]


@pytest.mark.parametrize(("hand", "thrown"), PONE_DECISIONS)
def test_pone_discards_as_experts_do(hand: str, thrown: str) -> None:
    assert throws(hand, dealer=False) == thrown


def test_one_card_to_the_crib_with_three_or_four_players() -> None:
    hand = "5H 5D JC QS 2H"
    assert throws(hand, dealer=True, players=3) == "2"
    assert throws(hand, dealer=False, players=4) == "2"
    assert throws(hand, dealer=False, players=4, crib_is_ours=True) == "2"
    for level in LEVELS:
        thrown = choose_discard(parse_cards(hand), dealer=False, players=3, level=level)
        assert len(thrown) == 1


def brute_force_values(hand: list[Card], ours: bool) -> dict[tuple[Card, ...], float]:
    """Hand plus or minus crib, each averaged over every unseen completion."""
    unseen = [card for card in FULL_DECK if card not in hand]
    values = {}
    for thrown in itertools.combinations(hand, 2):
        kept = tuple(card for card in hand if card not in thrown)
        hand_ev = sum(score_show(kept, s).total for s in unseen) / len(unseen)
        crib = count = 0
        for x, y in itertools.combinations(unseen, 2):
            for s in unseen:
                if s is not x and s is not y:
                    crib += score_show((*thrown, x, y), s, crib=True).total
                    count += 1
        values[thrown] = hand_ev + (crib / count if ours else -crib / count)
    return values


@pytest.mark.parametrize(
    ("text", "ours"), [("3D 4S 7H 8C JD KS", True), ("AH 6C 6D 9S TH QC", False)]
)
def test_expert_is_near_the_brute_force_best(text: str, ours: bool) -> None:
    """With the crib averaged over random throws, the expert's choice loses
    little or nothing: it weights the opponent's throws by real play instead."""
    hand = parse_cards(text)
    values = brute_force_values(hand, ours)
    chosen = choose_discard(hand, dealer=ours)
    assert max(values.values()) - values[chosen] < 0.25


def test_near_the_end_it_keeps_the_hand_that_wins() -> None:
    """Pone on 117 counts first and needs four: a sure 4 beats a bigger average."""
    hand = parse_cards("5S 5H 7C 8D 9H 2C")
    need = 121 - 117
    unseen = [card for card in FULL_DECK if card not in hand]

    def chance_of(kept: list[Card]) -> float:
        return sum(score_show(kept, s).total >= need for s in unseen) / len(unseen)

    def average(kept: list[Card]) -> float:
        return sum(score_show(kept, s).total for s in unseen) / len(unseen)

    mid = choose_discard(hand, dealer=False, my_score=50, opp_score=50)
    end = choose_discard(hand, dealer=False, my_score=117, opp_score=100)
    kept_mid = [card for card in hand if card not in mid]
    kept_end = [card for card in hand if card not in end]
    assert chance_of(kept_end) >= chance_of(kept_mid)
    assert average(kept_mid) >= average(kept_end)


@pytest.mark.both_twins
@pytest.mark.parametrize(
    "text", ["JH 5H 2C 3D 9S 7H 4H", "5H 2H 2C 3D 9S 7H 4H", "9C TC 2C 3D JS 7H 4C"]
)
def test_crib_with_the_starter_known(text: str) -> None:
    """Near the end the dealer values its crib once the starter is turned: the
    distribution over the pone's two cards, each pair weighted as pones throw."""
    cards = parse_cards(text)
    discards, kept, starter = tuple(cards[:2]), tuple(cards[2:6]), cards[6]
    weight = load_tables().throw_weight["pone"]
    expected = np.zeros(30)
    others = [card for card in FULL_DECK if card not in cards]
    for x, y in itertools.combinations(others, 2):
        points = score_show((*discards, x, y), starter, crib=True).total
        expected[points] += weight[x.index // 4, y.index // 4]
    expected /= expected.sum()
    got = crib_given_starter(discards, starter, kept, weight)
    assert got.tobytes() == expected.tobytes()  # each bin summed in the same order


def test_refuses_bad_hands() -> None:
    with pytest.raises(IllegalActionError):
        choose_discard(parse_cards("5H 5D JC QS 2H"), dealer=True)  # five with two players
    with pytest.raises(IllegalActionError):
        choose_discard([Card.parse("5H"), *parse_cards("5H JC QS 2H 9C")], dealer=True)
    with pytest.raises(IllegalActionError):
        choose_discard(parse_cards("5H 5D JC QS 2H 9C"), dealer=True, level="hard")
    with pytest.raises(IllegalActionError):
        choose_discard(parse_cards("5H 5D JC QS 2H"), dealer=True, players=5)


def test_same_seed_same_discards() -> None:
    deck_rng = random.Random(9)
    hands = [deck_rng.sample(FULL_DECK, 6) for _ in range(30)]
    for level in LEVELS:
        first = [choose_discard(h, dealer=True, level=level, rng=random.Random(4)) for h in hands]
        again = [choose_discard(h, dealer=True, level=level, rng=random.Random(4)) for h in hands]
        assert first == again
        for hand, thrown in zip(hands, first, strict=True):
            assert len(thrown) == 2 and set(thrown) <= set(hand)


# --- whole games --------------------------------------------------------------


def computer(level: str) -> object:
    return lambda rng: ComputerPlayer(level, rng)


@pytest.mark.parametrize(
    ("players", "runs", "counting"),
    [(2, "free", "auto"), (2, "exact", "manual"), (3, "free", "auto"), (4, "exact", "manual")],
)
def test_computer_players_finish_games(players: int, runs: str, counting: str) -> None:
    totals = run_selfplay(
        3,
        seed=players,
        players=players,
        runs=runs,  # type: ignore[arg-type]
        counting=counting,  # type: ignore[arg-type]
        a=computer("expert"),  # type: ignore[arg-type]
        b=computer("normal"),  # type: ignore[arg-type]
    )
    assert totals.games == 3


def test_the_computer_never_miscounts_its_show() -> None:
    game = Game(2, counting="manual", rng=random.Random(5), dealer=0)
    seats = [ComputerPlayer("expert", random.Random(1)), ComputerPlayer("easy", random.Random(2))]
    shows: list[ShowScored] = []
    original = game.count_hand

    def spy(claim: int | str | None = None) -> list[object]:
        events = original(claim)
        shows.extend(event for event in events if isinstance(event, ShowScored))
        return events  # type: ignore[return-value]

    game.count_hand = spy  # type: ignore[method-assign]
    play_game(game, seats)  # type: ignore[arg-type]
    assert shows
    for show in shows:
        assert show.claim == show.score.total
        assert show.muggins == 0


def test_repr_and_levels() -> None:
    assert repr(ComputerPlayer("normal", random.Random(0))) == "ComputerPlayer('normal')"
    with pytest.raises(IllegalActionError):
        ComputerPlayer("grandmaster")
    assert format_cards(parse_cards("2H 9C")) == "2H 9C"


def test_remembers_what_a_go_says_about_their_cards() -> None:
    from tests.stacked import StackedRandom

    game = Game(2, rng=StackedRandom("KS QS JS TS 2C 3C 9H 8H 7H 6H 2D 3D AS"), dealer=0)
    game.deal()
    game.discard(0, parse_cards("2C 3C"))
    game.discard(1, parse_cards("2D 3D"))
    game.cut(1)
    for seat, card in [(1, "9H"), (0, "KS"), (1, "8H")]:
        assert least_pips_left(game, 1) == 1
        game.play(seat, Card.parse(card))
    # At 27 the dealer had nothing of 4 or under: a go; the pone could not
    # play either, so the dealer leads the next count.
    assert game.turn == 0 and not game.count_cards
    game.play(0, Card.parse("QS"))
    assert least_pips_left(game, 1) == 5
    # Nor could the pone add a card at 27 after the dealer's go.
    assert least_pips_left(game, 0) == 5
    # Later plays do not undo it.
    game.play(1, Card.parse("7H"))
    assert least_pips_left(game, 0) == 5


def test_the_docstring_examples_hold() -> None:
    for module in (engine.computer.discard, engine.computer.play):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__


def test_no_card_laid_pegs_more_than_the_winning_plays_bound() -> None:
    """``winning_play`` scores no card while more than ``MOST_ONE_CARD_PEGS`` points are
    needed: every count of up to five cards (by rank, under 31), with one for last, pegs
    no more on its last card, runs up to seven as well, and the bound is reached."""
    from engine.computer.play import MOST_ONE_CARD_PEGS
    from engine.rules.cards import PIPS
    from engine.rules.scoring import score_peg

    suits = "SHDC"
    rank_letters = "A23456789TJQK"
    most = 0
    for length in range(1, 6):
        for ranks in itertools.product(range(1, 14), repeat=length):
            if sum(PIPS[rank] for rank in ranks) > 31 or max(map(ranks.count, ranks)) > 4:
                continue
            seen: dict[int, int] = {}
            cards = []
            for rank in ranks:  # each rank's cards in a different suit
                cards.append(f"{rank_letters[rank - 1]}{suits[seen.get(rank, 0)]}")
                seen[rank] = seen.get(rank, 0) + 1
            points = score_peg(parse_cards(" ".join(cards)))
            last = 0 if sum(PIPS[rank] for rank in ranks) == 31 else 1
            most = max(most, points + last)
    for run in ("AS 2S 3S 4S 5S 6S", "AS 2S 3S 4S 5S 6S 7S", "3S 4S 5S 6S 7S 2S AS"):
        most = max(most, score_peg(parse_cards(run)) + 1)
    assert most == MOST_ONE_CARD_PEGS
