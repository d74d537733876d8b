"""Median times of the coach's analyses and of a win-bar update, over real positions.

    nice -n 10 python bench/coach_timing.py [--games 20] [--players 2]

Plays games between expert players; at every discard and every play with a choice it
times ``analyse_discard`` / ``analyse_play`` for the choice made, and after every action
``win_bar`` from the seat to move (and the spectator's). Targets: discard 100 ms,
play 50 ms, win bar 5 ms. Then one whole-game review.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.computer.coach import analyse_discard, analyse_play, review_game  # noqa: E402
from engine.computer.player import ComputerPlayer  # noqa: E402
from engine.computer.selfplay import next_action  # noqa: E402
from engine.odds.winbar import win_bar  # noqa: E402
from engine.rules.game import Phase  # noqa: E402
from engine.rules.record import RecordedGame  # noqa: E402


def timed(times: list[float], call, *args, **kwargs):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    result = call(*args, **kwargs)
    times.append(time.perf_counter() - started)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = {"discard": [], "play": [], "bar (seat)": [], "bar (all)": []}
    # Load the tables before timing anything.
    warm = RecordedGame(args.players, seed=0, dealer=0)
    warm.deal()
    win_bar(warm, 0)
    recordings = []
    for _ in range(args.games):
        game = RecordedGame(args.players, seed=rng.getrandbits(32), dealer=0)
        seats = [ComputerPlayer("expert", random.Random(rng.getrandbits(32)))] * args.players
        while game.phase is not Phase.OVER:
            if game.phase is Phase.DISCARD:
                seat = next(s for s in range(game.players) if not game.has_discarded(s))
                thrown = seats[seat].discard(game, seat)
                timed(times["discard"], analyse_discard, game, seat, thrown)
                game.discard(seat, thrown)
            elif game.phase is Phase.PLAY and game.turn is not None:
                seat = game.turn
                card = seats[seat].play(game, seat)
                if len(game.playable(seat)) > 1:
                    timed(times["play"], analyse_play, game, seat, card)
                game.play(seat, card)
            else:
                next_action(game, seats)
            if game.phase is not Phase.OVER:
                timed(times["bar (seat)"], win_bar, game, 0)
                timed(times["bar (all)"], win_bar, game)
        recordings.append(game.recording)
    print(f"{args.games} games, {args.players} players, expert play:")
    targets = {"discard": 100, "play": 50, "bar (seat)": 5, "bar (all)": 5}
    for name, values in times.items():
        ms = sorted(1000 * v for v in values)
        print(
            f"  {name:<11} {len(ms):>6,} calls: median {statistics.median(ms):6.2f} ms, "
            f"90th percentile {ms[int(0.9 * len(ms))]:6.2f} ms, max {ms[-1]:7.2f} ms "
            f"(target {targets[name]} ms)"
        )
    started = time.perf_counter()
    mistakes = review_game(recordings[0])
    print(
        f"  review of one whole game: {time.perf_counter() - started:.2f} s, "
        f"{len(mistakes)} costliest choices listed"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
