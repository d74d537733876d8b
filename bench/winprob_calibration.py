"""How well the win chances (engine/winprob.py) predict real games.

Plays whole 2-player games between computer players. Before every deal it asks
``win_chances`` for the dealer's chance; when the game ends it books whether the dealer of
each of those deals won. Positions are grouped in 5-point bins of predicted chance, and
the table prints each bin's count, mean prediction and observed rate.

    python bench/winprob_calibration.py --games 100000 --level normal --jobs 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ai import ComputerPlayer  # noqa: E402
from engine.cards import Card  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.selfplay import play_game  # noqa: E402
from engine.winprob import win_chances  # noqa: E402

BINS = 20


class Recording(ComputerPlayer):
    """A computer player that notes the position when the first throw of a deal is
    asked for: the deal is out, nobody has scored in it yet."""

    def __init__(self, level: str, rng: random.Random, notes: list[tuple[int, float]]) -> None:
        super().__init__(level, rng)
        self.notes = notes

    def discard(self, game: Game, seat: int) -> Sequence[Card]:
        if not any(game.has_discarded(s) for s in range(game.players)):
            scores = [game.score_of(s) for s in range(game.players)]
            self.notes.append((game.dealer, win_chances(scores, game.dealer)[game.dealer]))
        return super().discard(game, seat)


def run_games(level: str, seed: int, games: int) -> list[tuple[float, int]]:
    """(predicted chance the deal's dealer wins, 1 if they did) for every deal."""
    rng = random.Random(seed)
    results: list[tuple[float, int]] = []
    for _ in range(games):
        notes: list[tuple[int, float]] = []
        players = [Recording(level, random.Random(rng.getrandbits(64)), notes) for _ in range(2)]
        record = play_game(Game(2, rng=random.Random(rng.getrandbits(64))), players, check=False)
        results.extend((chance, int(dealer == record.winner_seat)) for dealer, chance in notes)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "expert"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()

    started = time.perf_counter()
    chunks = [args.games // args.jobs + (i < args.games % args.jobs) for i in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        parts = pool.map(
            run_games, [args.level] * args.jobs, range(args.seed, args.seed + args.jobs), chunks
        )
        results = [item for part in parts for item in part]
    seconds = time.perf_counter() - started

    counts = [0] * BINS
    predicted = [0.0] * BINS
    won = [0] * BINS
    for chance, outcome in results:
        b = min(int(chance * BINS), BINS - 1)
        counts[b] += 1
        predicted[b] += chance
        won[b] += outcome
    print(
        f"{args.games:,} games at level {args.level} ({args.jobs} jobs) in {seconds:.0f} s: "
        f"{len(results):,} positions before a deal"
    )
    print(f"{'bin':>9} {'positions':>10} {'predicted':>10} {'observed':>9} {'diff':>7}")
    diffs = []
    for b in range(BINS):
        if not counts[b]:
            continue
        mean, rate = predicted[b] / counts[b], won[b] / counts[b]
        diffs.append((abs(rate - mean), counts[b]))
        print(
            f"{b * 5:>3}-{b * 5 + 5:>3} % {counts[b]:>10,} {mean:>10.1%} {rate:>9.1%} "
            f"{(rate - mean) * 100:>+6.1f}"
        )
    plain = sum(d for d, _ in diffs) / len(diffs)
    weighted = sum(d * n for d, n in diffs) / sum(n for _, n in diffs)
    print(
        f"mean |observed - predicted| over bins: {plain * 100:.2f} points "
        f"(weighted by positions: {weighted * 100:.2f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
