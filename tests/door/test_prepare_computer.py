"""What the door loads before its first caller (door.serve.prepare_computer_player): the
master's first play in a worker must not build the expert's tables (a few tenths of a
second under load) while a caller waits."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
from door.serve import prepare_computer_player
from engine.computer.discard_draws import expert_first_plays, expert_keeps, expert_second_plays
prepare_computer_player()
print(*(table.cache_info().currsize for table in (expert_keeps, expert_first_plays,
                                                   expert_second_plays)))
"""


def test_the_masters_draw_tables_are_loaded_before_the_first_caller() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["1", "1", "1"]
