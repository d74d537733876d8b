"""A player's count of their own show, as they claim it (manual counting): a whole number
from 0 to 29, read from what they typed; and "nineteen", the cribbage player's word for a
hand of nothing."""

from __future__ import annotations

from typing import Final

from engine.rules.errors import InvalidClaimError

MAX_CLAIM: Final = 29
NINETEEN: Final = 19
"""No hand counts 19, so "nineteen" is the cribbage player's word for a hand of nothing: a
claim of 19 is a claim of nothing (and, with muggins, the next player takes the count)."""
NINETEEN_REMARK: Final = "Nineteen! That's a cribbage player's word for nothing: no hand counts 19."


def parse_claim(claim: int | str | None) -> int:
    """Read a show count claim; raises InvalidClaimError unless it is a whole number 0..29."""
    if isinstance(claim, bool):
        claim = None
    if isinstance(claim, str):
        text = claim.strip()
        if not text.isdigit() or not text.isascii():
            raise InvalidClaimError(f"Type your count as a number from 0 to {MAX_CLAIM}.")
        claim = int(text)
    if not isinstance(claim, int):
        raise InvalidClaimError(f"Type your count as a number from 0 to {MAX_CLAIM}.")
    if not 0 <= claim <= MAX_CLAIM:
        raise InvalidClaimError(f"{claim} is not a possible count: a hand scores 0 to {MAX_CLAIM}.")
    return claim
