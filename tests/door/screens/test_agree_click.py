"""A request for the win bar in the table's log is clicked to agree
(door/screens/table_hits.py): it said "press w to agree" and could not be clicked."""

from __future__ import annotations

import random

from door.screens.chat import Entry
from door.screens.game_screen import TableView, draw_table
from door.screens.table_hits import table_hits
from door.term.keys import Key
from engine import Game

REQUEST = "Bob asks for the win bar: press w to agree."


def a_view(*later: str) -> TableView:
    game = Game(2, rng=random.Random(8), dealer=1)
    game.deal()
    view = TableView(("Ada", "Bob"), game, viewer=0)
    for line in ("Hand 1: Bob deals.", REQUEST, *later):
        view.log.add(line)
    return view


def keys_at_the_request(view: TableView, *, agree: bool = True) -> tuple[Key, ...]:
    """The keys of a click on the word 'agree' where the frame shows it."""
    canvas, _ = draw_table(view)
    row = next(row for row in range(canvas.rows) if "press w to agree" in canvas.text(row))
    column = canvas.text(row).index("agree")
    for hit in table_hits(view, agree=agree).hits:
        if hit.row <= row < hit.row + hit.rows and hit.start <= column < hit.end:
            return hit.keys
    return ()


def test_a_click_on_the_request_presses_w() -> None:
    assert keys_at_the_request(a_view("You throw 3H 8D.")) == (Key.printable("w"),)


def test_on_the_blank_chat_line_the_click_closes_the_line_first() -> None:
    view = a_view()
    view.entry = Entry("Chat: ")
    assert keys_at_the_request(view) == (Key.ESCAPE, Key.printable("w"))
    view.entry.text = "good luck"  # Esc would clear what is typed: nothing
    assert keys_at_the_request(view) == ()


def test_a_player_who_agreed_already_clicks_nothing() -> None:
    # w toggles: a click on an old request would turn their own bar off.
    assert keys_at_the_request(a_view(), agree=False) == ()
