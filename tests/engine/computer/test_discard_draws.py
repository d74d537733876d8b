"""The opponent's hand drawn through the expert's discard (engine.computer.discard_draws): the
table is the expert's, and every hand drawn fits what the opponent did."""

from __future__ import annotations

import doctest
import random
from collections import Counter
from collections.abc import Sequence

import pytest

import engine.computer.discard_draws
import engine.computer.play as play
from engine.computer.discard import choose_discard
from engine.computer.discard_draws import (
    FIRST_PLAYS,
    expert_first_plays,
    expert_keeps,
    expert_second_plays,
    first_play_chance,
    four_rank_hands,
    hands_through_discard,
    second_play_chance,
    six_rank_hands,
    three_rank_hands,
)
from engine.computer.opponent import DECLINED
from engine.rules.cards import PIPS, Card, Rank, Suit, parse_cards


def test_six_rank_hands_are_every_multiset_of_six_with_at_most_four_of_a_rank() -> None:
    hands = six_rank_hands()
    # C(18, 6) multisets of six from thirteen ranks, less the 13 * 13 with five or six alike.
    assert len(hands) == len(set(hands)) == 18_564 - 169
    assert all(
        list(ranks) == sorted(ranks) and max(Counter(ranks).values()) <= 4 for ranks in hands
    )


def test_the_table_is_the_experts_throw() -> None:
    rng = random.Random(3)
    suits = list(Suit)
    for ranks in rng.sample(six_rank_hands(), 40):
        cards = [Card(Rank(rank), suits[place % 4]) for place, rank in enumerate(ranks)]
        for role, dealer in (("dealer", True), ("pone", False)):
            thrown = choose_discard(cards, dealer=dealer, level="expert")
            kept = tuple(int(card.rank) for card in cards if card not in thrown)
            assert expert_keeps()[role][ranks] == kept


def test_the_docstring_example_holds() -> None:
    result = doctest.testmod(engine.computer.discard_draws)
    assert result.attempted and not result.failed


def _unseen(seen: Sequence[int]) -> list[int]:
    left = Counter(seen)
    return [0] + [4 - left[rank] for rank in range(1, 14)]


def test_every_drawn_hand_fits_what_the_opponent_did() -> None:
    rng = random.Random(8)
    drew = 0
    for _ in range(200):
        deck = [rank for rank in range(1, 14) for _ in range(4)]
        rng.shuffle(deck)
        theirs, ours, starter = deck[:6], deck[6:12], deck[12]
        role = rng.choice(("dealer", "pone"))
        kept = list(expert_keeps()[role][tuple(sorted(theirs))])
        rng.shuffle(kept)
        laid = kept[: rng.randint(0, 3)]
        least = rng.choice((1, 1, 4, 8))
        declined = rng.sample(range(1, 14), rng.randint(0, 2))
        unseen = _unseen([*ours, starter, *laid])
        hands = hands_through_discard(
            unseen, laid, role, least_pips=least, declined=declined, samples=32, rng=rng
        )
        keeps = set(expert_keeps()[role].values())
        for hand in hands:
            assert len(hand) == 4 - len(laid)
            assert all(PIPS[rank] >= least for rank in hand)
            assert all(n <= unseen[rank] for rank, n in Counter(hand).items())
            assert tuple(sorted([*laid, *hand])) in keeps
        drew += bool(hands)
    assert drew >= 150  # most positions draw hands: the test is not of empty lists


def test_a_rank_that_would_have_pegged_more_is_rarely_held() -> None:
    unseen = _unseen(parse_ranks("5 6 7 8 9 T"))

    def share_holding_fives(declined: list[int]) -> float:
        hands = hands_through_discard(
            unseen,
            [10],
            "dealer",
            least_pips=1,
            declined=declined,
            samples=400,
            rng=random.Random(2),
        )
        return sum(5 in hand for hand in hands) / len(hands)

    assert share_holding_fives([]) > 0.2
    assert share_holding_fives([5]) < share_holding_fives([]) / 4


def take_rank(deck: list[Card], rank: int) -> Card:
    """Takes a card of ``rank`` out of ``deck``."""
    card = next(card for card in deck if card.rank == rank)
    deck.remove(card)
    return card


def parse_ranks(text: str) -> list[int]:
    return [int(card.rank) for card in parse_cards(" ".join(f"{rank}S" for rank in text.split()))]


def test_the_masters_full_search_draws_only_hands_the_expert_keeps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # We are the dealer; the pone led a king, we paired it, they laid a two (22). Their two
    # cards left, with the king and the two, must be four the expert keeps as pone: the
    # keep model's card-by-card draws make others.
    searched: list[Sequence[Sequence[int]]] = []
    real = play.full_play_values

    def spy(mine, hands, *args, **kwargs):  # type: ignore[no-untyped-def]
        searched.append(hands)
        return real(mine, hands, *args, **kwargs)

    monkeypatch.setattr(play, "full_play_values", spy)
    hand = parse_cards("3C 7C 9D")
    card = play.choose_play(
        hand,
        parse_cards("KD KS 2D"),
        played=parse_cards("KD KS 2D"),
        starter=Card.parse("4H"),
        dealer=True,
        level="master",
        opp_cards_left=2,
        my_score=30,
        opp_score=30,
        discards=parse_cards("QH 8S"),
        kept=parse_cards("KS 3C 7C 9D"),
        opp_played=parse_cards("KD 2D"),
    )
    assert card in hand
    keeps = set(expert_keeps()["pone"].values())
    assert searched and all(
        tuple(sorted([13, 2, *drawn])) in keeps for hands in searched for drawn in hands
    )


def test_the_first_plays_table_counts_one_card_a_deal_from_the_hand_held() -> None:
    table = expert_first_plays()
    assert len(four_rank_hands()) == len(table) == 1_820  # C(16, 4) multisets of four
    totals = set()
    for kept, words in table.items():
        assert len(words) == FIRST_PLAYS
        for lead, word in enumerate(words):
            counts = [(word >> (4 * place)) & 15 for place in range(4)]
            if lead and kept.count(lead) == 4:
                assert word == 0  # a fifth card of that rank cannot be led
                continue
            totals.add(sum(counts))
            # Only a rank's first place counts it.
            assert all(not counts[place] for place in range(1, 4) if kept[place] == kept[place - 1])
    assert totals == {8}


def dealt_at_random(
    rng: random.Random, held: Sequence[int], count: Sequence[int]
) -> tuple[list[Card], list[Card], Card, list[Card]]:
    """A deal around the ranks ``held`` and on the ``count``: the hand, the count's cards,
    the starter and two thrown, the rest at random (not the table's own deals)."""
    deck = [Card(Rank(rank), suit) for rank in range(1, 14) for suit in Suit]
    rng.shuffle(deck)
    hand = [take_rank(deck, rank) for rank in held]
    count_cards = [take_rank(deck, rank) for rank in count]
    return hand, count_cards, deck[0], deck[1:3]


def laid_most(word: int, held: tuple[int, ...], card: Card) -> bool:
    """Whether ``card`` is a rank laid most often in the table's ``word`` for ``held``."""
    counts = {rank: (word >> (4 * held.index(rank))) & 15 for rank in set(held)}
    return counts[int(card.rank)] == max(counts.values())


def test_the_first_plays_table_is_mostly_what_the_expert_lays_in_a_deal_of_its_own() -> None:
    rng = random.Random(5)
    agreed = tried = 0
    for kept in rng.sample(four_rank_hands(), 60):
        lead = rng.choice([0, *(rank for rank in range(1, 14) if kept.count(rank) < 4)])
        hand, count, starter, thrown = dealt_at_random(rng, kept, [lead] if lead else [])
        card = play.choose_play(
            hand,
            count,
            played=count,
            starter=starter,
            discards=thrown,
            kept=hand,
            dealer=bool(lead),
            level="expert",
            opp_cards_left=3 if lead else 4,
        )
        assert card is not None
        agreed += laid_most(expert_first_plays()[kept][lead], kept, card)
        tried += 1
    assert agreed >= 0.75 * tried


def test_the_expert_takes_a_fifteen_with_its_answer_to_a_ten() -> None:
    assert first_play_chance((2, 3, 4, 5), 10, 5) >= 0.75
    assert first_play_chance((2, 3, 4, 5), 10, 2) <= 0.25


def test_a_first_card_the_expert_would_seldom_lay_makes_its_hands_rare() -> None:
    unseen = _unseen(parse_ranks("A 2 9 Q K 3"))

    def mean_chance(first_play: tuple[int, int] | None) -> float:
        hands = hands_through_discard(
            unseen,
            [8],
            "pone",
            least_pips=1,
            declined=(),
            samples=300,
            rng=random.Random(4),
            first_play=first_play,
        )
        fours = [tuple(sorted((8, *hand))) for hand in hands]
        return sum(first_play_chance(four, 0, 8) for four in fours) / len(fours)

    unread, read = mean_chance(None), mean_chance((0, 8))
    assert read > unread + 0.1


@pytest.mark.parametrize(
    ("played", "dealer", "first"),
    [
        ("", True, None),
        ("7H", True, (0, 7)),
        ("7H 8S 5D", True, (0, 7)),
        ("7H", False, None),
        ("7H 8S", False, (7, 8)),
        ("KH 5S 4D", False, (13, 5)),
    ],
)
def test_the_opponents_first_card_is_their_lead_or_their_answer_to_ours(
    played: str, dealer: bool, first: tuple[int, int] | None
) -> None:
    assert play.opponents_first_play(parse_cards(played) if played else [], dealer) == first


def test_the_second_plays_table_counts_one_card_a_deal_from_the_three_held() -> None:
    table = expert_second_plays()
    assert len(three_rank_hands()) == len(table) == 455  # C(15, 3) multisets of three
    totals = set()
    for held, words in table.items():
        assert len(words) == 13 * 13
        for at, word in enumerate(words):
            lead, answer = at // 13 + 1, at % 13 + 1
            counts = [(word >> (4 * place)) & 15 for place in range(3)]
            if held.count(lead) == 4 or (*held, lead, answer).count(answer) > 4:
                assert word == 0  # a fifth card of a rank cannot be laid
                continue
            totals.add(sum(counts))
            assert word >> 12 == 0  # three ranks held, three counts
            assert all(not counts[place] for place in range(1, 3) if held[place] == held[place - 1])
    assert totals == {8}


def test_the_second_plays_table_is_mostly_what_the_expert_lays_in_a_deal_of_its_own() -> None:
    rng = random.Random(6)
    agreed = tried = 0
    for held in rng.sample(three_rank_hands(), 60):
        lead = rng.choice([rank for rank in range(1, 14) if held.count(rank) < 4])
        answer = rng.choice([rank for rank in range(1, 14) if (*held, lead).count(rank) < 4])
        hand, count, starter, thrown = dealt_at_random(rng, held, [lead, answer])
        card = play.choose_play(
            hand,
            count,
            played=count,
            starter=starter,
            discards=thrown,
            kept=[*hand, count[0]],
            level="expert",
            opp_cards_left=3,
            opp_played=count[1:],
        )
        assert card is not None
        agreed += laid_most(expert_second_plays()[held][13 * (lead - 1) + answer - 1], held, card)
        tried += 1
    assert agreed >= 0.75 * tried


def test_the_pone_makes_fifteen_and_a_run_with_its_second_card() -> None:
    # Led a four, we answered a five: their six makes fifteen and a run of three.
    assert second_play_chance((4, 6, 12, 13), 4, 5, 6) >= 0.75
    assert second_play_chance((4, 6, 12, 13), 4, 5, 12) <= 0.25
    assert second_play_chance((6, 12, 13, 13), 4, 5, 6) == DECLINED  # they did not lead it


def test_a_second_card_the_expert_would_seldom_lay_makes_its_hands_rare() -> None:
    # They led a four and, on our five, laid a queen where a six would have made five.
    unseen = _unseen(parse_ranks("5 9 10 K 2 4 Q"))

    def mean_chance(second_play: tuple[int, int, int] | None) -> float:
        hands = hands_through_discard(
            unseen,
            [4, 12],
            "pone",
            least_pips=1,
            declined=(),
            samples=300,
            rng=random.Random(4),
            first_play=(0, 4),
            second_play=second_play,
        )
        fours = [tuple(sorted((4, 12, *hand))) for hand in hands]
        return sum(second_play_chance(four, 4, 5, 12) for four in fours) / len(fours)

    unread, read = mean_chance(None), mean_chance((4, 5, 12))
    assert read > unread + 0.1


@pytest.mark.parametrize(
    ("played", "dealer", "second"),
    [
        ("7H 8S", True, None),
        ("7H 8S 5D", True, (7, 8, 5)),
        ("KH QS 5D 4C", True, (13, 12, 5)),
        ("7H 8S 5D", False, None),  # they deal: their second card is not read
    ],
)
def test_the_pones_second_card_is_laid_on_their_lead_and_our_answer(
    played: str, dealer: bool, second: tuple[int, int, int] | None
) -> None:
    assert play.pones_second_play(parse_cards(played), dealer) == second


def test_a_play_every_hand_makes_rare_still_draws_hands_through_the_discard() -> None:
    # The pone led a king, we paired it, and they laid a two on twenty where the expert
    # lays a ten (thirty) or a card making a run: almost no hand makes that likely, so
    # every hand stays as likely as the discard made it rather than too few surviving.
    unseen = _unseen([3, 7, 9, 13, 13, 2, 4, 12, 8])
    hands = hands_through_discard(
        unseen,
        [13, 2],
        "pone",
        least_pips=1,
        declined=(),
        samples=64,
        rng=random.Random(1),
        first_play=(0, 13),
        second_play=(13, 13, 2),
    )
    assert len(hands) == 64
    keeps = set(expert_keeps()["pone"].values())
    assert all(tuple(sorted((13, 2, *hand))) in keeps for hand in hands)
