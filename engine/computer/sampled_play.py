"""The master's play searched to its end over hands the opponent may hold (two players):
draw hands consistent with what they did this hand, search each to the end of the play with
both hands known (``engine.computer.full_play``), and value each card we may lay by its
mean over the draws.

The master's draws come through the expert's discard (``engine.computer.discard_draws``,
handed in as ``drawn``). Otherwise, and where too few of those fit what the opponent did, a
draw takes the opponent's cards one at a time from the unseen ones, a card of rank r
weighed by the keep model (``engine.computer.opponent.opponent_weights``, the ranks they
passed up at ``DECLINED``); ranks their goes rule out are left out. The draws are seeded by
the position itself, so the same position always draws the same hands (a game replays from
its seeds).

>>> import random
>>> hands = sample_hands([0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 4], [1.0] * 14, 2, 3,
...                      random.Random(1))
>>> all(len(hand) == 2 and set(hand) <= {5, 13} for hand in hands), len(hands)
(True, 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from engine.computer.full_play import PlayScore, full_play_values
from engine.rules.cards import PIPS

# Hands drawn a decision: each is a few microseconds of search in C (engine/computer/_peg.c).
SAMPLES: Final = 64


def sample_hands(
    pool: Sequence[int],
    weight: Sequence[float],
    cards: int,
    samples: int,
    rng: random.Random,
) -> list[tuple[int, ...]]:
    """``samples`` hands of ``cards`` ranks drawn without replacement from ``pool`` (unseen
    cards by rank, index 1..13), a card of rank r ``weight[r]`` times as likely as one of
    weight 1. Empty when the pool's weighed cards are fewer than ``cards``."""
    if sum(pool[rank] for rank in range(1, 14) if weight[rank] > 0) < cards:
        return []
    hands = []
    ranks = range(1, 14)
    for _ in range(samples):
        left = list(pool)
        hand = []
        for _ in range(cards):
            masses = [left[rank] * weight[rank] for rank in ranks]
            rank = rng.choices(ranks, masses)[0]
            left[rank] -= 1
            hand.append(rank)
        hands.append(tuple(sorted(hand)))
    return hands


def drawn_by_weight(
    mine: Sequence[int],
    seq: Sequence[int],
    pool: Sequence[int],
    weight: Sequence[float],
    opp_cards: int,
    *,
    opp_said_go: bool,
    samples: int = SAMPLES,
) -> list[tuple[int, ...]] | None:
    """``samples`` hands of ``opp_cards`` the opponent may hold where none come through the
    discard: drawn from ``pool`` (unseen cards by rank, their goes' ruled-out ranks already
    gone) by ``weight``, seeded by the position (``mine`` and ``seq`` our ranks and the
    count's); one empty hand when they hold none; None when no hand fits the pool (what
    the opponent did contradicts the model)."""
    count = sum(PIPS[rank] for rank in seq)
    if opp_said_go:  # nothing they hold fits on this count
        pool = [n if PIPS[rank] > 31 - count else 0 for rank, n in enumerate(pool)]
    if not opp_cards:
        return [()]
    seed = repr((sorted(mine), tuple(seq), tuple(pool), opp_cards, opp_said_go))
    return sample_hands(pool, weight, opp_cards, samples, random.Random(seed)) or None


def sampled_play_values(
    mine: Sequence[int],
    seq: Sequence[int],
    pool: Sequence[int],
    weight: Sequence[float],
    opp_cards: int,
    *,
    opp_said_go: bool,
    exact: bool,
    score: PlayScore,
    samples: int = SAMPLES,
    drawn: Sequence[tuple[int, ...]] = (),
) -> dict[int, float] | None:
    """Each rank of ``mine`` that fits on ``seq`` (ranks), valued by the full search over
    the hands ``drawn`` when there are any (``engine.computer.discard_draws``), otherwise
    over ``samples`` hands ``drawn_by_weight``; None when no hand fits the pool (the caller
    searches as before)."""
    hands = list(drawn) or drawn_by_weight(
        mine, seq, pool, weight, opp_cards, opp_said_go=opp_said_go, samples=samples
    )
    if hands is None:
        return None
    return full_play_values(mine, hands, seq, opp_said_go=opp_said_go, exact=exact, score=score)
