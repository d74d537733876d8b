"""The master's play at a table of three or four: what the game shows a seat, turned into
a ``TableSearch`` (``engine.computer.table_search``) over every seat in turn.

What the seat may see: its own cards and the one it threw, the starter, every card laid,
how many cards each seat holds, and who has said go on this count (a seat the turn passed
over while it still held cards). The value of a point to each side comes from the win
tables at the board as it stands (``engine.odds.winprob``), the chance to win moved by a
point either way: a point to a rival on 110 costs more than one to a rival on 40, and at
four a partner's point is ours.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Final

from engine.computer.levels import (
    MASTER_TABLE_HALF_DRAWS_FROM,
    MASTER_TABLE_SAMPLED_FROM,
    MASTER_TABLE_SAMPLED_FROM_IN_PYTHON,
    MASTER_TABLE_WEIGHTED_DRAWS,
)
from engine.computer.pegging import unseen_ranks
from engine.computer.table_full_play import TABLE_FULL_PLAY
from engine.computer.table_sampled import SAMPLES, said_go, table_sampled_values
from engine.computer.table_search import OutOfNodes, TableSearch
from engine.odds.position import GOAL
from engine.odds.winprob import win_chances
from engine.rules.cards import PIPS, Card
from engine.rules.errors import IllegalActionError
from engine.rules.game import Game, Phase

# Cards looked ahead: a round of the table and our next card. With this many cards or
# fewer left in all hands the search runs to the end of the play.
TO_THE_END: Final = 4
# Cards looked ahead otherwise (us and the next two seats), and one more (a whole round
# at three, our partner's reply to the last opponent at four) when the shallow search
# visited no more than DEEPER_BELOW nodes: the deeper one visits about ten to forty
# times as many, and above this it would pass the 50 ms a play may take at the 99th
# percentile (bench/ai_latency.py --players 3 and 4). The deeper search also stops at
# DEEPER_BUDGET nodes, keeping the shallow answer: at four the 99th percentile of a play
# was 74 ms without that stop, 55 ms at 800 nodes and 35 ms at 500 (a node takes 20 to
# 50 microseconds on this shared machine). Nodes, not time, so a seed replays a game.
SHALLOW: Final = 3
DEEPER_BELOW: Final = 60
DEEPER_BUDGET: Final = 500
# Points either way over which the value of a point is measured: wider than one, so
# that the three-player table's rounding (1 in 65,535) stays below a tenth of it.
POINT_STEP: Final = 2


def table_play(game: Game, seat: int, thrown: Sequence[Card] = ()) -> Card:
    """The card ``seat`` lays now with three or four players. ``thrown`` is the card it
    threw to the crib, if it remembers it. Raises IllegalActionError when it is not the
    seat's turn in the play of a game of three or four."""
    if game.players == 2 or game.phase is not Phase.PLAY or game.turn != seat:
        raise IllegalActionError("the table's play is for a seat of three or four to play")
    values = sampled_values(game, seat, thrown)
    if values is None:
        values = play_values(game, seat, thrown)
    legal = game.playable(seat)
    # Equal values: keep the higher card back (low cards play late in a count).
    best = max(values, key=lambda rank: (round(values[rank], 9), -PIPS[rank], -rank))
    return next(card for card in legal if int(card.rank) == best)


def sampled_values(game: Game, seat: int, thrown: Sequence[Card] = ()) -> dict[int, float] | None:
    """The full search over sampled hands (``engine.computer.table_sampled``) once every
    hand together holds ``MASTER_TABLE_SAMPLED_FROM`` cards or fewer (where the search
    runs in C; ``MASTER_TABLE_SAMPLED_FROM_IN_PYTHON`` otherwise; half the draws from
    ``MASTER_TABLE_HALF_DRAWS_FROM``), its best cards only
    (those it cannot tell apart valued by ``play_values``); None otherwise, or where no
    deal of the other hands fits what the seats did."""
    held = sum(len(game.hand(other)) for other in range(game.players))
    most = (
        MASTER_TABLE_SAMPLED_FROM if TABLE_FULL_PLAY.in_c else MASTER_TABLE_SAMPLED_FROM_IN_PYTHON
    )
    if held > most.get(game.players, 0):
        return None
    half = held >= MASTER_TABLE_HALF_DRAWS_FROM.get(game.players, held + 1)
    draws = SAMPLES // 2 if half else SAMPLES
    weighted = game.players in MASTER_TABLE_WEIGHTED_DRAWS
    out = said_go(game, seat)
    values = table_sampled_values(game, seat, thrown, out, draws, weighted=weighted)
    if values is None:
        return None
    top = max(values.values())
    tied = [rank for rank, value in values.items() if value >= top - 1e-9]
    if len(tied) == 1:
        return values
    usual = play_values(game, seat, thrown)
    return {rank: usual[rank] for rank in tied}


def play_values(game: Game, seat: int, thrown: Sequence[Card] = ()) -> dict[int, float]:
    """Our side's chance to win after laying each rank that fits (see the module
    docstring), by rank."""
    seats = game.players
    absolute = [(seat + offset) % seats for offset in range(seats)]
    mine = tuple(sorted(int(card.rank) for card in game.hand(seat)))
    seen = [*game.hand(seat), *thrown, *(play.card for play in game.plays)]
    if game.starter is not None:
        seen.append(game.starter)
    pool = unseen_ranks([int(card.rank) for card in seen])
    others = [len(game.hand(other)) for other in absolute[1:]]
    room = sum(pool)
    held = (len(mine), *(min(n, room) for n in others))
    search = _search(game, seat, absolute)
    seq = tuple(int(card.rank) for card in game.count_cards)
    out = said_go(game, seat)
    if sum(held) <= TO_THE_END:
        return search.choose(mine, held, seq, pool, out, sum(held))
    values = search.choose(mine, held, seq, pool, out, SHALLOW)
    if search.nodes <= DEEPER_BELOW:
        search.nodes, search.budget = 0, DEEPER_BUDGET
        with contextlib.suppress(OutOfNodes):  # over budget: the shallow values stand
            values = search.choose(mine, held, seq, pool, out, SHALLOW + 1)
    return values


def _search(game: Game, seat: int, absolute: list[int]) -> TableSearch:
    """The search with each side's point value at the board as it stands."""
    my_side = game.side_of(seat)
    # Sides numbered from ours: 0 ours, then in the order of the seats after us.
    order: list[int] = []
    for other in absolute:
        if game.side_of(other) not in order:
            order.append(game.side_of(other))
    scores = [min(score, GOAL - 1) for score in game.scores]
    base = win_chances(scores, game.dealer, game.players)[my_side]
    values = []
    for side in order:
        up, down = list(scores), list(scores)
        up[side] = min(scores[side] + POINT_STEP, GOAL - 1)
        down[side] = max(scores[side] - POINT_STEP, 0)
        gained = win_chances(up, game.dealer, game.players)[my_side]
        lost = win_chances(down, game.dealer, game.players)[my_side]
        values.append((gained - lost) / max(up[side] - down[side], 1))
    return TableSearch(
        game.runs == "exact",
        side_of=tuple(order.index(game.side_of(other)) for other in absolute),
        point_value=tuple(values),
        need=tuple(GOAL - game.scores[side] for side in order),
        base=base,
    )
