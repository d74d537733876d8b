"""The show: a hand or the crib laid out with the starter, its count and the breakdown.

In manual counting the caller first sees only the cards and types a count; then the
panel tells what the claim earned (muggins included) and shows the full breakdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from door.screens import theme
from door.screens.cards import CARD_STEP, card_face, draw_card, draw_cards
from door.screens.layout import ENTRY_ROW, PLAY_CARDS_ROW, PLAY_NUMBERS_ROW, TEXT_WIDTH
from door.screens.theme import CALLER_SEAT
from door.screens.wrap import wrapped
from door.term.canvas import Canvas
from engine.rules.cards import FULL_DECK, Card
from engine.rules.events import ShowScored
from engine.rules.scoring import ScoreItem

RESULT_ROW = PLAY_CARDS_ROW + 3
ANNOUNCE_ROWS = 3
ITEMS_END = ENTRY_ROW
"""The breakdown fills the rows down to the typing line."""
LEFT = 2


@dataclass(frozen=True)
class ShowPanel:
    """The hand being shown; ``scored`` is None while the caller has yet to claim."""

    seat: int
    is_crib: bool
    cards: tuple[Card, ...]
    starter: Card
    scored: ShowScored | None = None


NINETEEN: Final = 19
"""The score no hand can make, said for a hand worth nothing."""


def _points(number: int) -> str:
    return f"{number} point{'' if number == 1 else 's'}"


def show_title(
    seat: int, is_crib: bool, names: Sequence[str], viewer: int | None = CALLER_SEAT
) -> str:
    """``Your hand``, ``Your crib``, ``Computer's hand``... as ``viewer`` reads it."""
    owner = "Your" if seat == viewer else f"{names[seat]}'s"
    return f"{owner} {'crib' if is_crib else 'hand'}"


def result_text(scored: ShowScored, names: Sequence[str], viewer: int | None = CALLER_SEAT) -> str:
    """What the count earned, in words, including any muggins, as ``viewer`` reads it:
    the owner's opponents read the claim and who took the muggins points too."""
    true = scored.score.total
    title = show_title(scored.seat, scored.is_crib, names, viewer)
    caller = scored.seat == viewer
    owner = "You" if caller else names[scored.seat]
    other = names[scored.muggins_seat] if scored.muggins_seat is not None else ""
    if scored.muggins_seat is not None and scored.muggins_seat == viewer:
        other = "you"
    said = "said" if caller else "says"
    if scored.claim is None:
        text = f"{title} counts {_points(true)}."
    elif scored.claim == NINETEEN and true == 0:
        # No hand scores 19, so players say "nineteen" for nothing: a right claim.
        text = f"{owner} {said} 19, cribbage's word for nothing: right. {title} counts 0."
    elif scored.claim == true:
        text = f"{owner} {said} {scored.claim}: right. {title} counts {_points(true)}."
    elif scored.claim > true:
        text = f"{owner} {said} {scored.claim}, but it counts {true}. "
        if scored.muggins:
            text += f"Muggins! {owner} score{'' if caller else 's'} nothing and {other} "
            text += f"take{'' if other == 'you' else 's'} {true}."
        else:
            text += f"{owner} score{'' if caller else 's'} nothing."
    else:
        text = (
            f"{owner} {said} {scored.claim}, but it counts {true}. {owner} "
            f"score{'' if caller else 's'} {scored.claim} and {other} "
            f"take{'' if other == 'you' else 's'} the {scored.muggins} missed (muggins)."
        )
    if scored.remark:
        text += " " + scored.remark
    return text


_SHORT_KINDS = {"fifteen": "15", "pair royal": "3 of a kind", "double pair royal": "4 of a kind"}


def item_text(item: ScoreItem, *, short: bool = False) -> str:
    """``fifteen 5♥ 10♠ = 2``; ``short`` spells the kind briefly (``15``, ``run``)."""
    kind = item.kind
    if short:
        kind = "run" if kind.startswith("run") else _SHORT_KINDS.get(kind, kind)
    # By rank, then suit by its letter: found by number, no key function a card.
    places = sorted([_SHOW_PLACE[card.index] for card in item.cards])
    return f"{kind} {' '.join([_FACE_AT_PLACE[place] for place in places])} = {item.points}"


_IN_SHOW_ORDER: Final = sorted(FULL_DECK, key=lambda card: (card.rank, card.suit.value))
_SHOW_PLACE: Final = tuple(_IN_SHOW_ORDER.index(card) for card in FULL_DECK)
"""Each card's place in ``_IN_SHOW_ORDER``, by its index (``FULL_DECK`` is in index order)."""
_FACE_AT_PLACE: Final = tuple(card_face(card) for card in _IN_SHOW_ORDER)


def draw_show(
    canvas: Canvas, panel: ShowPanel, names: Sequence[str], viewer: int | None = CALLER_SEAT
) -> None:
    title = show_title(panel.seat, panel.is_crib, names, viewer)
    # A space either side: on a three-side board the labels sit on its bottom rail.
    canvas.put(PLAY_NUMBERS_ROW, LEFT - 1, f" {title} ", theme.TITLE)
    draw_cards(canvas, PLAY_CARDS_ROW, LEFT, [(card, False, False) for card in panel.cards])
    starter_col = LEFT + len(panel.cards) * CARD_STEP + 3
    canvas.put(PLAY_NUMBERS_ROW, starter_col - 2, " Starter ", theme.LABEL)
    draw_card(canvas, PLAY_CARDS_ROW, starter_col, panel.starter)
    scored = panel.scored
    if scored is None:
        return
    result_style = theme.ERROR if scored.muggins else theme.BRIGHT
    row = RESULT_ROW
    for line in wrapped(result_text(scored, names, viewer), TEXT_WIDTH)[:2]:
        canvas.put(row, 1, line, result_style)
        row += 1
    for line in wrapped(scored.score.announcement, TEXT_WIDTH - 2)[:ANNOUNCE_ROWS]:
        canvas.put(row, LEFT, line, theme.TEXT)
        row += 1
    _draw_items(canvas, scored.score.items, row)


def _draw_items(canvas: Canvas, items: Sequence[ScoreItem], top: int) -> None:
    rows = ITEMS_END - top
    if not items or rows <= 0:
        return
    columns = min(3, -(-len(items) // rows))
    width = (TEXT_WIDTH - 2) // columns
    for index, item in enumerate(items[: columns * rows]):
        column, row = divmod(index, rows)
        text = item_text(item)
        if len(text) > width - 1:
            text = item_text(item, short=True)
        if len(text) > width - 1:
            text = text[: width - 3] + ".."
        canvas.put(top + row, LEFT + column * width, text, theme.LABEL)
