"""What a click on the game screen means: the hit map of one frame of the table.

The regions stand where door/screens/layout.py puts the parts (the hand from
``CARDS_COL``, a card every ``CARD_STEP`` columns; the cut's fan a column a card), and a
click becomes the keys a caller would press for the same thing: a card of the hand is its
number and RETURN (which marks it in the discard and plays it in the pegging), or DEL for
a card already marked; a card of the cut's fan is that card number typed afresh; the
offers on the status line are their keys.
"""

from __future__ import annotations

from door.screens.cards import CARD_HEIGHT, CARD_STEP, CARD_WIDTH
from door.screens.cut import CutPanel
from door.screens.game_screen import TableView
from door.screens.layout import (
    CARDS_COL,
    HAND_CARDS_ROW,
    HAND_LABEL_ROW,
    PLAY_CARDS_ROW,
    STATUS_ROW,
)
from door.screens.side_pane import canvas_size
from door.term.canvas import picture_top
from door.term.clicks import Hit, HitMap, key_line_hits
from door.term.keys import Key

_HAND_ROWS = range(HAND_LABEL_ROW, HAND_CARDS_ROW + CARD_HEIGHT)
"""A card of the hand is clicked on its label (number, bar, mark) or its face."""
_CUT_ROWS = range(PLAY_CARDS_ROW, PLAY_CARDS_ROW + CARD_HEIGHT)


def table_hits(view: TableView, *, hand: bool = False, cut: bool = False) -> HitMap:
    """The hit map of ``view``'s frame: its status line always, the hand's cards while
    ``hand`` (a step is choosing from it), the cut's fan while ``cut`` (this caller cuts)."""
    hits = list(key_line_hits(view.status, STATUS_ROW))
    if hand:
        hits += _hand_hits(view)
    if cut and isinstance(view.panel, CutPanel):
        hits += _cut_hits(view.panel)
    top = picture_top(canvas_size(view.size)[1])
    return HitMap(tuple(hits)).moved_down(top)


def _hand_hits(view: TableView) -> list[Hit]:
    hits = []
    for index, card in enumerate(view.hand.cards):
        choose = Key.DELETE if card in view.hand.marked else Key.ENTER
        keys = (Key.printable(str(index + 1)), choose)
        start = CARDS_COL + index * CARD_STEP
        hits += [Hit(row, start, start + CARD_WIDTH, keys) for row in _HAND_ROWS]
    return hits


def _cut_hits(panel: CutPanel) -> list[Hit]:
    hits = []
    for number in range(1, panel.stock_size + 1):
        # The number typed afresh: the line holds two digits at most, so two erasures
        # empty it whatever it held.
        keys = (Key.BACKSPACE, Key.BACKSPACE, *(Key.printable(digit) for digit in str(number)))
        column = CARDS_COL + number - 1
        hits += [Hit(row, column, column + 1, keys) for row in _CUT_ROWS]
    return hits
