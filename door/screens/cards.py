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

import functools
from collections.abc import Sequence
from typing import Final

from door.screens import theme
from door.term.canvas import PLAIN_CHAR, Canvas, Style, style_char
from engine.rules.cards import FULL_DECK, Card, Rank

CARD_WIDTH: Final = 5
CARD_HEIGHT: Final = 3
CARD_STEP: Final = CARD_WIDTH + 1
"""Columns from one card's left edge to the next in a row of cards."""


def card_face(card: Card) -> str:
    """How a card is written on screen: ``5♥``, ``10♠``, ``K♦`` (a ten as 10, as printed)."""
    return FACES_BY_INDEX[card.index]


FACES_BY_INDEX: Final = tuple(
    ("10" if card.rank == Rank.TEN else card.rank.letter) + card.suit.symbol for card in FULL_DECK
)
"""Each card's ``card_face`` by its ``index`` (a show writes a few dozen: a rank and a
suit asked of their enums each time cost more than the rest of the line)."""


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
    _put_rows(canvas, row, col, _face(card, 2 if marked else 1 if dim else 0))


def draw_cards(
    canvas: Canvas,
    row: int,
    col: int,
    cards: Sequence[tuple[Card, bool, bool]],
    step: int = CARD_STEP,
) -> None:
    """A row of face-up cards (each with its ``marked`` and ``dim``), ``step`` columns
    apart from ``col``: with a step under a card's width each card covers the one before
    but for its first ``step`` columns. Three puts for the whole row, not five a card
    (a frame redraws the hand or the play at every card): the gaps between cards are
    written as blanks, so nothing may be drawn under them.

    A card's top and bottom rows are the same text for every card and styled as its
    edge: the row's edges are made once for each count and step (``_edge_rows``), and
    the styles of both from one join; only the middle row is joined from each face."""
    # (face_number written out: a call a card, with keywords, is most of making the list)
    looks = [card.index * 3 + (2 if marked else 1 if dim else 0) for card, marked, dim in cards]
    draw_faces(canvas, row, col, looks, step)


def face_number(card: Card, *, marked: bool = False, dim: bool = False) -> int:
    """A card in a look, as one number (``draw_faces``): plain, dimmed or marked."""
    return card.index * 3 + (2 if marked else 1 if dim else 0)


def draw_faces(canvas: Canvas, row: int, col: int, looks: Sequence[int], step: int) -> None:
    """``draw_cards`` for cards given as ``face_number``s (a caller that works out each
    card's look as it goes need not make a tuple a card)."""
    if not looks:
        return
    faces = []
    for number in looks:
        face = _ROWS[number]
        faces.append(face if face is not None else _face_rows(number, FULL_DECK[number // 3]))
    top, bottom = _edge_rows(len(faces), step)
    if step >= CARD_WIDTH:  # side by side (the hand, the play, the show)
        joint = PLAIN_CHAR * (step - CARD_WIDTH)
        edges = joint.join([face[1] for face in faces])
        middle = (_GAP * (step - CARD_WIDTH)).join([face[0] for face in faces])
        middle_styles = joint.join([face[2] for face in faces])
    else:  # overlapping: every card but the last shows its first ``step`` columns
        *covered, (last_middle, last_edges, last_styles) = faces
        edges = "".join([face[1][:step] for face in covered]) + last_edges
        middle = "".join([face[0][:step] for face in covered]) + last_middle
        middle_styles = "".join([face[2][:step] for face in covered]) + last_styles
    canvas.put_styled(row, col, top, edges)
    canvas.put_styled(row + 1, col, middle, middle_styles)
    canvas.put_styled(row + 2, col, bottom, edges)


def draw_back(canvas: Canvas, row: int, col: int) -> None:
    """A face-down card."""
    _put_rows(canvas, row, col, _face_down())


def draw_empty(canvas: Canvas, row: int, col: int, style: Style = theme.DIM) -> None:
    """Where a card will go (an empty crib, a starter not yet cut)."""
    edge = style_char(style)
    canvas.put_styled(row, col, _TOP, edge * CARD_WIDTH)
    canvas.put_styled(row + 1, col, "│", edge)
    canvas.put_styled(row + 1, col + CARD_WIDTH - 1, "│", edge)
    canvas.put_styled(row + 2, col, _BOTTOM, edge * CARD_WIDTH)


def draw_small_backs(canvas: Canvas, row: int, col: int, count: int) -> None:
    """A row of small face-down cards: how many an opponent still holds."""
    for index in range(count):
        canvas.put(row, col + index * 3, "▒▒", theme.CARD_BACK)


_TOP: Final = "┌" + "─" * (CARD_WIDTH - 2) + "┐"
_BOTTOM: Final = "└" + "─" * (CARD_WIDTH - 2) + "┘"
_GAP: Final = " "

Piece = tuple[str, str]
"""A row of a card as drawn: its text and its styles (``style_char``, one a cell)."""


_FACES: Final[list[tuple[Piece, Piece, Piece] | None]] = [None] * (52 * 3)
"""Each card's rows in each look (plain 0, dimmed 1, marked 2), by ``card.index * 3 +
look``: made once each (``_face_up``), then found by number. A cache keyed by the card
would hash it at every lookup, and a card's hash is Python (engine/rules/cards.py)."""


def _face(card: Card, look: int) -> tuple[Piece, Piece, Piece]:
    """A card's three rows in ``look`` (plain 0, dimmed 1, marked 2)."""
    number = card.index * 3 + look
    face = _FACES[number]
    if face is None:
        face = _FACES[number] = _face_up(card, look)
    return face


_ROWS: Final[list[tuple[str, str, str] | None]] = [None] * (52 * 3)
"""Each card's look as ``draw_cards`` joins it, by the same number as ``_FACES``: its
middle row's text, its edge's styles (its top and bottom rows'), its middle's styles."""


def _face_rows(number: int, card: Card) -> tuple[str, str, str]:
    (_, edges), (middle, middle_styles), _ = _face(card, number % 3)
    rows = _ROWS[number] = (middle, edges, middle_styles)
    return rows


@functools.lru_cache(maxsize=64)
def _edge_rows(count: int, step: int) -> tuple[str, str]:
    """The top and bottom rows of ``count`` cards ``step`` columns apart."""
    if step >= CARD_WIDTH:
        joint = _GAP * (step - CARD_WIDTH)
        return joint.join([_TOP] * count), joint.join([_BOTTOM] * count)
    return _TOP[:step] * (count - 1) + _TOP, _BOTTOM[:step] * (count - 1) + _BOTTOM


def _face_up(card: Card, look: int) -> tuple[Piece, Piece, Piece]:
    """A card's three rows (52 cards, three looks: plain, dimmed, marked)."""
    edge, face = theme.CARD_EDGE, suit_style(card)
    if look == 1:
        edge = face = theme.UNPLAYABLE
    if look == 2:
        edge = face = theme.MARKED
    edge_char, face_char = style_char(edge), style_char(face)
    text = card_face(card).ljust(CARD_WIDTH - 2)
    return (
        (_TOP, edge_char * CARD_WIDTH),
        ("│" + text + "│", edge_char + face_char * len(text) + edge_char),
        (_BOTTOM, edge_char * CARD_WIDTH),
    )


@functools.cache
def _face_down() -> tuple[Piece, Piece, Piece]:
    edge, back = style_char(theme.CARD_EDGE), style_char(theme.CARD_BACK)
    inside = CARD_WIDTH - 2
    return (
        (_TOP, edge * CARD_WIDTH),
        ("│" + "▒" * inside + "│", edge + back * inside + edge),
        (_BOTTOM, edge * CARD_WIDTH),
    )


def _put_rows(canvas: Canvas, row: int, col: int, pieces: tuple[Piece, Piece, Piece]) -> None:
    for offset, (text, styles) in enumerate(pieces):
        canvas.put_styled(row + offset, col, text, styles)
