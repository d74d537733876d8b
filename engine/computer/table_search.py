"""Pegging search at a table of three or four: every seat in turn, not one opponent.

Seats are counted from ours: 0 is us, 1 the seat after us, and so on round the table.
Like ``engine.computer.pegging.PegSearch`` it works on ranks and is an expectimax: on our
turn we take the best card; another seat's cards are unknown, drawn from the unseen pool,
so each card it could lay is weighted by the chance that it is the one that seat would
choose among those it holds (hypergeometric: it holds that card and none it would rather
lay), and it says go with the chance it holds nothing that fits. A partner lays what is
best for our side; an opponent at four (one rival partnership) what is worst for us; an
opponent at three takes the most points it can, the worse for us among equals, because
each of two rivals plays for itself and not to hurt us.

The rules are the game's (``engine.rules.game.Game._pass_turn``): a seat that cannot lay
a card is out of the count; the last to play plays on while others are out; when nobody
can, the last player pegs one for the go and the seat after them leads the next count;
31 ends a count without that point; the last card of the hand pegs one for last.

Lines are valued by ``utility``: a side reaching 121 wins at once; otherwise our chance
to win moved by each side's points at the board's value of a point to that side
(``engine.computer.table_play``), so that points left to the leader cost more than points
left to a player far behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.computer.pegging import chance_none_held, replies_to

Pool = tuple[int, ...]
Points = tuple[int, ...]
# What a line of the search holds after the cards laid along it: our ranks, how many cards
# each seat holds (counted from ours), the unseen cards by rank, and the points each side
# pegged on it. A plain tuple: built at most nodes, where a NamedTuple's construction made
# the search a tenth slower.
Line = tuple[tuple[int, ...], tuple[int, ...], Pool, Points]


class OutOfNodes(Exception):
    """The search visited its ``budget`` of nodes: its caller keeps a shallower answer."""


@dataclass
class TableSearch:
    """One decision's search. ``side_of[s]`` is the side of relative seat ``s`` (0 ours);
    ``point_value[side]`` what a point to that side is worth to us (negative for a rival
    side); ``need[side]`` the points that side needs to win; ``base`` our chance now."""

    exact: bool
    side_of: tuple[int, ...]
    point_value: tuple[float, ...]
    need: tuple[int, ...]
    base: float
    nodes: int = 0
    # Nodes the search may visit before it gives up (None: no limit): see OutOfNodes.
    budget: int | None = None
    seats: int = field(init=False)
    rivals_play_for_points: bool = field(init=False)

    def __post_init__(self) -> None:
        self.seats = len(self.side_of)
        # Three sides: each rival plays for itself (see the module docstring).
        self.rivals_play_for_points = len(self.need) > 2

    def utility(self, points: Points) -> float:
        return self.base + sum(v * p for v, p in zip(self.point_value, points, strict=True))

    def choose(
        self,
        mine: tuple[int, ...],
        held: tuple[int, ...],
        seq: tuple[int, ...],
        pool: Sequence[int],
        out: int,
        depth: int,
    ) -> dict[int, float]:
        """The value of each distinct rank of ``mine`` that fits on the count ``seq``.
        ``held[s]`` is how many cards seat ``s`` holds, ``out`` a bit for each seat out of
        this count (said go), ``depth`` how many cards to look ahead."""
        values = {}
        start = (0,) * len(self.need)
        flat = iter(replies_to(seq, self.exact))
        for rank, count, points in zip(flat, flat, flat, strict=True):
            if rank in mine:
                line = (_remove(mine, rank), held, tuple(pool), start)
                values[rank] = self._after_play(0, rank, count, points, line, seq, out, depth)
        return values

    def _visit(self) -> None:
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise OutOfNodes

    # --- the tree -----------------------------------------------------------------
    # Each turn takes the ``line`` so far and the count it is on: ``seq`` its ranks,
    # ``count`` their total, ``out`` a bit for each seat out of it, ``last`` the seat that
    # laid its last card; ``depth`` is the cards still to look ahead.

    def _after_play(
        self,
        seat: int,
        rank: int,
        count: int,
        points: int,
        line: Line,
        seq: tuple[int, ...],
        out: int,
        depth: int,
    ) -> float:
        """After ``seat`` laid ``rank`` on ``seq`` (``line`` holds our cards and the pool
        without it already)."""
        mine, held, pool, scored = line
        held = held[:seat] + (held[seat] - 1,) + held[seat + 1 :]
        side = self.side_of[seat]
        if points:
            scored = _add(scored, side, points)
            if scored[side] >= self.need[side]:
                return 1.0 if side == 0 else 0.0
        if not any(held):
            if count != 31:  # one for last
                scored = _add(scored, side, 1)
                if scored[side] >= self.need[side]:
                    return 1.0 if side == 0 else 0.0
            return self.utility(scored)
        if depth <= 1:
            return self.utility(scored)
        line = (mine, held, pool, scored)
        if count == 31:
            return self._lead(seat, line, depth - 1)
        return self._next(seat, seat, line, seq + (rank,), count, out, depth - 1)

    def _next(
        self,
        after: int,
        last: int,
        line: Line,
        seq: tuple[int, ...],
        count: int,
        out: int,
        depth: int,
    ) -> float:
        """The turn passes on from ``after``."""
        held = line[1]
        for offset in range(1, self.seats + 1):
            seat = (after + offset) % self.seats
            if held[seat] and not out >> seat & 1:
                if seat == 0:
                    return self._my_turn(line, seq, count, out, last, depth)
                return self._their_turn(seat, line, seq, count, out, last, depth)
        return self._count_over(last, line, depth)

    def _count_over(self, last: int, line: Line, depth: int) -> float:
        """Nobody can lay a card: one for the go to ``last``, and a new count."""
        side = self.side_of[last]
        mine, held, pool, scored = line
        scored = _add(scored, side, 1)
        if scored[side] >= self.need[side]:
            return 1.0 if side == 0 else 0.0
        return self._lead(last, (mine, held, pool, scored), depth)

    def _lead(self, last: int, line: Line, depth: int) -> float:
        """A new count, led by the first seat after ``last`` who holds a card."""
        return self._next(last, last, line, (), 0, 0, depth)

    def _my_turn(
        self, line: Line, seq: tuple[int, ...], count: int, out: int, last: int, depth: int
    ) -> float:
        self._visit()
        best: float | None = None
        mine, held, pool, scored = line
        flat = iter(replies_to(seq, self.exact))
        for rank, count2, points in zip(flat, flat, flat, strict=True):
            if rank in mine:
                after = (_remove(mine, rank), held, pool, scored)
                value = self._after_play(0, rank, count2, points, after, seq, out, depth)
                if best is None or value > best:
                    best = value
        if best is not None:
            return best
        return self._next(0, last, line, seq, count, out | 1, depth)

    def _their_turn(
        self,
        seat: int,
        line: Line,
        seq: tuple[int, ...],
        count: int,
        out: int,
        last: int,
        depth: int,
    ) -> float:
        self._visit()
        mine, held, pool, scored = line
        none = chance_none_held(sum(pool), held[seat])
        options: list[tuple[float, float, int]] = []  # (preference, value, cards)
        partner = self.side_of[seat] == 0
        for_points = self.rivals_play_for_points and not partner
        flat = iter(replies_to(seq, self.exact))
        side = self.side_of[seat]
        last_card = sum(held) == 1
        for rank, count2, points in zip(flat, flat, flat, strict=True):
            n = pool[rank]
            if not n:
                continue
            if depth <= 1 and not last_card:  # a leaf: no need to lay the card
                gained = scored[side] + points
                if gained >= self.need[side]:
                    value = 1.0 if side == 0 else 0.0
                else:
                    value = self.utility(_add(scored, side, points))
            else:
                taken = (mine, held, pool[:rank] + (n - 1,) + pool[rank + 1 :], scored)
                value = self._after_play(seat, rank, count2, points, taken, seq, out, depth)
            if partner:
                preference = -value
            elif for_points:
                preference = -points + 1e-3 * value  # points first, then the worse for us
            else:
                preference = value
            options.append((preference, value, n))
        options.sort(key=_first)
        fitting = sum(n for _, _, n in options)
        expected = 0.0
        p_go = none[fitting]
        if p_go > 0:
            go = self._next(seat, last, line, seq, count, out | 1 << seat, depth)
            expected = p_go * go
        covered = 0
        previous_none = 1.0
        for _, value, n in options:
            covered += n
            now_none = none[covered]
            expected += (previous_none - now_none) * value
            previous_none = now_none
        return expected


def _first(option: tuple[float, float, int]) -> float:
    return option[0]


def _add(scored: Points, side: int, points: int) -> Points:
    return scored[:side] + (scored[side] + points,) + scored[side + 1 :]


def _remove(cards: tuple[int, ...], rank: int) -> tuple[int, ...]:
    i = cards.index(rank)
    return cards[:i] + cards[i + 1 :]
