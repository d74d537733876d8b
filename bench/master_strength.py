"""How the master does against the expert: wins, the 95% interval, points per two deals.

    nice -n 10 python bench/master_strength.py --games 20000 --jobs 2

Two players, the first dealer alternating game by game (games 2k and 2k+1 share their
cards' seed, A dealing first in one and B in the other). Points per two deals are each
side's points (pegging, hands, crib) over completed deals, times two: one deal as dealer
and one as pone.
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
from engine.computer.selfplay import next_action, wilson_interval  # noqa: E402
from engine.rules.events import HandOver, Pegged  # noqa: E402
from engine.rules.game import Game, Phase  # noqa: E402


def run(task: tuple[str, str, int, int, int]) -> tuple[int, int, int, int, int]:
    """(games, A's wins, A's points, B's points, completed deals) over games start..end."""
    a, b, seed, start, end = task
    wins = points_a = points_b = deals = 0
    for number in range(start, end):
        cards = random.Random(seed * 1_000_003 + number // 2)
        a_seat = number % 2  # A sits in seat 0 and deals first on even games
        players = [None, None]
        players[a_seat] = ComputerPlayer(a, random.Random(cards.getrandbits(64)))
        players[1 - a_seat] = ComputerPlayer(b, random.Random(cards.getrandbits(64)))
        game = Game(2, rng=random.Random(cards.getrandbits(64)), dealer=0)
        hand_points = [0, 0]
        while game.phase is not Phase.OVER:
            for event in next_action(game, players):  # type: ignore[arg-type]
                if isinstance(event, Pegged):
                    hand_points[event.seat] += event.points
                elif isinstance(event, HandOver):
                    points_a += hand_points[a_seat]
                    points_b += hand_points[1 - a_seat]
                    deals += 1
                    hand_points = [0, 0]
        wins += game.winner_side == a_seat
    return end - start, wins, points_a, points_b, deals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--a", default="master")
    parser.add_argument("--b", default="expert")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    step = max(2, (args.games // (args.jobs * 20)) // 2 * 2)
    tasks = [
        (args.a, args.b, args.seed, start, min(start + step, args.games))
        for start in range(0, args.games, step)
    ]
    games = wins = points_a = points_b = deals = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(run, tasks):
            games += part[0]
            wins += part[1]
            points_a += part[2]
            points_b += part[3]
            deals += part[4]
            print(
                f"  {games:,} games, {args.a} {wins / games:.2%}, "
                f"{time.perf_counter() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    seconds = time.perf_counter() - started
    low, high = wilson_interval(wins, games)
    print(
        f"{args.a} against {args.b}: {games:,} games ({args.jobs} jobs) in {seconds:.0f} s, "
        f"dealer alternating"
    )
    print(
        f"{args.a} wins {wins:,} = {wins / games:.2%} (95% Wilson interval {low:.2%} to {high:.2%})"
    )
    print(
        f"points per two deals over {deals:,} completed deals: {args.a} "
        f"{2 * points_a / deals:.3f}, {args.b} {2 * points_b / deals:.3f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
