"""The game screen's header for two sides (door/screens/frame.py ``draw_header``): the
left side's name and score from column 1, the right side's ending one short of the
edge, the dealer's mark after the dealer's score, and the middle text centred in the
room between (the right side written over the left when the names leave no room)."""

from __future__ import annotations

import random

from door.screens import theme
from door.screens.frame import draw_header
from door.screens.layout import SCREEN_COLS
from door.term.canvas import Canvas, Recorder

MARK = " (dealer, crib)"


def laid_out(names: tuple[str, str], scores: tuple[int, int], dealer: int | None, middle: str):
    """The header as its parts are described, each put after the one before."""
    canvas = Canvas()
    left, right = f"{names[0]} {scores[0]}", f"{names[1]} {scores[1]}"
    left_mark, right_mark = (MARK if dealer == 0 else ""), (MARK if dealer == 1 else "")
    col = canvas.put(0, 1, left, theme.PLAYER_STYLES[0])
    col = canvas.put(0, col, left_mark, theme.BRIGHT)
    right_col = SCREEN_COLS - 1 - len(right) - len(right_mark)
    end = canvas.put(0, right_col, right, theme.PLAYER_STYLES[1])
    canvas.put(0, end, right_mark, theme.BRIGHT)
    room = right_col - col - 4
    canvas.put(0, col + 2 + (room - len(middle)) // 2, middle, theme.LABEL)
    return canvas.cells[0]


def test_the_header_is_its_parts_laid_out_for_any_names() -> None:
    rng = random.Random(9)
    for case in range(3000):
        names = tuple(
            "".join(rng.choice("ab 漢♥") for _ in range(rng.choice((0, 3, 8, 14, 30, 40))))
            for _ in range(2)
        )
        scores = (rng.randrange(122), rng.randrange(122))
        dealer = rng.choice((0, 1, None))
        middles = ("Hand 12 · free runs · auto count", "Hand 12 · free runs", "Hand 12")
        drawn, recorder, replayed = Canvas(), Recorder(), Canvas()
        draw_header(drawn, names, scores, dealer, middles)
        draw_header(recorder, names, scores, dealer, middles)
        replayed.replay(tuple(recorder.runs))
        text = drawn.text(0)
        middle = next((m for m in middles if m in text), "")
        assert drawn.cells[0] == laid_out(names, scores, dealer, middle), (case, text)
        assert replayed.cells == drawn.cells, case
