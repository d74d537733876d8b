"""What a key costs the caller's own task between the answer it gives and the frame
that shows its outcome (issue #48): the table is let act first, so the outcome is one
frame, but the caller's chain of coroutines (the call, the lobby, the table, the step) is
not resumed once a turn of the loop to see whether it has."""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

from door.table.flow import Table
from door.table.person import Person
from door.term.keys import Key
from door.term.terminal import StreamTerminal
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.table.test_table import KNOWN_SHOW, log_text, press, start, until_status
from tests.stacked import StackedRandom

WATCHING = Person.watch_the_game.__code__
SENDING = StreamTerminal._resume_output.__code__


@run_async
async def test_a_card_played_is_drawn_after_one_resumption_of_the_callers_task() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, random.Random(5))
    await until_status(terminal, task, "RETURN play")
    runs_before_the_frame = 0
    frames = 0

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal runs_before_the_frame, frames
        if event != "call":
            return
        if frame.f_code is SENDING and frame.f_locals["self"]._held_output:
            frames += 1
        elif frame.f_code is WATCHING and not frames:
            runs_before_the_frame += 1  # a call, or a resumption of the coroutine

    sys.setprofile(hook)
    try:
        await press(terminal, task, Key.ENTER)
    finally:
        sys.setprofile(None)
    assert frames >= 1
    # Called once, resumed once when the table has acted (or the turns are up); it was
    # resumed after every turn of the loop, three of them while the computer thought.
    assert runs_before_the_frame == 2
    assert "You play 10♠ (count 10)." in log_text(terminal)
    task.cancel()


@run_async
async def test_a_card_played_is_drawn_on_the_turn_after_the_table_pauses() -> None:
    # The computer's move is held on screen (the pause): the table has done all it will
    # with the card meanwhile, so the caller's frame need not wait the turns of the loop
    # the table is let act in (it was drawn two turns later).
    terminal = KeyboardTerminal()
    tables: list[Table[Any]] = []
    task = start(terminal, random.Random(5), on_table=tables.append)
    await until_status(terminal, task, "RETURN play")
    tables[0].pause_seconds = 60
    terminal.press(Key.ENTER)
    turns = 0
    while "You play 10♠ (count 10)." not in log_text(terminal) and turns < 20:
        await asyncio.sleep(0)
        turns += 1
    assert "You play 10♠ (count 10)." in log_text(terminal)
    assert "Computer is playing..." in terminal.message
    # Four turns of the loop from the key pressed to the frame, where six were: the
    # caller's task no longer looks twice more whether the table has acted.
    assert turns == 4, turns
    task.cancel()


async def turns_until(terminal: KeyboardTerminal, shown: Callable[[], bool]) -> int:
    """Turns of the loop until the caller's screen shows what ``shown`` looks for."""
    turns = 0
    while not shown() and turns < 20:
        await asyncio.sleep(0)
        turns += 1
    assert shown()
    return turns


@run_async
async def test_a_throw_is_drawn_on_the_turn_after_the_table_acts_on_it() -> None:
    # Alone against the computer, the caller's throw is awaited by the table itself: a
    # task of its own and asyncio.wait's callback took two turns of the loop more.
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    await press(terminal, task, Key.ENTER, Key.RIGHT, Key.ENTER)
    assert "RETURN throw" in terminal.status
    terminal.press(Key.ENTER)
    assert await turns_until(terminal, lambda: "RETURN cut" in terminal.status) == 4
    assert "You throw 2♣ 3♣ to Computer's crib." in log_text(terminal)
    task.cancel()


@run_async
async def test_going_on_from_a_show_is_drawn_on_the_turn_after_the_table_acts() -> None:
    # The one question open (go on) is awaited itself, not through asyncio.wait, whose
    # callback took a turn of the loop more.
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN go on")
    shown_first = terminal.message
    terminal.press(Key.ENTER)
    turns = await turns_until(terminal, lambda: terminal.message != shown_first)
    assert "RETURN go on" in terminal.status  # the next show, asked at once
    assert turns == 4
    task.cancel()
