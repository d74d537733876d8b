"""How long the computer player takes to decide, per level.

    python bench/ai_latency.py [--deals 1000] [--seed 1] [--levels easy normal expert]
    python bench/ai_latency.py --players 3 --levels master   # or 4: the master at a table

Each deal is played through ``engine.rules.game.Game`` by two (``--players``: three or
four) computer players of the level, from scores drawn at random (so about a third of
the deals are near the end of the game, where the expert weighs its chance to win). Every
discard and every play is timed through the ``ComputerPlayer`` interface the
door uses. One-time set-up (loading the tables, solving the win-probability
table) is done first and reported on its own.

Targets (issue 3) for expert: discard under 50 ms median and 150 ms worst;
a play under 10 ms. The master (issue 51), at every table: discard 150 ms and a play
50 ms at the 99th percentile. The worst figures include the interpreter's occasional
full garbage collection (10-25 ms on this machine) when one lands inside a
decision; the 99th percentile shows the decisions themselves.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.computer.levels import LEVELS, MASTER_SAMPLED_FROM  # noqa: E402
from engine.computer.player import ComputerPlayer  # noqa: E402
from engine.odds.hand_tables import load_tables  # noqa: E402
from engine.odds.position import shipped_position  # noqa: E402
from engine.odds.tables import load_win_tables  # noqa: E402
from engine.rules.game import Game, Phase  # noqa: E402


def time_deals(
    level: str, deals: int, seed: int, players: int = 2, sampled_from: int = MASTER_SAMPLED_FROM
) -> tuple[list[float], list[float]]:
    """Seconds per discard and per play over ``deals`` deals."""
    rng = random.Random(seed)
    discards: list[float] = []
    plays: list[float] = []
    for _ in range(deals):
        game = Game(players, rng=random.Random(rng.getrandbits(64)), dealer=rng.randrange(players))
        game.scores = [rng.randrange(121) for _ in range(game.sides)]
        seats = [
            ComputerPlayer(level, random.Random(rng.getrandbits(64)), sampled_from=sampled_from)
            for _ in range(players)
        ]
        game.deal()
        for seat in range(players):
            started = time.perf_counter()
            thrown = seats[seat].discard(game, seat)
            discards.append(time.perf_counter() - started)
            game.discard(seat, thrown)
        game.cut(seats[game.cutter].cut(game, game.cutter))
        while game.phase is Phase.PLAY:
            assert game.turn is not None
            seat = game.turn
            started = time.perf_counter()
            card = seats[seat].play(game, seat)
            plays.append(time.perf_counter() - started)
            game.play(seat, card)
    return discards, plays


def _ms(values: Sequence[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[int(0.99 * (len(ordered) - 1))]
    return (
        f"median {statistics.median(ordered) * 1000:6.2f} ms, 99% {p99 * 1000:6.2f} ms, "
        f"worst {ordered[-1] * 1000:6.2f} ms"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", nargs="+", choices=LEVELS, default=list(LEVELS))
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument(
        "--sampled-from",
        metavar="CARDS",
        type=int,
        default=MASTER_SAMPLED_FROM,
        help="the master searches the play to its end over sampled hands once the two hands "
        "hold at most CARDS cards (engine.computer.play.choose_play's sampled_from; "
        f"{MASTER_SAMPLED_FROM} as shipped, 0 never)",
    )
    args = parser.parse_args(argv)

    started = time.perf_counter()
    load_tables()
    shipped_position()
    load_win_tables()
    print(f"one-time set-up (tables, win-probability table): {time.perf_counter() - started:.3f} s")
    # As the server does after start-up: the long-lived tables move out of the
    # collector's sight, so a full collection no longer lands inside a decision.
    gc.collect()
    gc.freeze()
    for level in args.levels:
        started = time.perf_counter()
        discards, plays = time_deals(level, args.deals, args.seed, args.players, args.sampled_from)
        print(
            f"{level:<7} discard ({len(discards):,}): {_ms(discards)} | "
            f"play ({len(plays):,}): {_ms(plays)} | {time.perf_counter() - started:.1f} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
