"""Where each part of the 80x24 game screen lives (rows and columns from 0).

::

    0       header: names, scores, dealer and crib, hand number
    1-7     the board
    8       play-order numbers (x for an earlier count)   | Starter  Crib
    9-11    the cards played this hand, and the count     | the starter, the crib
    12      card numbers, the bar and the marks           | whose crib
    13-15   the caller's hand                              | the computer's cards
    16      rule
    17-20   game log and chat
    21      the line being typed (chat, a card number, a count)
    22      message line
    23      status line: the keys that work now
"""

from __future__ import annotations

from typing import Final

SCREEN_COLS: Final = 80
SCREEN_ROWS: Final = 24

HEADER_ROW: Final = 0
BOARD_TOP: Final = 1
PLAY_NUMBERS_ROW: Final = 8
PLAY_CARDS_ROW: Final = 9
HAND_LABEL_ROW: Final = 12
HAND_CARDS_ROW: Final = 13
LOG_RULE_ROW: Final = 16
LOG_TOP: Final = 17
LOG_ROWS: Final = 4
ENTRY_ROW: Final = 21
MESSAGE_ROW: Final = 22
STATUS_ROW: Final = 23

GUTTER_COL: Final = 1
CARDS_COL: Final = 11
"""Left edge of the first played card and of the first card in the hand."""
RIGHT_PANEL_COL: Final = 61
TEXT_WIDTH: Final = SCREEN_COLS - 2
"""Usable width of a line of text, leaving a margin on both sides."""
