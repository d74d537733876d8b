"""Show and pegging scores, as totals and as self-explaining breakdowns.

``score_show`` is on the computer player's hot path (millions of calls per
decision), so its total comes from a table keyed by the multiset of ranks,
plus the two suit-dependent items (flush, nob). The itemised breakdown is
built only when someone asks for it, by a separate, plainly written scorer;
the tests check the two against each other over every hand.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from engine.rules.cards import Card, Rank, format_cards
from engine.rules.checks import card_list
from engine.rules.errors import IllegalActionError

RunsRule = Literal["free", "exact"]
RUNS_RULES: Final = ("free", "exact")

_NUMBER_WORDS: Final = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen twenty twenty-one "
    "twenty-two twenty-three twenty-four twenty-five twenty-six twenty-seven "
    "twenty-eight twenty-nine thirty thirty-one"
).split()


def number_words(number: int) -> str:
    return _NUMBER_WORDS[number] if 0 <= number < len(_NUMBER_WORDS) else str(number)


@dataclass(frozen=True)
class ScoreItem:
    """One scoring combination: what it is, which cards make it, what it is worth."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def __str__(self) -> str:
        return f"{self.kind} ({format_cards(self.cards)}) {self.points}"


# --- the show -------------------------------------------------------------

_PAIR_KINDS: Final = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}


def _fifteen_items(cards: Sequence[Card]) -> list[ScoreItem]:
    return [
        ScoreItem("fifteen", combo, 2)
        for size in range(2, len(cards) + 1)
        for combo in itertools.combinations(cards, size)
        if sum(card.pips for card in combo) == 15
    ]


def _pair_items(cards: Sequence[Card]) -> list[ScoreItem]:
    by_rank: dict[Rank, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    items = []
    for group in by_rank.values():
        if len(group) >= 2:
            kind, points = _PAIR_KINDS[len(group)]
            items.append(ScoreItem(kind, tuple(group), points))
    return items


def _run_items(cards: Sequence[Card]) -> list[ScoreItem]:
    """Every run of maximal length: a double run of three is two items of 3."""
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(int(card.rank), []).append(card)
    ranks = sorted(by_rank)
    best: list[int] = []
    current: list[int] = []
    for rank in ranks:
        current = current + [rank] if current and rank == current[-1] + 1 else [rank]
        if len(current) > len(best):
            best = current
    if len(best) < 3:
        return []
    return [
        ScoreItem(f"run of {number_words(len(best))}", combo, len(best))
        for combo in itertools.product(*(by_rank[rank] for rank in best))
    ]


def _flush_items(hand: Sequence[Card], starter: Card, crib: bool) -> list[ScoreItem]:
    suit = hand[0].suit
    if any(card.suit != suit for card in hand):
        return []
    if starter.suit == suit:
        return [ScoreItem("flush", (*hand, starter), 5)]
    return [] if crib else [ScoreItem("flush", tuple(hand), 4)]


def _nob_items(hand: Sequence[Card], starter: Card) -> list[ScoreItem]:
    return [
        ScoreItem("one for his nob", (card,), 1)
        for card in hand
        if card.rank == Rank.JACK and card.suit == starter.suit
    ]


def show_items(hand: Sequence[Card], starter: Card, crib: bool = False) -> list[ScoreItem]:
    """The full breakdown of a show, in the order it is announced."""
    cards = (*hand, starter)
    return [
        *_fifteen_items(cards),
        *_pair_items(cards),
        *_run_items(cards),
        *_flush_items(hand, starter, crib),
        *_nob_items(hand, starter),
    ]


def announce(items: Iterable[ScoreItem]) -> str:
    """The traditional count: "fifteen two, fifteen four and a pair is six"."""
    phrases = []
    running = 0
    for item in items:
        running += item.points
        total = number_words(running)
        if item.kind == "fifteen":
            phrases.append(f"fifteen {total}")
        elif item.kind == "pair":
            phrases.append(f"a pair is {total}")
        elif item.kind.startswith("run"):
            phrases.append(f"a {item.kind} is {total}")
        elif item.kind == "flush":
            phrases.append(f"a flush of {number_words(item.points)} is {total}")
        else:
            phrases.append(f"{item.kind} is {total}")
    if not phrases:
        return "Nineteen: nothing to count."
    text = phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " and " + phrases[-1]
    return text[0].upper() + text[1:] + "."


class ShowScore(tuple[int, tuple[Card, ...], Card, bool]):
    """The value of a hand or crib with the starter.

    ``total`` is computed at once; ``items`` and ``announcement`` are built on
    first use and kept (the same hand and starter, the same breakdown). It is a tuple
    underneath only because that is the cheapest object Python can make, and making
    one is most of the cost of a call.
    """

    __slots__ = ()

    @property
    def total(self) -> int:
        return self[0]

    @property
    def hand(self) -> tuple[Card, ...]:
        return self[1]

    @property
    def starter(self) -> Card:
        return self[2]

    @property
    def crib(self) -> bool:
        return self[3]

    @property
    def items(self) -> list[ScoreItem]:
        return list(_breakdown(self)[0])

    @property
    def announcement(self) -> str:
        return _breakdown(self)[1]

    def __repr__(self) -> str:
        return (
            f"ShowScore(total={self.total}, hand={format_cards(self.hand)!r}, "
            f"starter={self.starter!s}, crib={self.crib})"
        )


@functools.lru_cache(maxsize=1024)
def _breakdown(score: ShowScore) -> tuple[tuple[ScoreItem, ...], str]:
    """A show's items and announcement, worked out once: the game's count, its log and
    the door's show panel (drawn again at every step of the show) each ask for them."""
    items = tuple(show_items(score.hand, score.starter, score.crib))
    return items, announce(items)


def _rank_points(ranks: Sequence[int]) -> int:
    """Fifteens, pairs and runs of five ranks: the part of a show that ignores suits."""
    pips = [min(rank, 10) for rank in ranks]
    fifteens = sum(
        1
        for size in range(2, 6)
        for combo in itertools.combinations(pips, size)
        if sum(combo) == 15
    )
    counts = Counter(ranks)
    pairs = sum(count * (count - 1) for count in counts.values())  # 2 points per pair
    run_points = 0
    for start in range(1, 12):
        length = 0
        while start + length in counts:
            length += 1
        if length >= 3 and (start == 1 or start - 1 not in counts):
            multiplicity = 1
            for rank in range(start, start + length):
                multiplicity *= counts[rank]
            run_points = length * multiplicity
    return 2 * fifteens + pairs + run_points


def _build_rank_table() -> dict[int, int]:
    table = {}
    for ranks in itertools.combinations_with_replacement(range(1, 14), 5):
        if max(Counter(ranks).values()) <= 4:
            table[sum(5 ** (rank - 1) for rank in ranks)] = _rank_points(ranks)
    return table


RANK_POINTS: Final[dict[int, int]] = _build_rank_table()
_new_score = tuple.__new__
_BAD_SHOW = "a show needs four cards and a starter, all different"


def score_show(hand: Sequence[Card], starter: Card, crib: bool = False) -> ShowScore:
    """Score four cards with the starter; ``crib=True`` applies the crib's flush rule.

    Returns a ShowScore whose ``.total`` is the points. Raises
    IllegalActionError unless ``hand`` is four distinct cards that do not
    include the starter.
    """
    try:
        a, b, c, d = hand
        key = a.show_code + b.show_code + c.show_code + d.show_code + starter.show_code
    except (ValueError, TypeError, AttributeError):
        raise IllegalActionError(_BAD_SHOW) from None
    # Literal 52s rather than named constants: a global lookup costs a tenth
    # of this function's time.
    if (key & 0xFFFFFFFFFFFFF).bit_count() != 5:
        raise IllegalActionError(_BAD_SHOW)
    total = RANK_POINTS[key >> 52]
    suit = a.suit
    if b.suit is suit and c.suit is suit and d.suit is suit:
        if starter.suit is suit:
            total += 5
        elif not crib:
            total += 4
    if key & starter.nob_bit:
        total += 1
    held = hand if type(hand) is tuple else tuple(hand)
    return _new_score(ShowScore, (total, held, starter, crib))


# --- pegging --------------------------------------------------------------


# Read through map in C: a generator's frame a card cost more than the reading.
_PIPS_OF: Final = operator.attrgetter("pips")
_RANK_OF: Final = operator.attrgetter("rank")


def _is_free_run(ranks: Sequence[int]) -> bool:
    return len(set(ranks)) == len(ranks) and max(ranks) - min(ranks) == len(ranks) - 1


def _is_exact_run(ranks: Sequence[int]) -> bool:
    step = ranks[1] - ranks[0]
    return step in (1, -1) and all(
        later - earlier == step for earlier, later in zip(ranks, ranks[1:], strict=False)
    )


def peg_items(count_cards: Sequence[Card], runs: RunsRule = "free") -> list[ScoreItem]:
    """What the last card of the current count scores, item by item.

    ``count_cards`` are the cards played since the count was last reset, in
    play order. Raises IllegalActionError if they total over 31 or ``runs``
    is not "free" or "exact". Go and last card are scored by the game.
    """
    if not isinstance(runs, str) or runs not in RUNS_RULES:
        raise IllegalActionError(f"runs must be 'free' or 'exact', not {runs!r}")
    card_list(count_cards, "the cards on the count")
    if not count_cards:
        return []
    count = sum(map(_PIPS_OF, count_cards))
    if count > 31:
        raise IllegalActionError(f"the count cannot pass 31 (these cards make {count})")
    last = count_cards[-1]
    items = []
    if count == 15:
        items.append(ScoreItem("fifteen", tuple(count_cards), 2))
    elif count == 31:
        items.append(ScoreItem("thirty-one", tuple(count_cards), 2))
    same = 1
    while same < len(count_cards) and count_cards[-same - 1].rank == last.rank:
        same += 1
    if same >= 2:
        kind, points = _PAIR_KINDS[same]
        items.append(ScoreItem(kind, tuple(count_cards[-same:]), points))
    is_run = _is_free_run if runs == "free" else _is_exact_run
    ranks = list(map(int, map(_RANK_OF, count_cards)))
    for length in range(len(ranks), 2, -1):
        if is_run(ranks[-length:]):
            items.append(
                ScoreItem(f"run of {number_words(length)}", tuple(count_cards[-length:]), length)
            )
            break
    return items


def score_peg(count_cards: Sequence[Card], runs: RunsRule = "free") -> int:
    """Points for the last card played in the current count (see ``peg_items``)."""
    return sum(item.points for item in peg_items(count_cards, runs))


def peg_reason(items: Sequence[ScoreItem]) -> str:
    """The words for pegging points: "fifteen two and a pair for two"."""
    names = []
    for item in items:
        if item.kind == "fifteen":
            names.append("fifteen two")
        elif item.kind == "thirty-one":
            names.append("thirty-one for two")
        elif item.kind == "pair":
            names.append("a pair for two")
        elif item.kind == "pair royal":
            names.append("pair royal for six")
        elif item.kind == "double pair royal":
            names.append("double pair royal for twelve")
        else:
            names.append(f"a {item.kind} for {item.points}")
    return " and ".join(names)
