"""What leaving a game that counts means, in words.

A rated game, or a tournament game, between two members counts: in the ratings, in the
tournament's standings. Its caller who quits forfeits it (``Game.forfeit``: a loss, no
skunk), and a match that counts is forfeited whole: the game in play is recorded as the
leaver's loss, the other player wins the match, and the table ends for both of them.
The computer does not sit in for the leaver, as it does in a friendly game: the other
player would otherwise play on against the computer, for the leaver's rating.

Between friends (unrated, no tournament), or with a guest at the table, the computer
plays the seat of whoever leaves, as ever.

A game the table waited on one caller's move for too long may be claimed by the other
side (door/table/stalls.py): the staller forfeits it the same way, friendly or not.
"""

from __future__ import annotations

from door.table.options import GameOptions


def counts(options: GameOptions, seats_of_callers: int) -> bool:
    """Whether quitting this game between callers is a forfeit."""
    return seats_of_callers == 2 and (options.rated or bool(options.tournament))


def what_is_forfeited(options: GameOptions) -> str:
    """``the match`` or ``the game``."""
    return "the match" if options.best_of > 1 else "the game"


def quit_warning(options: GameOptions, other: str) -> str:
    """For the quit dialog: what leaving now costs."""
    kind = "rating" if options.rated else "tournament match"
    return (
        f"Leave now and you forfeit {what_is_forfeited(options)} to {other}: "
        f"a loss in your record and your {kind}."
    )


def forfeit_line(options: GameOptions, leaver: str, other: str) -> str:
    """What both players are told: ``Bob left and forfeits the match to Ada.``"""
    return f"{leaver} left and forfeits {what_is_forfeited(options)} to {other}."


def claim_line(
    options: GameOptions, claimant: str, staller: str, waited: str, *, ready: bool = False
) -> str:
    """What both players are told of a claim: ``Ada claimed the game: Bob had not moved
    for 3 minutes, and forfeits it.`` (``had not said they were ready``, ``ready``: the
    wait was for them to say so before the computer's deal)."""
    what = what_is_forfeited(options)
    stalled = "had not said they were ready" if ready else "had not moved"
    return f"{claimant} claimed {what}: {staller} {stalled} for {waited}, and forfeits it."
