"""The opponent's hand drawn through the expert's discard (two players): the cards they have
laid this hand forced in, the rest of their six drawn at random from the unseen cards, the
expert's keep of those six looked up, and the draw accepted only if it kept every card they
laid and what it holds still fits their goes. The hands so drawn follow the opponent's
hand given what they did, were they to discard as the expert does: against the expert
exactly, against a caller a strong player's discard (``engine.computer.sampled_play``).

The expert's throws, by ranks alone (a flush is left out), come from
``engine/data/expert_throws.bin`` (written by bench/expert_throws.py).

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
# Draws tried for each hand wanted before giving up on the rest.
TRIES_PER_HAND: Final = 20
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
) -> list[tuple[int, ...]]:
    """Up to ``samples`` hands (sorted ranks) the opponent may still hold, drawn through the
    expert's discard (see the module docstring). ``unseen`` is the cards they may hold, by
    rank (index 1..13): every card but ours, the starter and those laid. ``played`` is the
    ranks they have laid this hand, ``role`` theirs ("dealer" or "pone"), ``least_pips``
    the fewest pips a card they still hold may have (their goes), ``declined`` the ranks
    that would have pegged more than a card they laid: a draw holding one is accepted
    ``DECLINED`` times as often, once for each such card. At most ``TRIES_PER_HAND`` times
    ``samples`` draws are tried; fewer hands come back when fewer are accepted."""
    missing = 6 - len(played)
    deck = [rank for rank in range(1, 14) for _ in range(unseen[rank])]
    if not 2 <= missing <= len(deck):
        return []
    keeps = expert_keeps()[role]
    declined_ranks = frozenset(declined)
    forced = list(played)
    hands: list[tuple[int, ...]] = []
    for _ in range(TRIES_PER_HAND * samples):
        kept = list(keeps[tuple(sorted(forced + rng.sample(deck, missing)))])
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
        hands.append(tuple(kept))
        if len(hands) == samples:
            break
    return hands
