"""Card glyphs: three rows by five columns, face up in the suit's colour or face down.

::

    ┌───┐ ┌───┐ ┌───┐
    │5♥ │ │10♠│ │▒▒▒│
    └───┘ └───┘ └───┘

Hearts and diamonds are red, spades and clubs bright white; a card marked for the crib
turns yellow. The highlight bar is the row of numbers over the hand (play_area.py), not
the cards: a bar move rewrites two labels, under 64 bytes in any charset, where two
whole cards took 250. The charset degrades the suits and frame to ``H D S C`` and
``+-|`` on ASCII terminals, so the cards stay readable.
"""

from __future__ import annotations

from typing import Final

from door.screens import theme
from door.term.canvas import Canvas, Style
from engine.cards import Card, Rank

CARD_WIDTH: Final = 5
CARD_HEIGHT: Final = 3
CARD_STEP: Final = CARD_WIDTH + 1
"""Columns from one card's left edge to the next in a row of cards."""


def card_face(card: Card) -> str:
    """How a card is written on screen: ``5♥``, ``10♠``, ``K♦`` (a ten as 10, as printed)."""
    rank = "10" if card.rank == Rank.TEN else card.rank.letter
    return rank + card.suit.symbol


def suit_style(card: Card) -> Style:
    return theme.RED_SUIT if card.suit.is_red else theme.BLACK_SUIT


def draw_card(
    canvas: Canvas,
    row: int,
    col: int,
    card: Card,
    *,
    marked: bool = False,
    dim: bool = False,
) -> None:
    """A face-up card with its top-left corner at ``row``, ``col``."""
    edge, face = theme.CARD_EDGE, suit_style(card)
    if dim:
        edge = face = theme.UNPLAYABLE
    if marked:
        edge = face = theme.MARKED
    text = card_face(card).ljust(CARD_WIDTH - 2)
    _frame(canvas, row, col, edge)
    canvas.put(row + 1, col + 1, text, face)


def draw_back(canvas: Canvas, row: int, col: int) -> None:
    """A face-down card."""
    edge, back = theme.CARD_EDGE, theme.CARD_BACK
    _frame(canvas, row, col, edge)
    canvas.put(row + 1, col + 1, "▒" * (CARD_WIDTH - 2), back)


def draw_empty(canvas: Canvas, row: int, col: int, style: Style = theme.DIM) -> None:
    """Where a card will go (an empty crib, a starter not yet cut)."""
    _frame(canvas, row, col, style)


def draw_small_backs(canvas: Canvas, row: int, col: int, count: int) -> None:
    """A row of small face-down cards: how many an opponent still holds."""
    for index in range(count):
        canvas.put(row, col + index * 3, "▒▒", theme.CARD_BACK)


_TOP: Final = "┌" + "─" * (CARD_WIDTH - 2) + "┐"
_BOTTOM: Final = "└" + "─" * (CARD_WIDTH - 2) + "┘"


def _frame(canvas: Canvas, row: int, col: int, style: Style) -> None:
    canvas.put(row, col, _TOP, style)
    canvas.put(row + 1, col, "│", style)
    canvas.put(row + 1, col + CARD_WIDTH - 1, "│", style)
    canvas.put(row + 2, col, _BOTTOM, style)
