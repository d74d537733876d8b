"""What the competition rules raise. Every message is written to be shown to a caller.

::

    CompetitionError(ValueError)
    ├── MatchOverError    a game added to a match that is already decided
    ├── PairingError      no pairing for a round follows the rules (no repeat pairings)
    ├── TournamentError   sign-ups closed, an unknown entrant, a result for no pairing
    └── MoveLimitError    a play-by-mail player has made today's moves
"""

from __future__ import annotations


class CompetitionError(ValueError):
    """Base class of everything the competition rules raise on bad input."""


class MatchOverError(CompetitionError):
    """The match is decided: it takes no more games."""


class PairingError(CompetitionError):
    """The next round cannot be paired by the rules."""


class TournamentError(CompetitionError):
    """An action the tournament's state does not allow."""


class MoveLimitError(CompetitionError):
    """A play-by-mail player has used today's moves; ``next_day`` is when more come."""
