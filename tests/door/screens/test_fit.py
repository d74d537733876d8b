"""Lines fitted to the width keep the keys they name (door/screens/fit.py)."""

from __future__ import annotations

import pytest

from door.screens.fit import fit_line, keys_tail, wrap_lines

CHALLENGE = (
    "Ada challenges you: 2 players, free runs, auto count, a tournament game. Y accept  N decline"
)
STANDINGS = (
    "Tournament game recorded in Friday Cup: the tournament is over (U shows the standings)."
)


@pytest.mark.parametrize(
    ("text", "tail"),
    [
        (CHALLENGE, "Y accept  N decline"),
        (STANDINGS, "(U shows the standings)."),
        ("Waiting for Bob to answer your challenge. Esc withdraws.", "Esc withdraws."),
        ("Wrong handle or password. RETURN keeps the handle.", "RETURN keeps the handle."),
        ("Bob is playing Ada: try again later.", ""),
        ("Press a key from the menu", ""),  # the key is in the first clause
    ],
)
def test_the_keys_tail_is_the_clause_that_names_the_first_key(text: str, tail: str) -> None:
    assert keys_tail(text) == tail


@pytest.mark.parametrize("width", [40, 60, 78])
@pytest.mark.parametrize("text", [CHALLENGE, STANDINGS])
def test_a_line_too_long_keeps_its_keys_whole(text: str, width: int) -> None:
    line = fit_line(text, width)
    assert len(line) <= width
    assert line.endswith(keys_tail(text))
    assert "…" in line
    assert line.startswith(text[:10])


def test_a_line_that_fits_or_names_no_keys() -> None:
    assert fit_line("Hand 3: you deal.", 78) == "Hand 3: you deal."
    assert fit_line("x" * 100, 78) == "x" * 77 + "…"


@pytest.mark.parametrize("text", [CHALLENGE, STANDINGS])
def test_two_rows_keep_the_whole_line_and_the_keys_together(text: str) -> None:
    lines = wrap_lines(text, 78, 2)
    assert len(lines) == 2 and all(len(line) <= 78 for line in lines)
    assert " ".join(lines) == text
    assert lines[-1].endswith(keys_tail(text))


def test_more_than_the_rows_shortens_the_last_before_its_keys() -> None:
    text = "word " * 40 + "and so on. Y accept  N decline"
    lines = wrap_lines(text, 78, 2)
    assert len(lines) == 2 and lines[-1].endswith("… Y accept  N decline")
    assert len(lines[-1]) <= 78
