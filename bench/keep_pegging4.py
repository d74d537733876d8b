"""Write engine/data/keep_pegging4.json: what a kept hand pegs at four, for the master's
discard (engine.computer.table_keep_pegging).

    nice -n 19 python bench/keep_pegging4.py --deals 80000 --seed 4001 [--rows FILE.npy]

The expert plays single deals from 0-0 against itself at four, and for each seat its place
from the dealer, the four ranks it kept, its partnership's pegging in the play and the other
partnership's (his heels left out: no keep moves them) are kept; then, by place, a ridge
least-squares fit of each side's pegging on the kept hand's features
(engine.odds.tables.keep_features), as bench/gen_winprob_tables.py fits two players'.
Prints how long the deals took and what the fit explains. ``--rows`` reads rows kept
before (or keeps them) in place of playing the deals again.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.computer.player import ComputerPlayer  # noqa: E402
from engine.odds.tables import keep_features  # noqa: E402
from engine.rules.events import Pegged  # noqa: E402
from engine.rules.game import Game, Phase  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "engine" / "data" / "keep_pegging4.json"


def measure(deals: int, seed: int) -> np.ndarray:
    """Rows of (place from the dealer, four kept ranks, our side's pegging, theirs)."""
    rng = random.Random(seed)
    rows = []
    for _ in range(deals):
        game = Game(4, rng=random.Random(rng.getrandbits(64)), dealer=rng.randrange(4))
        seats = [ComputerPlayer("expert", random.Random(rng.getrandbits(64))) for _ in range(4)]
        game.deal()
        for seat in range(4):
            game.discard(seat, seats[seat].discard(game, seat))
        kept = [game.kept(seat) for seat in range(4)]
        game.cut(seats[game.cutter].cut(game, game.cutter))
        peg = [0, 0]  # by side from the dealer's
        while game.phase is Phase.PLAY:
            seat = game.turn
            assert seat is not None
            for event in game.play(seat, seats[seat].play(game, seat)):
                if isinstance(event, Pegged):
                    peg[(event.seat - game.dealer) % 2] += event.points
        for seat in range(4):
            role = (seat - game.dealer) % 4
            ranks = sorted(int(card.rank) for card in kept[seat])
            rows.append((role, *ranks, peg[role % 2], peg[1 - role % 2]))
    return np.array(rows, dtype=np.int16)


def fit(rows: np.ndarray) -> dict[str, list[list[float]]]:
    """By place, the ridge fit of our side's pegging and of theirs on the keep features."""
    out: dict[str, list[list[float]]] = {"ours": [], "theirs": []}
    for role in range(4):
        mine = rows[rows[:, 0] == role]
        x = np.array([keep_features(tuple(int(r) for r in row[1:5])) for row in mine])
        ridge = 1.0 * np.eye(x.shape[1])
        ridge[0, 0] = 0.0  # the intercept is not shrunk
        for name, column in (("ours", 5), ("theirs", 6)):
            y = mine[:, column].astype(np.float64)
            coef = np.linalg.solve(x.T @ x + ridge, x.T @ y)
            fitted = x @ coef
            print(
                f"place {role} {name}: {len(y):,} hands, mean {y.mean():.3f}, "
                f"fit's spread {fitted.std():.3f} (sd of the pegging {y.std():.2f})"
            )
            out[name].append([round(float(c), 5) for c in coef])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=80_000)
    parser.add_argument("--seed", type=int, default=4001)
    parser.add_argument("--rows", type=Path, help="rows kept before (.npy), or where to keep")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    if args.rows is not None and args.rows.exists():
        rows = np.load(args.rows)
    else:
        clock = time.process_time()
        rows = measure(args.deals, args.seed)
        print(f"{args.deals:,} deals in {time.process_time() - clock:.0f} s of process time")
        if args.rows is not None:
            np.save(args.rows, rows)
    table = {"source": f"bench/keep_pegging4.py --deals {args.deals} --seed {args.seed}"}
    table.update(fit(rows))  # type: ignore[arg-type]
    args.out.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
