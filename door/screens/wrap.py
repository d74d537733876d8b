"""Text wrapped to a width as ``textwrap.wrap`` wraps it, cheaply enough for screens
drawn at every change.

textwrap's regular expressions take tens of microseconds a call: more than the rest of
drawing the show's panel, whose announcement ("fifteen two, fifteen four and a pair is
six") is wrapped again at every frame that changes the panel. The same texts come back
all the time (the same few hand shapes, the same prompts), so each wrap is kept, and a
line that fits is taken as it is, without textwrap.
"""

from __future__ import annotations

import functools
import textwrap


@functools.lru_cache(maxsize=2048)
def wrapped(text: str, width: int, subsequent_indent: str = "") -> tuple[str, ...]:
    """``textwrap.wrap(text, width, subsequent_indent=...)``, as a tuple."""
    if fits(text, width):
        return (text,)
    return tuple(textwrap.wrap(text, width, subsequent_indent=subsequent_indent))


def fits(text: str, width: int) -> bool:
    """Whether textwrap would give ``text`` back as its one line: it fits, holds no
    tab or line break, is not blank, and does not end in a space (which textwrap drops)."""
    return (
        len(text) <= width and text.isprintable() and not text[-1:].isspace() and bool(text.strip())
    )
