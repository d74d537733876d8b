"""The lobby's line about how a game went (door/app/menu_choices.py)."""

from __future__ import annotations

import re

import pytest

from door.app.menu_choices import MenuChoices, result_line
from door.table.options import GameResult
from engine.rules.outcome import Outcome

THREE = ("Ada", "Computer", "Computer 2")


@pytest.mark.parametrize(
    ("outcome", "side", "sides", "line"),
    [
        (Outcome(0, (121, 98)), 0, ("Ada", "Computer"), "You won 121 to 98."),
        (
            Outcome(1, (73, 121), ((0, "skunk"),)),
            0,
            ("Ada", "Computer"),
            "Computer won 121 to 73 (skunk).",
        ),
        # A three-handed loss said "The computer won 121 to 73 (skunk).": not which
        # computer won, and not the third score.
        (
            Outcome(2, (73, 95, 121), ((0, "skunk"),)),
            0,
            THREE,
            "Computer 2 won 121; you 73 (skunk), Computer 95.",
        ),
        (
            Outcome(0, (121, 58, 95), ((1, "double skunk"),)),
            0,
            THREE,
            "You won 121; Computer 2 95, Computer 58 (double skunk).",
        ),
        (Outcome(1, (100, 121, 110)), 2, ("Ada", "Bob", "Cy"), "Bob won 121; you 110, Ada 100."),
    ],
)
def test_the_line_says_who_won_and_every_score(
    outcome: Outcome, side: int, sides: tuple[str, ...], line: str
) -> None:
    assert result_line(GameResult(outcome, side, outcome.scores), sides) == line


def test_the_longest_three_handed_line_fits_a_row_of_80() -> None:
    long = ("A" * 20, "B" * 20, "C" * 20)  # the longest handles
    outcome = Outcome(1, (60, 121, 95), ((0, "double skunk"),))
    line = result_line(GameResult(outcome, 0, outcome.scores), long)
    assert len(line) <= 78 and "B" * 20 in line and "C" * 20 in line, line


@pytest.mark.parametrize("winner", [0, 1])
def test_two_double_skunks_between_20_letter_names_fit_a_row_of_80(winner: int) -> None:
    # It was 92 columns and wrapped onto the lobby's second message row.
    long = ("A" * 20, "B" * 20, "C" * 20)  # the caller is A: named "you"
    scores = [60, 60, 59]
    scores[winner] = 121
    skunked = tuple((side, "double skunk") for side in range(3) if side != winner)
    outcome = Outcome(winner, tuple(scores), skunked)
    line = result_line(GameResult(outcome, 0, outcome.scores), long)
    assert len(line) <= 78, (len(line), line)
    assert line.count("(double skunk)") == 2, line
    assert sorted(int(n) for n in re.findall(r"\b\d+\b", line)) == sorted(scores), line
    for name in long[1:]:  # the others' names give way, each with a mark
        assert f"{name[:8]}" in line and f"{name[:20]}" not in line, line
    assert line.count("…") == 2, line


def test_a_game_given_up_is_abandoned() -> None:
    choices = MenuChoices()
    choices.count(GameResult(None, 0, (40, 50)), ("Ada", "Computer"))
    assert choices.notes == ["Game abandoned."]


def test_a_note_for_a_screen_reader_keeps_every_name_whole() -> None:
    # Shortened to fit the lobby's row, and the same words were said.
    long = ("A" * 20, "B" * 20, "C" * 20)
    outcome = Outcome(1, (60, 121, 59), ((0, "double skunk"), (2, "double skunk")))
    result = GameResult(outcome, 0, outcome.scores)
    shown, spoken = MenuChoices(), MenuChoices()
    shown.count(result, long)
    spoken.count(result, long, spoken=True)
    assert "…" in shown.notes[0] and len(shown.notes[0]) <= 78
    assert spoken.notes == [
        f"{'B' * 20} won 121; you 60 (double skunk), {'C' * 20} 59 (double skunk)."
    ]
