"""The opponent's hand drawn through the expert's discard (two players): the cards they have
laid this hand forced in, the rest of their six drawn at random from the unseen cards, the
expert's keep of those six looked up, and the draw accepted only if it kept every card they
laid and what it holds still fits their goes. The hands so drawn follow the opponent's
hand given what they did, were they to discard as the expert does: against the expert
exactly, against a caller a strong player's discard (``engine.computer.sampled_play``).

The expert's throws, by ranks alone (a flush is left out), come from
``engine/data/expert_throws.bin`` (written by bench/expert_throws.py).

The opponent's first card this hand is read too, where the caller gives it: a draw counts
as often as the expert holding those four would lay that card first, their lead or their
answer to ours (``engine/data/expert_first_plays.bin``, written by
bench/expert_first_plays.py: how often the expert lays each card first in a few deals drawn
at random, since the cards it cannot see sway its choice). So is the pone's second card,
laid on their lead and our answer (``engine/data/expert_second_plays.bin``, written by
``bench/expert_first_plays.py --second``).

>>> import random
>>> unseen = [0] + [4] * 13
>>> hands = hands_through_discard(unseen, [5], "pone", least_pips=1, declined=(),
...                               samples=8, rng=random.Random(1))
>>> len(hands), all(len(hand) == 3 for hand in hands)
(8, True)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Final

from engine.computer.opponent import DECLINED
from engine.rules.cards import PIPS

# The fifteen throws from six cards, as pairs of places in the ranks sorted (the table's
# index: bench/expert_throws.py).
THROW_PLACES: Final = tuple(itertools.combinations(range(6), 2))
# The first plays a four-card hand is read by: the lead and the answer to each rank led.
FIRST_PLAYS: Final = 14
# The pone's second card is read after each lead (1..13) and each answer (1..13).
SECOND_PLAYS_BY_LEAD: Final = 13
# Draws tried for each hand wanted before giving up on the rest.
TRIES_PER_HAND: Final = 20
# Where the opponent's first cards are read, this many hands are drawn for each one wanted
# and drawn again among them as often as the expert would have laid those cards.
CANDIDATES_A_SAMPLE: Final = 4
# Fewer hands accepted than this: what the opponent did is unlikely under the expert's
# discard, and the caller draws as before.
FEWEST_ACCEPTED: Final = 16


@cache
def six_rank_hands() -> tuple[tuple[int, ...], ...]:
    """Every multiset of six ranks (1..13) with at most four of a rank, sorted, in order:
    the order of ``engine/data/expert_throws.bin``."""
    return tuple(
        ranks
        for ranks in itertools.combinations_with_replacement(range(1, 14), 6)
        if all(ranks.count(rank) <= 4 for rank in set(ranks))
    )


@cache
def expert_first_plays() -> dict[tuple[int, ...], tuple[int, ...]]:
    """For each four ranks kept (sorted), the fourteen packed words of
    ``engine/data/expert_first_plays.bin`` (bench/expert_first_plays.py): how often the expert
    lays each rank it holds first, as pone (the lead) and as dealer answering a lead of
    each rank."""
    return _packed_table("expert_first_plays.bin", four_rank_hands(), FIRST_PLAYS)


@cache
def expert_second_plays() -> dict[tuple[int, ...], tuple[int, ...]]:
    """For each three ranks the pone holds after its lead (sorted), the 169 packed words of
    ``engine/data/expert_second_plays.bin`` (bench/expert_first_plays.py --second): how
    often the expert as pone lays each rank it holds after leading each rank (1..13) and
    our answering each rank (1..13), in that order."""
    return _packed_table("expert_second_plays.bin", three_rank_hands(), SECOND_PLAYS_BY_LEAD**2)


def _packed_table(
    name: str, hands: tuple[tuple[int, ...], ...], words_a_hand: int
) -> dict[tuple[int, ...], tuple[int, ...]]:
    """``engine/data/<name>`` read as little-endian 16-bit words, ``words_a_hand`` for each
    of ``hands`` in order."""
    data = resources.files("engine").joinpath(f"data/{name}").read_bytes()
    if len(data) != 2 * words_a_hand * len(hands):
        raise ValueError(f"{name} holds {len(data)} bytes, not a word a play")
    words = [int.from_bytes(data[at : at + 2], "little") for at in range(0, len(data), 2)]
    return {
        hand: tuple(words[words_a_hand * place : words_a_hand * (place + 1)])
        for place, hand in enumerate(hands)
    }


def first_play_chance(kept: tuple[int, ...], lead: int, laid: int) -> float:
    """How often the expert holding the four ranks ``kept`` (sorted) lays ``laid`` first: as
    pone leading (``lead`` 0) or as dealer answering a lead of rank ``lead``; at least
    ``DECLINED`` (the table's deals are a few, and a caller is not the expert)."""
    return _laid_chance(expert_first_plays()[kept][lead], kept, laid)


def second_play_chance(kept: tuple[int, ...], lead: int, answer: int, laid: int) -> float:
    """How often the expert as pone, holding the four ranks ``kept`` (sorted) and having
    led ``lead``, lays ``laid`` on our ``answer``; at least ``DECLINED``."""
    if lead not in kept:
        return DECLINED
    held = list(kept)
    held.remove(lead)
    word = expert_second_plays()[tuple(held)][SECOND_PLAYS_BY_LEAD * (lead - 1) + answer - 1]
    return _laid_chance(word, tuple(held), laid)


def _laid_chance(word: int, held: tuple[int, ...], laid: int) -> float:
    """The share of the table's deals, packed in ``word`` four bits a rank of ``held``, in
    which the expert laid ``laid``; at least ``DECLINED``."""
    counts = [(word >> (4 * place)) & 15 for place in range(len(held))]
    total = sum(counts)
    if not total or laid not in held:
        return DECLINED
    return max(DECLINED, counts[held.index(laid)] / total)


@cache
def four_rank_hands() -> tuple[tuple[int, ...], ...]:
    """Every multiset of four ranks (1..13), sorted, in order: the order of
    ``engine/data/expert_first_plays.bin``."""
    return tuple(itertools.combinations_with_replacement(range(1, 14), 4))


@cache
def three_rank_hands() -> tuple[tuple[int, ...], ...]:
    """Every multiset of three ranks (1..13), sorted, in order: the order of
    ``engine/data/expert_second_plays.bin``."""
    return tuple(itertools.combinations_with_replacement(range(1, 14), 3))


@cache
def expert_keeps() -> dict[str, dict[tuple[int, ...], tuple[int, ...]]]:
    """By role ("dealer": the crib is theirs; "pone"), the four ranks the expert keeps
    from each ``six_rank_hands`` hand."""
    data = resources.files("engine").joinpath("data/expert_throws.bin").read_bytes()
    hands = six_rank_hands()
    if len(data) != len(hands):
        raise ValueError(f"expert_throws.bin holds {len(data)} hands, not {len(hands)}")
    keeps: dict[str, dict[tuple[int, ...], tuple[int, ...]]] = {"dealer": {}, "pone": {}}
    for ranks, byte in zip(hands, data, strict=True):
        for role, place in (("dealer", byte >> 4), ("pone", byte & 15)):
            thrown = THROW_PLACES[place]
            keeps[role][ranks] = tuple(r for i, r in enumerate(ranks) if i not in thrown)
    return keeps


def hands_through_discard(
    unseen: Sequence[int],
    played: Sequence[int],
    role: str,
    *,
    least_pips: int,
    declined: Sequence[int],
    samples: int,
    rng: random.Random,
    first_play: tuple[int, int] | None = None,
    second_play: tuple[int, int, int] | None = None,
) -> list[tuple[int, ...]]:
    """Up to ``samples`` hands (sorted ranks) the opponent may still hold, drawn through the
    expert's discard (see the module docstring). ``unseen`` is the cards they may hold, by
    rank (index 1..13): every card but ours, the starter and those laid. ``played`` is the
    ranks they have laid this hand, ``role`` theirs ("dealer" or "pone"), ``least_pips``
    the fewest pips a card they still hold may have (their goes), ``declined`` the ranks
    that would have pegged more than a card they laid: a draw holding one is accepted
    ``DECLINED`` times as often, once for each such card. At most ``TRIES_PER_HAND`` times
    ``samples`` draws are tried; fewer hands come back when fewer are accepted.
    ``first_play`` (the rank they answered, 0 for their lead; the rank they laid) weighs a
    draw by how often the expert holding its four lays that card first
    (``first_play_chance``); ``second_play`` (their lead, our answer, the rank they laid on
    it), by how often the expert as pone lays that second (``second_play_chance``); both
    read, by both. Read, ``CANDIDATES_A_SAMPLE`` times ``samples`` hands are drawn and
    ``samples`` drawn from them by weight (so repeats come back)."""
    missing = 6 - len(played)
    deck = [rank for rank in range(1, 14) for _ in range(unseen[rank])]
    if not 2 <= missing <= len(deck):
        return []
    keeps = expert_keeps()[role]
    declined_ranks = frozenset(declined)
    forced = list(played)
    reads = first_play is not None or second_play is not None
    read_chances: dict[tuple[int, ...], float] = {}  # draws repeat keeps: judge each once
    weights: list[float] = []
    hands: list[tuple[int, ...]] = []
    wanted = samples * (CANDIDATES_A_SAMPLE if reads else 1)
    for _ in range(TRIES_PER_HAND * samples):
        four = keeps[tuple(sorted(forced + rng.sample(deck, missing)))]
        kept = list(four)
        try:
            for rank in played:
                kept.remove(rank)
        except ValueError:
            continue  # the expert would have thrown a card they laid
        if any(PIPS[rank] < least_pips for rank in kept):
            continue  # a card that would have fitted when they said go
        passed_up = sum(rank in declined_ranks for rank in kept)
        if passed_up and rng.random() >= DECLINED**passed_up:
            continue
        if reads:
            chance = read_chances.get(four)
            if chance is None:
                chance = read_chances[four] = _reads_chance(four, first_play, second_play)
            weights.append(chance)
        hands.append(tuple(kept))
        if len(hands) == wanted:
            break
    if not reads or len(hands) < FEWEST_ACCEPTED:
        return hands
    # Drawn again by how often the expert would have laid so: where every hand they may
    # hold makes that play rare, the hands stay as likely as the discard made them rather
    # than too few surviving a rejection.
    return rng.choices(hands, weights, k=samples)


def _reads_chance(
    four: tuple[int, ...],
    first_play: tuple[int, int] | None,
    second_play: tuple[int, int, int] | None,
) -> float:
    """How often the expert holding ``four`` lays the cards read (see
    ``hands_through_discard``)."""
    chance = 1.0
    if first_play is not None:
        chance *= first_play_chance(four, *first_play)
    if second_play is not None:
        chance *= second_play_chance(four, *second_play)
    return chance
