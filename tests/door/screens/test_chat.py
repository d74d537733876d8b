"""The table's chat: what the computer says back, and the log as it keeps its lines."""

from __future__ import annotations

import random

from door.screens import theme
from door.screens.chat import KEPT_LINES, PaneLog, canned_reply
from door.term.ansi import Color
from door.term.canvas import STYLES, Style, style_number


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
