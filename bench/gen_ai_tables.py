"""Regenerate engine/data/ai_tables.json, the computer player's measured tables.

    python bench/gen_ai_tables.py [--throw-deals 200000] [--deals 40000] [--seed 1]

Two measurements, both from the expert playing itself, deterministic for a seed:

1. Throw weights. Deal two six-card hands, let the dealer and the pone both
   discard as the expert does, and count which pair of ranks each role throws.
   The weight of a pair is how often it is thrown divided by how often a
   random thrower would throw it (smoothed toward 1 for rare pairs). The
   expert's discard depends on these weights, so the measurement is repeated
   from uniform weights until it settles (``--rounds``).
2. Per-deal distributions. Play whole deals through ``engine.rules.game.Game`` and
   record what each source scores: dealer's and pone's pegging (jointly; his
   heels counts as the dealer's pegging), each hand, the crib.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.computer import discard, play  # noqa: E402
from engine.computer.discard import expert_discard  # noqa: E402
from engine.computer.player import ComputerPlayer  # noqa: E402
from engine.computer.selfplay import score_category  # noqa: E402
from engine.odds import hand_tables as ai_tables  # noqa: E402
from engine.odds.hand_tables import RANKS, ROLES, AiTables, DealDistributions  # noqa: E402
from engine.odds.hand_values import Unseen, hand_values, splits  # noqa: E402
from engine.rules.cards import FULL_DECK  # noqa: E402
from engine.rules.events import HandOver, Pegged  # noqa: E402
from engine.rules.game import Game, Phase  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "engine" / "data" / "ai_tables.json"
SMOOTHING = 20.0  # pseudo-throws at the random rate, per rank pair
MAX_PEG = 40


def _placeholder_distributions() -> DealDistributions:
    flat = np.ones(30) / 30
    return DealDistributions(np.full((2, 2), 0.25), flat, flat, flat)


def _count_throws(task: tuple[int, int, dict[str, list[list[float]]]]) -> np.ndarray:
    """Throw counts [role, r1, r2] (symmetric) over ``deals`` deals from ``seed``."""
    seed, deals, weights = task
    tables = AiTables(
        {role: np.asarray(w) for role, w in weights.items()},
        _placeholder_distributions(),
        "generating",
    )
    rng = random.Random(seed)
    counts = np.zeros((2, RANKS, RANKS))
    deck = list(FULL_DECK)
    for _ in range(deals):
        cards = rng.sample(deck, 12)
        for role, hand in enumerate((cards[:6], cards[6:])):
            ours = ROLES[role] == "dealer"
            options = splits(hand, 2)
            unseen = Unseen.excluding(hand)
            values = hand_values([kept for kept, _ in options], unseen)
            best = expert_discard(options, unseen, values, ours, 2, 0, 0, tables)
            a, b = (card.index // 4 for card in options[best][1])
            counts[role, a, b] += 0.5
            counts[role, b, a] += 0.5
    return counts


def random_pair_rates() -> np.ndarray:
    """Chance that two random cards have ranks (r1, r2), split evenly over both orders."""
    rates = np.full((RANKS, RANKS), 2 * 4 * 4 / (52 * 51) / 2)
    np.fill_diagonal(rates, 4 * 3 / (52 * 51))
    return rates


def throw_weights(counts: np.ndarray, deals: int) -> np.ndarray:
    expected = random_pair_rates() * deals
    return (counts + SMOOTHING * random_pair_rates() * RANKS * RANKS) / (
        expected + SMOOTHING * random_pair_rates() * RANKS * RANKS
    )


def _play_deals(task: tuple[int, int, str]) -> dict[str, np.ndarray]:
    """Per-deal point counts over ``deals`` single deals played by the expert."""
    seed, deals, text = task
    # This worker process plays with the weights just measured, not the shipped file.
    tables = ai_tables.parse_tables(text)
    discard.load_tables = play.load_tables = lambda: tables
    rng = random.Random(seed)
    pegging = np.zeros((MAX_PEG, MAX_PEG))
    hands = {name: np.zeros(30) for name in ("pone_hand", "dealer_hand", "crib")}
    for _ in range(deals):
        game = Game(2, rng=random.Random(rng.getrandbits(64)), dealer=rng.randrange(2))
        seats = [ComputerPlayer("expert", random.Random(rng.getrandbits(64))) for _ in range(2)]
        dealer = game.dealer
        game.deal()
        for seat in (0, 1):
            game.discard(seat, seats[seat].discard(game, seat))
        events = game.cut(seats[game.cutter].cut(game, game.cutter))
        peg = [0, 0]  # dealer, pone
        shown = {}
        done = False
        while not done:
            for event in events:
                if isinstance(event, Pegged):
                    category = score_category(event.reason)
                    who = 0 if event.seat == dealer else 1
                    if category in ("pegging", "heels"):
                        peg[who] += event.points
                    else:
                        name = (
                            "crib"
                            if category == "crib"
                            else ("dealer_hand" if who == 0 else "pone_hand")
                        )
                        shown[name] = event.points
                elif isinstance(event, HandOver):
                    done = True
            if done:
                break
            assert game.turn is not None
            if game.phase is Phase.PLAY:
                events = game.play(game.turn, seats[game.turn].play(game, game.turn))
            else:
                events = game.count_hand()
        pegging[min(peg[0], MAX_PEG - 1), min(peg[1], MAX_PEG - 1)] += 1
        for name, counts in hands.items():
            counts[shown.get(name, 0)] += 1
    return {"pegging": pegging, **hands}


def _chunks(seed: int, total: int, size: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    tasks = []
    while total > 0:
        tasks.append((rng.getrandbits(63), min(size, total)))
        total -= size
    return tasks


def _trim(array: np.ndarray) -> list[int]:
    values = [int(v) for v in array]
    while len(values) > 1 and values[-1] == 0:
        values.pop()
    return values


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throw-deals", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deals", type=int, default=40_000, help="deals played for distributions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)

    weights = {role: np.ones((RANKS, RANKS)) for role in ROLES}
    started = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for round_number in range(args.rounds):
            plain = {role: w.tolist() for role, w in weights.items()}
            tasks = [
                (seed, deals, plain)
                for seed, deals in _chunks(args.seed + round_number, args.throw_deals, 5000)
            ]
            counts = sum(pool.map(_count_throws, tasks))
            new = {role: throw_weights(counts[i], args.throw_deals) for i, role in enumerate(ROLES)}
            change = max(float(np.abs(new[r] - weights[r]).max()) for r in ROLES)
            weights = new
            print(
                f"round {round_number + 1}: {args.throw_deals:,} deals, "
                f"largest weight change {change:.3f} ({time.perf_counter() - started:.0f} s)"
            )
    rounded = {role: np.round(w, 4).tolist() for role, w in weights.items()}
    document = {
        "source": (
            f"bench/gen_ai_tables.py --throw-deals {args.throw_deals} --rounds {args.rounds} "
            f"--deals {args.deals} --seed {args.seed}"
        ),
        "throw_weight": rounded,
        "distributions": {
            "pegging": np.full((2, 2), 1).tolist(),
            "pone_hand": [1] * 30,
            "dealer_hand": [1] * 30,
            "crib": [1] * 30,
        },
    }
    provisional = json.dumps(document)
    with multiprocessing.Pool(args.jobs) as pool:
        tasks = [
            (seed, deals, provisional)
            for seed, deals in _chunks(args.seed + 1000, args.deals, 1000)
        ]
        parts = pool.map(_play_deals, tasks)
    totals = {name: sum(part[name] for part in parts) for name in parts[0]}
    pegging = totals["pegging"]
    rows = max(np.nonzero(pegging.sum(axis=1))[0]) + 1
    cols = max(np.nonzero(pegging.sum(axis=0))[0]) + 1
    document["distributions"] = {
        "pegging": pegging[:rows, :cols].astype(int).tolist(),
        "pone_hand": _trim(totals["pone_hand"]),
        "dealer_hand": _trim(totals["dealer_hand"]),
        "crib": _trim(totals["crib"]),
    }
    text = json.dumps(document, separators=(",", ":"))
    ai_tables.parse_tables(text)  # refuse to write what the engine cannot read
    args.out.write_text(text + "\n", encoding="utf-8")
    dist = ai_tables.parse_tables(text).distributions
    points = np.arange(30)
    dealer_peg = dist.pegging.sum(axis=1) @ np.arange(dist.pegging.shape[0])
    pone_peg = dist.pegging.sum(axis=0) @ np.arange(dist.pegging.shape[1])
    print(
        f"{args.deals:,} deals: dealer pegging {dealer_peg:.2f}, hand "
        f"{dist.dealer_hand @ points[: len(dist.dealer_hand)]:.2f}, crib "
        f"{dist.crib @ points[: len(dist.crib)]:.2f}; pone pegging {pone_peg:.2f}, hand "
        f"{dist.pone_hand @ points[: len(dist.pone_hand)]:.2f}"
    )
    print(f"wrote {args.out} in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
