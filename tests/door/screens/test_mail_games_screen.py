"""The mail-games screen's finished games: each ending whole on one row beside the
opponent's name, which gives way when the ending needs the room."""

from __future__ import annotations

import pytest

from door.app.mail_games import MailLine
from door.screens.mail_games import MailView, draw_mail_games

LONG = "Maximilian Rosenthal"  # 20 letters: the longest handle


@pytest.mark.parametrize(
    ("ending", "name"),
    [
        ("You won 121 to 98.", LONG),
        ("They won on time: you did not move in time (0 to 0).", LONG),
        # 56 cells: the name column gives way, the ending stays whole.
        ("You won on time: they did not move in time (121 to 120).", "Maximilian Rosen…"),
    ],
)
def test_a_finished_game_reads_whole_with_its_name_once(ending: str, name: str) -> None:
    view = MailView("Mail games", finished=[MailLine(1, LONG, ending, finished=True)])
    canvas, _ = draw_mail_games(view)
    rows = [canvas.text(row).rstrip() for row in range(canvas.rows)]
    row = next(row for row in rows if ending in row)
    assert row.split() == [*name.split(), *ending.split()]
    assert len(row) < 80
