"""The engine's processor time in a game played the way the door plays one.

    python bench/engine_turn.py [--games 20] [--players 2] [--profile 15]

Plays whole games: seat 0 stands for the caller, the other seats are the door's computer
at level "normal"; the caller's moves are chosen by a "normal" computer too (its choosing
is timed apart, as "caller's choice", since a real caller's costs the server nothing).
After every action the door's bar is worked out as the caller sees it (seat 0,
remembering what it threw) — the door shows it on every moment with the bar on.
Everything runs under the processor clock of the process (``time.process_time``), not
the wall's, so other programs on a shared machine do not count. A first game (seed 0) is
played untimed, as the bar loads its tables on its first call.

It prints the time a game and an event (an action) split into the computer's choices,
the rules (``Game``'s actions) and the bar; with ``--profile N`` the N engine functions
that cost most of their own time (cProfile, which slows everything alike). The checksum
covers every action and every bar's bits: a change that must not alter the play or a
bar must leave it as it was.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import random
import struct
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.computer.player import ComputerPlayer  # noqa: E402
from engine.odds import winbar  # noqa: E402
from engine.rules.cards import Card  # noqa: E402
from engine.rules.game import Game, Phase  # noqa: E402

PARTS = ("computer's choice", "caller's choice", "rules", "win bar")


def play_one(players: int, seed: int, spent: dict[str, float], digest: hashlib._Hash) -> int:
    """Play one game, adding the time of each part to ``spent``; returns its events."""
    clock = time.process_time
    game = Game(players, rng=random.Random(seed), dealer=0)
    seats = [ComputerPlayer("normal", random.Random(seed * 10 + seat)) for seat in range(players)]
    thrown: tuple[Card, ...] = ()
    events = 0
    while game.phase is not Phase.OVER:
        phase = game.phase
        if phase is Phase.DISCARD:
            seat = next(s for s in range(players) if not game.has_discarded(s))
        elif phase is Phase.CUT:
            seat = game.cutter
        elif phase in (Phase.PLAY, Phase.SHOW):
            assert game.turn is not None
            seat = game.turn
        else:
            seat = -1
        part = "caller's choice" if seat == 0 else "computer's choice"
        started = clock()
        choice: object = None
        if phase is Phase.DISCARD:
            choice = tuple(seats[seat].discard(game, seat))
        elif phase is Phase.CUT:
            choice = seats[seat].cut(game, seat)
        elif phase is Phase.PLAY:
            choice = seats[seat].play(game, seat)
        chosen = clock()
        if phase is Phase.CUT_FOR_DEAL:
            game.cut_for_deal()
        elif phase is Phase.DEAL:
            game.deal()
        elif phase is Phase.DISCARD:
            assert isinstance(choice, tuple)
            game.discard(seat, choice)
            if seat == 0:
                thrown = choice
        elif phase is Phase.CUT:
            assert isinstance(choice, int)
            game.cut(choice)
        elif phase is Phase.PLAY:
            assert isinstance(choice, Card)
            game.play(seat, choice)
        else:
            game.count_hand()
        acted = clock()
        bar = winbar.win_bar(game, 0, thrown=tuple(card for card in thrown if card in game.crib))
        barred = clock()
        spent[part] += chosen - started
        spent["rules"] += acted - chosen
        spent["win bar"] += barred - acted
        digest.update(f"{seat}:{choice};".encode())
        digest.update(struct.pack(f"<{len(bar)}d", *bar))
        events += 1
    return events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    args = parser.parse_args()
    spent = dict.fromkeys(PARTS, 0.0)
    digest = hashlib.sha256()
    profiler = cProfile.Profile() if args.profile else None
    # A game first, untimed: the bar loads its tables on its first call.
    play_one(args.players, 0, dict.fromkeys(PARTS, 0.0), hashlib.sha256())
    events = 0
    if profiler:
        profiler.enable()
    for seed in range(1, args.games + 1):
        events += play_one(args.players, seed, spent, digest)
    if profiler:
        profiler.disable()
    engine = sum(spent[part] for part in PARTS if part != "caller's choice")
    checksum = digest.hexdigest()[:16]
    print(f"{args.games} games of {args.players}, {events} events, checksum {checksum}")
    print(
        f"engine (without the caller's choice): {engine / args.games * 1e3:.1f} ms a game, "
        f"{engine / events * 1e6:.0f} µs an event"
    )
    for part in PARTS:
        print(
            f"  {part:18} {spent[part] / args.games * 1e3:8.2f} ms a game "
            f"{spent[part] / events * 1e6:8.1f} µs an event"
        )
    if profiler:
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(r"engine/", args.profile)


if __name__ == "__main__":
    main()
