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

from door.metrics.tally import TALLY
from door.table.flow import Table
from door.table.options import GameOptions
from door.table.person import Person
from door.table.solo import play_against_computer
from door.term.keys import Key
from door.term.terminal import StreamTerminal
from door.ui.session import Session
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.table.test_table import (
    HAND_LABELS,
    KNOWN_SHOW,
    hand_card,
    log_text,
    press,
    start,
    until_status,
)
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


async def _display_after(*presses: tuple[Key | str, ...]) -> tuple[list[str], int]:
    """The screen of a game's discard after ``presses`` (each a group of keys that
    arrive together), and the frames the last group was answered with."""
    terminal = KeyboardTerminal()
    task = start(terminal, random.Random(5))
    await until_status(terminal, task, "RETURN mark")
    frames = 0
    for keys in presses:
        before = TALLY.frames
        await press(terminal, task, *keys)
        frames = TALLY.frames - before
    task.cancel()
    return terminal.display, frames


@run_async
async def test_keys_typed_ahead_are_answered_by_one_frame_after_the_last() -> None:
    # Three moves of the bar that arrived together (a held arrow key, a pasted line): a
    # frame for each of the first two would be replaced at once by the next one's.
    together, frames = await _display_after((Key.RIGHT, Key.RIGHT, Key.RIGHT))
    assert frames == 1  # three before
    one_at_a_time, _ = await _display_after((Key.RIGHT,), (Key.RIGHT,), (Key.RIGHT,))
    assert together == one_at_a_time  # the same screen: the bar on the fourth card
    assert ">" in together[HAND_LABELS][hand_card(3) - 1 : hand_card(4)]


class _CountedTerminal(KeyboardTerminal):
    """A watcher's terminal that counts the frames its screen sends (a paint, a flush)."""

    def __init__(self) -> None:
        super().__init__()
        self.frames = 0

    async def flush(self) -> None:
        self.frames += 1
        await super().flush()


@run_async
async def test_a_watcher_sees_a_throw_and_what_the_table_does_next_in_one_frame() -> None:
    # The throw is logged by its own task, and the host takes the next step (the cut) two
    # turns of the loop later: a watcher drew both, a turn apart.
    terminal, watcher_terminal = KeyboardTerminal(), _CountedTerminal()
    tables: list[Table[Any]] = []
    game = play_against_computer(
        Session(terminal),
        GameOptions(level="easy"),
        "Alice",
        rng=random.Random(5),
        pause=2.0,  # the computer's cut is held on screen far longer than the test looks
        on_table=tables.append,
        win_bar="off",  # (a bar worked out after a frame sends its row alone)
    )
    task = asyncio.ensure_future(game)
    await until_status(terminal, task, "RETURN mark")
    watcher = tables[0].watch("Wendy", Session(watcher_terminal))
    watching = asyncio.ensure_future(watcher.attend())
    await press(terminal, task, Key.ENTER)
    await press(terminal, task, Key.RIGHT, Key.ENTER)
    assert "RETURN throw" in terminal.status
    before = watcher_terminal.frames
    terminal.press(Key.ENTER)
    await asyncio.sleep(0.3)
    assert watcher_terminal.frames - before == 1  # two before
    assert "throws" in " ".join(watcher_terminal.display[17:21])  # the throw, in the log
    task.cancel()
    watching.cancel()


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
