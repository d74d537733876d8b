import pytest

from engine import IllegalActionError, parse_cards, peg_items, score_peg


def points_per_card(sequence: str, runs: str = "free") -> list[int]:
    cards = parse_cards(sequence)
    return [score_peg(cards[: i + 1], runs) for i in range(len(cards))]  # type: ignore[arg-type]


# (cards in play order, points for each card, free order), then exact order.
PEGGING = [
    ("4S 2H 3D 5C 6S", [0, 0, 3, 4, 5], [0, 0, 0, 0, 0], "rules: 4-2-3-5-6"),
    ("4S 2H 3D 4C 3S", [0, 0, 3, 3, 0], [0, 0, 0, 3, 0], "rules: 4-2-3-4-3"),
    ("7S 5H 6D", [0, 0, 3], [0, 0, 0], "7-5-6 is a run only in free order"),
    ("5S 6H 7D", [0, 0, 3], [0, 0, 3], "5-6-7 rises"),
    ("7S 6H 5D", [0, 0, 3], [0, 0, 3], "7-6-5 falls"),
    ("5S 6H 7D 8C", [0, 0, 3, 4], [0, 0, 3, 4], "a run grows"),
    ("5S 7H 6D 8C", [0, 0, 3, 4], [0, 0, 0, 0], "5-7-6-8 only in free order"),
    ("6S 7H 8D 6C", [0, 0, 3, 3], [0, 0, 3, 0], "7-8-6 is a run again, but only in free order"),
    ("6S 7H 6D 8C", [0, 0, 0, 3], [0, 0, 0, 0], "7-6-8 counts only in free order"),
    ("5S 4H 3D 3C", [0, 0, 3, 4], [0, 0, 3, 4], "rules: 5-4-3, 3: fifteen and a pair, no run"),
    ("4S 5H 4D 6C", [0, 0, 0, 3], [0, 0, 0, 0], "4-5-4-6: 5-4-6 is a free run"),
    ("4S 5H 4D 5C", [0, 0, 0, 0], [0, 0, 0, 0], "4-5-4-5: no pair (not adjacent), no run"),
    ("3S 4H 2D 5C", [0, 0, 3, 4], [0, 0, 0, 0], "3-4-2-5"),
    ("KS QH JD", [0, 0, 3], [0, 0, 3], "K-Q-J falls one rank at a time"),
    ("AS KH QD", [0, 0, 0], [0, 0, 0], "ace is low: A-K-Q is no run"),
    ("9S 6H", [0, 2], [0, 2], "fifteen two"),
    ("KS KH", [0, 2], [0, 2], "a pair"),
    ("KS KH KD", [0, 2, 6], [0, 2, 6], "pair royal"),
    ("5S 5H 5D 5C", [0, 2, 8, 12], [0, 2, 8, 12], "15 and pair royal, then double pair royal"),
    ("TS QH", [0, 0], [0, 0], "a ten and a queen are no pair"),
    ("KS QH AD", [0, 0, 0], [0, 0, 0], "21"),
    ("TS TH 5D 6C", [0, 2, 0, 2], [0, 2, 0, 2], "thirty-one for two"),
    ("TS TH 5D 5C", [0, 2, 0, 2], [0, 2, 0, 2], "a pair at 30 is still a pair"),
    ("TS JH QD AC", [0, 0, 3, 2], [0, 0, 3, 2], "a 31 for two"),
    ("7S 8H", [0, 2], [0, 2], "7+8"),
    ("5S 4H 6D", [0, 0, 5], [0, 0, 2], "15 and a run; in exact order only the fifteen"),
]


@pytest.mark.parametrize(("sequence", "free", "exact", "why"), PEGGING)
def test_pegging_table(sequence: str, free: list[int], exact: list[int], why: str) -> None:
    assert points_per_card(sequence, "free") == free, why
    assert points_per_card(sequence, "exact") == exact, why


def test_items_explain_the_points() -> None:
    items = peg_items(parse_cards("5S 5H 5D"))
    assert [(item.kind, item.points) for item in items] == [("fifteen", 2), ("pair royal", 6)]
    assert [str(card) for card in items[1].cards] == ["5S", "5H", "5D"]


def test_a_count_past_31_and_an_unknown_rule_are_refused() -> None:
    with pytest.raises(IllegalActionError, match="31"):
        score_peg(parse_cards("TS TH TD 5C"))
    with pytest.raises(IllegalActionError, match="free"):
        score_peg(parse_cards("5S"), "loose")  # type: ignore[arg-type]
