"""The cribbage board: 121 holes a side, twice around, two pegs a player.

Each side has an outer lane, holes 1-60 from left to right, and an inner lane that comes
back, holes 61-120 from right to left, ending in the game hole (121) at the left. Holes
are in groups of five, as on a wooden board. Side 0's lanes are above the middle rail,
side 1's below it, so both outer lanes run along the board's edges, whose rails carry
the hole numbers of the first lap::

    ┌───────5────10────15── ... ──60─┐
    │ ·  ····· ····· ····· ... ·····─┐  │   side 0, holes 1-60  →
    │ •  ····· ····· ····· ... ·····─┘  │   side 0, holes 120-61 ←, game hole •
    │  Alice 45 (above)      Computer 38 (below)
    │ •  ····· ····· ····· ... ·····─┐  │   side 1, holes 120-61 ←
    │ ·  ····· ····· ····· ... ·····─┘  │   side 1, holes 1-60  →
    └───────5────10────15── ... ──60─┘

A player's front peg (``█``) stands at the score and the rear peg (``▒``) at the score
before the last points, so the last move can be read off the board.

Three sides (the three-handed game) need six lanes in the same seven rows: the lanes
then follow each other under the top rail, side 0's first, and there is neither a
middle rail nor a bottom one (the header names the players and their scores).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from door.screens import theme
from door.term.canvas import Canvas

BOARD_HEIGHT: Final = 7
BOARD_WIDTH: Final = 80
LANE_HOLES: Final = 60
GAME_HOLE: Final = 121
FIRST_HOLE_COL: Final = 4
START_COL: Final = 2
"""Where pegs stand before the first point (outer lane) and after 121 (inner lane)."""

FRONT_PEG: Final = "█"
REAR_PEG: Final = "▒"
HOLE: Final = "·"
GAME_HOLE_MARK: Final = "•"
LANE: Final = " ".join([HOLE * 5] * (LANE_HOLES // 5))
"""A lane's 60 holes in groups of five, drawn in one piece."""


def hole_column(index: int) -> int:
    """Column of the ``index``-th hole from the left of a lane (0..59), groups of five."""
    return FIRST_HOLE_COL + index + index // 5


def _lane_rows(side: int, top: int, sides: int = 2) -> tuple[int, int]:
    """(outer, inner) rows of a side."""
    if sides == 3:
        return (top + 1 + 2 * side, top + 2 + 2 * side)
    return (top + 1, top + 2) if side == 0 else (top + 5, top + 4)


@functools.lru_cache(maxsize=1024)
def peg_position(side: int, score: int, top: int = 0, sides: int = 2) -> tuple[int, int]:
    """The (row, col) of the hole for ``score`` on ``side``'s lanes of a board at ``top``
    (kept: the pegs are drawn again at every score, for every caller, from the same few
    hundred holes)."""
    outer, inner = _lane_rows(side, top, sides)
    if score <= 0:
        return outer, START_COL
    if score <= LANE_HOLES:
        return outer, hole_column(score - 1)
    if score < GAME_HOLE:
        return inner, hole_column(2 * LANE_HOLES - score)
    return inner, START_COL


def _rail_with_numbers() -> str:
    """The inside of the top and bottom rails, numbered every fifth hole of the first lap."""
    rail = ["─"] * (BOARD_WIDTH - 2)
    for hole in range(5, LANE_HOLES + 1, 5):
        label = str(hole)
        right = hole_column(hole - 1)
        rail[right - len(label) : right] = label  # rail[0] is board column 1
    return "".join(rail)


RAIL_WITH_NUMBERS: Final = _rail_with_numbers()


def draw_board(
    canvas: Canvas,
    top: int,
    scores: Sequence[int],
    previous_scores: Sequence[int],
    names: Sequence[str],
) -> None:
    """The board for two or three sides, in rows ``top`` to ``top + 6`` (and the foot
    of a three-side board below them): the bare board, then the names and pegs."""
    draw_bare_board(canvas, top, len(scores))
    draw_pegs(canvas, top, scores, previous_scores, names)


def draw_bare_board(canvas: Canvas, top: int, sides: int) -> None:
    """The board without names or pegs: its rails, its sides and its lanes, the same
    all game. It owns its rows across its whole width: each is written in one piece,
    the cells between its rails and lanes as the blanks they show (``_bare``)."""
    for row, (chars, styles) in enumerate(_bare(sides)):
        canvas.put_styled(top + row, 0, chars, styles)
    if sides == 3:
        draw_board_foot(canvas, top)


def draw_pegs(
    canvas: Canvas,
    top: int,
    scores: Sequence[int],
    previous_scores: Sequence[int],
    names: Sequence[str],
) -> None:
    """What changes on the board from one score to the next, over the bare board: the
    names with the scores, and each side's pegs. The table draws it as a layer of its
    own, so a score redraws these few cells and the two or three rows they stand on,
    not all seven rows of the board."""
    sides = len(scores)
    if sides == 2:
        _draw_names(canvas, top + 3, scores, names)
    else:
        _draw_names_on_rail(canvas, top, scores, names)
    for side in range(sides):
        style = theme.PLAYER_STYLES[side]
        front, rear = scores[side], previous_scores[side]
        if rear != front:
            canvas.put(*peg_position(side, rear, top, sides), REAR_PEG, style)
        canvas.put(*peg_position(side, front, top, sides), FRONT_PEG, style)


@functools.cache
def _bare(sides: int) -> tuple[tuple[str, str], ...]:
    """The board's rows without names or pegs (characters and styles): its rails, its
    sides and its lanes."""
    canvas = Canvas(BOARD_WIDTH, BOARD_HEIGHT)
    last = BOARD_WIDTH - 1
    canvas.put(0, 0, "┌" + RAIL_WITH_NUMBERS + "┐", theme.WOOD)
    lane_rows_end = BOARD_HEIGHT
    if sides == 2:
        canvas.put(BOARD_HEIGHT - 1, 0, "└" + RAIL_WITH_NUMBERS + "┘", theme.WOOD)
        lane_rows_end -= 1
    for row in range(1, lane_rows_end):
        canvas.put(row, 0, "│", theme.WOOD)
        canvas.put(row, last, "│", theme.WOOD)
    turn_col = hole_column(LANE_HOLES - 1) + 1
    for side in range(sides):
        outer, inner = _lane_rows(side, 0, sides)
        for row in (outer, inner):
            canvas.put(row, FIRST_HOLE_COL, LANE, theme.HOLE)
        canvas.put(outer, START_COL, HOLE, theme.HOLE)
        canvas.put(inner, START_COL, GAME_HOLE_MARK, theme.BRIGHT)
        # The lane turns at the right-hand end from hole 60 into hole 61.
        upper, lower = min(outer, inner), max(outer, inner)
        canvas.put(upper, turn_col, "─┐", theme.WOOD)
        canvas.put(lower, turn_col, "─┘", theme.WOOD)
    return tuple(zip(canvas.chars, canvas.styles, strict=True))


def _draw_names_on_rail(
    canvas: Canvas, top: int, scores: Sequence[int], names: Sequence[str]
) -> None:
    """Three sides' lanes fill the board: the top rail names them, top lanes first, each
    name in its pegs' colour."""
    col = 2
    room = BOARD_WIDTH - 3
    shown = list(names)

    def labels() -> list[str]:
        return [f" {name} {score} " for name, score in zip(shown, scores, strict=True)]

    while sum(map(len, labels())) + len(shown) - 1 > room - col:
        longest = max(range(len(shown)), key=lambda side: len(shown[side]))
        shown[longest] = shown[longest].removesuffix("…")[:-1] + "…"  # never the score
    for side, label in enumerate(labels()):
        if side:
            col = canvas.put(top, col, "─", theme.WOOD)
        col = canvas.put(top, col, label, theme.PLAYER_STYLES[side])
    # A hole number the names cover in part, or that touches the last score, would read
    # as part of it ("Computer 2 0 0────35", "Computer 2 0 30────"): it is hidden.
    after = RAIL_WITH_NUMBERS[col - 1 :]  # the rail from the names' end (rail[0] is column 1)
    digits = len(after) - len(after.lstrip("0123456789"))
    if digits:
        canvas.put(top, col, "─" * digits, theme.WOOD)


def draw_board_foot(canvas: Canvas, top: int) -> None:
    """The bottom rail of a three-side board, on the row below its lanes (the row the
    play numbers and the Starter and Crib labels are then written on)."""
    canvas.put(top + BOARD_HEIGHT, 0, "└" + "─" * (BOARD_WIDTH - 2) + "┘", theme.WOOD)


def _draw_names(canvas: Canvas, row: int, scores: Sequence[int], names: Sequence[str]) -> None:
    """The middle rail says whose lanes are which."""
    upper = f"{names[0]} {scores[0]} (above)"
    lower = f"{names[1]} {scores[1]} (below)"
    canvas.put(row, 3, upper, theme.PLAYER_STYLES[0])
    canvas.put(row, BOARD_WIDTH - 3 - len(lower), lower, theme.PLAYER_STYLES[1])
