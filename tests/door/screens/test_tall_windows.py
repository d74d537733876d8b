"""A window taller than 24 rows shows the 24-row picture in its middle (the rows below
were left empty), a wide one keeps its side pane full height, and the pane wraps the
log to its own width, not to the 80-column log's (#43, item 6)."""

from __future__ import annotations

import asyncio
import random

from door.app.call import Caller, run_session
from door.app.presence import Presence
from door.config import config_from_mapping
from door.screens.chat import PaneLog
from door.screens.game_screen import TableView, draw_table
from door.screens.side_pane import draw_side_pane
from door.term.canvas import Canvas
from door.term.keys import Key
from door.ui.session import Frame, Session
from engine.rules.game import Game
from tests.door.app.test_lobby import in_lobby, settled
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.waiting import until

LONG = (
    "Computer cuts 7♦, Computer 2 cuts 3♥, Computer 3 cuts 9♣, Ada cuts K♠: low card deals, "
    "Computer 2 first, and the crib is Computer 2's."
)


def a_game() -> Game:
    game = Game(2, rng=random.Random(8), dealer=1)
    game.deal()
    return game


def test_a_tall_wide_window_has_the_picture_in_the_middle_and_the_pane_full_height() -> None:
    canvas, _ = draw_table(TableView(("Ada", "Computer"), a_game(), size=(132, 37)))
    assert (canvas.cols, canvas.rows) == (132, 37)
    rows = [canvas.text(row) for row in range(37)]
    assert rows[6].startswith(" Ada 0") and rows[7].startswith("┌───")
    assert all(not row[:80].strip() for row in rows[:6] + rows[30:])  # above and below
    assert rows[29].strip() != ""  # the status line, 24 rows down from the header
    assert "Game log and chat" in rows[0]
    assert all(row[80] == "│" for row in rows)


@run_async
async def test_a_tall_narrow_window_shows_any_screen_in_its_middle() -> None:
    terminal = KeyboardTerminal(cols=80, rows=37)
    session = Session(terminal)
    canvas = Canvas()
    canvas.put(0, 0, "the top row")
    canvas.put(23, 0, "the bottom row")
    session.push(Frame(canvas, (10, 5)))
    await session.paint()
    assert terminal.display[6].startswith("the top row")
    assert terminal.display[29].startswith("the bottom row")
    assert (terminal.screen.cursor.y, terminal.screen.cursor.x) == (16, 5)


@run_async
async def test_the_lobby_in_a_tall_wide_window_types_where_its_cursor_is() -> None:
    config = config_from_mapping({"game": {"computer_pause_seconds": 0}})
    terminal = KeyboardTerminal(cols=132, rows=37)
    presence = Presence("Sysop", random.Random(1))
    session = run_session(terminal, config, Caller("Ada", "test"), random.Random(2), presence)
    task = asyncio.ensure_future(session)
    try:
        await in_lobby(terminal)
        assert terminal.display[6].startswith(" Cribbage Door")
        terminal.press("c", "hi")
        await settled(terminal)
        row = terminal.find("Say: hi")
        assert row is not None and row[0] == 6 + 21
        assert terminal.screen.cursor.y == row[0]
        terminal.press(Key.ESCAPE)
        await until(lambda: "Say:" not in "\n".join(terminal.display))
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def test_the_pane_wraps_the_log_to_its_own_width() -> None:
    log = PaneLog()
    log.add(LONG)
    assert len(log.lines) == 2  # wrapped for the 80-column log
    canvas = Canvas(200, 30)
    draw_side_pane(canvas, "Game log and chat", log.lines)
    pane = [canvas.text(row)[82:].rstrip() for row in range(1, 4)]
    assert pane[0] == LONG[: len(pane[0])] and len(pane[0]) > 78
    assert " ".join(line.strip() for line in pane if line) == LONG
