"""The middle of the game screen: the cards played, the count, the starter and crib, the
computer's cards and the caller's hand with its highlight bar."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from door.screens import theme
from door.screens.cards import (
    CARD_STEP,
    CARD_WIDTH,
    draw_back,
    draw_card,
    draw_cards,
    draw_empty,
    draw_faces,
    draw_small_backs,
    face_number,
)
from door.screens.fit import shortened
from door.screens.layout import (
    CARDS_COL,
    GUTTER_COL,
    HAND_CARDS_ROW,
    HAND_LABEL_ROW,
    PLAY_CARDS_ROW,
    PLAY_NUMBERS_ROW,
    RIGHT_PANEL_COL,
    SCREEN_COLS,
)
from door.term.canvas import PLAIN_CHAR, Canvas, style_char
from engine.rules.cards import Card
from engine.rules.game import Play

GONE_MARK = "x"
"""Shown above a card played in an earlier count of this hand."""
PLAYED_SHOWN = (RIGHT_PANEL_COL - CARDS_COL) // CARD_STEP
"""Played cards that fit left of the side panel: all eight of a two-handed hand; with
three or four players only the latest are shown."""


@dataclass(frozen=True, slots=True)  # one made at most frames (#48)
class HandState:
    """The caller's cards as shown, and what the keys have done to them.

    ``bar`` is the index of the card under the highlight bar (None: no bar, it is not
    the caller's move); ``marked`` are the cards chosen for the crib; ``unplayable``
    are drawn dimmed (they would take the count past 31); ``full``: as many cards are
    marked as the crib takes (RETURN throws them, so a click on another card must not
    stand for RETURN).
    """

    cards: tuple[Card, ...] = ()
    bar: int | None = None
    marked: frozenset[Card] = field(default_factory=frozenset)
    unplayable: frozenset[Card] = field(default_factory=frozenset)
    full: bool = False


def card_label(number: int, *, bar: bool, marked: bool) -> str:
    """The five characters above a card in the hand.

    The card's key (1-6), with ``>`` ``<`` around the one under the bar and ``*`` on both
    sides of a marked one, so terminals without colour show the bar and marks too:
    ``"  3  "``, ``"> 3 <"``, ``" *3* "``, ``">*3*<"``.
    """
    star = "*" if marked else " "
    return f"{'>' if bar else ' '}{star}{number}{star}{'<' if bar else ' '}"


def draw_hand(canvas: Canvas, hand: HandState, title: str = "Your hand") -> None:
    draw_hand_labels(canvas, hand.cards, hand.bar, hand.marked)
    draw_hand_cards(canvas, hand.cards, hand.marked, hand.unplayable, title)


def draw_hand_labels(
    canvas: Canvas, cards: Sequence[Card], bar: int | None, marked: frozenset[Card]
) -> None:
    """The row above the hand: each card's key, the bar and the marks (what a move of
    the bar changes, drawn apart from the cards). One put for the row, the gaps between
    labels written as blanks."""
    # (A card in a set is hashed, in Python: most frames mark none, and ask no set.)
    marks = 0
    if marked:
        for index, card in enumerate(cards):
            if card in marked:
                marks |= 1 << index
    text, styles = _labels_row(len(cards), bar, marks)
    canvas.put_styled(HAND_LABEL_ROW, CARDS_COL, text, styles)


@functools.lru_cache(maxsize=512)
def _labels_row(count: int, bar: int | None, marks: int) -> tuple[str, str]:
    """The row of ``count`` labels, the one at ``bar`` under the bar and those whose bit
    is set in ``marks`` marked: its text and styles (a bar move draws it again, and a
    hand has a few dozen such rows: each made once, found by three small numbers)."""
    texts, styles = [], []
    for index in range(count):
        under_bar, is_marked = index == bar, bool(marks >> index & 1)
        texts.append(card_label(index + 1, bar=under_bar, marked=is_marked))
        style = theme.BAR if under_bar else theme.MARKED if is_marked else theme.LABEL
        styles.append(style_char(style) * CARD_WIDTH)
    gap = " " * (CARD_STEP - CARD_WIDTH)
    return gap.join(texts), (PLAIN_CHAR * len(gap)).join(styles)


def draw_hand_cards(
    canvas: Canvas,
    cards: Sequence[Card],
    marked: frozenset[Card],
    unplayable: frozenset[Card],
    title: str = "Your hand",
) -> None:
    """The hand's cards, marked ones raised in colour and unplayable ones dimmed."""
    if cards:
        canvas.put(HAND_CARDS_ROW + 1, GUTTER_COL, title[: CARDS_COL - 2], theme.LABEL)
    faces = [
        (card, bool(marked) and card in marked, bool(unplayable) and card in unplayable)
        for card in cards
    ]
    draw_cards(canvas, HAND_CARDS_ROW, CARDS_COL, faces)


def current_count_numbers(plays: Sequence[Play], count_cards: Sequence[Card]) -> list[str]:
    """What stands above each played card: its play number if it is on the current count,
    ``x`` if it went in an earlier count."""
    live = live_round(plays, count_cards)
    return [str(play.number) if play.round == live else GONE_MARK for play in plays]


def live_round(plays: Sequence[Play], count_cards: Sequence[Card]) -> int | None:
    """The round of the count in progress (None: none is, every card laid is gone)."""
    return plays[-1].round if plays and count_cards else None


def draw_played(
    canvas: Canvas,
    plays: Sequence[Play],
    count_cards: Sequence[Card],
    show_count: bool,
    sides: int = 2,
) -> None:
    """The cards laid this hand with their play numbers, each in its side's colour (a
    card from an earlier count dimmed, ``x`` over it: ``current_count_numbers``)."""
    if show_count:
        count = sum([card.pips for card in count_cards])
        canvas.put(PLAY_CARDS_ROW, GUTTER_COL, "Count", theme.LABEL)
        canvas.put(PLAY_CARDS_ROW + 1, GUTTER_COL, f"{count:>4}", theme.TITLE)
    live = live_round(plays, count_cards)
    first, step = played_columns(len(plays))
    in_view = min(step, CARD_WIDTH)
    put, styles, looks = canvas.put, theme.PLAYER_STYLES, []
    col = first
    for play in plays:
        # Over the part of the card that stays in view when the next one overlaps it.
        if play.round == live:
            number = str(play.number)
            offset = max((in_view - len(number)) // 2, 0)
            put(PLAY_NUMBERS_ROW, col + offset, number, styles[play.seat % sides])
            looks.append(face_number(play.card))
        else:
            put(PLAY_NUMBERS_ROW, col + max((in_view - 1) // 2, 0), GONE_MARK, theme.DIM)
            looks.append(face_number(play.card, dim=True))
        col += step
    draw_faces(canvas, PLAY_CARDS_ROW, first, looks, step)


OVERLAP_STEP: Final = 3
"""Columns per card when a hand's plays do not fit side by side: the rank and suit of
each card stay in view (3 and 4 players lay up to 16 cards)."""
OTHER_HOLDS_WIDTH: Final = 18
"""Columns for "Bob holds 4" above the opponent's face-down cards, short of the board's
right edge."""


def played_columns(count: int) -> tuple[int, int]:
    """The first column and the step for ``count`` played cards, all of them in view."""
    if count <= PLAYED_SHOWN:
        return CARDS_COL, CARD_STEP
    width = CARD_WIDTH + (count - 1) * OVERLAP_STEP
    return min(CARDS_COL, RIGHT_PANEL_COL - 2 - width), OVERLAP_STEP


def draw_side_panel(
    canvas: Canvas,
    *,
    starter: Card | None,
    dealt: bool,
    crib_cards: int,
    crib_owner: str,
    others: Sequence[tuple[str, int]],
) -> None:
    """Starter and crib on the right, with whose crib it is and how many cards each of
    the other players holds (face down)."""
    starter_col, crib_col = RIGHT_PANEL_COL + 1, RIGHT_PANEL_COL + 9
    # With a space either side: on a three-side board these sit on its bottom rail.
    canvas.put(PLAY_NUMBERS_ROW, starter_col - 2, " Starter ", theme.LABEL)
    canvas.put(PLAY_NUMBERS_ROW, crib_col - 1, " Crib ", theme.LABEL)
    if starter is not None:
        draw_card(canvas, PLAY_CARDS_ROW, starter_col, starter)
    elif dealt:
        draw_back(canvas, PLAY_CARDS_ROW, starter_col)
    else:
        draw_empty(canvas, PLAY_CARDS_ROW, starter_col)
    if crib_cards:
        draw_back(canvas, PLAY_CARDS_ROW, crib_col)
    else:
        draw_empty(canvas, PLAY_CARDS_ROW, crib_col)
    if crib_owner:
        # Right-aligned in the panel, a long name shortened rather than cut mid-word.
        room = SCREEN_COLS - 1 - RIGHT_PANEL_COL
        label = crib_owner if len(crib_owner) <= room else crib_owner[: room - 3] + "…'s"
        canvas.put(HAND_LABEL_ROW, min(crib_col - 1, SCREEN_COLS - 1 - len(label)), label)
    if not dealt:
        return
    if len(others) == 1:
        name, cards = others[0]
        # A long name is shortened, never the count: "(deleted member) holds 3" cut at
        # the panel's 18 columns read "(deleted member) h".
        holds = f" holds {cards}"
        room = OTHER_HOLDS_WIDTH - len(holds)
        canvas.put(HAND_CARDS_ROW, RIGHT_PANEL_COL, shortened(name, room) + holds)
        draw_small_backs(canvas, HAND_CARDS_ROW + 1, RIGHT_PANEL_COL, cards)
        return
    # One row each: the name, then a narrow back per card.
    for row, (name, cards) in enumerate(others[:3], start=HAND_CARDS_ROW):
        col = canvas.put(row, RIGHT_PANEL_COL, f"{name[:11]:<12}", theme.TEXT)
        canvas.put(row, col, "▒" * cards, theme.CARD_BACK)
