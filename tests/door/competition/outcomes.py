"""Game outcomes as the engine ends games, for the competition tests."""

from __future__ import annotations

from engine.rules.outcome import WINNING_SCORE, Outcome, skunk_kind


def won(winner: int, loser_score: int) -> Outcome:
    """A two-sided game that ``winner`` pegged out, the loser left at ``loser_score``
    (skunked under 91, double skunked under 61, as engine.rules.outcome says)."""
    scores = [0, 0]
    scores[winner] = WINNING_SCORE
    scores[1 - winner] = loser_score
    kind = skunk_kind(loser_score)
    skunks = ((1 - winner, kind),) if kind is not None else ()
    return Outcome(winner, (scores[0], scores[1]), skunks)


def forfeited(by: int, scores: tuple[int, int]) -> Outcome:
    """A game that side ``by`` left at ``scores``: the other side wins, nobody skunked."""
    return Outcome(1 - by, scores, (), forfeited_by=by)
