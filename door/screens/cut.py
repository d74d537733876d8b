"""The two cuts: for first deal (low card deals), and for the starter (pick a card)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from door.screens import theme
from door.screens.cards import CARD_HEIGHT, draw_card
from door.screens.layout import CARDS_COL, GUTTER_COL, PLAY_CARDS_ROW, PLAY_NUMBERS_ROW
from door.term.canvas import Canvas, Color, Style
from engine.rules.cards import Card

SELECTED_CARD: Final = Style(Color.CYAN, bold=True)


@dataclass(frozen=True)
class CutForDealPanel:
    """The cards each player cut for the deal and who deals first."""

    draws: tuple[tuple[int, Card], ...]
    dealer: int


@dataclass(frozen=True)
class CutPanel:
    """The deck fanned out for the cut; ``selected`` is the card number chosen so far."""

    stock_size: int
    selected: int | None = None


def draw_cut_for_deal(canvas: Canvas, panel: CutForDealPanel, names: Sequence[str]) -> None:
    canvas.put(PLAY_CARDS_ROW, GUTTER_COL, "Cut for", theme.LABEL)
    canvas.put(PLAY_CARDS_ROW + 1, GUTTER_COL, "the deal", theme.LABEL)
    col = CARDS_COL
    step = 14 if len(panel.draws) == 2 else 12  # four cuts and the verdict fit in 80
    for seat, card in panel.draws:
        side = seat % 2 if len(panel.draws) == 4 else seat  # partners share a colour
        style = theme.PLAYER_STYLES[side]
        canvas.put(PLAY_NUMBERS_ROW, col, names[seat][: step - 2], style)
        draw_card(canvas, PLAY_CARDS_ROW, col, card)
        col += step
    canvas.put(PLAY_CARDS_ROW + 1, col, "Low card deals:", theme.TEXT)
    canvas.put(PLAY_CARDS_ROW + 2, col, f"{names[panel.dealer]} deals first.", theme.BRIGHT)


def draw_cut(canvas: Canvas, panel: CutPanel) -> None:
    """The stock as a fan of card edges, one column each, numbered every five."""
    canvas.put(PLAY_CARDS_ROW, GUTTER_COL, "Cut the", theme.LABEL)
    canvas.put(PLAY_CARDS_ROW + 1, GUTTER_COL, "deck", theme.LABEL)
    for number in range(1, panel.stock_size + 1):
        if number == 1 or number % 5 == 0:
            label = str(number)
            canvas.put(PLAY_NUMBERS_ROW, CARDS_COL + number - len(label), label, theme.LABEL)
    # The fan row by row: the edges before the chosen card, its solid block (a block reads
    # as the chosen card even without colour), the edges after (three writes a row, not
    # one a card: the fan is drawn again at every move of the choice).
    size, chosen = panel.stock_size, panel.selected
    before = size if chosen is None or not 1 <= chosen <= size else chosen - 1
    after = size - before - 1 if before < size else 0
    for row in range(PLAY_CARDS_ROW, PLAY_CARDS_ROW + CARD_HEIGHT):
        canvas.put(row, CARDS_COL, "▒" * before, theme.CARD_BACK)
        if before < size:
            canvas.put(row, CARDS_COL + before, "█", SELECTED_CARD)
            canvas.put(row, CARDS_COL + before + 1, "▒" * after, theme.CARD_BACK)
