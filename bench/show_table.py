"""Score every (4-card hand, starter) pair, print both distributions, and time score_show.

Run: python bench/show_table.py [--calls N] [--repeats R]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

PUBLISHED_HAND_ZERO, PUBLISHED_CRIB_ZERO = 1_009_008, 1_022_208


def print_table(title: str, counts: tuple[int, ...], total: int, mean: float) -> None:
    print(f"\n{title}: {total:,} pairs, mean {mean:.4f}")
    for points, count in enumerate(counts):
        note = "  (impossible)" if count == 0 else ""
        print(f"  {points:2d} points: {count:>10,}  {count / total:8.4%}{note}")


def time_public_api(calls: int, repeats: int) -> list[float]:
    from engine import FULL_DECK, score_show

    rng = random.Random(7)
    deals = []
    for _ in range(calls):
        cards = rng.sample(FULL_DECK, 5)
        deals.append((tuple(cards[:4]), cards[4]))
    rates = []
    for _ in range(repeats):
        started = time.perf_counter()
        for hand, starter in deals:
            _ = score_show(hand, starter).total
        rates.append(calls / (time.perf_counter() - started))
    return rates


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    started = time.perf_counter()
    import engine.rules.scoring  # noqa: F401  (builds the rank table on import)

    import_seconds = time.perf_counter() - started
    from engine.odds.distribution import PAIRS, show_distributions

    timings: dict[str, float] = {}
    started = time.perf_counter()
    hand, crib = show_distributions(timings)
    seconds = time.perf_counter() - started

    print_table("Hand (flush of 4 counts)", hand.counts, hand.total, hand.mean)
    print_table("Crib (flush only with all five)", crib.counts, crib.total, crib.mean)
    print(
        f"\nBoth tables: {seconds:.2f} s for {2 * PAIRS:,} scorings "
        f"({2 * PAIRS / seconds:,.0f} hands/s)"
    )
    print(f"Engine import (builds the 6,175-entry rank table): {import_seconds:.2f} s")
    print("Where the time goes:")
    for stage, stage_seconds in timings.items():
        print(f"  {stage:<36} {stage_seconds:6.3f} s")

    rates = time_public_api(args.calls, args.repeats)
    print(
        f"\nscore_show(...).total through the public API, {args.calls:,} random hands, "
        f"{args.repeats} runs: best {max(rates):,.0f}/s, median {statistics.median(rates):,.0f}/s, "
        f"worst {min(rates):,.0f}/s"
    )

    ok = (
        hand.total == crib.total == PAIRS
        and hand.counts[0] == PUBLISHED_HAND_ZERO
        and crib.counts[0] == PUBLISHED_CRIB_ZERO
        and round(hand.mean, 4) == 4.7692
        and round(crib.mean, 4) == 4.7348
    )
    print("Matches the published tables." if ok else "DOES NOT MATCH the published tables!")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
