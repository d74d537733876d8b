"""A win bar worked out after its frame was sent is drawn as its row alone (issue #48): the
table is not composed again for it, the bytes sent move the cursor to the bar's row only,
and the next whole frame's difference stays right. Anything else that changed for the
person since their last frame (a line in the log, a dialog over the table) gets the
whole frame, bar included."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from door.screens.game_screen import table_layers
from door.screens.layout import LOG_RULE_ROW
from door.table.flow import Table
from door.table.options import GameOptions
from door.table.person import Person
from door.term.canvas import Canvas, picture_top
from door.term.keys import Key
from door.term.layers import Layers
from door.ui.session import Overlay, Session
from engine.rules.game import Game
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.fake_terminal import FakeTerminal
from tests.door.table.test_table import KNOWN_SHOW, press, start, until_status
from tests.stacked import StackedRandom

CURSOR_MOVE = re.compile(rb"\x1b\[(\d+);(\d+)H")


async def loop_turns(turns: int = 10) -> None:
    for _ in range(turns):
        await asyncio.sleep(0)


def bar_colours(terminal: FakeTerminal) -> set[str]:
    """The colours of the win bar's percentages on the caller's screen."""
    bar_row = LOG_RULE_ROW + picture_top(terminal.size[1])
    row = terminal.display[bar_row]
    return {terminal.screen.buffer[bar_row][col - 1].fg for col in _percent_cols(row)}


def screen_colours(terminal: FakeTerminal) -> list[list[tuple[str, bool]]]:
    buffer = terminal.screen.buffer
    return [
        [(buffer[row][col].fg, buffer[row][col].bold) for col in range(80)] for row in range(24)
    ]


def _percent_cols(row: str) -> list[int]:
    return [match.start() for match in re.finditer("%", row)]


class Composed:
    """Counts how often the person's whole view is composed (the table drawn whole)."""

    def __init__(self, person: Person, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        compose = person.compose

        def counted() -> None:
            self.count += 1
            compose()

        monkeypatch.setattr(person, "compose", counted)


async def watcher_with_a_dimmed_bar(
    size: tuple[int, int] = (80, 24),
) -> tuple[Person, FakeTerminal, Game]:
    """A watcher whose screen shows the table with the bar of a moment just left, dimmed,
    and the new moment's bar asked for."""
    terminal = FakeTerminal(*size)
    table = Table(GameOptions(level="easy"), [None, None], rng=random.Random(3), admit=Person)
    watcher = table.watch("W", Session(terminal))
    game = table.game
    game.cut_for_deal()
    watcher.session.push(watcher.screen)
    await watcher.draw()  # no figure yet: the bar is asked for
    await loop_turns()
    await watcher.draw()  # the first figure, in colour
    assert "Win:" in terminal.display[LOG_RULE_ROW + picture_top(size[1])]
    game.deal()
    await watcher.draw()  # the game moved: the old figure, dimmed
    assert not watcher.view.win_bar_current
    return watcher, terminal, game


@pytest.mark.parametrize("size", [(80, 24), (80, 40), (132, 50)], ids=["80x24", "tall", "wide"])
@run_async
async def test_a_bar_worked_out_after_its_frame_is_sent_as_its_row_alone(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    watcher, terminal, _ = await watcher_with_a_dimmed_bar(size)
    bar_row = LOG_RULE_ROW + picture_top(size[1])
    dimmed = bar_colours(terminal)
    screen_before = terminal.display
    composed = Composed(watcher, monkeypatch)
    sent_before = len(terminal.output)
    await loop_turns()  # the bar is worked out; the watcher is told
    assert await asyncio.wait_for(watcher.inbox.next(), 1) is None
    await watcher.draw()
    sent = terminal.output[sent_before:]
    assert composed.count == 0, "the whole table was composed again for the bar"
    rows = {int(row) - 1 for row, _ in CURSOR_MOVE.findall(sent)}
    assert rows == {bar_row}, sent
    assert len(sent) < 300, sent  # a row of 80 cells and its colours
    screen_after = terminal.display
    assert screen_after[:bar_row] == screen_before[:bar_row]
    assert screen_after[bar_row + 1 :] == screen_before[bar_row + 1 :]
    assert bar_colours(terminal) and bar_colours(terminal).isdisjoint(dimmed)


@run_async
async def test_news_since_the_last_frame_gets_the_whole_frame_with_the_bar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    watcher, terminal, _ = await watcher_with_a_dimmed_bar()
    dimmed = bar_colours(terminal)
    watcher.tell("Alice says the crib is hers.")
    composed = Composed(watcher, monkeypatch)
    await loop_turns()  # the bar is worked out after the news
    await watcher.draw()
    assert composed.count == 1
    assert "Alice says the crib is hers." in " ".join(terminal.display)
    assert bar_colours(terminal).isdisjoint(dimmed)


@run_async
async def test_a_dialog_over_the_table_gets_the_whole_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    watcher, terminal, _ = await watcher_with_a_dimmed_bar()

    def dialog(canvas: Canvas) -> None:
        canvas.put(5, 10, "A DIALOG OVER THE TABLE")

    with watcher.session.showing(Overlay(dialog)):
        await watcher.draw()
        composed = Composed(watcher, monkeypatch)
        await loop_turns()
        await watcher.draw()
        assert composed.count == 1
        assert "A DIALOG OVER THE TABLE" in terminal.display[5]


@run_async
async def test_after_bar_rows_the_screen_is_what_a_whole_repaint_shows() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    # The throw, the cut and plays: each moment's bar follows its frame as a row.
    await press(terminal, task, Key.ENTER, Key.RIGHT, Key.ENTER, Key.ENTER)
    await until_status(terminal, task, "RETURN play")
    await press(terminal, task, Key.ENTER)
    shown, colours = terminal.display, screen_colours(terminal)
    await press(terminal, task, Key.CTRL_L)  # everything painted again, from nothing
    assert terminal.display == shown
    assert screen_colours(terminal) == colours
    task.cancel()


def test_a_layer_drawn_again_alone_leaves_the_frame_a_whole_draw_would_make() -> None:
    terminal = FakeTerminal()
    table = Table(GameOptions(level="easy"), [None, None], rng=random.Random(3), admit=Person)
    watcher = table.watch("W", Session(terminal))
    table.game.cut_for_deal()
    view = watcher.view
    view.win_chances, view.win_bar_current = (0.6, 0.4), False
    layers = Layers()
    layers.frame(80, 24, table_layers(view, 80))
    view.win_chances, view.win_bar_current = (0.55, 0.45), True
    new_layers = table_layers(view, 80)
    bar = next(layer for layer in new_layers if layer[0] == "win bar")
    redrawn = layers.redraw(bar)
    assert redrawn is not None and layers.drawn == 1
    fresh, _ = Layers().frame(80, 24, new_layers)
    assert redrawn[0].chars == fresh.chars and redrawn[0].styles == fresh.styles
    again, _ = layers.frame(80, 24, new_layers)
    assert layers.drawn == 0 and again.chars == fresh.chars
    assert Layers().redraw(bar) is None  # a frame never drawn: draw it whole
