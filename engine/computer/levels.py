"""The computer's levels, and the scores from which each plays to win rather than for
points (the levels themselves: ``engine.computer.player``)."""

from __future__ import annotations

from typing import Final

from engine.rules.errors import IllegalActionError

LEVELS: Final = ("easy", "normal", "expert", "master")
# From this score on (either side) choices weigh the chance to win, not points.
ENDGAME_FROM: Final = 81
# The master weighs the chance to win in the play from this score on (either side).
MASTER_PLAY_FROM: Final = 61


def check_level(level: str) -> None:
    """Raises IllegalActionError unless ``level`` is one of ``LEVELS``."""
    if level not in LEVELS:
        raise IllegalActionError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
