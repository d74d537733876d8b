"""Matches: one game, or the best of 3, 5 or 7, between two sides, scored in game points.

Clubs of the American Cribbage Congress score every game in *game points*: 2 for a win,
3 for a win that skunks the loser (under 91), nothing for a loss; ties on game points go
by *spread*, the points a player won by less the points they lost by. A game's margin is
counted from the game hole, 121, so a win 121 to 95 is +26 to the winner and -26 to the
loser. A forfeit (``Outcome.forfeited_by``) is a plain win for the side that stayed, its
margin counted the same way from the leaver's score: a forfeit skunks nobody.

ACC tournament play gives a double skunk (under 61) no more than a skunk; some home games
count it more, so ``ScoringRules(double_skunk=4)`` says so.

>>> from engine.rules.outcome import Outcome
>>> match = Match(("Ada", "Bob"), best_of=3)
>>> match = match.add(Outcome(0, (121, 85), ((1, "skunk"),)))
>>> match = match.add(Outcome(1, (110, 121)))
>>> match.line()
'Level at 1 to 1 in games; Ada leads 3 to 2 in points'
>>> match = match.add(Outcome(0, (121, 118)))
>>> match.line()
'Ada wins the match 2 to 1 in games, 5 to 2 in points'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from door.competition.errors import CompetitionError, MatchOverError
from engine.rules.outcome import WINNING_SCORE, Outcome

MATCH_LENGTHS: Final = (1, 3, 5, 7)


@dataclass(frozen=True)
class ScoringRules:
    """Game points for a win, a skunk and a double skunk, and what a bye is worth per
    game of the match it stands for (a bye counts as a won game with no spread)."""

    win: int = 2
    skunk: int = 3
    double_skunk: int = 3
    bye_points: int = 2
    bye_spread: int = 0

    def __post_init__(self) -> None:
        if not 0 < self.win <= self.skunk <= self.double_skunk:
            raise CompetitionError(
                "game points must grow from a win to a skunk to a double skunk, "
                f"not {self.win}, {self.skunk}, {self.double_skunk}"
            )


ACC_SCORING: Final = ScoringRules()
"""The American Cribbage Congress's: 2 a win, 3 a skunk, 0 a loss."""


def _check_two_sides(outcome: Outcome) -> None:
    if outcome.sides != 2:
        raise CompetitionError(f"a match is between two sides, not {outcome.sides}")


def game_points(outcome: Outcome, side: int, rules: ScoringRules = ACC_SCORING) -> int:
    """The game points ``side`` earned in a two-sided game."""
    _check_two_sides(outcome)
    if not outcome.won(side):
        return 0
    skunk = outcome.skunk_of(1 - side)
    if skunk == "double skunk":
        return rules.double_skunk
    if skunk == "skunk":
        return rules.skunk
    return rules.win


def spread(outcome: Outcome, side: int) -> int:
    """The game's margin for ``side``: the loser's distance from 121, positive for the
    winner and negative for the loser."""
    _check_two_sides(outcome)
    loser = 1 - outcome.winner_side
    margin = WINNING_SCORE - outcome.scores[loser]
    return margin if outcome.won(side) else -margin


@dataclass(frozen=True)
class Match:
    """A match as it stands: who plays (side 0 and side 1, a member's handle or the
    computer's name), how many games it is the best of, and the games played so far.

    Raises CompetitionError for a length other than 1, 3, 5 or 7.
    """

    names: tuple[str, str]
    best_of: int = 1
    games: tuple[Outcome, ...] = ()
    rules: ScoringRules = field(default=ACC_SCORING)

    def __post_init__(self) -> None:
        if self.best_of not in MATCH_LENGTHS:
            raise CompetitionError(
                f"a match is 1 game or the best of 3, 5 or 7, not {self.best_of}"
            )
        for outcome in self.games:
            _check_two_sides(outcome)

    @property
    def games_to_win(self) -> int:
        return self.best_of // 2 + 1

    def add(self, outcome: Outcome) -> Match:
        """The match with one more game played. Raises MatchOverError when the match is
        already decided, CompetitionError for a game without exactly two sides."""
        if self.decided:
            raise MatchOverError("The match is over: it takes no more games.")
        _check_two_sides(outcome)
        return Match(self.names, self.best_of, (*self.games, outcome), self.rules)

    @property
    def wins(self) -> tuple[int, int]:
        """Games won by each side."""
        won = [outcome.winner_side for outcome in self.games]
        return won.count(0), won.count(1)

    @property
    def points(self) -> tuple[int, int]:
        """Game points of each side."""
        return (
            sum(game_points(outcome, 0, self.rules) for outcome in self.games),
            sum(game_points(outcome, 1, self.rules) for outcome in self.games),
        )

    @property
    def spreads(self) -> tuple[int, int]:
        """Spread of each side (they add up to nothing)."""
        mine = sum(spread(outcome, 0) for outcome in self.games)
        return mine, -mine

    @property
    def decided(self) -> bool:
        return max(self.wins) >= self.games_to_win

    @property
    def winner(self) -> int | None:
        """The side that won the match, or None while it is being played."""
        if not self.decided:
            return None
        return 0 if self.wins[0] > self.wins[1] else 1

    @property
    def next_game(self) -> int:
        """The number of the game to play next, counting from 1."""
        return len(self.games) + 1

    def line(self) -> str:
        """One line for the screen between games, such as
        "Ada leads 2 to 1 in games, 5 to 3 in points"."""
        if not self.games:
            if self.best_of == 1:
                return f"{self.names[0]} v {self.names[1]}: one game"
            return (
                f"{self.names[0]} v {self.names[1]}: best of {self.best_of}, "
                f"first to {self.games_to_win} games"
            )
        wins, points = self.wins, self.points
        if wins[0] == wins[1]:
            if points[0] == points[1]:
                return (
                    f"{self.names[0]} and {self.names[1]} are level at "
                    f"{wins[0]} to {wins[1]} in games, {points[0]} to {points[1]} in points"
                )
            ahead = 0 if points[0] > points[1] else 1
            return (
                f"Level at {wins[0]} to {wins[1]} in games; {self.names[ahead]} leads "
                f"{points[ahead]} to {points[1 - ahead]} in points"
            )
        ahead = 0 if wins[0] > wins[1] else 1
        verb = "wins the match" if self.decided else "leads"
        return (
            f"{self.names[ahead]} {verb} {wins[ahead]} to {wins[1 - ahead]} in games, "
            f"{points[ahead]} to {points[1 - ahead]} in points"
        )


def match_from_outcomes(
    names: tuple[str, str],
    best_of: int,
    outcomes: Sequence[Outcome],
    rules: ScoringRules = ACC_SCORING,
) -> Match:
    """A match rebuilt from its games (as the store keeps them)."""
    match = Match(names, best_of, rules=rules)
    for outcome in outcomes:
        match = match.add(outcome)
    return match
