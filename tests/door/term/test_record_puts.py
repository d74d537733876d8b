"""A Recorder's puts in C (door/term/_record.c) keep exactly the runs the Python puts
(``Canvas.put``, ``put_styled`` and ``Recorder.lay_run``) keep, and refuse what is not
text rather than keep it."""

from __future__ import annotations

import random

import pytest

import compiled_parts
from door.term.canvas import RECORDING, Color, Recorder, Style, style_char

pytestmark = [
    pytest.mark.skipif(RECORDING.compiled is None, reason="door/term/_record.c was not built"),
    pytest.mark.compares_twins,
]

STYLES = [Style(), Style(fg=Color.RED), Style(fg=Color.GREEN, bold=True), Style(bg=Color.BLUE)]
# Printable ASCII, the door's glyphs, and what is not one cell: a wide character, a
# combining accent, a control character, an emoji, an accented letter.
ALPHABET = "ab 7─│♥▒…" + "漢\u0301\x1b\x7f\U0001f600é"


def c_recorder(cols: int, rows: int) -> Recorder:
    """A recorder whose puts are the C ones, whichever the door has chosen."""
    with compiled_parts.choose(True):
        return Recorder(cols, rows)


def python_recorder(cols: int, rows: int) -> Recorder:
    """A recorder whose puts are the Python ones (the class's), not the C."""
    with compiled_parts.choose(False):
        return Recorder(cols, rows)


def test_a_drawing_is_recorded_as_the_python_records_it() -> None:
    rng = random.Random(1738)
    for case in range(3000):
        cols, rows = rng.choice((1, 10, 80)), rng.choice((1, 3, 24))
        recorders = c_recorder(cols, rows), python_recorder(cols, rows)
        returned: list[list[object]] = [[], []]
        for _ in range(rng.randrange(1, 15)):
            text = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, cols + 6)))
            row = rng.randrange(-1, rows + 1)
            col = rng.choice((rng.randrange(-6, cols + 2), 0, cols - len(text)))
            style = rng.choice(STYLES)
            how = rng.randrange(5)
            styles = "".join(style_char(rng.choice(STYLES)) for _ in text)
            height = rng.randrange(0, 5)
            for recorder, results in zip(recorders, returned, strict=True):
                if how == 0:
                    results.append(recorder.put(row, col, text))
                elif how == 1:
                    results.append(recorder.put(row, col, text, style=style))
                elif how == 2:
                    results.append(recorder.put_styled(row, col, text, styles))
                elif how == 3:  # drawn by puts, through the canvas's own methods
                    recorder.box(row, col, height, len(text) + 2, style, title=text)
                else:
                    results.append(recorder.put(row, col, text, style))
        assert recorders[0].runs == recorders[1].runs, case
        assert returned[0] == returned[1], case
        for run in recorders[0].runs[2::4]:  # nothing kept that is not one cell
            assert all(char == "?" or char not in "漢\u0301\x1b\x7f\U0001f600" for char in run)


def test_what_is_not_text_is_refused_and_nothing_kept() -> None:
    recorder = c_recorder(10, 2)
    with pytest.raises(TypeError, match="must be strings"):
        recorder.put(0, 0, b"bytes")
    with pytest.raises(TypeError):
        recorder.put(0, "0", "text")
    with pytest.raises(ValueError, match="for each character"):
        recorder.put_styled(0, 0, "two", "\0")  # a style for each character, or nothing
    with pytest.raises(OverflowError):
        recorder.put(0, 2**63 - 2, "text")
    with pytest.raises(TypeError, match="keyword"):
        recorder.put(0, 0, "text", colour=STYLES[1])
    with pytest.raises(TypeError, match="takes row, col, text and style"):
        recorder.put(0, 0)
    with pytest.raises(TypeError, match="takes row, col, text and style"):
        recorder.put(0, 0, "text", STYLES[1], style=STYLES[1])
    with pytest.raises(TypeError, match="takes row, col, text and styles"):
        recorder.put_styled(0, 0, "text", "\0" * 4, "\0" * 4)
    from door.term import _record  # type: ignore[attr-defined]

    with pytest.raises(TypeError, match="takes row, col, text"):
        _record.record_put()  # read nothing of what was not given
    assert recorder.runs == []
    assert recorder.put(0, 0, "ok", STYLES[1]) == 2
    assert recorder.runs == [0, 0, "ok", style_char(STYLES[1]) * 2]
