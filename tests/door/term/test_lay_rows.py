"""Laying a frame's rows in C (door/term/_lay.c) makes exactly the rows its Python twin
(door/term/layers.py's ``LAYING``) makes, and refuses runs that are not runs rather than
write past a row."""

from __future__ import annotations

import random

import pytest

from door.term.canvas import PLAIN_CHAR, Color, Recorder, Style, blank_row, style_char
from door.term.layers import LAYING

pytestmark = [
    pytest.mark.skipif(LAYING.compiled is None, reason="door/term/_lay.c was not built"),
    pytest.mark.compares_twins,
]

STYLES = [Style(), Style(fg=Color.RED), Style(fg=Color.YELLOW, bold=True), Style(bg=Color.BLUE)]
ALPHABET = " ab♥─█é\U0001d400"  # one to four bytes in UTF-8


def random_runs(rng: random.Random, cols: int, rows: int) -> tuple:
    """A layer as a Recorder keeps it: what was drawn on it, clipped to the canvas."""
    recorder = Recorder(cols, rows)
    for _ in range(rng.randrange(0, 12)):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(1, cols + 8)))
        row, col = rng.randrange(-1, rows + 1), rng.randrange(-4, cols + 2)
        if rng.random() < 0.5:
            recorder.put(row, col, text, rng.choice(STYLES))
        else:
            styles = "".join(style_char(rng.choice(STYLES)) for _ in text)
            recorder.put_styled(row, col, text, styles)
    return tuple(recorder.runs)


def test_the_rows_are_laid_as_the_python_lays_them() -> None:
    rng = random.Random(38)
    for case in range(3000):
        cols, rows = rng.choice((1, 7, 80, 132)), rng.choice((1, 5, 24, 70))
        before = [
            ("".join(rng.choice(ALPHABET) for _ in range(cols)), PLAIN_CHAR * cols)
            for _ in range(rows)
        ]
        runs = [random_runs(rng, cols, rows) for _ in range(rng.randrange(0, 6))]
        dirty = rng.getrandbits(rows) if rng.random() < 0.8 else (1 << rows) - 1
        laid = []
        for lay in (LAYING.python, LAYING.compiled):
            chars, styles = [row[0] for row in before], [row[1] for row in before]
            lay(chars, styles, cols, dirty, runs, *blank_row(cols))
            laid.append((chars, styles))
        assert laid[1] == laid[0], case
        chars, styles = laid[1]
        for y in range(rows):  # rows left alone are the very strings they were
            if not dirty >> y & 1:
                assert chars[y] is before[y][0] and styles[y] is before[y][1]


def test_runs_that_are_not_runs_are_refused_and_runs_past_the_row_cut_to_it() -> None:
    def lay(runs: list, dirty: int = 1, cols: int = 4) -> list[str]:
        chars, styles = ["abcd"[:cols]], [PLAIN_CHAR * cols]
        LAYING.compiled(chars, styles, cols, dirty, runs, *blank_row(cols))
        return chars

    assert lay([(0, 2, "xyz", "\0\0\0")]) == ["  xy"]  # cut to the row, not past it
    assert lay([(0, -1, "xyz", "\0\0\0")]) == ["yz  "]
    assert lay([(5, 0, "xyz", "\0\0\0")]) == ["    "]  # no such row: nothing laid
    assert lay([(0, 0, "xyz", "\0\0\0")], dirty=0) == ["abcd"]
    with pytest.raises(TypeError, match="tuple of fours"):
        lay([(0, 0, "x")])
    with pytest.raises(TypeError, match="one length"):
        lay([(0, 0, "xy", "\0")])
    with pytest.raises(TypeError, match="one length"):
        lay([(0, 0, b"xy", "\0\0")])
    with pytest.raises(TypeError, match="bits"):
        lay([], dirty=-1)
    with pytest.raises(OverflowError):
        lay([], dirty=1 << 9)  # a row the frame does not have
    with pytest.raises(TypeError, match="blank row"):
        LAYING.compiled(["abcd"], [PLAIN_CHAR * 4], 4, 1, [], " " * 3, PLAIN_CHAR * 4)
