"""A game in a list of games, as one line with its number: the member's record and
``cribbage-door replay`` with no number both show games this way, so the number a
caller reads is the one the sysop replays.

>>> from door.storage.values import GameSummary, Seat
>>> from engine.rules.outcome import Outcome
>>> import datetime as dt
>>> game = GameSummary(12, 2, (Seat("Ada", 1), Seat("Computer")),
...                    dt.datetime(2026, 3, 2, 9, 5, tzinfo=dt.UTC), True, Outcome(0, (121, 98)))
>>> game_line(game, viewer=1)
'#12    2026-03-02 09:05  won, 121 to 98          Ada vs Computer'
>>> game_line(game)
'#12    2026-03-02 09:05  Ada won, 121 to 98      Ada vs Computer'
"""

from __future__ import annotations

from typing import Final

from door.screens.fit import shortened
from door.storage.values import GameSummary

RESULT_WIDTH: Final = 24
"""Room for how it ended; the names come last, where a long four-handed line may end."""


def side_members(game: GameSummary) -> list[list[str]]:
    """Each side's players' names: one, or two partners."""
    sides = 2 if game.players == 4 else game.players
    return [
        [seat.name for n, seat in enumerate(game.seats) if game.side_of(n) == side]
        for side in range(sides)
    ]


def sides_text(game: GameSummary) -> list[str]:
    """Each side's name: a player, or two partners ("Ada & Computer 2")."""
    return [" & ".join(members) for members in side_members(game)]


def result_text(game: GameSummary, viewer: int | None = None) -> str:
    """How it ended, for the member ``viewer`` (an account id) or for anyone."""
    if not game.finished:
        return "under way"
    outcome = game.result
    if outcome is None:
        return "abandoned"  # closed without an end on the board
    seat = game.seat_of(viewer) if viewer is not None else None
    side = game.side_of(seat) if seat is not None else None
    names = sides_text(game)
    if side is None:
        who = f"{names[outcome.winner_side]} won"
    else:
        who = "won" if outcome.won(side) else "lost"
    if outcome.forfeit:
        leaver = outcome.forfeited_by
        if side is not None and leaver == side:
            return "claimed from you: lost" if outcome.claimed else "you left it: a loss"
        return f"{who} by a claim" if outcome.claimed else f"{who} by forfeit"
    scores = sorted(outcome.scores, reverse=True)
    if side is not None:  # the member's own score first: "lost, 98 to 121"
        scores.remove(outcome.scores[side])
        scores.insert(0, outcome.scores[side])
    return f"{who}, {' to '.join(str(score) for score in scores)}"


def game_line(game: GameSummary, viewer: int | None = None) -> str:
    return _leading(game, viewer) + " vs ".join(sides_text(game))


def game_rows(game: GameSummary, viewer: int | None, width: int) -> list[str]:
    """``game_line`` in rows of ``width`` cells: one where it fits, else two, the names
    that do not fit on the first going on under the date, each name whole (a four-handed
    game's were cut at 80 columns: "Bruno & C"), and partners together where they fit.
    The names take 90 cells at most (four of 20 letters): the first row and the room
    under the date (71 at 80 columns) hold them."""
    line = game_line(game, viewer)
    if len(line) <= width:
        return [line]
    sides = side_members(game)
    last = len(sides) - 1
    # A row breaks after "vs" (between sides) or, failing that, after "&" (partners).
    by_side = [
        " & ".join(members) + (" vs" if side < last else "") for side, members in enumerate(sides)
    ]
    by_name = [
        name + (" &" if n < len(members) - 1 else " vs" if side < last else "")
        for side, members in enumerate(sides)
        for n, name in enumerate(members)
    ]
    leading = _leading(game, viewer)
    for pieces in (by_side, by_name):
        rows = [leading, " " * NUMBER_CELLS]
        row = 0
        for piece in pieces:
            if row == 0 and len(rows[0]) + len(piece) > width:
                row = 1
            rows[row] += piece + " "
        rows = [text.rstrip() for text in rows]
        if rows[0] != leading.rstrip() and len(rows[1]) <= width:
            break
    return [shortened(text, width) for text in rows]


NUMBER_CELLS: Final = 7
"""The game's number and the space after it: where the date, and a second row, begin."""


def _leading(game: GameSummary, viewer: int | None) -> str:
    """The number, the date and the result, padded to where the names begin."""
    when = game.when.strftime("%Y-%m-%d %H:%M")
    result = result_text(game, viewer)
    return f"{'#' + str(game.game_id):<{NUMBER_CELLS - 1}} {when}  {result:<{RESULT_WIDTH - 1}} "
