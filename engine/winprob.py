"""Each player's chance to win the game from a position before a deal.

The chances come from the board-position table in ``engine.ai_position``: a fixed point
of one deal's scoring distributions in counting order (the play, then the pone's hand,
then the dealer's hand and crib; the game ends at 121 the moment it is reached). Two
players so far.

>>> chances = win_chances((91, 100), dealer=1)
>>> [round(chance, 3) for chance in chances]
[0.105, 0.895]
>>> sum(chances)
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.ai_position import GOAL, shipped_position
from engine.checks import whole_number
from engine.errors import IllegalActionError

SUPPORTED_PLAYERS: Final = (2,)


def win_chances(scores: Sequence[int], dealer: int) -> tuple[float, ...]:
    """Each seat's chance to win, in seat order, when ``dealer`` (a seat, from 0) is about
    to deal with the game standing at ``scores``. Raises IllegalActionError for scores
    outside 0 to 121, more than one score of 121, a dealer who is not a seat, or a number
    of players without a table."""
    if isinstance(scores, str | bytes) or not isinstance(scores, Sequence):
        raise IllegalActionError(f"scores must be a list of whole numbers, not {scores!r}")
    if len(scores) not in SUPPORTED_PLAYERS:
        raise IllegalActionError(
            f"win chances are worked out for 2 players so far, not {len(scores)}"
        )
    checked = [whole_number(score, "a score") for score in scores]
    if any(not 0 <= score <= GOAL for score in checked):
        raise IllegalActionError(f"scores run from 0 to {GOAL}, not {checked}")
    dealer = whole_number(dealer, "the dealer")
    if not 0 <= dealer < len(checked):
        raise IllegalActionError(f"the dealer must be a seat from 0 to {len(checked) - 1}")
    winners = [seat for seat, score in enumerate(checked) if score >= GOAL]
    if len(winners) > 1:
        raise IllegalActionError("only one player can reach 121")
    if winners:
        return tuple(1.0 if seat == winners[0] else 0.0 for seat in range(len(checked)))
    pone = 1 - dealer
    dealer_chance = shipped_position().win_chance(checked[dealer], checked[pone], dealer=True)
    chances = [0.0, 0.0]
    chances[dealer], chances[pone] = dealer_chance, 1.0 - dealer_chance
    return tuple(chances)
