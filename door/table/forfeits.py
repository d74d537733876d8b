"""What leaving a game that counts means, in words.

A rated game, or a tournament game, between two members counts: in the ratings, in the
tournament's standings. Its caller who quits forfeits it (``Game.forfeit``: a loss, no
skunk), and a match that counts is forfeited whole: the game in play is recorded as the
leaver's loss, the other player wins the match, and the table ends for both of them.
The computer does not sit in for the leaver, as it does in a friendly game: the other
player would otherwise play on against the computer, for the leaver's rating.

Between friends (unrated, no tournament), or with a guest at the table, the computer
plays the seat of whoever leaves, as ever.

Leaving while the other caller's line is down is not a forfeit to them: they left the
game first. Once their line has been down longer than the table waits for a call back
(the reconnect wait) they forfeit it to the one who stayed, as to a claim; before that both
have left it, and the game ends counted for neither (``Company.person_quit``). Pressing
``p`` (the computer plays the dropped seat) changes neither: it only goes on with the
game meanwhile.

Nor does dropping win a game that counts: when the computer plays a dropped caller's
seat (``p``, or the wait over) to a win, and they have not come back by its end, it is
not their win (``won_while_away``). Once their line has been down longer than the
reconnect wait they forfeit it, as to a claim; before that it ends counted for neither.
A win of the other side stands as played.

A game the table waited on one caller's move for too long may be claimed by the other
side (door/table/stalls.py): the staller forfeits it the same way, friendly or not.
"""

from __future__ import annotations

from collections.abc import Sequence

from door.table.options import GameOptions
from door.table.seats import Seat, is_over
from door.table.words import game_or_match
from engine.rules.game import Game


def counts(options: GameOptions, seats_of_callers: int) -> bool:
    """Whether quitting this game between callers is a forfeit."""
    return seats_of_callers == 2 and (options.rated or bool(options.tournament))


def won_while_away(options: GameOptions, seats: Sequence[Seat], game: Game) -> Seat | None:
    """The seat of a caller whose line is down and whose side ``game``, a game that
    counts, has just won: the computer played it for them (None: anyone else's end)."""
    outcome = game.outcome()
    callers = sum(seat.human for seat in seats)
    if outcome is None or outcome.forfeit or not counts(options, callers):
        return None
    won = [seat for seat in seats if seat.away and outcome.won(game.side_of(seat.index))]
    return won[0] if won else None


def what_is_forfeited(options: GameOptions) -> str:
    """``the match`` or ``the game``."""
    return game_or_match(options)


def quit_warning(options: GameOptions, other: Seat, reconnect_wait: float, game: Game) -> str:
    """For the quit dialog: what leaving ``game`` now costs, the other player being at
    ``other`` (their line down for longer than ``reconnect_wait``: they forfeit it).
    Between two games of a match no game is in play to record as a loss: the match is
    lost, and the games played stay as they ended."""
    name = other.name
    if other.away and other.away_longer_than(reconnect_wait):
        what = what_is_forfeited(options)
        return f"{name} has not called back: leave now and {name} forfeits {what} to you."
    if other.away:
        return f"{name}'s line is down: leave now and this game ends, counted for neither of you."
    if is_over(game) and options.best_of > 1:
        return f"Leave now and you forfeit the match to {name}; its games stay as they ended."
    kind = "rating" if options.rated else "tournament match"
    return (
        f"Leave now and you forfeit {what_is_forfeited(options)} to {name}: "
        f"a loss in your record and your {kind}."
    )


def not_back_line(options: GameOptions, dropper: str, other: str, waited: str) -> str:
    """What is told when ``other`` leaves after ``dropper``'s line was down ``waited``:
    ``Bob did not call back within 2 minutes, and forfeits the game to Ada.``"""
    what = what_is_forfeited(options)
    return f"{dropper} did not call back within {waited}, and forfeits {what} to {other}."


def left_while_away_line(leaver: str, dropper: str) -> str:
    """What is told when ``leaver`` leaves while ``dropper``'s line is down, before the
    wait for them is over: ``Ada left while Bob's line was down: the game ends, counted
    for neither.``"""
    return f"{leaver} left while {dropper}'s line was down: the game ends, counted for neither."


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


def won_while_away_line(options: GameOptions, dropper: str, other: str, waited: str) -> str:
    """What is told when the computer won a game that counts for ``dropper``, whose line
    was down (for longer than the reconnect wait, ``waited``, or else ""): ``The computer
    won for Bob, whose line was down: the game ends, counted for neither.``"""
    if not waited:
        return (
            f"The computer won for {dropper}, whose line was down: "
            "the game ends, counted for neither."
        )
    what = what_is_forfeited(options)
    return (
        f"The computer won for {dropper}, who did not call back within {waited}: "
        f"{dropper} forfeits {what} to {other}."
    )
