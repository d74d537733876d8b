"""The rest of a two-player play searched to its end with both hands known: what each card
we may lay now is worth, averaged over hands the opponent may hold (the master's sampled
play, ``engine.computer.sampled_play``).

Ranks only (suits never score in the play). We take the best card for us, the opponent the
worst for us, each knowing the other's cards: a minimax over every order the cards can
come in, with the go, 31, the last card, pairs, runs (free or exact) and fifteens as
``engine.rules.game`` scores them. A line is worth its ``PlayScore``: the points we peg
less theirs, or, near the end of the game, the chance to win once the play is over (a line
that reaches 121 is won or lost there).

The search runs in C (engine/computer/_peg.c) where it was built; the Python here is its
twin, with the same alpha-beta cut-offs, and the tests compare both with a plain minimax
over every line (tests/engine/computer/test_full_play.py).

>>> score = PlayScore.points()
>>> full_play_values((5,), [(10,)], (), opp_said_go=False, exact=False, score=score)
{5: -3.0}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from compiled_parts import Twin
from engine.computer.pegging import peg_points
from engine.odds.hand_tables import FloatArray
from engine.odds.position import GOAL
from engine.rules.cards import PIPS
from engine.rules.errors import IllegalActionError

# Bounds on what the search accepts (the C's too): a hand, the cards on the count, the
# hands sampled. Two players hold four cards each in the play; the count holds at most
# thirteen cards (four aces, four twos, four threes and a ten make 31 with twelve).
MOST_IN_HAND: Final = 6
MOST_ON_COUNT: Final = 13
MOST_SAMPLES: Final = 4096
ME: Final = 0
OPP: Final = 1


@dataclass(frozen=True)
class PlayScore:
    """What a line of the play is worth to us. ``table`` None: the points we peg less
    theirs. Otherwise the chance to win, ``table[our score][their score]`` once the play
    is over (121 by 121), from ``my_score`` and ``opp_score`` now; reaching 121 wins."""

    table: FloatArray | None = None
    my_score: int = 0
    opp_score: int = 0

    @classmethod
    def points(cls) -> PlayScore:
        return cls()

    @classmethod
    def chance(cls, table: FloatArray, my_score: int, opp_score: int) -> PlayScore:
        """Raises IllegalActionError unless ``table`` is 121 by 121 and the scores are on
        the board short of 121."""
        if table.shape != (GOAL, GOAL) or table.dtype != np.float64:
            raise IllegalActionError("the chance table is 121 by 121 float64")
        if not (0 <= my_score < GOAL and 0 <= opp_score < GOAL):
            raise IllegalActionError("scores are 0 to 120 while the play goes on")
        return cls(np.ascontiguousarray(table), my_score, opp_score)


def full_play_values(
    mine: Sequence[int],
    hands: Sequence[Sequence[int]],
    seq: Sequence[int],
    *,
    opp_said_go: bool,
    exact: bool,
    score: PlayScore,
) -> dict[int, float]:
    """For each rank in ``mine`` (our ranks) that fits on ``seq`` (the count's ranks in play
    order), the mean over ``hands`` (the opponent's ranks, one hand a sample) of the line's
    worth when we lay it and both sides then play their best, knowing each other's cards.
    ``opp_said_go``: the opponent has passed on this count. Raises IllegalActionError for a
    rank outside 1..13, more than four of a rank in play, a count past 31, no sample, hands
    of different sizes or beyond the bounds above."""
    checked = _checked(mine, hands, seq)
    sums = FULL_PLAY.chosen(*checked, opp_said_go, exact, score)
    return {rank: total / len(hands) for rank, total in sums.items()}


def _checked(
    mine: Sequence[int], hands: Sequence[Sequence[int]], seq: Sequence[int]
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    mine_t, seq_t = tuple(mine), tuple(seq)
    hands_t = tuple(tuple(hand) for hand in hands)
    if not hands_t or len(hands_t) > MOST_SAMPLES:
        raise IllegalActionError(f"from 1 to {MOST_SAMPLES} hands are searched")
    if len({len(hand) for hand in hands_t}) != 1:
        raise IllegalActionError("the sampled hands all hold as many cards")
    if len(mine_t) > MOST_IN_HAND or len(hands_t[0]) > MOST_IN_HAND:
        raise IllegalActionError(f"a hand holds at most {MOST_IN_HAND} cards here")
    if len(seq_t) > MOST_ON_COUNT:
        raise IllegalActionError(f"a count holds at most {MOST_ON_COUNT} cards")
    for ranks in (mine_t, seq_t, *hands_t):
        if any(not isinstance(rank, int) or not 1 <= rank <= 13 for rank in ranks):
            raise IllegalActionError("ranks are whole numbers 1 to 13")
    for hand in hands_t:
        in_play = (*mine_t, *seq_t, *hand)
        if any(in_play.count(rank) > 4 for rank in set(in_play)):
            raise IllegalActionError("no rank is in play more than four times")
    if sum(PIPS[rank] for rank in seq_t) > 31:
        raise IllegalActionError("the count cannot pass 31")
    return mine_t, hands_t, seq_t


def fitting_ranks(mine: Sequence[int], seq: Sequence[int]) -> list[int]:
    """The ranks of ``mine`` that may be laid on the count ``seq`` (ranks), each once, low
    first: the cards a full search values (both twins, and the table's)."""
    count = sum(PIPS[rank] for rank in seq)
    return sorted({rank for rank in mine if count + PIPS[rank] <= 31})


def _search_sums(
    mine: tuple[int, ...],
    hands: tuple[tuple[int, ...], ...],
    seq: tuple[int, ...],
    opp_said_go: bool,
    exact: bool,
    score: PlayScore,
    cut: bool = True,
) -> dict[int, float]:
    """The sum over ``hands`` of each fitting rank's value (checked arguments). ``cut``
    False searches every line (no alpha-beta): the tests' plain minimax."""
    fitting = fitting_ranks(mine, seq)
    sums = dict.fromkeys(fitting, 0.0)
    for hand in hands:
        line = _Line(exact, score, cut)
        for rank in fitting:
            sums[rank] += line.after_root(list(mine), list(hand), seq, rank, opp_said_go)
    return sums


INFINITY: Final = float("inf")


class _Line:
    """One sampled hand's minimax, in the Python: the C's twin, the same rules and the same
    alpha-beta cut-offs (each card we may lay now searched with the full window, so its
    value is exact either way)."""

    def __init__(self, exact: bool, score: PlayScore, cut: bool = True) -> None:
        self.exact = exact
        self.cut = cut
        self.table = score.table
        self.start = (score.my_score, score.opp_score)
        far = 1 << 30
        scored = self.table is not None
        self.need = (GOAL - score.my_score, GOAL - score.opp_score) if scored else (far, far)

    def after_root(
        self, mine: list[int], theirs: list[int], seq: tuple[int, ...], rank: int, passed: bool
    ) -> float:
        return self._lay([mine, theirs], seq, ME, rank, passed, [0, 0], -INFINITY, INFINITY)

    def _end(self, points: list[int]) -> float:
        if self.table is None:
            return float(points[ME] - points[OPP])
        return float(self.table[self.start[0] + points[ME], self.start[1] + points[OPP]])

    def _won(self, side: int) -> float:
        return 1.0 if side == ME else 0.0

    def _lay(
        self,
        hands: list[list[int]],
        seq: tuple[int, ...],
        mover: int,
        rank: int,
        passed: bool,
        points: list[int],
        alpha: float,
        beta: float,
    ) -> float:
        """``mover`` lays ``rank`` on ``seq``; ``passed``: the other side has said go."""
        seq = (*seq, rank)
        count = sum(PIPS[r] for r in seq)
        hand = list(hands[mover])
        hand.remove(rank)
        hands = [hand, hands[OPP]] if mover == ME else [hands[ME], hand]
        points = list(points)
        points[mover] += peg_points(seq, count, self.exact)
        if points[mover] >= self.need[mover]:
            return self._won(mover)
        if not hands[ME] and not hands[OPP]:
            if count != 31:
                points[mover] += 1  # one for last
                if points[mover] >= self.need[mover]:
                    return self._won(mover)
            return self._end(points)
        if count == 31:
            return self._new_count(hands, 1 - mover, mover, points, alpha, beta)
        if passed:
            return self._turn(hands, seq, mover, True, mover, points, alpha, beta)
        return self._turn(hands, seq, 1 - mover, False, mover, points, alpha, beta)

    def _turn(
        self,
        hands: list[list[int]],
        seq: tuple[int, ...],
        side: int,
        passed: bool,
        last: int,
        points: list[int],
        alpha: float,
        beta: float,
    ) -> float:
        """``side`` to lay a card or say go; ``passed``: the other side has said go;
        ``last`` laid the count's last card."""
        count = sum(PIPS[r] for r in seq)
        fitting = sorted({r for r in hands[side] if count + PIPS[r] <= 31})
        if not fitting:
            if passed:  # nobody can lay a card: one for the go, then a new count
                points = list(points)
                points[last] += 1
                if points[last] >= self.need[last]:
                    return self._won(last)
                return self._new_count(hands, 1 - last, last, points, alpha, beta)
            return self._turn(hands, seq, 1 - side, True, last, points, alpha, beta)
        best = -INFINITY if side == ME else INFINITY
        for rank in fitting:
            value = self._lay(hands, seq, side, rank, passed, points, alpha, beta)
            if side == ME:
                best = max(best, value)
                alpha = max(alpha, best) if self.cut else alpha
            else:
                best = min(best, value)
                beta = min(beta, best) if self.cut else beta
            if alpha >= beta:
                break
        return best

    def _new_count(
        self,
        hands: list[list[int]],
        leader: int,
        last: int,
        points: list[int],
        alpha: float,
        beta: float,
    ) -> float:
        if not hands[leader]:
            leader = 1 - leader
        return self._turn(hands, (), leader, False, last, points, alpha, beta)


def _search_sums_in_c(search: Callable[..., list[float]]) -> Callable[..., dict[int, float]]:
    """``_search_sums`` with engine/computer/_peg.c's ``search_sums``."""

    def search_sums_in_c(
        mine: tuple[int, ...],
        hands: tuple[tuple[int, ...], ...],
        seq: tuple[int, ...],
        opp_said_go: bool,
        exact: bool,
        score: PlayScore,
    ) -> dict[int, float]:
        flat = bytes(rank for hand in hands for rank in hand)
        sums = search(
            bytes(mine),
            flat,
            len(hands),
            bytes(seq),
            opp_said_go,
            exact,
            score.table,
            score.my_score,
            score.opp_score,
        )
        return {rank: sums[rank] for rank in fitting_ranks(mine, seq)}

    return search_sums_in_c


FULL_PLAY: Final = Twin[Callable[..., dict[int, float]]](
    "engine.computer._peg",
    python=_search_sums,
    compiled=lambda c: _search_sums_in_c(c.search_sums),
)
"""The full search of the play over sampled hands, in C where engine/computer/_peg.c was
built."""
