"""The show: one table of hands worked out by hand from the rule texts."""

import itertools
import random

import pytest

from engine import Card, IllegalActionError, parse_cards, score_show, show_items
from engine.rules.cards import FULL_DECK


def show(hand: str, starter: str, crib: bool = False) -> int:
    return score_show(parse_cards(hand), Card.parse(starter), crib=crib).total


# (hand, starter, crib, points, why) -- every total reasoned out by hand.
SHOWS = [
    ("5H 5D 5C JS", "5S", False, 29, "the perfect hand: 8 fifteens, double pair royal, nob"),
    ("5H 5D JS QC", "5S", False, 21, "7 fifteens, pair royal, nob"),
    ("KH JD 5S 5C", "2H", False, 10, "K,J each with either 5: four fifteens and a pair"),
    ("7H 8D 8C KS", "9S", False, 12, "rules: 7 8 8 K with a 9: two fifteens, a pair, two runs"),
    ("6H 7D 7C 8S", "KD", False, 12, "rules: 6-7-7-8 has two runs, two fifteens and a pair"),
    ("9H TD JC QS", "2D", False, 4, "a run of four scores 4, not two runs of 3"),
    ("9H TD JC QS", "KD", False, 5, "a run of five"),
    ("KH QD 3C 2S", "5H", False, 8, "K5, K32, Q5, Q32"),
    ("2C 4D 6H 8S", "QC", False, 0, "nineteen: nothing at all"),
    ("2H 4H 6H 8H", "QC", False, 4, "four-card flush in hand"),
    ("2H 4H 6H 8H", "QH", False, 5, "five-card flush in hand"),
    ("2H 4H 6H 8H", "QC", True, 0, "no four-card flush in the crib"),
    ("2H 4H 6H 8H", "QH", True, 5, "five-card flush in the crib"),
    ("2H 4H 6H 8C", "QH", False, 0, "three in hand plus the starter is no flush"),
    ("JH 2C 4D 6S", "8H", False, 1, "one for his nob"),
    ("JH 2C 4D 6S", "8C", False, 0, "the jack must match the starter's suit"),
    ("2C 4D 6S 8H", "JH", False, 0, "a jack starter is not his nob"),
    ("AH 2C 3D 4S", "5H", False, 7, "run of five and one fifteen"),
    ("3H 3C 3D 3S", "9H", False, 24, "double pair royal and 3+3+9 six ways"),
    ("4H 4C 5D 6S", "6H", False, 24, "double double run of three"),
    ("7H 7C 8D 8S", "9H", False, 24, "7+8 four ways, two pairs, four runs of three"),
    ("5H 5C 5D TS", "TH", False, 22, "5+T six ways, 5+5+5, a pair royal and a pair"),
    ("AH AC AD AS", "KH", False, 12, "four aces and a king: nothing but the pairs"),
    ("KH QH JH TH", "5H", False, 18, "four fifteens, run of four, five-card flush, nob"),
]


@pytest.mark.parametrize(("hand", "starter", "crib", "points", "why"), SHOWS)
def test_show_table(hand: str, starter: str, crib: bool, points: int, why: str) -> None:
    assert show(hand, starter, crib) == points, why


@pytest.mark.parametrize(("hand", "starter", "crib", "points", "why"), SHOWS)
def test_breakdown_adds_up_to_the_total(
    hand: str, starter: str, crib: bool, points: int, why: str
) -> None:
    score = score_show(parse_cards(hand), Card.parse(starter), crib=crib)
    assert sum(item.points for item in score.items) == score.total == points


def test_breakdown_lists_each_combination_with_its_cards() -> None:
    score = score_show(parse_cards("7H 8D 8C KS"), Card.parse("9S"))
    kinds = sorted(item.kind for item in score.items)
    assert kinds == ["fifteen", "fifteen", "pair", "run of three", "run of three"]
    fifteens = {frozenset(map(str, item.cards)) for item in score.items if item.kind == "fifteen"}
    assert fifteens == {frozenset({"7H", "8D"}), frozenset({"7H", "8C"})}


@pytest.mark.parametrize(
    ("hand", "starter", "words"),
    [
        (
            "KH JD 5S 5C",
            "2H",
            "Fifteen two, fifteen four, fifteen six, fifteen eight and a pair is ten.",
        ),
        (
            "7H 8D 8C KS",
            "9S",
            "Fifteen two, fifteen four, a pair is six, a run of three is nine"
            " and a run of three is twelve.",
        ),
        ("2C 4D 6H 8S", "QC", "Nineteen: nothing to count."),
        ("JH 2C 4D 6S", "8H", "One for his nob is one."),
    ],
)
def test_announcement_is_the_traditional_count(hand: str, starter: str, words: str) -> None:
    assert score_show(parse_cards(hand), Card.parse(starter)).announcement == words


def test_fast_total_agrees_with_the_itemised_scorer_on_random_hands() -> None:
    rng = random.Random(2026)
    for _ in range(20_000):
        cards = rng.sample(FULL_DECK, 5)
        for crib in (False, True):
            expected = sum(item.points for item in show_items(cards[:4], cards[4], crib))
            assert score_show(cards[:4], cards[4], crib).total == expected


def test_nineteen_and_the_other_impossible_scores_never_occur() -> None:
    # Flush and nob add at most 6 to a rank pattern; every pattern is scored
    # here with suits that give neither, and the full table test covers the rest.
    seen = set()
    for ranks in itertools.combinations_with_replacement("A23456789TJQK", 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        used: dict[str, int] = {}
        cards = []
        for rank in ranks:
            cards.append(Card.parse(rank + "SHDC"[used.get(rank, 0)]))
            used[rank] = used.get(rank, 0) + 1
        seen.add(score_show(cards[:4], cards[4]).total)
    assert not seen & {19, 25, 26, 27}


@pytest.mark.parametrize(
    "hand",
    [
        ["5H", "5D", "JS"],
        ["5H", "5D", "JS", "QC", "KC"],
        ["5H", "5H", "JS", "QC"],
        ["5S", "5D", "JS", "QC"],
    ],
)
def test_bad_show_input_is_refused(hand: list[str]) -> None:
    with pytest.raises(IllegalActionError):
        score_show([Card.parse(t) for t in hand], Card.parse("5S"))


def test_show_distribution_matches_the_published_tables() -> None:
    from engine.odds.distribution import PAIRS, show_distributions

    hand, crib = show_distributions()
    published_hand = [
        1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236, 361224,
        388740, 51680, 317340, 19656, 90100, 9168, 58248, 11196, 2708, 0,
        8068, 2496, 444, 356, 3680, 0, 0, 0, 76, 4,
    ]  # fmt: skip
    assert list(hand.counts) == published_hand
    assert hand.total == crib.total == PAIRS
    assert round(hand.mean, 4) == 4.7692
    assert crib.counts[0] == 1_022_208
    assert round(crib.mean, 4) == 4.7348
    assert crib.counts[19] == crib.counts[25] == crib.counts[26] == crib.counts[27] == 0


def test_a_kept_breakdown_is_each_callers_own_and_the_same_every_time() -> None:
    hand, starter = parse_cards("5H 5D JS 4C"), Card.parse("5S")
    score = score_show(hand, starter)
    first = score.items
    assert first == show_items(hand, starter)
    first.clear()  # what one caller does with its list reaches no other
    assert score.items == show_items(hand, starter)
    assert score_show(hand, starter).announcement == score.announcement
