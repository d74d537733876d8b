"""Ratings: Glicko-2 (Glickman), one rating per member, and fixed ratings for the computer.

A rating is three numbers: the rating itself (1500 for a newcomer), its deviation (how
sure the system is: 350 for a newcomer, lower with every game) and the volatility (how
erratic the player's results are). The maths is the ``glicko2-py`` package's
``update_rating``, a pure function of Glickman's algorithm; this module only converts
to and from the display scale and decides what a game is worth.

Each rated game is a rating period of its own (as most online game servers do), so a
rating and its change can be shown the moment a game ends. A game is worth 1 to the
winner and 0 to the loser, a forfeit included; skunks count in game points, not here.

The computer's levels play at fixed ratings that never change, so members can be rated
against the computer too: the computer's side of a rated game is simply not updated.

>>> change, computer = rate_game(Rating(), "normal", 1.0)
>>> change.change > 0, computer
(True, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from glicko2.math.algorithm import update_rating

from door.competition.errors import CompetitionError
from engine.rules.outcome import Outcome

SCALE: Final = 173.7178
"""Glickman's factor between the display scale and the Glicko-2 scale."""
TAU: Final = 0.5
"""The system constant: how far the volatility may move in one period (Glickman
suggests 0.3 to 1.2; his example uses 0.5)."""
NEW_RATING: Final = 1500.0
NEW_DEVIATION: Final = 350.0
NEW_VOLATILITY: Final = 0.06
PROVISIONAL_DEVIATION: Final = 110.0
"""Above this deviation a rating is shown with a question mark: not yet settled."""
MINUS: Final = "\N{MINUS SIGN}"


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the display scale. ``str()`` is the rounded rating, with a
    question mark while it is provisional ("1523?")."""

    rating: float = NEW_RATING
    deviation: float = NEW_DEVIATION
    volatility: float = NEW_VOLATILITY

    def __post_init__(self) -> None:
        if not self.deviation > 0 or not self.volatility > 0:
            raise CompetitionError(
                f"a rating needs a positive deviation and volatility, not "
                f"{self.deviation} and {self.volatility}"
            )

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION

    @property
    def shown(self) -> int:
        """The rating as shown: a whole number."""
        return round(self.rating)

    def __str__(self) -> str:
        return f"{self.shown}?" if self.provisional else str(self.shown)


COMPUTER_LEVELS: Final = ("easy", "normal", "expert", "master")
COMPUTER_RATINGS: Final = {
    "easy": Rating(1200.0, 60.0),
    "normal": Rating(1400.0, 60.0),
    "expert": Rating(1600.0, 60.0),
    "master": Rating(1700.0, 60.0),
}
"""Fixed ratings for the computer's levels. They never change; a sysop who finds them
off can set others here, as cribbage's luck keeps real ratings close together."""


def computer_rating(level: str) -> Rating:
    """The fixed rating of the computer at ``level``. Raises CompetitionError for a level
    that does not exist."""
    try:
        return COMPUTER_RATINGS[level]
    except KeyError:
        raise CompetitionError(
            f"the computer plays at {', '.join(COMPUTER_LEVELS)}, not {level!r}"
        ) from None


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period with ``results``: each the opponent's
    rating (as it was before the period) and the score against them (1 a win, 0 a loss,
    0.5 a draw). With no results only the deviation grows (Glickman's step 6)."""
    for _, score in results:
        if not 0.0 <= score <= 1.0:
            raise CompetitionError(f"a score is from 0 to 1, not {score}")
    new = update_rating(
        (player.rating - NEW_RATING) / SCALE,
        player.deviation / SCALE,
        player.volatility,
        [
            ((other.rating - NEW_RATING) / SCALE, other.deviation / SCALE, score)
            for other, score in results
        ],
        tau=tau,
    )
    return Rating(new.mu * SCALE + NEW_RATING, new.phi * SCALE, new.sigma)


@dataclass(frozen=True)
class RatingChange:
    """A member's rating before and after a rated game, for the screen at game end."""

    before: Rating
    after: Rating

    @property
    def change(self) -> int:
        """The change as shown: the difference of the two shown ratings."""
        return self.after.shown - self.before.shown

    @property
    def label(self) -> str:
        """ "+12", "−7" (a minus sign) or "±0"."""
        if self.change > 0:
            return f"+{self.change}"
        if self.change < 0:
            return f"{MINUS}{-self.change}"
        return "\N{PLUS-MINUS SIGN}0"

    def line(self) -> str:
        """ "Rating 1523 (+12)"."""
        return f"Rating {self.after} ({self.label})"


Opponent = Rating | str
"""A member's rating, or the computer's level."""


def rate_game(
    player: Rating, opponent: Opponent, score: float, tau: float = TAU
) -> tuple[RatingChange, RatingChange | None]:
    """Rate one game from both sides' ratings before it: ``score`` is ``player``'s (1 a
    win, 0 a loss). Returns the player's change and the opponent's, which is None when
    the opponent is the computer (a level name): its rating is fixed."""
    if isinstance(opponent, str):
        fixed = computer_rating(opponent)
        return RatingChange(player, rate(player, [(fixed, score)], tau)), None
    mine = RatingChange(player, rate(player, [(opponent, score)], tau))
    theirs = RatingChange(opponent, rate(opponent, [(player, 1.0 - score)], tau))
    return mine, theirs


def score_of(outcome: Outcome, side: int) -> float:
    """What a finished game is worth to ``side`` for its rating: 1 a win, 0 a loss."""
    return 1.0 if outcome.won(side) else 0.0
