"""Pegging search: points now, minus what the opponent can score back.

The search works on ranks only (suits never score in the play). It is an
expectimax over a few plies: on our turn we take the best card; on the
opponent's turn we do not know their cards, only how many they hold and which
cards are unseen, so we rank the cards they could play from their point of
view and weight each by the chance that it is the best card they hold
(hypergeometric: the chance of holding it and none of the better ones). When
they hold nothing that fits they say go, and we play on alone.

Lines are scored by a ``utility(mine, theirs)`` of the points each side pegs
along them: the difference in the middle of the game, the chance to win near
its end (see ``engine.odds.position``); a line that reaches 121 is a win or a
loss at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from engine.rules.cards import PIPS

ME: Final = 1
OPP: Final = 2
NEVER: Final = 1 << 30  # points "needed" to win when the search counts points only

Utility = Callable[[int, int], float]


def peg_points(ranks: tuple[int, ...], count: int, exact: bool) -> int:
    """Points for the last of ``ranks`` (the current count, in play order) at ``count``.

    The same rules as ``engine.rules.scoring.peg_items`` on ranks, which the tests check.
    """
    points = 2 if count == 15 or count == 31 else 0
    last = ranks[-1]
    size = len(ranks)
    same = 1
    while same < size and ranks[-same - 1] == last:
        same += 1
    if same > 1:
        points += (0, 0, 2, 6, 12)[min(same, 4)]  # a fifth never comes: see replies_to
        return points  # a pair ends any run: the last two ranks are equal
    for length in range(size, 2, -1):
        tail = ranks[-length:]
        if exact:
            step = tail[1] - tail[0]
            if step in (1, -1) and all(
                later - earlier == step for earlier, later in zip(tail, tail[1:], strict=False)
            ):
                return points + length
        elif max(tail) - min(tail) == length - 1 and len(set(tail)) == length:
            return points + length
    return points


# Replies are cached as flat tuples of ints (rank, new count, points, rank, ...)
# keyed by tuples of ints: the garbage collector stops tracking such tuples at
# its first look. Nested tuples stay tracked, pile up in the oldest generation
# and make full collections (tens of milliseconds, inside some decision) frequent.
_REPLY_CACHE: Final[tuple[dict[tuple[int, ...], tuple[int, ...]], ...]] = ({}, {})
_REPLY_CACHE_SIZE: Final = 1 << 16


def _run_points(seq: tuple[int, ...], exact: bool) -> dict[int, int]:
    """For each rank that would complete a run on ``seq``, the points of the longest."""
    found: dict[int, int] = {}
    size = len(seq)
    for length in range(size + 1, 2, -1):
        tail = seq[size - length + 1 :]
        if exact:
            step = tail[1] - tail[0]
            if step not in (1, -1) or any(
                later - earlier != step for earlier, later in zip(tail, tail[1:], strict=False)
            ):
                continue
            candidates = [tail[-1] + step]
        else:
            if len(set(tail)) != len(tail):
                continue
            low, high = min(tail), max(tail)
            if high - low == length - 2:  # already consecutive: extend at either end
                candidates = [low - 1, high + 1]
            elif high - low == length - 1:  # one gap inside: fill it
                candidates = [rank for rank in range(low + 1, high) if rank not in tail]
            else:
                continue
        for rank in candidates:
            if 1 <= rank <= 13 and rank not in found:
                found[rank] = length
    return found


def replies_to(seq: tuple[int, ...], exact: bool) -> tuple[int, ...]:
    """Every rank that fits on ``seq``, with the new count and what it pegs,
    the best-pegging first, flat: (rank, count, points, rank, count, points...).

    The same points as ``peg_points`` (the tests compare them), found for all
    thirteen ranks at once.
    """
    cache = _REPLY_CACHE[exact]
    found = cache.get(seq)
    if found is None:
        if len(cache) >= _REPLY_CACHE_SIZE:
            cache.clear()
        found = cache[seq] = _work_out_replies(seq, exact)
    return found


def _work_out_replies(seq: tuple[int, ...], exact: bool) -> tuple[int, ...]:
    count = sum(PIPS[r] for r in seq)
    last = seq[-1] if seq else 0
    same = 0
    while same < len(seq) and seq[-same - 1] == last:
        same += 1
    runs = _run_points(seq, exact) if len(seq) >= 2 else {}
    replies = []
    for rank in range(1, 14):
        total = count + PIPS[rank]
        if total > 31:
            continue
        points = 2 if total == 15 or total == 31 else 0
        if rank == last:
            points += (0, 2, 6, 12, 12)[min(same, 4)]
        else:
            points += runs.get(rank, 0)
        replies.append((rank, total, points))
    replies.sort(key=lambda reply: -reply[2])
    return tuple(value for reply in replies for value in reply)


@lru_cache(maxsize=1 << 12)
def chance_none_held(total: int, held: int, card: int = 1) -> tuple[float, ...]:
    """``[m]``: the chance that ``held`` cards drawn from ``total`` miss ``m`` given cards.

    With ``card`` > 1 the pool is counted in weight units, ``card`` to an average card
    (see ``PegSearch.units``): the same draw without replacement, in those units.
    """
    table = []
    for missing in range(total + 1):
        value = 1.0
        for i in range(held):
            value *= max(total - missing - i * card, 0) / max(total - i * card, 1)
        table.append(value)
    return tuple(table)


@dataclass
class PegSearch:
    """One decision's search. ``unseen[r]`` counts unseen cards of rank r (index 1..13)."""

    exact: bool
    utility: Utility
    my_score: int = 0
    opp_score: int = 0
    goal_mode: bool = False  # True: reaching 121 decides the line
    # Weighted pool: ``unseen`` counts weight units, a card of rank r being ``units[r]``
    # of them and an average card ``card_units``; None counts cards.
    units: tuple[int, ...] | None = None
    card_units: int = 1
    nodes: int = 0
    my_need: int = field(init=False, default=NEVER)
    opp_need: int = field(init=False, default=NEVER)

    def __post_init__(self) -> None:
        # Points each side needs to win on this line; out of reach in points mode.
        self.my_need = 121 - self.my_score if self.goal_mode else NEVER
        self.opp_need = 121 - self.opp_score if self.goal_mode else NEVER

    # --- the tree -----------------------------------------------------------

    def choose(
        self,
        mine: tuple[int, ...],
        seq: tuple[int, ...],
        unseen: list[int],
        opp_cards: int,
        opp_out: bool,
        depth: int,
    ) -> dict[int, float]:
        """Value of each distinct rank we can play now."""
        values = {}
        flat = iter(replies_to(seq, self.exact))
        for rank, count2, points in zip(flat, flat, flat, strict=True):
            if rank in mine:
                values[rank] = self._after_my_play(
                    _remove(mine, rank),
                    seq + (rank,),
                    count2,
                    points,
                    tuple(unseen),
                    opp_cards,
                    opp_out,
                    0,
                    0,
                    depth - 1,
                )
        return values

    def _after_my_play(
        self,
        mine: tuple[int, ...],
        seq: tuple[int, ...],
        count: int,
        points: int,
        unseen: tuple[int, ...],
        opp_cards: int,
        opp_out: bool,
        a: int,
        b: int,
        depth: int,
    ) -> float:
        a += points
        if a >= self.my_need:
            return 1.0
        if count == 31:
            return self._new_count(mine, unseen, opp_cards, OPP, a, b, depth)
        if depth <= 0:
            return self.utility(a, b)
        if opp_out or opp_cards == 0:
            return self._my_turn(mine, seq, count, unseen, opp_cards, True, ME, a, b, depth)
        return self._opp_turn(mine, seq, count, unseen, opp_cards, a, b, depth)

    def _my_turn(
        self,
        mine: tuple[int, ...],
        seq: tuple[int, ...],
        count: int,
        unseen: tuple[int, ...],
        opp_cards: int,
        opp_out: bool,
        last: int,
        a: int,
        b: int,
        depth: int,
    ) -> float:
        self.nodes += 1
        best = None
        flat = iter(replies_to(seq, self.exact))
        for rank, count2, points in zip(flat, flat, flat, strict=True):
            if rank in mine:
                value = self._after_my_play(
                    _remove(mine, rank),
                    seq + (rank,),
                    count2,
                    points,
                    unseen,
                    opp_cards,
                    opp_out,
                    a,
                    b,
                    depth - 1,
                )
                if best is None or value > best:
                    best = value
        if best is not None:
            return best
        if opp_out or opp_cards == 0:
            return self._count_over(mine, unseen, opp_cards, last, a, b, depth)
        return self._opp_turn(mine, seq, count, unseen, opp_cards, a, b, depth, last=last)

    def _opp_turn(
        self,
        mine: tuple[int, ...],
        seq: tuple[int, ...],
        count: int,
        unseen: tuple[int, ...],
        opp_cards: int,
        a: int,
        b: int,
        depth: int,
        last: int = ME,
    ) -> float:
        self.nodes += 1
        flat = iter(replies_to(seq, self.exact))
        total = sum(unseen)
        none = chance_none_held(total, opp_cards, self.card_units)
        units = self.units
        options: list[tuple[float, int]] = []
        leaf = depth <= 1
        utility = self.utility
        for rank, count2, points in zip(flat, flat, flat, strict=True):
            n = unseen[rank]
            if not n:
                continue
            b2 = b + points
            if b2 >= self.opp_need:
                value = 0.0
            elif count2 == 31:
                left = _take(unseen, rank, units)
                value = self._new_count(mine, left, opp_cards - 1, ME, a, b2, depth - 1)
            elif leaf:
                value = utility(a, b2)
            else:
                value = self._my_turn(
                    mine,
                    seq + (rank,),
                    count2,
                    _take(unseen, rank, units),
                    opp_cards - 1,
                    False,
                    OPP,
                    a,
                    b2,
                    depth - 1,
                )
            options.append((value, n))
        fitting = sum(n for _, n in options)
        p_go = none[fitting]
        expected = 0.0
        if p_go > 0:
            room = 31 - count
            if any(PIPS[r] <= room for r in mine):
                go_value = self._my_turn(
                    mine, seq, count, unseen, opp_cards, True, last, a, b, depth
                )
            else:
                go_value = self._count_over(mine, unseen, opp_cards, last, a, b, depth)
            expected = p_go * go_value
        # They play the card that is worst for us among those they hold. At a
        # leaf the replies already come best-for-them first.
        if not leaf:
            options.sort(key=_first)
        covered = 0
        previous_none = 1.0
        for value, n in options:
            covered += n
            now_none = none[covered]
            expected += (previous_none - now_none) * value
            previous_none = now_none
        return expected

    def _count_over(
        self,
        mine: tuple[int, ...],
        unseen: tuple[int, ...],
        opp_cards: int,
        last: int,
        a: int,
        b: int,
        depth: int,
    ) -> float:
        """Nobody can play: one for last, then a new count led by the other player."""
        if last == ME:
            a += 1
            if a >= self.my_need:
                return 1.0
        elif last == OPP:
            b += 1
            if b >= self.opp_need:
                return 0.0
        return self._new_count(mine, unseen, opp_cards, OPP if last == ME else ME, a, b, depth)

    def _new_count(
        self,
        mine: tuple[int, ...],
        unseen: tuple[int, ...],
        opp_cards: int,
        leader: int,
        a: int,
        b: int,
        depth: int,
    ) -> float:
        if depth <= 0 or (not mine and opp_cards == 0):
            return self.utility(a, b)
        if leader == OPP and opp_cards == 0:
            leader = ME
        if leader == ME and not mine:
            leader = OPP
        if leader == ME:
            return self._my_turn(mine, (), 0, unseen, opp_cards, False, 0, a, b, depth)
        return self._opp_turn(mine, (), 0, unseen, opp_cards, a, b, depth, last=0)


def _first(option: tuple[float, int]) -> float:
    return option[0]


def _remove(cards: tuple[int, ...], rank: int) -> tuple[int, ...]:
    i = cards.index(rank)
    return cards[:i] + cards[i + 1 :]


def _take(
    unseen: tuple[int, ...], rank: int, units: tuple[int, ...] | None = None
) -> tuple[int, ...]:
    gone = 1 if units is None else units[rank]
    return unseen[:rank] + (max(unseen[rank] - gone, 0),) + unseen[rank + 1 :]


def linear_utility(mine: int, theirs: int) -> float:
    return float(mine - theirs)


def unseen_ranks(seen: Sequence[int]) -> list[int]:
    """Counts of unseen cards by rank (index 1..13) given the ranks already seen."""
    counts = [0] + [4] * 13
    for rank in seen:
        counts[rank] -= 1
    return counts
