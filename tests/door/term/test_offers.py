"""The keys a key bar offers, for the web page's buttons (door/term/offers.py)."""

from __future__ import annotations

import doctest

import pytest

import door.term.offers
from door.term.canvas import Canvas
from door.term.offers import MAX_OFFERS, key_bar_offers, offers_of


def test_module_examples_run() -> None:
    assert doctest.testmod(door.term.offers).failed == 0


@pytest.mark.parametrize(
    ("bar", "labels", "sent"),
    [
        ("RETURN send  Esc cancel  BS erase", ["RETURN", "Esc", "BS"], ["\r", "\x1b", "\x7f"]),
        # Esc twice (Esc table keys, Esc Esc quit): one button.
        (
            "RETURN on a blank line: deal  Esc table keys  ? help  Esc Esc quit",
            ["RETURN", "Esc", "?"],
            ["\r", "\x1b", "?"],
        ),
        (
            "PgDn/RETURN next page  PgUp back  any other key: back to the game",
            ["PgDn", "PgUp", "Esc"],
            ["\x1b[6~", "\x1b[5~", "\x1b"],
        ),
        ("Y yes  N no  Esc no", ["Y", "N", "Esc"], ["Y", "N", "\x1b"]),
        ("Press a key from the menu or tap one  c chat", ["c"], ["c"]),  # words: no key
        ("Waiting for Bob  ^L redraw", [], []),  # a page never needs redrawing
    ],
)
def test_a_bar_offers_its_keys_once_each_with_what_they_send(
    bar: str, labels: list[str], sent: list[str]
) -> None:
    offers = key_bar_offers(bar)
    assert [offer.label for offer in offers] == labels
    assert [offer.send for offer in offers] == sent


def test_the_bar_is_read_from_the_pictures_last_row_in_a_taller_window() -> None:
    canvas = Canvas(132, 37)  # the 24-row picture in its middle: rows 6 to 29
    canvas.put(29, 1, "RETURN go on  q quit")
    canvas.put(36, 1, "Esc not the bar")
    assert [offer.label for offer in offers_of(canvas)] == ["RETURN", "q"]


def test_a_bar_of_many_keys_is_held_to_a_row_of_buttons() -> None:
    bar = "  ".join(f"{letter} {letter.lower()}word" for letter in "ABCDEFGHIJKLMNOP")
    assert len(key_bar_offers(bar)) == MAX_OFFERS
