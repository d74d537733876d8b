"""The master's play alone, two ways on the same deals: its pegging less the expert's.

    nice -n 19 python bench/play_paired.py --deals 5000 --seed 8 --sampled-from 6 0
    nice -n 19 python bench/play_paired.py --deals 2000 --scores 80 115 --sampled-from 8 6

Each deal is dealt once and played twice, the master (two players) throwing as it always
does and then playing with the first and with the second ``--sampled-from`` (the full
search of the play over sampled hands once the two hands hold at most that many cards; 0:
never; 7 as shipped, ``MASTER_SAMPLED_FROM``), the expert in the other seat; the master
deals every other deal. What
the master pegs in the play less what the expert pegs, per deal, for each way, and the
paired difference with its 95 % interval: the deals and throws are the same, so only the
play's choices differ, and a few thousand deals (a minute or two) tell apart what a
thousand games of bench/master_strength.py cannot. From a score of 61 the master plays for
the chance to win, not points: there ``--scores`` measures points it does not aim at.

Measured on 2026-11-28 (the machine shared, nice 19; the first four a scratch probe of the
same kind, both seats throwing as the expert), the full search over 64 sampled hands
(engine.computer.sampled_play) against the master's usual search, scores 0: from the first
card (8 cards) to the end, +0.017 (-0.052 to +0.086) points a deal over 3,000 deals; at
7 and 8 cards only -0.004 (-0.069 to +0.062), with 256 hands -0.002 (-0.065 to +0.061),
its value and the usual search's averaged +0.010 (-0.042 to +0.061); from 6 cards on (in
place of the six-ply search) -0.029 (-0.068 to +0.010) over 2,500 deals. Here: from 8
cards, seed 7, 4,000 deals, +0.022 (-0.041 to +0.086); from 6 cards, seed 8, 5,000 deals,
+0.045 (+0.014 to +0.077). From 6 cards, over the 7,500 deals, about +0.020 (-0.005 to
+0.045): as strong, and seven times cheaper there, so the master ships with it from six.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.computer.player import ComputerPlayer  # noqa: E402
from engine.rules.events import Pegged  # noqa: E402
from engine.rules.game import Game, Phase  # noqa: E402


def play_deal(seed: int, number: int, sampled_from: int, scores: tuple[int, int]) -> int:
    """The master's pegging less the expert's in deal ``number``'s play."""
    cards = random.Random(seed * 1_000_003 + number)
    master = number % 2
    game = Game(2, rng=random.Random(cards.getrandbits(64)), dealer=(number // 2) % 2)
    game.scores = [cards.randint(*scores), cards.randint(*scores)]
    seeds = [cards.getrandbits(64) for _ in range(2)]
    seats = [ComputerPlayer("expert", random.Random(seeds[seat])) for seat in range(2)]
    seats[master] = ComputerPlayer(
        "master", random.Random(seeds[master]), sampled_from=sampled_from
    )
    game.deal()
    for seat in range(2):
        game.discard(seat, seats[seat].discard(game, seat))
    game.cut(cards.randint(1, game.stock_size))
    pegged = [0, 0]
    while game.phase is Phase.PLAY:
        seat = game.turn
        assert seat is not None
        for event in game.play(seat, seats[seat].play(game, seat)):
            if isinstance(event, Pegged):
                pegged[event.seat] += event.points
    return pegged[master] - pegged[1 - master]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--scores",
        nargs=2,
        type=int,
        default=(0, 0),
        metavar=("LOW", "HIGH"),
        help="each side's score at the deal, drawn from LOW to HIGH (0 0: the first deal)",
    )
    parser.add_argument(
        "--sampled-from", nargs=2, type=int, default=(6, 0), metavar=("FIRST", "SECOND")
    )
    args = parser.parse_args()
    low, high = args.scores
    if not 0 <= low <= high <= 120:
        parser.error("--scores: 0 <= LOW <= HIGH <= 120")
    first, second = args.sampled_from
    ways: tuple[list[int], list[int]] = ([], [])
    for number in range(args.deals):
        for way, sampled_from in zip(ways, (first, second), strict=True):
            way.append(play_deal(args.seed, number, sampled_from, (low, high)))
    diffs = [x - y for x, y in zip(*ways, strict=True)]
    size = len(diffs)
    mean = sum(diffs) / size
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(size - 1, 1))
    half = 1.96 * spread / math.sqrt(size)
    print(
        f"{size:,} deals, seed {args.seed}, scores {low}-{high}: the master's pegging less "
        f"the expert's a deal, sampled from {first}: {sum(ways[0]) / size:+.4f}, from "
        f"{second}: {sum(ways[1]) / size:+.4f}; paired {mean:+.4f} ({mean - half:+.4f} to "
        f"{mean + half:+.4f}; {sum(1 for d in diffs if d):,} deals differ)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
