"""Laying a frame's rows in C (door/term/_lay.c) makes exactly the rows its Python twin
(door/term/layers.py's ``LAYING``) makes, and refuses runs that are not runs rather than
write past a row."""

from __future__ import annotations

import random

import pytest

from door.term.canvas import PLAIN_CHAR, Color, Recorder, Style, blank_row, style_char
from door.term.layers import ALWAYS, LAYING

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
        for lay in (LAYING.python.lay_rows, LAYING.compiled.lay_rows):
            chars, styles = [row[0] for row in before], [row[1] for row in before]
            lay(chars, styles, cols, dirty, runs, *blank_row(cols))
            laid.append((chars, styles))
        assert laid[1] == laid[0], case
        chars, styles = laid[1]
        for y in range(rows):  # rows left alone are the very strings they were
            if not dirty >> y & 1:
                assert chars[y] is before[y][0] and styles[y] is before[y][1]


def test_a_frame_is_laid_again_on_new_lists_as_the_python_lays_it() -> None:
    """``lay_frame`` (the copy of the rows, the layers that touch a dirty row, the
    laying) makes the Python's rows, in a tall window too, and leaves the frame before
    as it was."""
    rng = random.Random(51)
    for case in range(2000):
        cols, rows = rng.choice((1, 7, 80)), rng.choice((1, 24, 64, 65, 130))
        before_chars = ["".join(rng.choice(ALPHABET) for _ in range(cols)) for _ in range(rows)]
        before_styles = [PLAIN_CHAR * cols] * rows
        order, drawn = [], {}
        for number in range(rng.randrange(0, 8)):
            runs = random_runs(rng, cols, rows)
            rows_touched = 0
            for y in set(runs[::4]):
                rows_touched |= 1 << y if y >= 0 else 0
            name = f"layer {number}"
            order.append(name)
            drawn[name] = ((), runs, None, rows_touched)
        dirty = rng.getrandbits(rows) if rng.random() < 0.8 else (1 << rows) - 1
        kept = (list(before_chars), list(before_styles))
        laid = [
            lay_frame(before_chars, before_styles, cols, dirty, order, drawn, *blank_row(cols))
            for lay_frame in (LAYING.python.lay_frame, LAYING.compiled.lay_frame)
        ]
        assert laid[1] == laid[0], case
        assert (before_chars, before_styles) == kept  # new lists: the frame before stays
        chars, styles = laid[1]
        assert chars is not before_chars and styles is not before_styles
        for y in range(rows):  # rows left alone are the very strings they were
            if not dirty >> y & 1:
                assert chars[y] is before_chars[y] and styles[y] is before_styles[y]


def test_a_frame_of_layers_that_are_not_layers_is_refused() -> None:
    def lay_frame(order: list, drawn: dict, dirty: int = 1) -> tuple:
        return LAYING.compiled.lay_frame(
            ["abcd"], [PLAIN_CHAR * 4], 4, dirty, order, drawn, *blank_row(4)
        )

    assert lay_frame(["a"], {"a": ((), (0, 1, "x", PLAIN_CHAR), None, 1)}) == (
        [" x  "],
        [PLAIN_CHAR * 4],
    )
    assert lay_frame(["a"], {"a": ((), (0, 1, "x", PLAIN_CHAR), None, 1)}, 0)[0] == ["abcd"]
    with pytest.raises(KeyError):
        lay_frame(["a"], {})
    with pytest.raises(TypeError, match="key, runs, result, rows"):
        lay_frame(["a"], {"a": ()})
    with pytest.raises(TypeError, match="rows are an int"):
        lay_frame(["a"], {"a": ((), (), None, "1")})
    with pytest.raises(OverflowError):
        lay_frame([], {}, dirty=1 << 70)  # a row the frame does not have


def test_runs_that_are_not_runs_are_refused_and_runs_past_the_row_cut_to_it() -> None:
    def lay(runs: list, dirty: int = 1, cols: int = 4) -> list[str]:
        chars, styles = ["abcd"[:cols]], [PLAIN_CHAR * cols]
        LAYING.compiled.lay_rows(chars, styles, cols, dirty, runs, *blank_row(cols))
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
        LAYING.compiled.lay_rows(["abcd"], [PLAIN_CHAR * 4], 4, 1, [], " " * 3, PLAIN_CHAR * 4)


DRAWN: list[str] = []
"""The layers ``draw_on`` drew, in order."""


def draw_on(canvas: Recorder, name: str, seed: int, rows: int) -> object:
    DRAWN.append(name)
    local = random.Random(seed)
    for _ in range(local.randrange(0, 4)):
        canvas.put(local.randrange(0, rows), local.randrange(0, 10), "ab", STYLES[1])
    return None if seed % 3 else (seed % 7, name)


def random_layers(rng: random.Random, rows: int) -> list:
    """A frame's layers: named, each drawing a few runs (a tall window's rows past 64
    too) and returning something or nothing, by a function or from its key."""
    layers = []
    for number in rng.sample(range(12), rng.randrange(0, 9)):
        name, seed = f"layer {number}", rng.randrange(4)
        if rng.random() < 0.1:
            layers.append((name, ALWAYS, lambda canvas, name=name: draw_on(canvas, name, 5, rows)))
        else:
            layers.append((name, (draw_on, name, seed, rows), None))
    return layers


def test_the_layers_are_gathered_as_the_python_gathers_them() -> None:
    rng = random.Random(48)
    for case in range(2000):
        rows = rng.choice((1, 24, 70, 130))
        kept: dict = {}
        for frame in range(3):
            layer_seed = rng.random()
            outcomes = []
            layers = random_layers(random.Random(layer_seed), rows)
            for gather in (LAYING.python.gather, LAYING.compiled.gather):
                DRAWN.clear()
                recorder = Recorder(80, rows)
                gathered = gather(layers, kept, recorder, ALWAYS)
                outcomes.append((gathered, list(DRAWN), recorder.runs))
            assert outcomes[1] == outcomes[0], (case, frame)
            kept = outcomes[1][0][0]


def test_layers_that_are_not_layers_are_refused_and_a_draws_failure_is_raised() -> None:
    def gather(layers: list, kept: dict | None = None) -> tuple:
        return LAYING.compiled.gather(layers, kept or {}, Recorder(4, 4), ALWAYS)

    with pytest.raises(TypeError, match="name, key, draw"):
        gather([("a", (print,))])
    with pytest.raises(TypeError, match="a layer without a draw"):
        gather([("a", (), None)])
    with pytest.raises(TypeError, match="key, runs, result, rows"):
        gather([("a", (print,), None)], {"a": "not kept"})
    with pytest.raises(ZeroDivisionError):
        gather([("a", ALWAYS, lambda canvas: 1 / 0)])
    assert gather([("a", (), lambda canvas: canvas.put(1, 0, "x"))])[2:] == (1, 2)
