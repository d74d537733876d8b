"""What a line of keys offers to a click (door/term/clicks.py's key_line_hits), table
driven, and the doctests of the hit-map modules."""

from __future__ import annotations

import doctest
import types

import pytest

import door.screens.form_hits
import door.term.clicks
from door.term.clicks import Hit, HitMap, LaterHits, key_line_hits
from door.term.keys import Key, Mouse, MouseButton


@pytest.mark.parametrize("module", [door.term.clicks, door.screens.form_hits])
def test_the_doctests(module: types.ModuleType) -> None:
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize(
    ("line", "offers"),
    [
        ("RETURN throw  DEL unmark", [("RETURN throw", Key.ENTER), ("DEL unmark", Key.DELETE)]),
        (
            "PgDn/RETURN next page  PgUp back",
            [("PgDn/RETURN next page", Key.PGDN), ("PgUp back", Key.PGUP)],
        ),
        (
            "1-99/O open  / search",
            [("1-99/O open", Key.printable("O")), ("/ search", Key.printable("/"))],
        ),
        (
            "Y yes  N no  Esc no",
            [("Y yes", Key.printable("Y")), ("N no", Key.printable("N")), ("Esc no", Key.ESCAPE)],
        ),
        (
            "PgUp back  any other key: back to the game",
            [("PgUp back", Key.PGUP), ("any other key: back to the game", Key.ESCAPE)],
        ),
        ("any key: go on", [("any key: go on", Key.ENTER)]),
        ("Press a tool's key  Esc back to the lobby", [("Esc back to the lobby", Key.ESCAPE)]),
        ("Waiting for Bob  1-6 move", []),
    ],
)
def test_each_offer_of_a_line_is_its_key_over_its_words(
    line: str, offers: list[tuple[str, Key]]
) -> None:
    hits = key_line_hits(line, 23)
    found = [(line[hit.start - 1 : hit.end - 1], hit.keys) for hit in hits]
    assert found == [(words, (key,)) for words, key in offers]


def test_the_wheel_is_the_screens_scroll_keys_and_nothing_where_nothing_scrolls() -> None:
    still = HitMap((Hit(23, 1, 13, (Key.ENTER,)),))
    scrolling = still.scrolled_by(Key.PGUP, Key.PGDN).moved_down(3)
    up, down = (
        Mouse(button, column=40, row=2) for button in (MouseButton.WHEEL_UP, MouseButton.WHEEL_DOWN)
    )
    assert still.keys_for(up) == still.keys_for(down) == ()
    assert scrolling.keys_for(up) == (Key.PGUP,) and scrolling.keys_for(down) == (Key.PGDN,)
    assert (still + scrolling).keys_for(down) == (Key.PGDN,)  # one of them scrolls
    assert scrolling.keys_for(Mouse(MouseButton.LEFT, column=5, row=26)) == (Key.ENTER,)


def test_a_click_stands_for_six_keys_at_most() -> None:
    Hit(1, 1, 2, tuple(Key.printable(digit) for digit in "12345") + (Key.ENTER,))
    with pytest.raises(ValueError, match="1 to 6 keys"):
        Hit(1, 1, 2, tuple(Key.printable(digit) for digit in "123456") + (Key.ENTER,))


def test_a_later_map_is_worked_out_at_the_first_click_once_and_moves_down_as_a_map_does() -> None:
    made: list[str] = []

    def status_map(status: str) -> HitMap:
        made.append(status)
        return HitMap(key_line_hits(status, 23))

    later = LaterHits(status_map, "RETURN throw  c chat")
    lower = later.moved_down(2)
    assert made == []
    assert later.keys_for(Mouse(MouseButton.LEFT, column=3, row=23)) == (Key.ENTER,)
    assert later.keys_for(Mouse(MouseButton.LEFT, column=15, row=23)) == (Key.printable("c"),)
    assert made == ["RETURN throw  c chat"]  # once for both clicks
    assert lower.keys_for(Mouse(MouseButton.LEFT, column=3, row=23)) == ()
    assert lower.keys_for(Mouse(MouseButton.LEFT, column=3, row=25)) == (Key.ENTER,)
    assert lower.moved_down(0) is lower
