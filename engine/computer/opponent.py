"""What the computer reads of its opponent's cards from what they did this hand: the ranks
players keep beside the cards they have laid, the points they passed up, and what their
goes say is left in their hand. Two players."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Final

import numpy as np

from engine.computer.pegging import peg_points
from engine.odds.hand_tables import FloatArray
from engine.rules.cards import PIPS

if TYPE_CHECKING:
    from engine.rules.game import Game

# Weight units to an average card in the master's weighted pool (see PegSearch.units).
POOL_UNITS: Final = 16
# How likely the opponent is to hold a rank that would have pegged more than the card
# they played, against any other: the expert holds such a card 40 to 80 times less
# often (bench/keep_weights.py --declined); the least weight the pool gives a card (a
# unit in POOL_UNITS) stands for it, leaving room for a player who misses points.
DECLINED: Final = 1 / POOL_UNITS


@cache
def _keep_weights() -> dict[str, tuple[FloatArray, FloatArray]]:
    """engine/data/keep_weights.json (written by bench/keep_weights.py), by role."""
    text = resources.files("engine").joinpath("data/keep_weights.json").read_text("utf-8")
    data = json.loads(text)
    return {
        role: (np.array(data["keep"][role]), np.array(data["together"][role]))
        for role in ("dealer", "pone")
    }


@lru_cache(maxsize=1024)
def _opponent_weights(role: str, played: tuple[int, ...]) -> tuple[float, ...]:
    keep, together = _keep_weights()[role]
    weight = keep.copy()
    for rank in played:
        weight *= together[rank - 1]
    return (0.0, *weight.tolist())


def opponent_weights(role: str, played: Sequence[int]) -> tuple[float, ...]:
    """How likely a card of each rank (index 1..13) is to be in the hand of a ``role``
    ("dealer" or "pone") player who has played ``played`` (ranks), against an unseen
    card at random: how often players keep that rank, times how often they keep it
    beside each card played (measured from the expert's discards)."""
    return _opponent_weights(role, tuple(sorted(played)))


def declined_ranks(game: Game, seat: int) -> list[int]:
    """Ranks the other player(s) could have laid this hand for more points than the card
    they laid (a pair, fifteen, run or 31 passed up): a strong player holding one
    would have taken the points."""
    return ranks_passed_up(game, lambda player: player != seat)


def ranks_passed_up(game: Game, by: Callable[[int], bool]) -> list[int]:
    """Ranks the seats ``by`` picks could have laid this hand for more points than the
    card they laid (``declined_ranks``: every seat but ours; the table's draws: one)."""
    exact = game.runs == "exact"
    found: set[int] = set()
    seq: tuple[int, ...] = ()
    count = 0
    last_round = None
    for play in game.plays:
        if play.round != last_round:
            seq, count, last_round = (), 0, play.round
        rank = int(play.card.rank)
        if by(play.seat):
            took = peg_points(seq + (rank,), count + play.card.pips, exact)
            for other in range(1, 14):
                fits = other not in found and count + PIPS[other] <= 31
                if fits and peg_points(seq + (other,), count + PIPS[other], exact) > took:
                    found.add(other)
        seq += (rank,)
        count += play.card.pips
    return sorted(found)


def least_pips_left(game: Game, seat: int) -> int:
    """What the other player's goes this hand tell of the cards they still hold.

    Two players only. When we played twice running on a count, they had said
    go in between; when a count ended short of 31, neither player could add a
    card. Either way nothing they held fitted, so every card they still hold
    has more pips than was left to 31 then.
    """
    least = 1
    plays = game.plays
    count = 0
    for number, play in enumerate(plays):
        if number and plays[number - 1].round != play.round:
            count = 0
        count += play.card.pips
        later = plays[number + 1] if number + 1 < len(plays) else None
        if later is None:
            if play.seat == seat and game.count_cards and game.turn == seat:
                least = max(least, 32 - count)  # they have just said go on this count
        elif later.round != play.round:
            if count < 31:
                least = max(least, 32 - count)
        elif play.seat == seat and later.seat == seat:
            least = max(least, 32 - count)
    return least
