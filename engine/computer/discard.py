"""What the computer throws to the crib, at each level (see ``engine.computer.player``).

>>> from engine import parse_cards
>>> from engine.rules.cards import format_cards
>>> format_cards(choose_discard(parse_cards("5H 5D JC QS 2H 9C"), dealer=True))
'2H 9C'
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import cache
from typing import Final

import numpy as np

from engine.computer.levels import ENDGAME_FROM, check_level
from engine.odds.hand_tables import AiTables, DealDistributions, FloatArray, load_tables
from engine.odds.hand_values import (
    Unseen,
    crib_distributions_pair,
    crib_values_pair,
    crib_values_single,
    hand_distributions,
    hand_values,
    splits,
)
from engine.odds.position import GOAL, Position, shipped_position
from engine.odds.tables import load_win_tables
from engine.rules.cards import FULL_DECK, Card
from engine.rules.checks import card_list, distinct_cards, is_whole_number
from engine.rules.errors import IllegalActionError

# An opponent's crib costs less with three players: it feeds one of two rivals.
_OPPONENT_CRIB_SHARE: Final = {2: 1.0, 3: 0.5, 4: 1.0}


def choose_discard(
    hand: Sequence[Card],
    *,
    dealer: bool,
    players: int = 2,
    level: str = "expert",
    my_score: int = 0,
    opp_score: int = 0,
    rng: random.Random | None = None,
    crib_is_ours: bool | None = None,
) -> tuple[Card, ...]:
    """The cards to throw to the crib: two of six with two players, one of five otherwise.

    ``dealer`` says whether the crib is ours; with four players a partner's
    crib is ours too, which ``crib_is_ours`` can say instead. The cards come
    back in the order they are held. Raises IllegalActionError for a hand of
    the wrong size or with a repeated card, an unknown level or player count.
    """
    check_level(level)
    if not is_whole_number(players) or players not in (2, 3, 4):
        raise IllegalActionError("cribbage is for 2, 3 or 4 players")
    hand = card_list(hand, "the hand")
    size = 6 if players == 2 else 5
    if len(hand) != size:
        raise IllegalActionError(f"with {players} players a hand to discard from has {size} cards")
    distinct_cards(hand, "the hand")
    ours = dealer if crib_is_ours is None else crib_is_ours
    throw = 2 if players == 2 else 1
    if level == "easy":
        picked = set((rng or random.Random()).sample(list(hand), throw))
        return tuple(card for card in hand if card in picked)
    options = splits(hand, throw)
    unseen = Unseen.excluding(hand)
    keeps = [kept for kept, _ in options]
    values = hand_values(keeps, unseen)
    if level == "normal":
        # Ties (common with court cards) go to the throw that suits the crib's owner.
        crude = np.array([_crude_crib(tuple([card.index for card in t])) for _, t in options])
        best = int(np.argmax(values + 1e-3 * (crude if ours else -crude)))
        return options[best][1]
    if level == "master" and players == 2:
        return options[_master_discard(options, unseen, values, ours, my_score, opp_score)][1]
    return options[expert_discard(options, unseen, values, ours, players, my_score, opp_score)][1]


def crude_crib(thrown: Sequence[Card]) -> float:
    """Points the thrown cards make together, with a point for each five."""
    return _crude_crib(tuple([card.index for card in thrown]))


@cache
def _crude_crib(indices: tuple[int, ...]) -> float:
    """``crude_crib`` of the cards of these indices, kept: a throw's points are the same
    every deal, and there are 1,378 throws of one or two cards (working them out again
    was a sixth of the normal level's discard). Kept by the cards' indices, whose hash
    is quicker than a card's."""
    thrown = [FULL_DECK[index] for index in indices]
    points = sum(1.0 for card in thrown if card.pips == 5)
    for a, b in itertools.combinations(thrown, 2):
        points += 2 * (a.rank == b.rank) + 2 * (a.pips + b.pips == 15)
    return points


def expert_discard(
    options: Sequence[tuple[tuple[Card, ...], tuple[Card, ...]]],
    unseen: Unseen,
    hand_ev: FloatArray,
    ours: bool,
    players: int,
    my_score: int,
    opp_score: int,
    tables: AiTables | None = None,
    position: Position | None = None,
) -> int:
    """Index of the best option for the expert (see ``choose_discard``)."""
    tables = tables or load_tables()
    throws = [thrown for _, thrown in options]
    if players == 2:
        weight = tables.throw_weight["pone" if ours else "dealer"]
        crib_ev = crib_values_pair(throws, unseen, weight)
        sign = 1.0 if ours else -1.0
    else:
        crib_ev = crib_values_single([thrown[0] for thrown in throws], unseen)
        sign = 1.0 if ours else -_OPPONENT_CRIB_SHARE[players]
    values = hand_ev + sign * crib_ev
    if players == 2 and max(my_score, opp_score) >= ENDGAME_FROM:
        position = position or shipped_position()
        chances = _discard_chances(
            options, unseen, weight, ours, my_score, opp_score, tables, position
        )
        # Points only break ties between equal chances (a sure win or loss).
        values = chances + 1e-7 * values
    return int(np.argmax(values))


def _master_discard(
    options: Sequence[tuple[tuple[Card, ...], tuple[Card, ...]]],
    unseen: Unseen,
    hand_ev: FloatArray,
    ours: bool,
    my_score: int,
    opp_score: int,
) -> int:
    """Index of the option with the best chance to win (see ``discard_values``)."""
    chances, points = discard_values(options, unseen, hand_ev, ours, my_score, opp_score)
    return int(np.argmax(chances + 1e-7 * points))


def discard_values(
    options: Sequence[tuple[tuple[Card, ...], tuple[Card, ...]]],
    unseen: Unseen,
    hand_ev: FloatArray,
    ours: bool,
    my_score: int,
    opp_score: int,
) -> tuple[FloatArray, FloatArray]:
    """For each two-player (kept, thrown) option: the chance to win and the expected
    points (hand, plus or minus the crib, plus what the kept cards peg above the
    other player). The chance runs the hand's and the crib's distributions through the
    board position; the kept cards' pegging moves it by the value of a point there."""
    tables = load_tables()
    weight = tables.throw_weight["pone" if ours else "dealer"]
    crib_ev = crib_values_pair([thrown for _, thrown in options], unseen, weight)
    win_tables = load_win_tables()
    peg = np.array(
        [
            win_tables.keep_pegging(tuple(sorted(int(card.rank) for card in kept)), ours)
            for kept, _ in options
        ]
    )
    points = hand_ev + (1.0 if ours else -1.0) * crib_ev + peg
    position = master_position()
    my_score, opp_score = min(my_score, GOAL - 1), min(opp_score, GOAL - 1)
    chances = _discard_chances(options, unseen, weight, ours, my_score, opp_score, tables, position)
    up = position.win_chance(min(my_score + 1, GOAL), opp_score, ours)
    down = position.win_chance(max(my_score - 1, 0), opp_score, ours)
    point_value = (up - down) / (2 if my_score else 1)
    return chances + point_value * (peg - peg.mean()), points


@cache
def master_position() -> Position:
    """The board position from the win-probability tables' two-player distributions."""
    win_tables = load_win_tables()
    model = win_tables.models[2]
    hands = win_tables.hands[2]
    return Position(DealDistributions(model.pegging, hands[1], hands[0], win_tables.crib[2]))


def _discard_chances(
    options: Sequence[tuple[tuple[Card, ...], tuple[Card, ...]]],
    unseen: Unseen,
    weight: FloatArray,
    ours: bool,
    my_score: int,
    opp_score: int,
    tables: AiTables,
    position: Position,
) -> FloatArray:
    hands = hand_distributions([kept for kept, _ in options], unseen)
    cribs = crib_distributions_pair([thrown for _, thrown in options], unseen, weight)
    dist = tables.distributions
    chances = np.zeros(len(options))
    for row in range(len(options)):
        if ours:
            my_show = np.convolve(hands[row], cribs[row])
            opp_show = dist.pone_hand
        else:
            my_show = hands[row]
            opp_show = np.convolve(dist.dealer_hand, cribs[row])
        chances[row] = position.deal_chance(my_score, opp_score, ours, my_show, opp_show)
    return chances
