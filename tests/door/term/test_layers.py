"""Layers draw again only what changed, and the frame is always the one drawn whole."""

from __future__ import annotations

import asyncio
import random

import pytest

from door.screens.game_screen import draw_table
from door.table.options import GameOptions
from door.table.person import Person
from door.table.solo import play_against_computer
from door.term.canvas import Canvas
from door.term.layers import ALWAYS, Layer, Layers
from door.ui.session import Cursor, Session
from tests.door.caller import KeyboardTerminal, play_through, run_async


def text_layer(name: str, row: int, col: int, text: str) -> Layer:
    return name, (row, col, text), lambda canvas: canvas.put(row, col, text)


def texts(canvas: Canvas) -> list[str]:
    return [canvas.text(row) for row in range(canvas.rows)]


def test_a_layer_whose_key_is_unchanged_is_not_drawn_again() -> None:
    layers = Layers()
    calls: list[str] = []

    def counted(name: str, row: int, text: str) -> Layer:
        def draw(canvas: Canvas) -> None:
            calls.append(name)
            canvas.put(row, 0, text)

        return name, text, draw

    first, _ = layers.frame(8, 3, [counted("top", 0, "one"), counted("low", 2, "two")])
    assert texts(first) == ["one     ", "        ", "two     "]
    second, _ = layers.frame(8, 3, [counted("top", 0, "uno"), counted("low", 2, "two")])
    assert calls == ["top", "low", "top"]
    assert texts(second) == ["uno     ", "        ", "two     "]
    # A row no layer touched is the very string it was: nothing to compare or send.
    assert second.chars[1] is first.chars[1]
    # A frame handed out is settled: the next one is a new canvas, and this one reads
    # as it did (the renderer keeps it as what the caller's screen shows).
    assert first.settled and texts(first) == ["one     ", "        ", "two     "]
    third, _ = layers.frame(8, 3, [counted("top", 0, "uno"), counted("low", 2, "two")])
    assert third is second  # nothing changed: the very same frame


def test_layers_drawn_again_alone_draw_those_whose_keys_changed_over_the_frame() -> None:
    """``Layers.redraw`` of several layers (a step's keys at a table): the changed ones
    drawn and laid in their places among the others, the frame as a whole draw of the
    same layers makes it, and the next whole frame draws nothing again."""
    layers = Layers()
    under = ("under", (), lambda canvas: canvas.fill(1, 0, 10, "-"))
    first = [text_layer("top", 0, 0, "one"), under, text_layer("low", 1, 2, "two")]
    layers.frame(10, 2, first)
    now = [text_layer("top", 0, 0, "one"), under, text_layer("low", 1, 4, "2")]
    redrawn = layers.redraw(now[0], now[2])
    assert redrawn is not None and layers.drawn == 1
    assert texts(redrawn[0]) == texts(Layers().frame(10, 2, now)[0]) == ["one       ", "----2-----"]
    again, _ = layers.frame(10, 2, now)
    assert layers.drawn == 0 and again is redrawn[0]
    assert layers.redraw(now[0], text_layer("new", 0, 5, "x")) is None  # not in the frame


def test_a_shrinking_layer_shows_the_layer_under_it_again() -> None:
    layers = Layers()
    under = ("under", (), lambda canvas: canvas.fill(0, 0, 10, "-"))
    layers.frame(10, 1, [under, text_layer("over", 0, 2, "wide text")])
    frame, _ = layers.frame(10, 1, [under, text_layer("over", 0, 2, "ab")])
    assert frame.text(0) == "--ab------"
    gone, _ = layers.frame(10, 1, [under])
    assert gone.text(0) == "----------"


def test_always_is_drawn_at_every_frame_and_results_come_back_by_name() -> None:
    layers = Layers()
    count = 0

    def cursor(canvas: Canvas) -> tuple[int, int]:
        nonlocal count
        count += 1
        return (0, count)

    for _ in range(3):
        _, results = layers.frame(5, 1, [("entry", ALWAYS, cursor)])
    assert count == 3 and results == {"entry": (0, 3)}


def test_a_new_size_or_order_draws_everything() -> None:
    layers = Layers()
    a, b = text_layer("a", 0, 0, "aaaa"), text_layer("b", 0, 1, "bb")
    layers.frame(6, 1, [a, b])
    swapped, _ = layers.frame(6, 1, [b, a])
    assert swapped.text(0) == "aaaa  "
    assert layers.drawn == 0  # the cells were kept; only the rows were laid again
    bigger, _ = layers.frame(8, 2, [b, a])
    assert texts(bigger) == ["aaaa    ", "        "] and layers.drawn == 2


def test_two_layers_of_one_name_are_refused() -> None:
    with pytest.raises(ValueError):
        Layers().frame(4, 1, [text_layer("a", 0, 0, "x"), text_layer("a", 0, 1, "y")])


def test_a_draw_that_fails_leaves_nothing_on_the_next_frame() -> None:
    """Every layer is drawn on one recorder in turn: what a failed draw put on it before
    failing must not show in any later layer."""
    layers = Layers()
    layers.frame(10, 2, [text_layer("a", 0, 0, "kept")])

    def fails(canvas: Canvas) -> None:
        canvas.put(1, 0, "BROKEN")
        raise RuntimeError("a screen's bug")

    with pytest.raises(RuntimeError):
        layers.frame(10, 2, [text_layer("a", 0, 0, "kept"), ("b", ALWAYS, fails)])
    after, _ = layers.frame(10, 2, [text_layer("a", 0, 0, "kept"), text_layer("c", 0, 5, "new")])
    assert texts(after) == ["kept new  ", " " * 10]


def test_random_frames_match_frames_drawn_whole() -> None:
    rng = random.Random(4)
    kept = Layers()
    words = ["", "cribbage", "15-2", "go", "his nobs", "x" * 30]
    for _ in range(300):
        layers = [
            text_layer(f"l{n}", rng.randrange(6), rng.randrange(-3, 20), rng.choice(words))
            for n in range(rng.randrange(1, 6))
        ]
        rng.shuffle(layers)
        fast, _ = kept.frame(20, 6, layers)
        whole, _ = Layers().frame(20, 6, layers)
        assert fast.cells == whole.cells


@run_async
async def test_every_table_frame_of_a_game_matches_the_table_drawn_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    frames = 0
    people: list[Person] = []
    kept_frame, kept_paint_drawn = Person.frame, Session.paint_drawn

    def checked(person: Person) -> tuple[Canvas, tuple[int, int] | None]:
        nonlocal frames
        canvas, cursor = kept_frame(person)
        whole, whole_cursor = draw_table(person.view)
        assert canvas.cells == whole.cells and cursor == whole_cursor
        frames += 1
        people.append(person)
        return canvas, cursor

    async def step_checked(session: Session, canvas: Canvas, cursor: Cursor) -> None:
        """A step's frame (door/table/step_frame.py): what a whole one would have been,
        the view composed afresh from the table."""
        nonlocal frames
        (person,) = {id(person): person for person in people}.values()
        person.compose()
        whole, whole_cursor = draw_table(person.view)
        assert canvas.cells == whole.cells and cursor == whole_cursor
        frames += 1
        await kept_paint_drawn(session, canvas, cursor)

    monkeypatch.setattr(Person, "frame", checked)
    monkeypatch.setattr(Session, "paint_drawn", step_checked)
    terminal = KeyboardTerminal()
    session = Session(terminal)
    options = GameOptions(level="easy")  # against the computer the win bar is on
    task = asyncio.ensure_future(
        play_against_computer(session, options, "Ada", rng=random.Random(5), pause=0)
    )
    await play_through(terminal, task)
    await task
    # A whole game to 121: every step of every hand was compared, the moves of the
    # highlight bar too.
    assert frames > 120
