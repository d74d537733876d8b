"""The table's chat: what the computer says back, and the log as it keeps its lines."""

from __future__ import annotations

import random

from door.screens import theme
from door.screens.chat import (
    KEPT_LINES,
    LOG_TOP,
    PaneLog,
    canned_reply,
    draw_kept_log,
    lines_of,
)
from door.term.ansi import Color
from door.term.canvas import STYLES, Canvas, Recorder, Style, style_number


def test_the_computer_never_gives_the_same_reply_twice_running() -> None:
    rng, last = random.Random(3), ""
    for _ in range(200):
        reply = canned_reply(rng, last)
        assert reply != last
        last = reply


def test_the_log_gives_back_each_line_in_its_styles_and_keeps_the_last_hundred() -> None:
    log = PaneLog()
    for number in range(KEPT_LINES + 5):
        log.add(f"Hand {number}: 5♥ J♣ for fifteen two.", theme.TEXT)
    log.chat("Ada", "good luck", theme.BRIGHT)
    lines = log.lines
    assert len(lines) == KEPT_LINES
    assert lines[0].segments == (("Hand 6: 5♥ J♣ for fifteen two.", theme.TEXT),)
    assert lines[-1].segments == (("Ada: ", theme.BRIGHT), ("good luck", theme.BRIGHT))
    assert lines[-1].text == "Ada: good luck"


def test_a_kept_line_survives_any_text_and_any_style_number() -> None:
    # Style numbers are characters in a kept line: even the one that is the separator.
    every_style = (Style(fg, bg, bold) for fg in Color for bg in Color for bold in (False, True))
    while len(STYLES) <= 31:
        style_number(next(every_style))
    separator_style = STYLES[31]
    log = PaneLog()
    log.chat("Bob\x1f", "", separator_style)
    log.add("", theme.TEXT)
    first, second = log.lines[-2:]
    assert first.segments == (("Bob: ", separator_style), ("", theme.BRIGHT))
    assert second.segments == (("", theme.TEXT),)


def test_a_log_line_is_wrapped_as_textwrap_wraps_it_whether_it_fits_or_not() -> None:
    """Lines that fit skip textwrap (door/screens/chat.py: _wrapped): they must come out
    exactly as textwrap would have made them, spaces, tabs and all."""
    import textwrap

    rng = random.Random(5)
    alphabet = "ab c.,♥\t\u00a0\u2003 x"
    width = 12
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        log = PaneLog(width)
        log.add(text)
        expected = textwrap.wrap(text, width, subsequent_indent="  ") or [""]
        assert [line.text for line in log.lines] == expected, repr(text)


def test_the_log_is_drawn_as_each_of_its_segments_put_in_its_style() -> None:
    """A line is laid in one put from its text and styles, found again by the kept
    string: each cell as if every segment were put in its style after the one before,
    a wide character or a control made one cell, a long line cut at the edge."""
    every_style = (Style(fg, bg, bold) for fg in Color for bg in Color for bold in (False, True))
    while len(STYLES) <= 31:
        style_number(next(every_style))
    rng = random.Random(48)
    alphabet = ["a", "♥", "漢", "\x1b", " ", "─"]
    for case in range(300):
        log = PaneLog(rng.choice((20, 78, 200)))
        for _ in range(rng.randrange(1, 7)):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 90)))
            if rng.random() < 0.5:
                log.chat("Bob" + rng.choice(alphabet), text, STYLES[rng.choice((1, 31))])
            else:
                log.add(text, STYLES[rng.choice((0, 2, 31))])
        log.back = rng.choice((0, 0, 1))
        kept = log.kept(4)
        expected = Canvas()
        shown = kept[-3:] if log.back else kept
        for row, line in enumerate(lines_of(shown), start=LOG_TOP):
            col = 1
            for text, style in line.segments:
                col = expected.put(row, col, text, style)
        drawn, recorder = Canvas(), Recorder()
        for _ in range(2):  # made, then found again
            drawn, recorder = Canvas(), Recorder()
            draw_kept_log(drawn, kept, log.back)
            draw_kept_log(recorder, kept, log.back)
        replayed = Canvas()
        replayed.replay(tuple(recorder.runs))
        rows = range(LOG_TOP, LOG_TOP + len(shown))
        assert [drawn.cells[row] for row in rows] == [expected.cells[row] for row in rows], case
        assert replayed.cells == drawn.cells, case
