"""The win bar's row: each side's name, figure and share of the bar in that side's
colour, right-aligned on the log's rule, all of it dimmed when the figures are old; the
same cells on a canvas and on a recorder (door/screens/win_bar.py)."""

from __future__ import annotations

import random
import re

import pytest

from door.screens import theme
from door.screens.layout import LOG_RULE_ROW, SCREEN_COLS
from door.screens.win_bar import draw_win_bar
from door.term.canvas import Canvas, Recorder


def bar_row(names: tuple[str, ...], chances: tuple[float, ...], current: bool) -> list:
    canvas, recorder, replayed = Canvas(), Recorder(), Canvas()
    draw_win_bar(canvas, names, chances, current)
    draw_win_bar(recorder, names, chances, current)
    replayed.replay(tuple(recorder.runs))
    assert replayed.cells == canvas.cells
    return canvas.cells[LOG_RULE_ROW]


def test_two_sides_each_in_their_colour_ending_two_cells_from_the_right() -> None:
    row = bar_row(("You", "Computer"), (0.62, 0.38), True)
    text = "".join(char for char, _ in row)
    shown = " Win: You 62% " + "█" * 12 + "░" * 7 + " 38% Computer "
    start = SCREEN_COLS - 2 - len(shown)
    assert text == " " * start + shown + "  "
    first, second = theme.PLAYER_STYLES[:2]
    expected = (
        [theme.LABEL] * len(" Win: ")
        + [first] * len("You 62% " + "█" * 12)
        + [second] * len("░" * 7 + " 38% Computer ")
    )
    assert [style for _, style in row[start : start + len(shown)]] == expected


def test_three_sides_side_by_side_and_old_figures_all_dimmed() -> None:
    names, chances = ("Ada", "Bob", "Cy"), (0.5, 0.3, 0.2)
    row = bar_row(names, chances, True)
    text = "".join(char for char, _ in row)
    shown = " Win: Ada 50% Bob 30% Cy 20% "
    assert text.endswith(shown + "  ")
    start = SCREEN_COLS - 2 - len(shown)
    styles = [style for _, style in row[start : start + len(shown)]]
    assert styles[: len(" Win: ")] == [theme.LABEL] * 6
    assert styles[len(" Win: Ada 50% Bob 30% ")] == theme.PLAYER_STYLES[2]
    old = bar_row(names, chances, False)
    assert [char for char, _ in old] == list(text)
    assert {style for _, style in old[start : start + len(shown)]} == {theme.DIM}


@pytest.mark.parametrize("sides", [2, 3])
def test_any_names_stay_on_the_row_and_one_cell_each(sides: int) -> None:
    rng = random.Random(sides)
    alphabet = ["a", "漢", "\x1b", "♥", " ", "&"]
    for _ in range(200):
        names = tuple(
            "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30))) for _ in range(sides)
        )
        chances = tuple(rng.random() for _ in range(sides))
        row = bar_row(names, chances, rng.random() < 0.5)
        text = "".join(char for char, _ in row)
        assert len(text) == SCREEN_COLS and "\x1b" not in text and "漢" not in text
        room = 14 if sides == 2 else 12  # a longer name ends in an ellipsis at room
        last = names[-1] if len(names[-1]) <= room else names[-1][: room - 1].rstrip() + "…"
        last = last.replace("\x1b", "?").replace("漢", "?")
        tail = f"% {re.escape(last)} {{3}}$" if sides == 2 else f" {re.escape(last)} \\d+% {{3}}$"
        assert re.search(tail, text), (names, text)


def test_a_long_name_is_shortened_with_a_mark_not_cut_silently() -> None:
    # By hand: a game resumed against a deleted member read "Win: (deleted membe 55%".
    row = bar_row(("(deleted member)", "You"), (0.55, 0.45), True)
    text = "".join(char for char, _ in row)
    assert " Win: (deleted memb… 55% " in text
    row = bar_row(("Bartholomew Smithers", "Computer", "Computer 2"), (0.3, 0.3, 0.4), True)
    assert "Bartholomew… 30% " in "".join(char for char, _ in row)
