"""The lines around the game: the header at the top, the message and status lines below."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from door.screens import theme
from door.screens.fit import fit_line, wrap_lines
from door.screens.layout import HEADER_ROW, MESSAGE_ROW, SCREEN_COLS, STATUS_ROW
from door.term.canvas import PLAIN_CHAR, Canvas, style_char


def draw_header(
    canvas: Canvas,
    names: Sequence[str],
    scores: Sequence[int],
    dealer: int | None,
    middles: Sequence[str] = (),
) -> None:
    """Every side with its score, which side deals (and so owns the crib), and in the
    room left the first of ``middles`` that fits (longest first, say).

    Two sides stand at the two ends of the line; three stand side by side from the left,
    with a shorter dealer mark, and the middle text goes to the right of them."""
    if len(names) != 2:
        _draw_header_row(canvas, names, scores, dealer, middles)
        return
    left, right = f"{names[0]} {scores[0]}", f"{names[1]} {scores[1]}"
    left_marker = _DEALER_MARK if dealer == 0 else ""
    right_marker = _DEALER_MARK if dealer == 1 else ""
    col = 1 + len(left) + len(left_marker)
    right_col = SCREEN_COLS - 1 - len(right) - len(right_marker)
    room = right_col - col - 4
    # The middle is chosen as if both scores had three digits, so it does not lose its
    # fields as the scores grow during the game.
    growth = _score_growth(scores)
    middle = next((t for t in middles if len(t) <= room - growth), "")
    middle_col = col + 2 + (room - len(middle)) // 2
    if col <= middle_col and middle_col + len(middle) <= right_col:
        # Nothing overlaps (names of usual length): the row in one put, its gaps blank
        # (the header is the bottom layer of its row: nothing under them to hide).
        before, after = middle_col - col, right_col - middle_col - len(middle)
        text = f"{left}{left_marker}{' ' * before}{middle}{' ' * after}{right}{right_marker}"
        styles = (
            _FIRST * len(left)
            + _BRIGHT * len(left_marker)
            + PLAIN_CHAR * before
            + _LABEL * len(middle)
            + PLAIN_CHAR * after
            + _SECOND * len(right)
            + _BRIGHT * len(right_marker)
        )
        canvas.put_styled(HEADER_ROW, 1, text, styles)
        return
    left_style, right_style = theme.PLAYER_STYLES[:2]
    col = canvas.put(HEADER_ROW, 1, left, left_style)
    col = canvas.put(HEADER_ROW, col, left_marker, theme.BRIGHT)
    end = canvas.put(HEADER_ROW, right_col, right, right_style)
    canvas.put(HEADER_ROW, end, right_marker, theme.BRIGHT)
    canvas.put(HEADER_ROW, middle_col, middle, theme.LABEL)


_DEALER_MARK: Final = " (dealer, crib)"
_FIRST, _SECOND = (style_char(style) for style in theme.PLAYER_STYLES[:2])
_BRIGHT: Final = style_char(theme.BRIGHT)
_LABEL: Final = style_char(theme.LABEL)


def _draw_header_row(
    canvas: Canvas,
    names: Sequence[str],
    scores: Sequence[int],
    dealer: int | None,
    middles: Sequence[str],
) -> None:
    col = 1
    for side, name in enumerate(names):
        col = canvas.put(HEADER_ROW, col, f"{name} {scores[side]}", theme.PLAYER_STYLES[side])
        if side == dealer:
            col = canvas.put(HEADER_ROW, col, " (crib)", theme.BRIGHT)
        col += 3
    room = SCREEN_COLS - 1 - col - _score_growth(scores)
    middle = next((text for text in middles if len(text) <= room), "")
    canvas.put(HEADER_ROW, SCREEN_COLS - 1 - len(middle), middle, theme.LABEL)


def _score_growth(scores: Sequence[int]) -> int:
    """The columns the scores may still take as they grow to three digits."""
    return sum(max(0, 3 - len(str(score))) for score in scores)


def draw_message(canvas: Canvas, text: str, *, error: bool = False, spare: int = 0) -> None:
    """One line, or up to ``spare`` more rows above it that the screen has free: a
    message too long wraps there, and what still does not fit is shortened before the
    keys it names, never through them."""
    style = theme.ERROR if error else theme.MESSAGE
    lines = wrap_lines(text, SCREEN_COLS - 2, 1 + spare) if spare else [text]
    top = MESSAGE_ROW - len(lines) + 1
    for offset, line in enumerate(lines):
        canvas.put(top + offset, 1, fit_line(line, SCREEN_COLS - 2), style)


def draw_status(canvas: Canvas, text: str) -> None:
    """The keys that work now, on a bar across the bottom.

    The bar stops one column short of the right edge: writing the bottom-right cell makes
    BBS terminals scroll.
    """
    width = SCREEN_COLS - 1
    canvas.put(STATUS_ROW, 0, (" " + text)[:width].ljust(width), theme.STATUS)
