"""What the door loads before its first caller (door.serve.prepare_computer_player): the
master's first play in a worker must not build the expert's tables (a few tenths of a
second under load) while a caller waits."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
from door.serve import prepare_computer_player
from engine.computer.discard_draws import expert_first_plays, expert_keeps
prepare_computer_player()
print(expert_keeps.cache_info().currsize, expert_first_plays.cache_info().currsize)
"""


def test_the_masters_draw_tables_are_loaded_before_the_first_caller() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["1", "1"]
