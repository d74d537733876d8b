"""engine.computer.pegging and choose_play: the rank scorer, legality, what the expert prefers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.computer.levels import LEVELS
from engine.computer.pegging import peg_points, replies_to
from engine.computer.play import choose_play
from engine.rules.cards import FULL_DECK, Card, parse_cards
from engine.rules.errors import IllegalActionError
from engine.rules.scoring import score_peg


def random_counts(seed: int, number: int) -> list[list[Card]]:
    """Count sequences as play makes them: distinct cards, never past 31."""
    rng = random.Random(seed)
    counts = []
    while len(counts) < number:
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        # Low cards make long counts with runs and pairs in them.
        deck.sort(key=lambda card: card.pips * rng.random())
        count: list[Card] = []
        for card in deck:
            if sum(c.pips for c in count) + card.pips > 31:
                break
            count.append(card)
            counts.append(list(count))
    return counts


@pytest.mark.parametrize("runs", ["free", "exact"])
def test_rank_scorer_agrees_with_the_rules_engine(runs: str) -> None:
    for cards in random_counts(seed=7, number=5000):
        ranks = tuple(int(card.rank) for card in cards)
        count = sum(card.pips for card in cards)
        assert peg_points(ranks, count, runs == "exact") == score_peg(cards, runs), cards


@pytest.mark.parametrize("runs", ["free", "exact"])
def test_search_replies_agree_with_the_rank_scorer(runs: str) -> None:
    """The search scores all thirteen replies to a count at once; each must be
    what the plain scorer gives for that card."""
    exact = runs == "exact"
    for cards in random_counts(seed=8, number=3000):
        ranks = tuple(int(card.rank) for card in cards)
        flat = iter(replies_to(ranks, exact))
        seen = set()
        for rank, count, points in zip(flat, flat, flat, strict=True):
            seen.add(rank)
            assert count == sum(card.pips for card in cards) + min(rank, 10)
            if ranks.count(rank) < 4:
                assert points == peg_points((*ranks, rank), count, exact), (ranks, rank)
        room = 31 - sum(card.pips for card in cards)
        assert seen == {rank for rank in range(1, 14) if min(rank, 10) <= room}


@pytest.mark.parametrize(
    ("played", "points"),
    [
        ("4S 2H 3D", 3),
        ("4S 2H 3D 5C", 4),
        ("4S 2H 3D 5C 6H", 5),
        ("4S 2H 3D 4C", 3),
        ("4S 2H 3D 4C 3S", 0),
        ("5S 5H 5D", 8),  # fifteen and pair royal
        ("7S 7H 7D 7C", 12),
        ("TS JH QD KC AH", 0),
    ],
)
def test_rank_scorer_worked_examples(played: str, points: int) -> None:
    cards = parse_cards(played)
    ranks = tuple(int(card.rank) for card in cards)
    assert peg_points(ranks, sum(card.pips for card in cards), False) == points


# --- legality -------------------------------------------------------------------


@st.composite
def play_states(draw: st.DrawFn) -> tuple[list[Card], list[Card], list[Card], Card, int, bool]:
    deck = draw(st.permutations(FULL_DECK))
    hand_size = draw(st.integers(0, 4))
    hand = list(deck[:hand_size])
    rest = deck[hand_size:]
    count: list[Card] = []
    total = 0
    for card in rest[: draw(st.integers(0, 8))]:
        if total + card.pips > 31:
            break
        count.append(card)
        total += card.pips
    earlier = list(rest[len(count) : len(count) + draw(st.integers(0, 4))])
    starter = rest[-1]
    opp_left = draw(st.integers(0, 4))
    return hand, count, count + earlier, starter, opp_left, draw(st.booleans())


@settings(max_examples=300, deadline=None)
@given(state=play_states(), level=st.sampled_from(LEVELS), seed=st.integers(0, 1000))
def test_never_an_illegal_play(
    state: tuple[list[Card], list[Card], list[Card], Card, int, bool], level: str, seed: int
) -> None:
    hand, count, played, starter, opp_left, near_end = state
    total = sum(card.pips for card in count)
    card = choose_play(
        hand,
        count,
        played=played,
        starter=starter,
        level=level,
        opp_cards_left=opp_left,
        my_score=115 if near_end else 10,
        opp_score=118 if near_end else 20,
        rng=random.Random(seed),
    )
    fits = [c for c in hand if total + c.pips <= 31]
    if fits:
        assert card in fits
    else:
        assert card is None


def test_refuses_a_count_past_31_and_unknown_levels() -> None:
    with pytest.raises(IllegalActionError):
        choose_play(parse_cards("2S"), parse_cards("TS TH TD 3C"))
    with pytest.raises(IllegalActionError):
        choose_play(parse_cards("2S"), [], level="grandmaster")
    with pytest.raises(IllegalActionError):
        choose_play(parse_cards("2S"), [], runs="sideways")


def test_same_seed_same_choices() -> None:
    hand = parse_cards("2S 5H 9D KC")
    for level in LEVELS:
        first = [choose_play(hand, [], level=level, rng=random.Random(seed)) for seed in range(20)]
        again = [choose_play(hand, [], level=level, rng=random.Random(seed)) for seed in range(20)]
        assert first == again


# --- what the expert prefers ------------------------------------------------------


def expert(hand: str, count: str, **options: object) -> str:
    card = choose_play(parse_cards(hand), parse_cards(count), **options)  # type: ignore[arg-type]
    return str(card)


def test_makes_fifteen() -> None:
    assert expert("TD 5S 2C", "KH") == "5S"
    assert expert("6C 3D 9S", "4H 5S") == "6C"


def test_makes_thirty_one() -> None:
    assert expert("7D 5S 2C", "KH 6S 8D") == "7D"


def test_takes_a_pair_royal() -> None:
    assert expert("7S 8C KD", "7H 7D") == "7S"


def test_does_not_leave_the_count_on_21() -> None:
    # 5 makes 21 (any ten-card makes 31 for them); 2 makes 18.
    assert expert("5D 2C", "9H 7S") == "2C"


def test_does_not_leave_the_count_on_5() -> None:
    # Leading the five lets every ten-card (16 of them) make fifteen; the nine
    # only the sixes.
    assert expert("5D 9C", "") == "9C"
    # After an ace the 4 makes 5 (ten-cards make fifteen), the 9 makes 10 (only fives do).
    assert expert("4C 9D", "AH") == "9D"


def test_does_not_set_up_a_run() -> None:
    # After 3-3 the 4 makes 10: a 5 then scores fifteen and a run of three, a 4 a
    # pair. The king makes 16, where only a king pairs it.
    assert expert("4S KD", "3H 3D") == "KD"


def test_does_not_set_up_a_pair_royal() -> None:
    # Both score two on a ten: the five for fifteen, the ten for a pair. The pair
    # lets either of the two unseen tens make a pair royal (six); after the
    # fifteen a five pairs for two.
    assert expert("5S TS", "TH") == "5S"


def test_a_go_when_nothing_fits() -> None:
    assert choose_play(parse_cards("KS QD"), parse_cards("TH TS 5C")) is None


def test_plays_for_31_after_their_go() -> None:
    # They said go at 24: the 7 makes 31 for two; the 4 makes 28 and one for last.
    assert expert("7C 4D", "TH 8S 6D", opp_said_go=True) == "7C"


def test_pegs_out_when_it_can() -> None:
    # At 19 the 2 pairs for two but makes 21, where a third 2 (pair royal) or any
    # ten-card (31) answers it: in the middle of the game the 8 is the better card.
    assert expert("8S 2C", "7D QS 2H", my_score=50, opp_score=50) == "8S"
    # At 119 the pair is the game.
    assert expert("8S 2C", "7D QS 2H", my_score=119, opp_score=100) == "2C"
