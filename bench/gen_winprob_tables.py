"""Regenerate engine/data/winprob.npz: win chances for 2, 3 and 4 players, computed.

    nice -n 10 python bench/gen_winprob_tables.py [--deals 40000 20000 20000] [--jobs 2]

1. The expert plays single deals against itself (2, 3 and 4 players) and every point is
   booked by source and role: the play (and what of it is still to come at each moment,
   by the cards each side holds), each hand, the crib (bench/winprob_measure.py).
2. A dynamic programme over those distributions, in counting order, gives every
   position's chances at the start of a deal (engine/odds/model.py).
3. A least-squares fit of what a kept hand pegs (2 players), for the master's discard.

Prints how long each step took. Deterministic for a seed and a number of jobs.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from winprob_measure import DealCounts, measure_deals, model_from_counts  # noqa: E402

from engine.odds.model import DealModel  # noqa: E402
from engine.odds.start_table import solve_start_table  # noqa: E402
from engine.odds.tables import keep_features  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "engine" / "data" / "winprob.npz"
CHUNK = 500


def _measure(task: tuple[int, int, int]) -> DealCounts:
    players, deals, seed = task
    return measure_deals(players, deals, random.Random(seed))


def fit_keeps(keeps: list[tuple[int, ...]]) -> np.ndarray:
    """Per role, coefficients of (own pegging - the other's) on the kept hand's features."""
    rows = np.array(keeps, dtype=np.int64)
    coef = []
    for role in (0, 1):
        mine = rows[rows[:, 0] == role]
        x = np.array([keep_features(tuple(int(r) for r in row[1:5])) for row in mine])
        y = (mine[:, 5] - mine[:, 6]).astype(np.float64)
        ridge = 1.0 * np.eye(x.shape[1])
        ridge[0, 0] = 0.0  # the intercept is not shrunk
        coef.append(np.linalg.solve(x.T @ x + ridge, x.T @ y))
    return np.array(coef)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals",
        type=int,
        nargs=3,
        default=[40_000, 20_000, 20_000],
        metavar=("TWO", "THREE", "FOUR"),
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()

    started = time.perf_counter()
    arrays: dict[str, np.ndarray] = {}
    rng = random.Random(args.seed)
    counts: dict[int, DealCounts] = {}
    with multiprocessing.Pool(args.jobs) as pool:
        for players, deals in zip((2, 3, 4), args.deals, strict=True):
            clock = time.perf_counter()
            tasks = []
            while deals > 0:
                tasks.append((players, min(CHUNK, deals), rng.getrandbits(63)))
                deals -= CHUNK
            total = DealCounts(players)
            for part in pool.map(_measure, tasks):
                total.add(part)
            counts[players] = total
            print(
                f"{players} players: {total.deals:,} deals played in "
                f"{time.perf_counter() - clock:.0f} s",
                flush=True,
            )
    for players, total in counts.items():
        clock = time.perf_counter()
        model: DealModel = model_from_counts(total)
        table = solve_start_table(model, dtype=np.float32 if players == 3 else np.float64)
        arrays[f"pegging{players}"] = model.pegging
        arrays[f"hands{players}"] = total.hands
        arrays[f"crib{players}"] = total.crib
        arrays[f"rest{players}"] = total.rest
        if players == 3:
            fixed = np.round(table[..., :2] * 65535).astype(np.uint16)
            arrays["start3"] = fixed
        else:
            arrays[f"start{players}"] = table[..., 0].astype(np.float32)
        first = ", ".join(f"{chance:.1%}" for chance in table[(0,) * model.sides])
        print(
            f"{players} players: table solved in {time.perf_counter() - clock:.1f} s "
            f"(at 0-0 the roles from the dealer win {first})",
            flush=True,
        )
    arrays["keep_coef2"] = fit_keeps(counts[2].keeps)
    arrays["source"] = np.array(
        f"bench/gen_winprob_tables.py --deals {' '.join(map(str, args.deals))} "
        f"--seed {args.seed} --jobs {args.jobs}"
    )
    np.savez_compressed(args.out, **arrays)
    print(
        f"wrote {args.out} ({args.out.stat().st_size / 1e6:.1f} MB) in "
        f"{time.perf_counter() - started:.0f} s in all"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
