"""How well the win chances (engine/odds/winprob.py, engine/odds/winbar.py) predict real games.

Plays whole games between computer players. Before every deal it asks ``win_chances``
for the dealer's side's chance; during deals, at moments picked at random (about one in
fifty actions), it asks the win bar, as a spectator who sees every hand and as the
seat to move (or seat 0) who sees only its own. When the game ends it books whether that
side won. Positions are grouped in 5-point bins of predicted chance, and a table per
kind prints each bin's count, mean prediction and observed rate, and the mean absolute
deviation over bins (plain, and weighted by positions).

    nice -n 10 python bench/winprob_calibration.py --games 100000 --level normal --jobs 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.computer.player import ComputerPlayer  # noqa: E402
from engine.computer.selfplay import next_action  # noqa: E402
from engine.odds.winbar import win_bar  # noqa: E402
from engine.odds.winprob import win_chances  # noqa: E402
from engine.rules.game import Game, Phase  # noqa: E402

BINS = 20
KINDS = ("before the deal", "mid-hand, spectator", "mid-hand, seat's view")
SAMPLE = 0.02


def run_games(task: tuple[str, int, int, int]) -> list[list[int]]:
    """Per kind, per bin: [positions, sum of predictions in millionths, wins]."""
    level, players, seed, games = task
    rng = random.Random(seed)
    table = [[[0, 0, 0] for _ in range(BINS)] for _ in KINDS]
    for _ in range(games):
        game = Game(players, rng=random.Random(rng.getrandbits(64)), dealer=rng.randrange(players))
        seats = [ComputerPlayer(level, random.Random(rng.getrandbits(64))) for _ in range(players)]
        notes: list[tuple[int, int, float]] = []  # (kind, side, predicted)
        while game.phase is not Phase.OVER:
            if game.phase is Phase.DEAL:
                chances = win_chances(game.scores, game.dealer, players)
                notes.append((0, game.side_of(game.dealer), chances[game.side_of(game.dealer)]))
            elif rng.random() < SAMPLE:
                side = rng.randrange(game.sides)
                notes.append((1, side, win_bar(game)[side]))
                seat = game.turn if game.turn is not None else 0
                notes.append((2, game.side_of(seat), win_bar(game, seat)[game.side_of(seat)]))
            next_action(game, seats)
        winner = game.winner_side
        for kind, side, chance in notes:
            b = min(int(chance * BINS), BINS - 1)
            cell = table[kind][b]
            cell[0] += 1
            cell[1] += round(chance * 1_000_000)
            cell[2] += side == winner
    return [cell for kind in table for cell in kind]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "expert", "master"))
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()

    started = time.perf_counter()
    chunk = max(1, min(500, args.games // (args.jobs * 4) or 1))
    tasks = []
    left, number = args.games, 0
    while left > 0:
        tasks.append((args.level, args.players, args.seed * 1_000_003 + number, min(chunk, left)))
        left -= chunk
        number += 1
    totals = [[0, 0, 0] for _ in range(len(KINDS) * BINS)]
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, part in enumerate(pool.map(run_games, tasks), 1):
            for cell, add in zip(totals, part, strict=True):
                for i in range(3):
                    cell[i] += add[i]
            if done % 10 == 0:
                seconds = time.perf_counter() - started
                print(f"  {done}/{len(tasks)} parts, {seconds:.0f} s", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - started
    print(
        f"{args.games:,} games, {args.players} players, level {args.level} "
        f"({args.jobs} jobs) in {seconds:.0f} s"
    )
    for kind, name in enumerate(KINDS):
        rows = totals[kind * BINS : (kind + 1) * BINS]
        positions = sum(row[0] for row in rows)
        print(f"\n{name}: {positions:,} positions")
        print(f"{'bin':>9} {'positions':>10} {'predicted':>10} {'observed':>9} {'diff':>7}")
        diffs = []
        for b, (count, predicted, won) in enumerate(rows):
            if not count:
                continue
            mean, rate = predicted / 1_000_000 / count, won / count
            diffs.append((abs(rate - mean), count))
            print(
                f"{b * 5:>3}-{b * 5 + 5:>3} % {count:>10,} {mean:>10.1%} {rate:>9.1%} "
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
