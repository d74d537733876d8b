"""The screens' kept wrap gives what textwrap gives, its shortcut included."""

from __future__ import annotations

import random
import textwrap

from door.screens.wrap import wrapped


def test_wrapped_is_textwrap_for_any_text() -> None:
    rng = random.Random(5)
    alphabet = "ab cd  e\tf\n♥ "  # tabs, line breaks, runs of spaces, a wide-ish glyph
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
        width = rng.randrange(3, 20)
        for indent in ("", "  "):
            expected = tuple(textwrap.wrap(text, width, subsequent_indent=indent))
            assert wrapped(text, width, indent) == expected, (text, width, indent)


def test_a_line_that_fits_but_ends_in_a_space_loses_the_space() -> None:
    assert wrapped("fifteen two ", 40) == ("fifteen two",)
    assert wrapped("   ", 40) == ()
