"""The load bench's caller reads the door's screens as a terminal would, so that what it
presses (and so what the bench measures) is real play."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from door.screens.chat import draw_log_rule
from door.screens.win_bar import draw_win_bar
from door.term.canvas import Canvas
from door.term.keys import Key
from door.ui.renderer import Renderer
from tests.door.caller import KeyboardTerminal, answer, run_async
from tests.door.fake_terminal import FakeTerminal
from tests.door.table.test_table import start

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from load_bot import RULE_ROW, BottomRows, keys_for  # noqa: E402


@run_async
async def test_the_bots_status_and_message_rows_follow_a_whole_game_as_pyte_sees_it() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, random.Random(3))
    rows = BottomRows()
    fed = 0
    for _ in range(400):
        await terminal.until_waiting(task)
        if task.done():
            break
        output = terminal.output
        # In uneven pieces, as a socket delivers them, splitting sequences and characters.
        for cut in range(fed, len(output), 37):
            rows.feed(output[cut : min(cut + 37, len(output))])
        fed = len(output)
        assert rows.status == terminal.display[-1]
        assert rows.message == terminal.display[-2]
        terminal.press(*answer(terminal.status))
    assert task.done()


def test_the_bot_presses_what_the_status_line_offers() -> None:
    rng = random.Random(1)
    assert keys_for(" Press a key from the menu  c chat  ? help  q quit", rng) == [b"p"]
    assert keys_for(" Computer is thinking", rng) is None
    marking = keys_for(" <- -> or 1-6 move  RETURN mark  DEL unmark", rng)
    assert marking is not None and marking[-1] == b"\r" and marking.count(b"\x1b[C") >= 1
    assert keys_for(" <- -> or 1-1 move  RETURN play", rng) == [b"\r"]
    assert keys_for(" RETURN play  c chat  ? help", rng) == [b"\r"]  # one card, no range
    refused = keys_for(
        " <- -> or 1-3 move  RETURN play", rng, "J♠ would make 32: the count cannot pass 31."
    )
    assert refused is not None and refused.count(b"\x1b[C") >= 1
    assert keys_for(" y play again  n leave", rng) == [b"y"]
    assert Key.ENTER  # the door's RETURN is the bot's b"\r"


@run_async
async def test_the_bot_tells_a_dimmed_win_bar_from_a_current_one_as_pyte_shows_them() -> None:
    terminal = FakeTerminal()
    renderer = Renderer(terminal)
    rows = BottomRows()
    for current, shown in ((False, "dim"), (True, "current"), (False, "dim")):
        canvas = Canvas()
        draw_log_rule(canvas)
        draw_win_bar(canvas, ("You", "Computer"), (0.62, 0.38), current)
        fed = len(terminal.output)
        renderer.render(canvas, None)
        await terminal.flush()
        rows.feed(terminal.output[fed:])
        percent = terminal.display[RULE_ROW].index("%")
        dimmed = terminal.screen.buffer[RULE_ROW][percent - 1].fg == "black"
        assert rows.bar == shown and dimmed is not current
    fed = len(terminal.output)
    renderer.render(Canvas(), None)  # the bar gone (the show's panel over it, say)
    await terminal.flush()
    rows.feed(terminal.output[fed:])
    assert rows.bar == ""
