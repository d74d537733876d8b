"""The two ranks the expert throws from every six-card hand of ranks, by role: the table the
master draws the opponent's hand through (``engine.computer.discard_draws``).

    nice -n 19 python bench/expert_throws.py [--write]

Every multiset of six ranks with at most four of a rank (18,395 of them) is dealt as six
cards, the ranks in order and the suits in turn (spades, hearts, diamonds, clubs, spades,
hearts): cards of one rank differ in suit and no four share one, so no hand holds a flush,
and the suits the table ignores change no throw through a flush (a jack's suit, for his
nobs, still falls where it falls). The expert throws two as dealer (its own crib) and as
pone (the opponent's), at the start of the game (0 to 0: the expert's discard counts
points until a side reaches ``ENDGAME_FROM``, and most discards are made there).

``--write`` saves ``engine/data/expert_throws.bin``: for the hands in the order of
``engine.computer.discard_draws.six_rank_hands``, one byte each, the dealer's throw in the
high four bits and the pone's in the low, each an index into the fifteen pairs of places
(0 and 1, 0 and 2, ... 4 and 5) in the ranks sorted.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.computer.discard import choose_discard  # noqa: E402
from engine.computer.discard_draws import (  # noqa: E402
    THROW_PLACES,
    six_rank_hands,
)
from engine.rules.cards import Card, Rank, Suit  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "engine" / "data" / "expert_throws.bin"


def dealt(ranks: tuple[int, ...]) -> list[Card]:
    """The six ranks (sorted) as cards, the suits in turn (see the module docstring)."""
    suits = list(Suit)
    return [Card(Rank(rank), suits[place % 4]) for place, rank in enumerate(ranks)]


def throw_place(ranks: tuple[int, ...], dealer: bool) -> int:
    """The expert's throw from ``ranks`` as an index into ``THROW_PLACES``."""
    cards = dealt(ranks)
    thrown = choose_discard(cards, dealer=dealer, level="expert")
    places = tuple(sorted(cards.index(card) for card in thrown))
    return THROW_PLACES.index(places)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"save them as {OUT.name}")
    args = parser.parse_args()
    started = time.process_time()
    hands = six_rank_hands()
    packed = bytearray()
    thrown_ranks: dict[str, Counter[int]] = {"dealer": Counter(), "pone": Counter()}
    for ranks in hands:
        dealer, pone = throw_place(ranks, True), throw_place(ranks, False)
        packed.append(dealer << 4 | pone)
        for role, place in (("dealer", dealer), ("pone", pone)):
            thrown_ranks[role].update(ranks[index] for index in THROW_PLACES[place])
    seconds = time.process_time() - started
    print(f"{len(hands):,} hands of six ranks, both roles, in {seconds:.1f} s of process time")
    for role, counts in thrown_ranks.items():
        total = sum(counts.values())
        shares = " ".join(f"{rank}:{counts[rank] / total:.3f}" for rank in range(1, 14))
        print(f"{role} throws, by rank (ace 1 .. king 13): {shares}")
    if args.write:
        OUT.write_bytes(bytes(packed))
        print(f"wrote {OUT} ({len(packed):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
