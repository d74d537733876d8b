"""The turn timer: a countdown on the caller's screen, and the computer's move for them
when it runs out."""

from __future__ import annotations

import asyncio
import re

import pytest

import door.table.options
from door.table.options import GameOptions
from door.table.solo import play_against_computer
from door.ui.session import Session
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.table.test_table import KNOWN_SHOW, log_text, until_status
from tests.door.waiting import until
from tests.stacked import StackedRandom


def test_timer_options_cycle_and_are_checked() -> None:
    seen = []
    options = GameOptions()
    for _ in range(4):
        options = options.with_next_turn_timer()
        seen.append(options.turn_seconds)
    assert seen == [30, 60, 120, 0]
    assert GameOptions(turn_seconds=60).timer_text == "60 s a turn"
    with pytest.raises(ValueError, match="turn timer"):
        GameOptions(turn_seconds=7)


@run_async
async def test_the_clock_counts_down_and_the_computer_throws_for_a_caller_out_of_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(door.table.options, "TURN_TIMERS", (0, 2))
    terminal = KeyboardTerminal()
    options = GameOptions(level="easy", turn_seconds=2)
    task = asyncio.ensure_future(
        play_against_computer(
            Session(terminal), options, "Alice", rng=StackedRandom(*KNOWN_SHOW), pause=0
        )
    )
    await until_status(terminal, task, "RETURN mark")
    assert re.search(r" 0:0[12] left\s*$", terminal.display[21])
    assert terminal.display[22].rstrip().endswith("press RETURN.")  # the prompt stays whole
    await until(lambda: "You throw" in log_text(terminal), what="the computer throwing for her")
    assert "Your time ran out: the computer moves for you." in log_text(terminal)
    assert "Alice's time ran out" not in log_text(terminal)  # her own screen says "you"
    assert "You throw" in log_text(terminal)  # two cards went to the crib for her
    task.cancel()
