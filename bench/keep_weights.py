"""What a level's discards say about the four cards a player keeps, by role.

    python bench/keep_weights.py [--deals 30000] [--seed 7] [--level expert] [--write]
    python bench/keep_weights.py --declined [--deals 2000]

Deals random six-card hands and lets the level discard two as dealer and as pone. For
each rank (ace to king), ``keep`` is the share of its cards kept over the share a random
discard keeps (four in six); ``together[r][s]`` is how much more often a card of rank s
is kept beside a kept card of rank r than the two shares alone would make it (a kept
seven makes an eight about twice as likely, a ten a third as likely). ``--write`` saves
them as ``engine/data/keep_weights.json``: the master weighs the opponent's possible
cards in the play by them (``engine.computer.opponent.opponent_weights``).

``--declined`` plays deals between two players of the level instead and compares how many
cards of a rank a player still holds after laying a card when that rank would have
pegged more than the card laid, with any other rank that fitted
(``engine.computer.opponent.DECLINED``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.computer.discard import choose_discard  # noqa: E402
from engine.computer.pegging import peg_points  # noqa: E402
from engine.computer.player import ComputerPlayer  # noqa: E402
from engine.rules.cards import (
    FULL_DECK,  # noqa: E402
    PIPS,  # noqa: E402
)
from engine.rules.game import Game, Phase  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "engine" / "data" / "keep_weights.json"


def measure(
    deals: int, seed: int, level: str, dealer: bool
) -> tuple[list[float], list[list[float]]]:
    rng = random.Random(seed)
    dealt = np.zeros(13)
    kept = np.zeros(13)
    dealt_pairs = np.zeros((13, 13))
    kept_pairs = np.zeros((13, 13))
    for _ in range(deals):
        hand = rng.sample(FULL_DECK, 6)
        thrown = choose_discard(hand, dealer=dealer, level=level)
        keep = [card for card in hand if card not in thrown]
        for card in hand:
            dealt[int(card.rank) - 1] += 1
        for card in keep:
            kept[int(card.rank) - 1] += 1
        for a, b in itertools.permutations(hand, 2):
            dealt_pairs[int(a.rank) - 1, int(b.rank) - 1] += 1
        for a, b in itertools.permutations(keep, 2):
            kept_pairs[int(a.rank) - 1, int(b.rank) - 1] += 1
    share = kept / dealt
    together = kept_pairs / dealt_pairs / np.outer(share, share)
    keep_weight = share / (4 / 6)
    return (
        [round(float(w), 3) for w in keep_weight],
        [[round(float(w), 3) for w in row] for row in together],
    )


def declined(deals: int, seed: int, level: str) -> tuple[float, float]:
    """Cards of a rank still held after passing up points with it, and of any other
    rank that fitted, on average per (play, rank)."""
    rng = random.Random(seed)
    held = {True: 0, False: 0}
    asked = {True: 0, False: 0}
    for _ in range(deals):
        game = Game(2, rng=random.Random(rng.getrandbits(64)), dealer=rng.randrange(2))
        game.scores = [rng.randrange(60), rng.randrange(60)]
        seats = [ComputerPlayer(level, random.Random(rng.getrandbits(64))) for _ in range(2)]
        game.deal()
        for seat in (0, 1):
            game.discard(seat, seats[seat].discard(game, seat))
        game.cut(seats[game.cutter].cut(game, game.cutter))
        while game.phase is Phase.PLAY:
            seat = game.turn
            assert seat is not None
            card = seats[seat].play(game, seat)
            seq = tuple(int(c.rank) for c in game.count_cards)
            count = sum(c.pips for c in game.count_cards)
            exact = game.runs == "exact"
            took = peg_points(seq + (int(card.rank),), count + card.pips, exact)
            left = [int(c.rank) for c in game.hand(seat) if c != card]
            for rank in range(1, 14):
                if left and count + PIPS[rank] <= 31:
                    more = peg_points(seq + (rank,), count + PIPS[rank], exact) > took
                    held[more] += left.count(rank)
                    asked[more] += 1
            game.play(seat, card)
    return held[True] / asked[True], held[False] / asked[False]


def _format(data: dict[str, object]) -> str:
    """The JSON with a row of numbers to a line."""
    keep: dict[str, list[float]] = data["keep"]  # type: ignore[assignment]
    together: dict[str, list[list[float]]] = data["together"]  # type: ignore[assignment]
    lines = ["{", f' "source": {json.dumps(data["source"])},', ' "keep": {']
    lines += [f'  "{role}": {json.dumps(row)},' for role, row in keep.items()]
    lines[-1] = lines[-1].rstrip(",")
    lines += [" },", ' "together": {']
    for role, rows in together.items():
        lines.append(f'  "{role}": [')
        lines += [f"   {json.dumps(row)}," for row in rows]
        lines[-1] = lines[-1].rstrip(",")
        lines.append("  ],")
    lines[-1] = lines[-1].rstrip(",")
    lines += [" }", "}"]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--write", action="store_true", help=f"save them as {OUT.name}")
    parser.add_argument("--declined", action="store_true", help="passed-up points instead")
    args = parser.parse_args()
    if args.declined:
        passed, other = declined(args.deals, args.seed, args.level)
        print(
            f"cards held of a rank passed up {passed:.4f}, of another {other:.4f}: "
            f"1 in {other / passed:.0f}"
        )
        return 0
    data: dict[str, object] = {
        "source": f"bench/keep_weights.py --deals {args.deals} --seed {args.seed} "
        f"--level {args.level}",
        "keep": {},
        "together": {},
    }
    for role, dealer in (("dealer", True), ("pone", False)):
        keep, together = measure(args.deals, args.seed, args.level, dealer)
        data["keep"][role] = keep  # type: ignore[index]
        data["together"][role] = together  # type: ignore[index]
        print(f"{role:6} keep", ", ".join(f"{w:.2f}" for w in keep))
    if args.write:
        OUT.write_text(_format(data), encoding="utf-8")
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
