"""Each side's chance to win the game from a position before a deal.

The chances come from the tables in ``engine/data/winprob.npz``
(``engine.odds.tables``): for 2, 3 and 4 players, a dynamic programme over one deal's
scoring distributions in counting order (the play, then the hands from the dealer's
left, the dealer's hand and crib last; the game ends at 121 the moment it is reached).
With 4 players the scores are the two partnerships' (seats 0 and 2 are side 0).

>>> chances = win_chances((91, 100), dealer=1)
>>> [round(chance, 2) for chance in chances]
[0.11, 0.89]
>>> round(sum(win_chances((30, 50, 40), dealer=2)), 6)
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.odds.model import GOAL, sides_for
from engine.odds.tables import load_win_tables
from engine.rules.checks import whole_number
from engine.rules.errors import IllegalActionError

SUPPORTED_PLAYERS: Final = (2, 3, 4)


def role_sides(players: int, dealer: int) -> tuple[int, ...]:
    """The side of each role: role 0 is the dealer's side, then round to the left."""
    sides = sides_for(players)
    first = dealer % sides
    return tuple((first + role) % sides for role in range(sides))


def win_chances(
    scores: Sequence[int], dealer: int, players: int | None = None
) -> tuple[float, ...]:
    """Each side's chance to win, in side order, when seat ``dealer`` (from 0) is about to
    deal with the game standing at ``scores`` (one per side). ``players`` is the number
    of seats: by default one per score; give 4 with two scores for partnerships.

    Raises IllegalActionError for scores outside 0 to 121, more than one score of 121,
    a dealer who is not a seat, or a number of players the tables do not cover.
    """
    if isinstance(scores, str | bytes) or not isinstance(scores, Sequence):
        raise IllegalActionError(f"scores must be a list of whole numbers, not {scores!r}")
    checked = [whole_number(score, "a score") for score in scores]
    seats = len(checked) if players is None else whole_number(players, "the number of players")
    if seats not in SUPPORTED_PLAYERS or sides_for(seats) != len(checked):
        raise IllegalActionError(
            f"win chances are worked out for 2 or 3 players (a score each) or 4 players "
            f"(two partnerships' scores), not {len(checked)} scores for {seats} players"
        )
    if any(not 0 <= score <= GOAL for score in checked):
        raise IllegalActionError(f"scores run from 0 to {GOAL}, not {checked}")
    dealer = whole_number(dealer, "the dealer")
    if not 0 <= dealer < seats:
        raise IllegalActionError(f"the dealer must be a seat from 0 to {seats - 1}")
    winners = [side for side, score in enumerate(checked) if score >= GOAL]
    if len(winners) > 1:
        raise IllegalActionError("only one player can reach 121")
    if winners:
        return tuple(1.0 if side == winners[0] else 0.0 for side in range(len(checked)))
    sides = role_sides(seats, dealer)
    by_role = tuple(checked[side] for side in sides)
    chances = load_win_tables().start[seats][by_role]
    result = [0.0] * len(checked)
    for role, side in enumerate(sides):
        result[side] = float(chances[role])
    total = sum(result)
    return tuple(chance / total for chance in result)
