"""The rest of a play at a table of three or four searched to its end with every hand known:
what each card we may lay now is worth, summed over hands the other seats may hold (the
master's sampled play at the table, ``engine.computer.table_sampled``).

Ranks only (suits never score in the play); seats are counted from ours (0 is us, 1 the
seat after us). The rules are the game's (``engine.rules.game.Game._pass_turn``): a seat
that cannot lay a card is out of the count, the last to play plays on while the others are
out, when nobody can the last player pegs one for the go and the next seat holding a card
leads; 31 ends a count without that point; the last card of the hand pegs one for last.

A line is worth to each side its chance to win moved linearly by the points each side
pegged along it (``TableScore``: the board's value of a point to each side, as
``engine.computer.table_play`` reads it from the win tables); a side reaching 121 wins
there. Four players are two partnerships: a zero-sum game, searched as a minimax on our
side's value with alpha-beta (partners take the best for us, opponents the worst). Three
players are three sides each playing for itself: a max-n search, each seat taking the card
best for its own side's value (among equals the worse for us), and no cut-offs. Not
paranoid (both rivals against us, which alpha-beta could prune): the experts at the table
play for their own points, and the rivals modelled as playing to hurt us screened 1.3
points worse at three (bench/master_strength.py's docstring).

The search runs in C (engine/computer/_table_peg.c) where it was built; the Python here is
its twin, with the same cut-offs and the same sums to the bit, and the tests compare both
with a plain search over every line (tests/engine/computer/test_table_full_play.py).

>>> score = TableScore((0, 1, 2), (0.0, 0.0, 0.0), ((1.0, -0.5, -0.5),) * 3, (99, 99, 99))
>>> table_full_play_values((5,), [((10,), ())], (), 0, exact=False, score=score)
{5: -1.5}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from compiled_parts import Twin
from engine.computer.full_play import MOST_IN_HAND, MOST_ON_COUNT, MOST_SAMPLES, fitting_ranks
from engine.computer.pegging import peg_points
from engine.rules.cards import PIPS
from engine.rules.errors import IllegalActionError

SEATS: Final = (3, 4)
INFINITY: Final = float("inf")
# A side that cannot reach 121 in this play (the need of a search for points).
FAR: Final = 1 << 30

Value = tuple[float, ...]
Hands = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class TableScore:
    """What a line is worth. ``side_of[s]``: the side of seat ``s`` (0 ours, sides numbered
    in the order of the seats after us); ``base[i]``: side i's chance now; ``worth[i][j]``:
    what a point to side j is worth to side i; ``need[i]``: the points side i needs to win
    (``FAR`` for none). Raises IllegalActionError for a table the search does not cover."""

    side_of: tuple[int, ...]
    base: tuple[float, ...]
    worth: tuple[tuple[float, ...], ...]
    need: tuple[int, ...]

    def __post_init__(self) -> None:
        sides = len(self.need)
        if len(self.side_of) not in SEATS or self.side_of[0] != 0:
            raise IllegalActionError("three or four seats, ours first")
        if sorted(set(self.side_of)) != list(range(sides)) or sides not in (2, 3):
            raise IllegalActionError("two or three sides, each with a seat")
        if len(self.base) != sides or any(len(row) != sides for row in self.worth):
            raise IllegalActionError("a base and a row of worths for each side")
        if len(self.worth) != sides or any(not 1 <= need <= FAR for need in self.need):
            raise IllegalActionError("a row of worths and a need from 1 for each side")


def table_full_play_values(
    mine: Sequence[int],
    hands: Sequence[Sequence[Sequence[int]]],
    seq: Sequence[int],
    out: int,
    *,
    exact: bool,
    score: TableScore,
) -> dict[int, float]:
    """For each rank in ``mine`` (our ranks) that fits on ``seq`` (the count's ranks in play
    order), the mean over ``hands`` (one sample each: the other seats' ranks, seat 1 first)
    of our side's value when we lay it and every seat then plays as the module docstring
    says, knowing every hand. ``out``: a bit for each seat out of this count (said go; bit
    0, ours, clear). Raises IllegalActionError for a rank outside 1..13, more than four of a
    rank in play, a count past 31, no sample, samples whose seats hold different numbers of
    cards, or anything beyond the bounds of ``engine.computer.full_play``."""
    checked = _checked(mine, hands, seq, out, score)
    sums = TABLE_FULL_PLAY.chosen(*checked, out, exact, score)
    return {rank: total / len(hands) for rank, total in sums.items()}


def _checked(
    mine: Sequence[int],
    hands: Sequence[Sequence[Sequence[int]]],
    seq: Sequence[int],
    out: int,
    score: TableScore,
) -> tuple[tuple[int, ...], tuple[Hands, ...], tuple[int, ...]]:
    mine_t, seq_t = tuple(mine), tuple(seq)
    samples = tuple(tuple(tuple(hand) for hand in sample) for sample in hands)
    if not samples or len(samples) > MOST_SAMPLES:
        raise IllegalActionError(f"from 1 to {MOST_SAMPLES} samples are searched")
    seats = len(score.side_of)
    if len({tuple(map(len, sample)) for sample in samples}) != 1 or len(samples[0]) != seats - 1:
        raise IllegalActionError("every sample holds a hand of as many cards for each seat")
    if len(mine_t) > MOST_IN_HAND or any(len(hand) > MOST_IN_HAND for hand in samples[0]):
        raise IllegalActionError(f"a hand holds at most {MOST_IN_HAND} cards here")
    if len(seq_t) > MOST_ON_COUNT:
        raise IllegalActionError(f"a count holds at most {MOST_ON_COUNT} cards")
    if not isinstance(out, int) or not 0 <= out < 1 << seats or out & 1:
        raise IllegalActionError("out is a bit for each seat but ours")
    for sample in samples:
        in_play = (*mine_t, *seq_t, *(rank for hand in sample for rank in hand))
        if any(not isinstance(rank, int) or not 1 <= rank <= 13 for rank in in_play):
            raise IllegalActionError("ranks are whole numbers 1 to 13")
        if any(in_play.count(rank) > 4 for rank in set(in_play)):
            raise IllegalActionError("no rank is in play more than four times")
    if sum(PIPS[rank] for rank in seq_t) > 31:
        raise IllegalActionError("the count cannot pass 31")
    return mine_t, samples, seq_t


def _search_sums(
    mine: tuple[int, ...],
    hands: tuple[Hands, ...],
    seq: tuple[int, ...],
    out: int,
    exact: bool,
    score: TableScore,
    cut: bool = True,
) -> dict[int, float]:
    """The sum over ``hands`` of each fitting rank's value (checked arguments). ``cut``
    False searches every line (no alpha-beta at four): the tests' plain minimax."""
    count = sum(PIPS[rank] for rank in seq)
    fitting = fitting_ranks(mine, seq)
    sums = dict.fromkeys(fitting, 0.0)
    start = (0,) * len(score.need)
    for sample in hands:
        line = _TableLine(mine, sample, exact, score, cut)
        for rank in fitting:
            sums[rank] += line.lay(seq, count, 0, rank, out, start, -INFINITY, INFINITY)[0]
    return sums


class _TableLine:
    """One sample's search, in the Python: the C's twin, the same rules, the same order of
    cards (ranks upwards) and the same cut-offs."""

    def __init__(
        self, mine: tuple[int, ...], others: Hands, exact: bool, score: TableScore, cut: bool
    ) -> None:
        self.exact = exact
        self.score = score
        self.side_of = score.side_of
        self.seats = len(score.side_of)
        self.sides = len(score.need)
        self.max_n = self.sides > 2
        self.cut = cut and not self.max_n
        self.hand = [[0] * 14 for _ in range(self.seats)]
        for seat, ranks in enumerate((mine, *others)):
            for rank in ranks:
                self.hand[seat][rank] += 1
        self.held = [len(mine), *map(len, others)]
        self.total = sum(self.held)

    def leaf(self, points: Sequence[int]) -> Value:
        """Each side's value (ours alone at four) after the play, ``points`` pegged."""
        rows = range(self.sides if self.max_n else 1)
        values = []
        for side in rows:
            value = self.score.base[side]
            for other, worth in enumerate(self.score.worth[side]):
                value += worth * points[other]
            values.append(value)
        return tuple(values)

    def won(self, side: int) -> Value:
        return tuple(1.0 if other == side else 0.0 for other in range(self.sides))

    def lay(
        self,
        seq: tuple[int, ...],
        count: int,
        seat: int,
        rank: int,
        out: int,
        points: tuple[int, ...],
        alpha: float,
        beta: float,
    ) -> Value:
        """``seat`` lays ``rank`` on ``seq`` (``count`` its pips)."""
        seq = (*seq, rank)
        count += PIPS[rank]
        self.hand[seat][rank] -= 1
        self.held[seat] -= 1
        self.total -= 1
        try:
            side = self.side_of[seat]
            need = self.score.need[side]
            scored = list(points)
            scored[side] += peg_points(seq, count, self.exact)
            if scored[side] >= need:
                return self.won(side)
            if not self.total:
                if count != 31:
                    scored[side] += 1  # one for last
                    if scored[side] >= need:
                        return self.won(side)
                return self.leaf(scored)
            if count == 31:
                return self.next((), 0, seat, seat, 0, tuple(scored), alpha, beta)
            return self.next(seq, count, seat, seat, out, tuple(scored), alpha, beta)
        finally:
            self.hand[seat][rank] += 1
            self.held[seat] += 1
            self.total += 1

    def next(
        self,
        seq: tuple[int, ...],
        count: int,
        after: int,
        last: int,
        out: int,
        points: tuple[int, ...],
        alpha: float,
        beta: float,
    ) -> Value:
        """The turn passes on from ``after``; ``last`` laid the count's last card."""
        for offset in range(1, self.seats + 1):
            seat = (after + offset) % self.seats
            if self.held[seat] and not out >> seat & 1:
                return self.turn(seq, count, seat, last, out, points, alpha, beta)
        side = self.side_of[last]  # nobody can lay a card: one for the go, a new count
        scored = list(points)
        scored[side] += 1
        if scored[side] >= self.score.need[side]:
            return self.won(side)
        return self.next((), 0, last, last, 0, tuple(scored), alpha, beta)

    def turn(
        self,
        seq: tuple[int, ...],
        count: int,
        seat: int,
        last: int,
        out: int,
        points: tuple[int, ...],
        alpha: float,
        beta: float,
    ) -> Value:
        """``seat`` lays a card or says go."""
        side = self.side_of[seat]
        hand = self.hand[seat]
        best: Value | None = None
        for rank in range(1, 14):
            if not hand[rank] or count + PIPS[rank] > 31:
                continue
            value = self.lay(seq, count, seat, rank, out, points, alpha, beta)
            if best is None or self.better(side, value, best):
                best = value
            if self.cut:
                if side == 0:
                    alpha = max(alpha, best[0])
                else:
                    beta = min(beta, best[0])
                if alpha >= beta:
                    break
        if best is not None:
            return best
        return self.next(seq, count, seat, last, out | 1 << seat, points, alpha, beta)

    def better(self, side: int, value: Value, best: Value) -> bool:
        if side == 0:
            return value[0] > best[0]
        if not self.max_n:
            return value[0] < best[0]
        return value[side] > best[side] or (value[side] == best[side] and value[0] < best[0])


def _search_sums_in_c(search: Callable[..., list[float]]) -> Callable[..., dict[int, float]]:
    """``_search_sums`` with engine/computer/_table_peg.c's ``search_sums``."""

    def search_sums_in_c(
        mine: tuple[int, ...],
        hands: tuple[Hands, ...],
        seq: tuple[int, ...],
        out: int,
        exact: bool,
        score: TableScore,
    ) -> dict[int, float]:
        flat = bytes(rank for sample in hands for hand in sample for rank in hand)
        sums = search(
            bytes(mine),
            flat,
            bytes(len(hand) for hand in hands[0]),
            len(hands),
            bytes(seq),
            out,
            exact,
            bytes(score.side_of),
            tuple(map(float, score.base)),
            tuple(float(worth) for row in score.worth for worth in row),
            tuple(map(int, score.need)),
        )
        return {rank: sums[rank] for rank in fitting_ranks(mine, seq)}

    return search_sums_in_c


TABLE_FULL_PLAY: Final = Twin[Callable[..., dict[int, float]]](
    "engine.computer._table_peg",
    python=_search_sums,
    compiled=lambda c: _search_sums_in_c(c.search_sums),
)
"""The full search of a play at the table over sampled hands, in C where
engine/computer/_table_peg.c was built."""
