"""What a click on the game screen means: the hit map of one frame of the table.

The regions stand where door/screens/layout.py puts the parts (the hand from
``CARDS_COL``, a card every ``CARD_STEP`` columns; the cut's fan a column a card), and a
click becomes the keys a caller would press for the same thing: a card of the hand is its
number and RETURN (which marks it in the discard and plays it in the pegging), or DEL for
a card already marked, or its number alone (the bar goes there) while the discard has all
its cards marked, when RETURN would throw them; a card of the cut's fan is that card
number typed afresh; the offers on the status line are their keys; and a request for
the win bar in the log ("Bob asks for the win bar: press w to agree."), while the caller
has not agreed, is the ``w`` it names (Esc first on the blank chat line before a deal,
where w is a letter).
"""

from __future__ import annotations

import functools
from typing import Final

from door.screens.cards import CARD_HEIGHT, CARD_STEP, CARD_WIDTH
from door.screens.chat import LOG_PAGE, LogLine
from door.screens.cut import CutPanel
from door.screens.game_screen import TableView, key_bar
from door.screens.layout import (
    CARDS_COL,
    HAND_CARDS_ROW,
    HAND_LABEL_ROW,
    LOG_ROWS,
    LOG_TOP,
    PLAY_CARDS_ROW,
    STATUS_ROW,
)
from door.screens.play_area import HandState
from door.screens.side_pane import canvas_size
from door.term.canvas import picture_top
from door.term.clicks import Hit, HitMap, LaterHits, key_line_hits
from door.term.keys import Key
from engine.rules.cards import Card

_HAND_TOP = HAND_LABEL_ROW
_HAND_HEIGHT = HAND_CARDS_ROW + CARD_HEIGHT - HAND_LABEL_ROW
"""A card of the hand is clicked on its label (number, bar, mark) or its face."""


AGREE: Final = "press w to agree"
"""The words of a request for the win bar (door/table/company.py) that a click answers."""


def table_hits(
    view: TableView, *, hand: bool = False, cut: bool = False, agree: bool = False
) -> HitMap:
    """The hit map of ``view``'s frame: its status line always, the hand's cards while
    ``hand`` (a step is choosing from it), the cut's fan while ``cut`` (this caller cuts),
    a request for the win bar in the log while ``agree`` (the caller has not agreed)."""
    return _table_hits(*_drawn_from(view, hand, cut, agree))


def later_table_hits(
    view: TableView,
    *,
    hand: bool = False,
    cut: bool = False,
    agree: bool = False,
    wheel: tuple[Key, Key] | None = None,
) -> LaterHits:
    """``table_hits`` of ``view`` as it is now, worked out only if a click comes;
    ``wheel``: the keys the wheel stands for, up and down."""
    return LaterHits(_table_hits, *_drawn_from(view, hand, cut, agree), wheel)


def _drawn_from(
    view: TableView, hand: bool, cut: bool, agree: bool
) -> tuple[str, HandState | None, int | None, tuple[int, int], Hit | None]:
    """The values of ``view`` its map is worked out from (all of them values: the view
    itself changes after)."""
    stock = view.panel.stock_size if cut and isinstance(view.panel, CutPanel) else None
    agreeing = _agree_hit(view) if agree else None
    return key_bar(view), view.hand if hand else None, stock, view.size, agreeing


def _agree_hit(view: TableView) -> Hit | None:
    """A click on the newest request for the win bar the log shows: ``w``, when w is a
    key now (no line is being typed; on the blank chat line before a deal, Esc closes
    the line first)."""
    entry = view.entry
    if entry is None:
        keys: tuple[Key, ...] = (Key.printable("w"),)
    elif entry.prompt.startswith("Chat") and not entry.text:
        keys = (Key.ESCAPE, Key.printable("w"))
    else:
        return None
    back = view.log.back
    shown = view.log.kept(LOG_PAGE if back else LOG_ROWS)  # as draw_kept_log shows it
    for row in range(len(shown) - 1, -1, -1):
        text = LogLine.of(shown[row]).text
        at = text.find(AGREE)
        if at >= 0:
            start = 1 + at  # the log is drawn from column 1
            return Hit(LOG_TOP + row, start, start + len(AGREE), keys)
    return None


def _table_hits(
    status: str,
    hand: HandState | None,
    stock_size: int | None,
    size: tuple[int, int],
    agreeing: Hit | None,
    wheel: tuple[Key, Key] | None = None,
) -> HitMap:
    hits = list(key_line_hits(status, STATUS_ROW))
    if agreeing is not None:
        hits.append(agreeing)
    if hand is not None:
        hits += _hand_hits_of(hand.cards, hand.marked, hand.full)
    if stock_size is not None:
        hits += _cut_hits(stock_size)
    top = picture_top(canvas_size(size)[1])
    return HitMap(tuple(hits), wheel).moved_down(top)


@functools.lru_cache(maxsize=256)
def _hand_hits_of(cards: tuple[Card, ...], marked: frozenset[Card], full: bool) -> tuple[Hit, ...]:
    """(Cached: the bar moves over the same hand and marks many frames running.)"""
    hits = []
    for index, card in enumerate(cards):
        number = Key.printable(str(index + 1))
        if card in marked:
            keys: tuple[Key, ...] = (number, Key.DELETE)
        elif full:
            keys = (number,)  # RETURN would throw the cards marked, not mark this one
        else:
            keys = (number, Key.ENTER)
        start = CARDS_COL + index * CARD_STEP
        hits.append(Hit(_HAND_TOP, start, start + CARD_WIDTH, keys, rows=_HAND_HEIGHT))
    return tuple(hits)


@functools.lru_cache(maxsize=8)
def _cut_hits(stock_size: int) -> tuple[Hit, ...]:
    hits = []
    for number in range(1, stock_size + 1):
        # The number typed afresh: the line holds two digits at most, so two erasures
        # empty it whatever it held.
        keys = (Key.BACKSPACE, Key.BACKSPACE, *(Key.printable(digit) for digit in str(number)))
        column = CARDS_COL + number - 1
        hits.append(Hit(PLAY_CARDS_ROW, column, column + 1, keys, rows=CARD_HEIGHT))
    return tuple(hits)
