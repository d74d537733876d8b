"""The master's play at a table of three or four searched to its end over hands the other
seats may hold: draw their hands from the cards we have not seen, search each draw to the
end of the play with every hand known (``engine.computer.table_full_play``), and value each
card we may lay by its mean over the draws.

What a seat may see: its own cards and the one it threw, the starter, every card laid, how
many cards each seat holds, and each seat's goes this hand (``least_pips``). A draw deals
each other seat its cards at random from the unseen ones, leaving out the ranks its goes
rule out; the draws are seeded by the position itself, so the same position always draws
the same hands (a game replays from its seeds). A partner's hand is drawn too: at four we
do not see it. Weighted (``levels.MASTER_TABLE_WEIGHTED_DRAWS``), each seat's cards are
drawn one at a time by what it did this hand (``seat_weights``: the keep model beside the
cards it laid, the ranks it passed up points with weighed down), as with two players.

>>> import random
>>> pool = [0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 4, 0, 0, 0]
>>> hands = sample_table_hands(pool, (2, 1), (1, 10), 3, random.Random(1))
>>> all(set(first) <= {5, 10} and second == (10,) for first, second in hands), len(hands)
(True, 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from engine.computer.opponent import DECLINED, opponent_weights, ranks_passed_up
from engine.computer.pegging import unseen_ranks
from engine.computer.table_full_play import TableScore, table_full_play_values
from engine.odds.position import GOAL
from engine.odds.winprob import win_chances
from engine.rules.cards import PIPS, Card
from engine.rules.game import Game

# Hands drawn a decision: as with two players (engine.computer.sampled_play).
SAMPLES: Final = 64
# Points either way over which the value of a point is measured (as the table's search:
# engine.computer.table_play.POINT_STEP).
POINT_STEP: Final = 2


def said_go(game: Game, seat: int) -> int:
    """A bit for each seat (counted from ``seat``) out of this count: one the turn passed
    over while it held cards, between two cards of the count or since the last."""
    absolute = [(seat + offset) % game.players for offset in range(game.players)]
    current = game.plays[len(game.plays) - len(game.count_cards) :]
    turns = [play.seat for play in current] + [seat]
    out = 0
    for before, after in zip(turns, turns[1:], strict=False):
        skipped = before
        while True:
            skipped = game.seat_after(skipped)
            if skipped == after:
                break
            if game.hand(skipped):
                out |= 1 << absolute.index(skipped)
    return out


def least_pips(game: Game, absolute: Sequence[int]) -> tuple[int, ...]:
    """The fewest pips each seat's cards may have (counted from ours, ``absolute`` listing
    the seats from ours; 1: any card), from its goes this hand: a seat the turn passed over
    while it held cards, and every seat holding cards when a count ended short of 31, had
    nothing that fitted the count then, and cards only leave a hand, so all it holds has
    more pips than were left. The count in progress is read up to the seat to play."""
    least = [1] * game.players
    counts: list[list[tuple[int, int]]] = []  # (seat, the count after its card), by count
    for number, play in enumerate(game.plays):
        if not number or play.round != game.plays[number - 1].round:
            counts.append([])
        total = counts[-1][-1][1] if counts[-1] else 0
        counts[-1].append((play.seat, total + play.card.pips))
    ongoing_from = len(counts) - 1 if game.count_cards else len(counts)
    for index, laid in enumerate(counts):
        turns = laid
        if index == ongoing_from and game.turn is not None:
            turns = [*laid, (game.turn, laid[-1][1])]
        for (before, count), (after, _) in zip(turns, turns[1:], strict=False):
            skipped = game.seat_after(before)
            while skipped != after:
                if game.hand(skipped):
                    least[skipped] = max(least[skipped], 32 - count)
                skipped = game.seat_after(skipped)
        final = laid[-1][1]
        if index != ongoing_from and final < 31:
            for other in range(game.players):
                if game.hand(other):
                    least[other] = max(least[other], 32 - final)
    # A seat is never passed over on 21 or less (any card fits), so more than ten would be
    # a game the rules do not make: kept to ten, which still leaves it a card to lay.
    return tuple(min(least[other], 10) for other in absolute)


def sample_table_hands(
    pool: Sequence[int],
    held: Sequence[int],
    least: Sequence[int],
    samples: int,
    rng: random.Random,
) -> list[tuple[tuple[int, ...], ...]]:
    """``samples`` deals of ``held[s]`` ranks to each seat s (the seats after ours) from
    ``pool`` (unseen cards by rank, index 1..13), seat s given only ranks of at least
    ``least[s]`` pips: each a random deal to the seat its goes limit most first, then from
    what is left to the next. The ranks a seat may hold only grow as its fewest pips fall,
    so that order never leaves a later seat short unless no deal exists: then the list is
    empty."""
    cards = [rank for rank in range(1, 14) for _ in range(pool[rank])]
    order = sorted(range(len(held)), key=lambda seat: -least[seat])
    deals: list[tuple[tuple[int, ...], ...]] = []
    for _ in range(samples):
        left = list(cards)
        dealt: list[tuple[int, ...]] = [()] * len(held)
        for seat in order:
            fits = [rank for rank in left if PIPS[rank] >= least[seat]]
            if len(fits) < held[seat]:
                return []
            hand = rng.sample(fits, held[seat])
            for rank in hand:
                left.remove(rank)
            dealt[seat] = tuple(sorted(hand))
        deals.append(tuple(dealt))
    return deals


def sample_weighted_table_hands(
    pool: Sequence[int],
    held: Sequence[int],
    least: Sequence[int],
    weights: Sequence[Sequence[float]],
    samples: int,
    rng: random.Random,
) -> list[tuple[tuple[int, ...], ...]]:
    """As ``sample_table_hands``, but seat s takes its cards one at a time, a card of rank
    r ``weights[s][r]`` times as likely as one of weight 1 (ranks of fewer than
    ``least[s]`` pips never). Empty when some seat has fewer cards of weight above 0 it
    may hold than it holds. Raises ValueError unless there is a row of 14 weights (index
    0 unused), each finite and not negative, for each seat."""
    if len(weights) != len(held) or len(least) != len(held):
        raise ValueError("a row of weights and a fewest pips for each seat")
    for row in weights:
        if len(row) != 14 or not all(0.0 <= w < float("inf") for w in row):
            raise ValueError(f"weights are 14 finite numbers of at least 0, not {row!r}")
    order = sorted(range(len(held)), key=lambda seat: -least[seat])
    ranks = range(1, 14)
    deals: list[tuple[tuple[int, ...], ...]] = []
    for _ in range(samples):
        left = list(pool)
        dealt: list[tuple[int, ...]] = [()] * len(held)
        for seat in order:
            weight = [w if PIPS[r] >= least[seat] else 0.0 for r, w in enumerate(weights[seat])]
            if sum(left[rank] for rank in ranks if weight[rank] > 0) < held[seat]:
                return []
            hand = []
            for _ in range(held[seat]):
                rank = rng.choices(ranks, [left[r] * weight[r] for r in ranks])[0]
                left[rank] -= 1
                hand.append(rank)
            dealt[seat] = tuple(sorted(hand))
        deals.append(tuple(dealt))
    return deals


def passed_up(game: Game, other: int) -> list[int]:
    """Ranks seat ``other`` could have laid this hand for more points than the card it
    laid (a pair, fifteen, run or 31 passed up): a strong player holding one would have
    taken the points (as ``engine.computer.opponent.declined_ranks``, one seat)."""
    return ranks_passed_up(game, lambda player: player == other)


def seat_weights(game: Game, other: int) -> tuple[float, ...]:
    """How likely seat ``other`` is to hold a card of each rank (index 1..13) against an
    unseen card at random: the keep model for its role (the dealer or not) beside the
    cards it has laid this hand, and the ranks it passed up points with at ``DECLINED``
    (as the two-player master weighs its opponent's draws)."""
    role = "dealer" if other == game.dealer else "pone"
    laid = [int(play.card.rank) for play in game.plays if play.seat == other]
    weight = list(opponent_weights(role, laid))
    for rank in passed_up(game, other):
        weight[rank] *= DECLINED
    return tuple(weight)


def table_score(game: Game, seat: int) -> TableScore:
    """Each side's chance to win now and the board's value of a point to it from each
    side's points (the win tables, a point measured POINT_STEP either way), sides numbered
    from ``seat``'s."""
    absolute = [(seat + offset) % game.players for offset in range(game.players)]
    order: list[int] = []
    for other in absolute:
        if game.side_of(other) not in order:
            order.append(game.side_of(other))
    scores = [min(score, GOAL - 1) for score in game.scores]
    now = win_chances(scores, game.dealer, game.players)
    worth = [[0.0] * len(order) for _ in order]
    for j, side in enumerate(order):
        up, down = list(scores), list(scores)
        up[side] = min(scores[side] + POINT_STEP, GOAL - 1)
        down[side] = max(scores[side] - POINT_STEP, 0)
        gained = win_chances(up, game.dealer, game.players)
        lost = win_chances(down, game.dealer, game.players)
        for i, whose in enumerate(order):
            worth[i][j] = (gained[whose] - lost[whose]) / max(up[side] - down[side], 1)
    return TableScore(
        side_of=tuple(order.index(game.side_of(other)) for other in absolute),
        base=tuple(now[side] for side in order),
        worth=tuple(map(tuple, worth)),
        need=tuple(GOAL - game.scores[side] for side in order),
    )


def table_draws(
    game: Game,
    seat: int,
    thrown: Sequence[Card],
    out: int,
    samples: int = SAMPLES,
    *,
    weighted: bool = False,
) -> tuple[tuple[int, ...], tuple[int, ...], list[tuple[tuple[int, ...], ...]]]:
    """What ``seat`` searches (see the module docstring): its ranks, the count's, and
    ``samples`` deals of the other seats' ranks (seat after it first; empty when no deal
    fits what they did). ``thrown``: the card ``seat`` threw; ``out``: a bit for each seat
    out of this count (counted from ``seat``), part of the seed. ``weighted``: each seat's
    cards drawn by ``seat_weights`` (what it laid and passed up), not uniformly."""
    absolute = [(seat + offset) % game.players for offset in range(game.players)]
    mine = tuple(sorted(int(card.rank) for card in game.hand(seat)))
    seen = [*game.hand(seat), *thrown, *(play.card for play in game.plays)]
    if game.starter is not None:
        seen.append(game.starter)
    pool = unseen_ranks([int(card.rank) for card in seen])
    held = tuple(len(game.hand(other)) for other in absolute[1:])
    least = least_pips(game, absolute)[1:]
    seq = tuple(int(card.rank) for card in game.count_cards)
    seed = repr((mine, seq, tuple(pool), held, least, out))
    if not weighted:
        return mine, seq, sample_table_hands(pool, held, least, samples, random.Random(seed))
    weights = [seat_weights(game, other) for other in absolute[1:]]
    rng = random.Random(repr((seed, weights)))
    return mine, seq, sample_weighted_table_hands(pool, held, least, weights, samples, rng)


def table_sampled_values(
    game: Game,
    seat: int,
    thrown: Sequence[Card],
    out: int,
    samples: int = SAMPLES,
    *,
    weighted: bool = False,
) -> dict[int, float] | None:
    """Our side's chance to win after laying each rank that fits, by rank: the mean over
    ``samples`` deals of the other hands (``table_draws``, the arguments as there). None
    when no deal fits what the other seats did (the caller searches as before)."""
    mine, seq, hands = table_draws(game, seat, thrown, out, samples, weighted=weighted)
    if not hands:
        return None
    score = table_score(game, seat)
    return table_full_play_values(mine, hands, seq, out, exact=game.runs == "exact", score=score)
