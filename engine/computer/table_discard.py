"""The master's discard at a table of three or four: the card to throw that gives the best
chance to win, not the most points.

Each of the five throws is run through the rest of the deal as the win bar runs it
(``engine.odds.winbar``): the play to come and every other hand as the measured averages,
our own hand as what the four kept cards score over the unseen starters, and the crib as
what it scores with our card in it. The crib is counted for the seat that owns it, so a
card thrown to an opponent's crib costs what a point to *that* opponent costs where the
board stands: more to the leader than to a player far behind, nothing beyond the points
to a partner, whose crib is ours. At four (``MASTER_TABLE_KEEP_PEGGING``) the play's
average is not the same for every keep: what the four cards kept are measured to peg for
each side (``engine.computer.table_keep_pegging``) moves the chance by the board's value of
a point to that side. Points (the hand, plus or minus the crib, plus the kept cards'
pegging over the other side's) only break ties between equal chances (a game already won
or lost).
"""

from __future__ import annotations

import numpy as np

from engine.computer.levels import MASTER_TABLE_KEEP_PEGGING
from engine.computer.table_keep_pegging import keep_pegging, point_values
from engine.odds.hand_tables import FloatArray
from engine.odds.hand_values import (
    Unseen,
    crib_distributions_single,
    crib_values_single,
    hand_distributions,
    hand_values,
    splits,
)
from engine.odds.winbar import chances_with, hand_stages, pegging_stages, seat_role, view_of
from engine.rules.cards import Card
from engine.rules.errors import IllegalActionError
from engine.rules.game import Game, Phase


def table_discard(game: Game, seat: int) -> tuple[Card, ...]:
    """The card ``seat`` throws to the crib with three or four players (in the order
    held). Raises IllegalActionError outside the discard, for a two-player game or a
    seat that has thrown already."""
    options, chances, points = discard_chances(game, seat)
    best = int(np.argmax(chances + 1e-7 * points))
    return options[best][1]


def discard_chances(
    game: Game, seat: int
) -> tuple[list[tuple[tuple[Card, ...], tuple[Card, ...]]], FloatArray, FloatArray]:
    """Every (kept, thrown) split of the seat's hand, with the chance to win each gives
    its side and its points (the kept hand's expected show plus our crib or less another's;
    see the module docstring)."""
    if game.players == 2 or game.phase is not Phase.DISCARD or game.has_discarded(seat):
        raise IllegalActionError("the table's discard is for a seat of three or four to throw")
    hand = game.hand(seat)
    options = splits(hand, 1)
    unseen = Unseen.excluding(hand)
    throws = [thrown[0] for _, thrown in options]
    keeps = [kept for kept, _ in options]
    ours = game.side_of(game.dealer) == game.side_of(seat)
    crib_ev = crib_values_single(throws, unseen)
    points = hand_values(keeps, unseen) + (1.0 if ours else -1.0) * crib_ev
    hands = hand_distributions(keeps, unseen)
    cribs = crib_distributions_single(throws, unseen)
    base = hand_stages(game, view_of(game, seat))
    own = len(pegging_stages(game)) + (seat_role(game, seat) - 1) % game.players
    role = seat_role(game, seat) % game.sides
    side = game.side_of(seat)
    chances = np.zeros(len(options))
    for row in range(len(options)):
        stages = list(base)
        stages[own] = ("add", role, hands[row])
        stages[-1] = ("add", 0, cribs[row])  # the crib, counted last, for the dealer's side
        chances[row] = chances_with(game, stages)[side]
    if game.players in MASTER_TABLE_KEEP_PEGGING:
        # The play's stage is the deal's average whatever we keep: what these four cards
        # are measured to peg moves the chance by a point's value to each side.
        mine, other = keep_pegging(keeps, seat_role(game, seat))
        ours_value, theirs_value = point_values(game, side)
        chances += ours_value * (mine - mine.mean()) + theirs_value * (other - other.mean())
        points += mine - other
    return options, chances, points
