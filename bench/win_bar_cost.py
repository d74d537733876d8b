"""What a win bar costs, timed on every moment of recorded games, by phase.

    python bench/win_bar_cost.py [--games 3] [--players 2 3 4] [--repeats 5] [--cold MB]

Plays whole games between computer players at level "normal" (seeds 1, 2, ... for each
number of players) and keeps a snapshot of the game after every action, with the views
a door asks a bar for at that moment: each seat's, remembering the cards it threw to
the crib (as ``door.table.person.Person.win_chances`` passes them), and the watcher's.
Then it times ``engine.odds.winbar.win_bar`` on those same moments, pass after pass, as a
door asks for them: each view once a moment, the moments of one game in their order,
the games of a pass side by side (a moment of each in turn, as the tables of a server
move). Before each pass the work the engine keeps between bars is forgotten
(``engine.odds.winbar.forget``), so every pass starts as the first did; within a pass the
caches are as warm as the door's. It prints, by phase and number of players, the calls
and the best and median microseconds a call (over the passes), and a checksum of every
bar (the floats' bits): a change that should not alter a bar must leave it as it was.

A call is timed by the processor time of the process (``time.process_time``), not the
clock on the wall: numpy's matrix products may run on more than one thread (OpenBLAS
starts one a core), whose time a server pays as well, and on a shared machine the wall
clock counts the time other programs ran.

``--save FILE`` keeps every bar (a .npy of floats, in order) and ``--against FILE``
prints the largest difference from bars kept so, for a change that may move the last
bits of a bar.

``--cold MB`` writes over a buffer of that many megabytes before every call, as other
tables' work would between two of one table's (the buffer's own time is not counted).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import struct
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cold_caches import CacheSweep  # noqa: E402

from engine.computer.player import ComputerPlayer  # noqa: E402
from engine.computer.selfplay import next_action  # noqa: E402
from engine.odds import winbar  # noqa: E402
from engine.rules.cards import Card  # noqa: E402
from engine.rules.game import Game, Phase  # noqa: E402

View = tuple[int | None, tuple[Card, ...]]
Moment = tuple[Game, list[View]]
PHASES = (Phase.DEAL, Phase.DISCARD, Phase.CUT, Phase.PLAY, Phase.SHOW)


def record(players: int, seed: int) -> list[Moment]:
    """Every moment of one game, each with the views a door would ask a bar for."""
    game = Game(players, rng=random.Random(seed), dealer=0)
    seats = [ComputerPlayer("normal", random.Random(seed + seat)) for seat in range(players)]
    thrown: dict[int, tuple[Card, ...]] = {}
    moments: list[Moment] = []
    while game.phase is not Phase.OVER:
        held = {seat: set(game.hand(seat)) for seat in range(players)}
        next_action(game, seats)
        for seat in range(players):
            left = set(game.hand(seat))
            if len(left) < len(held[seat]) and game.phase in (Phase.DISCARD, Phase.CUT):
                thrown[seat] = tuple(card for card in held[seat] - left if card in game.crib)
        views: list[View] = [
            (seat, tuple(card for card in thrown.get(seat, ()) if card in game.crib))
            for seat in range(players)
        ]
        moments.append((game.snapshot(), [*views, (None, ())]))
    return moments


def side_by_side(games: list[list[Moment]]) -> Iterator[Moment]:
    """The games' moments, a moment of each game in turn."""
    for step in range(max(len(moments) for moments in games)):
        for moments in games:
            if step < len(moments):
                yield moments[step]


Key = tuple[int, Phase]


def one_pass(moments: list[Moment], sweep: CacheSweep) -> tuple[dict[Key, float], bytes]:
    """Seconds spent by (players, phase), and every bar's bits, in order."""
    winbar.forget()
    spent: dict[Key, float] = defaultdict(float)
    bits = bytearray()
    for game, views in moments:
        key = (game.players, game.phase)
        for seat, thrown in views:
            sweep()
            started = time.process_time()
            bar = winbar.win_bar(game, seat, thrown=thrown)
            spent[key] += time.process_time() - started
            bits += struct.pack(f"<{len(bar)}d", *bar)
    return spent, bytes(bits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games of each number of players")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cold", type=int, default=0, metavar="MB", help="sweep between calls")
    parser.add_argument("--save", type=Path, metavar="FILE", help="keep the bars (.npy)")
    parser.add_argument("--against", type=Path, metavar="FILE", help="bars kept before")
    args = parser.parse_args()
    winbar.prepare()
    moments: list[Moment] = []
    for players in args.players:
        games = [record(players, seed) for seed in range(1, args.games + 1)]
        moments.extend(side_by_side(games))
    calls: dict[Key, int] = defaultdict(int)
    for game, views in moments:
        calls[(game.players, game.phase)] += len(views)
    sweep = CacheSweep(args.cold)
    passes = [one_pass(moments, sweep) for _ in range(args.repeats)]
    checksums = {hashlib.sha256(bits).hexdigest()[:16] for _, bits in passes}
    assert len(checksums) == 1, "a pass gave other bars than the first"
    caches = f"caches swept ({args.cold} MB) before each call" if args.cold else "warm caches"
    total = sum(calls.values())
    print(f"{args.games} games each of {args.players} players, {total} bars, {caches}")
    print(f"(best and median us a call over {args.repeats} passes)")
    print(f"{'phase':8} {'players':>7} {'calls':>6} {'best':>8} {'median':>8}")
    for phase in PHASES:
        for players in args.players:
            count = calls.get((players, phase), 0)
            if not count:
                continue
            seconds = [spent.get((players, phase), 0.0) for spent, _ in passes]
            best, median = 1e6 * min(seconds) / count, 1e6 * statistics.median(seconds) / count
            print(f"{phase.name:8} {players:7} {count:6} {best:8.1f} {median:8.1f}")
    seconds = [sum(spent.values()) for spent, _ in passes]
    print(f"{'all':8} {'':7} {total:6} {1e6 * min(seconds) / total:8.1f}", end=" ")
    print(f"{1e6 * statistics.median(seconds) / total:8.1f}")
    print(f"bars      sha256 {checksums.pop()}")
    bars = np.frombuffer(passes[0][1], dtype="<f8")
    if args.save:
        np.save(args.save, bars)
    if args.against:
        before = np.load(args.against)
        assert before.shape == bars.shape, "other moments: other games or views"
        differ, most = int((before != bars).sum()), float(np.abs(before - bars).max())
        print(f"against   {args.against}: {differ} floats differ, by {most:.3g} at most")


if __name__ == "__main__":
    main()
