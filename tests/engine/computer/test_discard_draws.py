"""The opponent's hand drawn through the expert's discard (engine.computer.discard_draws): the
table is the expert's, and every hand drawn fits what the opponent did."""

from __future__ import annotations

import doctest
import random
from collections import Counter
from collections.abc import Sequence

import engine.computer.discard_draws
from engine.computer.discard import choose_discard
from engine.computer.discard_draws import expert_keeps, hands_through_discard, six_rank_hands
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


def parse_ranks(text: str) -> list[int]:
    return [int(card.rank) for card in parse_cards(" ".join(f"{rank}S" for rank in text.split()))]
