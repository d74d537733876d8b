"""The renderer's row loop in C (door/ui/_paint.c) sends exactly what its Python twin
(door/ui/renderer.py's ``PAINTING``) sends, and refuses what is not a frame rather than
read past it."""

from __future__ import annotations

import random

import pytest

from door.term.canvas import PLAIN_CHAR, Color, Style, style_char
from door.ui.renderer import PAINTING

pytestmark = [
    pytest.mark.skipif(PAINTING.compiled is None, reason="door/ui/_paint.c was not built"),
    pytest.mark.compares_twins,
]

STYLES = [PLAIN_CHAR] + [
    style_char(style)
    for style in (
        Style(fg=Color.RED),
        Style(fg=Color.YELLOW, bold=True),
        Style(fg=Color.BLACK, bg=Color.CYAN),
        Style(bg=Color.BLUE),
    )
]
ALPHABET = "  ab♥─█é\U0001d400"  # blanks weigh more; one to four bytes in UTF-8
ONE_BYTE = "  abé"  # rows Python keeps one byte a cell (the C has a loop for each kind)
TWO_BYTES = "  ab♥─█"


def random_row(rng: random.Random, cols: int, alphabet: str = ALPHABET) -> tuple[str, str]:
    text = [rng.choice(alphabet) for _ in range(cols)]
    styles = [rng.choice(STYLES) for _ in range(cols)]
    blank_from = rng.choice((cols, cols, rng.randrange(cols + 1)))
    for x in range(blank_from, cols):  # rows often end in blanks: erasing them pays
        text[x], styles[x] = " ", PLAIN_CHAR
    return "".join(text), "".join(styles)


def changed(
    rng: random.Random, chars: str, styles: str, alphabet: str = ALPHABET
) -> tuple[str, str]:
    """The row with a few cells or a stretch changed (or none)."""
    text, kinds = list(chars), list(styles)
    for _ in range(rng.choice((0, 1, 2, 5, 12))):
        x = rng.randrange(len(text))
        for cell in range(x, min(len(text), x + rng.choice((1, 1, 3, 30)))):
            if rng.random() < 0.6:
                text[cell] = rng.choice(alphabet)
            else:
                kinds[cell] = rng.choice(STYLES)
    return "".join(text), "".join(kinds)


def random_frames(
    rng: random.Random, old_alphabet: str = ALPHABET, new_alphabet: str = ALPHABET
) -> tuple[list[str], list[str], list[str], list[str], int]:
    cols, rows = rng.choice((1, 5, 20, 80, 132)), rng.choice((1, 3, 24))
    old_chars, old_styles, new_chars, new_styles = [], [], [], []
    for _ in range(rows):
        chars, styles = random_row(rng, cols, old_alphabet)
        old_chars.append(chars)
        old_styles.append(styles)
        way = rng.random()
        if way < 0.3:  # the very same strings: a row a kept frame did not touch
            new = chars, styles
        elif way < 0.4:  # equal, but other strings
            new = "".join(list(chars)), "".join(list(styles))
        elif way < 0.5:
            new = random_row(rng, cols, new_alphabet)
        else:
            new = changed(rng, chars, styles, new_alphabet)
        new_chars.append(new[0])
        new_styles.append(new[1])
    return new_chars, new_styles, old_chars, old_styles, cols


@pytest.mark.parametrize(
    ("old_alphabet", "new_alphabet"),
    [
        (ALPHABET, ALPHABET),
        (ONE_BYTE, ONE_BYTE),
        (TWO_BYTES, TWO_BYTES),
        (ONE_BYTE, TWO_BYTES),  # a row of one kind in the frame before, of another now
        (TWO_BYTES, ONE_BYTE + "\U0001d400"),
    ],
)
def test_the_rows_are_painted_as_the_python_paints_them(
    old_alphabet: str, new_alphabet: str
) -> None:
    rng = random.Random(18)
    for case in range(4000):
        new_chars, new_styles, old_chars, old_styles, width = random_frames(
            rng, old_alphabet, new_alphabet
        )
        rows = len(new_chars)
        term_cols = rng.choice((width, width + 1, max(1, width - 3)))
        cols = min(width, term_cols)
        term_rows = rng.choice((rows, rows + 2))
        forbidden_cells = ((term_rows - 1, term_cols - 1), (rows - 1, width - 1))
        start = rng.choice(
            ((None, -1, 0), (PLAIN_CHAR, 0, 0), (rng.choice(STYLES), rng.randrange(rows), 3))
        )
        for colour in (True, False):
            arguments = (new_chars, new_styles, old_chars, old_styles, min(rows, term_rows))
            arguments += (cols, term_cols, colour, forbidden_cells, *start)  # type: ignore[assignment]
            expected = PAINTING.python(*arguments)
            assert PAINTING.compiled(*arguments) == expected, (case, colour)


def test_a_frame_that_is_not_one_is_refused_not_read_past() -> None:
    row = " " * 10
    blank = PLAIN_CHAR * 10

    def paint(new_chars: list, *, rows: int = 1, styles: list | None = None) -> object:
        return PAINTING.compiled(
            new_chars, styles or [blank], [row], [blank], rows, 10, 10, True, (), None, -1, 0
        )

    with pytest.raises(ValueError, match="different lengths"):
        paint(["x" * 11])
    with pytest.raises(TypeError, match="not a string"):
        paint([b"x" * 10])
    with pytest.raises(IndexError, match="fewer than 3 rows"):
        paint(["x" * 10], rows=3)
    with pytest.raises(ValueError, match="style 300"):
        paint(["x" * 10], styles=[chr(300) * 10])
    with pytest.raises(TypeError, match="lists of strings"):
        PAINTING.compiled((row,), [blank], [row], [blank], 1, 10, 10, True, (), None, -1, 0)
    assert paint([row]) == ("", None, -1, 0)  # nothing changed: nothing sent
