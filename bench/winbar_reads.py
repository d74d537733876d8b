"""Would the win bar's seat's view be better reading the other hand as the master does?

The seat's view (``engine.odds.winbar.hand_distribution``) takes the measured average for
the other player's hand until all four of its cards are seen. The master knows more of
it: their hand drawn through the expert's discard (``engine.computer.discard_draws``) from
the cards the seat has not seen, with the cards they laid, their goes, the points they
passed up and their first cards read. This bench reads the hand that way
(``read_hand_distribution``: 64 hands, their suits drawn) and puts both in front of real
games, paired: two-player self-play at ``--level``, at the moments
bench/winprob_calibration.py picks (about one action in fifty), the seat to move's bar
worked out both ways, and booked against who won. It prints, for each way:

- the Brier score and log loss of the bar, and the paired difference with its 95 %
  interval (the bins' calibration cannot see a change this small: a 5-point bin of a few
  hundred positions is a few points wide);
- the mean |observed - predicted| over 5-point bins, as the calibration bench does;
- how well the other hand's points were foretold (squared error of the mean, and the
  log-likelihood of the points it scored), at every booked moment it was not yet seen;
- the process time of a bar.

    nice -n 10 python bench/winbar_reads.py --games 4000 --jobs 2

Run so on 2026-11-29 (9,808 positions, the other hand foretold at 6,320 moments): the read
foretells the hand far better (squared error 13.67 -> 10.16, log-likelihood -2.481 ->
-2.197), but the bar only a little: Brier 0.16700 -> 0.16615 (the gain's 95 % interval
+0.00019 to +0.00152), log loss 0.49243 -> 0.48979 (+0.00095 to +0.00434), the bins' 1.50
-> 1.70 within their noise. A bar took 1.300 ms of process time where the shipped one takes
0.116: more than twice the door's whole CPU a key (issue #48) for half a percent of Brier
score, so the door keeps the average. Reading the hand cheaply enough (the expert's keeps
weighed over all six-card hands at once, not drawn one by one) would change that.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.computer.discard_draws import FEWEST_ACCEPTED, hands_through_discard  # noqa: E402
from engine.computer.levels import ENDGAME_FROM  # noqa: E402
from engine.computer.opponent import declined_ranks, least_pips_left  # noqa: E402
from engine.computer.play import opponents_first_play, pones_second_play  # noqa: E402
from engine.computer.player import ComputerPlayer  # noqa: E402
from engine.computer.selfplay import next_action  # noqa: E402
from engine.odds import winbar  # noqa: E402
from engine.odds.hand_tables import FloatArray  # noqa: E402
from engine.rules.cards import FULL_DECK, Card  # noqa: E402
from engine.rules.game import Game, Phase  # noqa: E402
from engine.rules.scoring import score_show  # noqa: E402

SAMPLE = 0.02
HANDS_DRAWN = 64
BINS = 20
AVERAGE, READ = 0, 1
SHIPPED = winbar.hand_distribution


def read_hand_distribution(game: Game, view: winbar.View, seat: int) -> FloatArray | None:
    """What ``seat``'s four cards may score, as ``view`` (the other seat of a two-player
    game, once it has kept its four) sees it, read as the master reads the hand; None
    where nothing is read (fewer than ``FEWEST_ACCEPTED`` hands fit what they did)."""
    viewer = view.seat
    if game.players != 2 or viewer is None or viewer == seat or not game.kept(viewer):
        return None
    laid = [play.card for play in game.plays if play.seat == seat]
    unseen = [card for card in FULL_DECK if not view.seen_bits & card.bit]
    counts = [0] * 14
    by_rank: dict[int, list[Card]] = {}
    for card in unseen:
        counts[card.rank] += 1
        by_rank.setdefault(int(card.rank), []).append(card)
    dealer = viewer == game.dealer
    played = [play.card for play in game.plays]
    reads = max(game.scores) < ENDGAME_FROM  # as the master reads them
    rng = random.Random(view.seen_bits * 4 + seat * 2 + dealer)  # the same for a moment
    hands = hands_through_discard(
        counts,
        [int(card.rank) for card in laid],
        "pone" if dealer else "dealer",
        least_pips=least_pips_left(game, viewer),
        declined=declined_ranks(game, viewer),
        samples=HANDS_DRAWN,
        rng=rng,
        first_play=opponents_first_play(played, dealer) if reads else None,
        second_play=pones_second_play(played, dealer) if reads else None,
    )
    if len(hands) < FEWEST_ACCEPTED:
        return None
    points = np.zeros(winbar.SHOW_POINTS)
    for ranks in hands:
        held: list[Card] = []
        for rank in ranks:  # their suits drawn: the expert's throws are read by rank
            held.append(rng.choice([card for card in by_rank[rank] if card not in held]))
        starter = game.starter
        if starter is None:  # not cut yet: one of the cards neither hand holds
            starter = rng.choice([card for card in unseen if card not in held])
        points[score_show((*laid, *held), starter, crib=False).total] += 1.0
    dist: FloatArray = points / points.sum()
    return dist


def _reading(read: bool) -> Callable[[Game, winbar.View, int], FloatArray]:
    """The win bar's ``hand_distribution`` as shipped, or with the other hand read."""

    def distribution(game: Game, view: winbar.View, seat: int) -> FloatArray:
        known = SHIPPED(game, view, seat)
        if not read or len([p for p in game.plays if p.seat == seat]) == 4:
            return known
        found = read_hand_distribution(game, view, seat)
        return known if found is None else found

    return distribution


class Booked(NamedTuple):
    bars: list[tuple[float, float, int]]  # (average's chance, read's, won)
    hands: list[tuple[int, float, float, float, float]]  # points, means, likelihoods
    seconds: tuple[float, float]
    positions: int


def run_games(task: tuple[str, int, int]) -> Booked:
    level, seed, games = task
    rng = random.Random(seed)
    ways = (_reading(False), _reading(True))
    bars: list[tuple[float, float, int]] = []
    hands: list[tuple[int, float, float, float, float]] = []
    seconds = [0.0, 0.0]
    for _ in range(games):
        game = Game(2, rng=random.Random(rng.getrandbits(64)), dealer=rng.randrange(2))
        players = [ComputerPlayer(level, random.Random(rng.getrandbits(64))) for _ in range(2)]
        notes: list[tuple[float, float, int]] = []
        foretold: list[tuple[int, FloatArray, FloatArray]] = []
        while game.phase is not Phase.OVER:
            if game.phase is not Phase.DEAL and rng.random() < SAMPLE:
                seat = game.turn if game.turn is not None else 0
                chances = []
                for way, distribution in enumerate(ways):
                    winbar.hand_distribution = distribution  # type: ignore[assignment]
                    started = time.process_time()
                    chances.append(winbar.win_bar(game, seat)[game.side_of(seat)])
                    seconds[way] += time.process_time() - started
                notes.append((chances[AVERAGE], chances[READ], game.side_of(seat)))
                other = 1 - seat
                if game.kept(seat) and sum(p.seat == other for p in game.plays) < 4:
                    view = winbar.view_of(game, seat)
                    dists = [way(game, view, other) for way in ways]
                    foretold.append((other, dists[AVERAGE], dists[READ]))
            kept, starter = (game.kept(0), game.kept(1)), game.starter
            next_action(game, players)
            if foretold and game.phase in (Phase.DEAL, Phase.OVER):
                for other, average, read in foretold:
                    if starter is not None and len(kept[other]) == 4:
                        scored = score_show(kept[other], starter, crib=False).total
                        hands.append(
                            (scored, _mean(average), _mean(read), average[scored], read[scored])
                        )
                foretold = []
        winbar.hand_distribution = SHIPPED
        won = game.winner_side
        bars += [(average, read, int(side == won)) for average, read, side in notes]
    return Booked(bars, hands, (seconds[0], seconds[1]), len(bars))


def _mean(dist: FloatArray) -> float:
    return float(np.arange(len(dist)) @ dist)


def _paired(
    name: str, loss: Callable[[float, int], float], bars: list[tuple[float, float, int]]
) -> None:
    average = [loss(a, won) for a, _, won in bars]
    read = [loss(r, won) for _, r, won in bars]
    gain = [a - r for a, r in zip(average, read, strict=True)]
    mean = sum(gain) / len(gain)
    spread = math.sqrt(sum((g - mean) ** 2 for g in gain) / (len(gain) - 1) / len(gain))
    print(
        f"{name}: average {sum(average) / len(average):.5f}, read {sum(read) / len(read):.5f};"
        f" average - read {mean:+.5f}"
        f" (95 %: {mean - 1.96 * spread:+.5f} to {mean + 1.96 * spread:+.5f})"
    )


def _log_loss(chance: float, won: int) -> float:
    chance = min(max(chance, 1e-6), 1 - 1e-6)
    return -math.log(chance if won else 1 - chance)


def _bins(bars: list[tuple[float, float, int]], way: int) -> float:
    cells = [[0, 0.0, 0] for _ in range(BINS)]
    for bar in bars:
        cell = cells[min(int(bar[way] * BINS), BINS - 1)]
        cell[0] += 1
        cell[1] += bar[way]
        cell[2] += bar[2]
    used = [cell for cell in cells if cell[0]]
    return sum(abs(100 * (cell[2] - cell[1]) / cell[0]) for cell in used) / len(used)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--level", default="expert", choices=("easy", "normal", "expert", "master"))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    per = 50
    tasks = [(args.level, args.seed * 1_000_003 + n, per) for n in range(max(1, args.games // per))]
    bars: list[tuple[float, float, int]] = []
    hands: list[tuple[int, float, float, float, float]] = []
    seconds = [0.0, 0.0]
    with ProcessPoolExecutor(args.jobs) as pool:
        for booked in pool.map(run_games, tasks):
            bars += booked.bars
            hands += booked.hands
            seconds = [s + b for s, b in zip(seconds, booked.seconds, strict=True)]
    print(f"{len(tasks) * per:,} games at {args.level}, {len(bars):,} positions")
    _paired("Brier score", lambda p, won: (p - won) ** 2, bars)
    _paired("log loss", _log_loss, bars)
    print(
        "mean |observed - predicted| over 5-point bins:"
        f" average {_bins(bars, AVERAGE):.2f}, read {_bins(bars, READ):.2f}"
    )
    if hands:
        n = len(hands)
        for way, name in ((AVERAGE, "average"), (READ, "read")):
            squared = sum((h[0] - h[1 + way]) ** 2 for h in hands) / n
            likely = sum(math.log(max(h[3 + way], 1e-4)) for h in hands) / n
            print(
                f"the other hand ({n:,} moments), {name}:"
                f" squared error {squared:.2f}, log-likelihood {likely:.3f}"
            )
    for way, name in ((AVERAGE, "average"), (READ, "read")):
        print(f"a bar, {name}: {1000 * seconds[way] / len(bars):.3f} ms (process time)")


if __name__ == "__main__":
    main()
