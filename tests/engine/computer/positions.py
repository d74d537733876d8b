"""Random positions for the play's full searches (tests/engine/computer/test_full_play.py
and test_table_full_play.py): a shuffled deck, a count dealt from its top."""

from __future__ import annotations

import random

from engine.rules.cards import PIPS


def deal_a_count(rng: random.Random) -> tuple[list[int], list[int]]:
    """A count of up to five cards that fits in 31, from the top of a shuffled deck of ranks,
    and the deck under those five (what the hands are dealt from)."""
    deck = [rank for rank in range(1, 14) for _ in range(4)]
    rng.shuffle(deck)
    seq: list[int] = []
    count = 0
    for rank in deck[: rng.randint(0, 5)]:
        if count + PIPS[rank] <= 31:
            seq.append(rank)
            count += PIPS[rank]
    return seq, deck[5:]
