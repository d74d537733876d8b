"""The win bar at the table: on against the computer, w turns it off and on; between
callers it shows only once every player has asked for it, and never to their watchers.
The sysop may have it start off, or never show ([game] win_bar)."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from door.screens.show import ShowPanel
from door.table.flow import Table
from door.table.options import GameOptions
from door.table.person import Person
from door.term.keys import Key
from door.ui.session import Session
from tests.door.caller import KeyboardTerminal, play_together, run_async
from tests.door.fake_terminal import FakeTerminal
from tests.door.table.test_table import KNOWN_SHOW, log_text, press, start, until_status
from tests.door.waiting import until
from tests.stacked import StackedRandom

RULE_ROW = 16


def bar_of(terminal: KeyboardTerminal) -> str:
    return terminal.display[RULE_ROW]


@run_async
async def test_against_the_computer_the_bar_shows_and_w_turns_it_off_and_on() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    line = bar_of(terminal)
    assert "Win: You " in line and line.rstrip("─ ").endswith("% Computer")
    percents = [int(p) for p in re.findall(r"(\d+)%", line)]
    assert len(percents) == 2 and 98 <= sum(percents) <= 101
    await press(terminal, task, "w")
    assert "Win:" not in bar_of(terminal)
    await press(terminal, task, "W")
    assert "Win: You" in bar_of(terminal)
    # The bar follows the game: a discard changes what the caller knows.
    await press(terminal, task, Key.ENTER, Key.RIGHT, Key.ENTER, Key.ENTER)
    assert "Win: You" in bar_of(terminal)
    task.cancel()


def test_between_callers_the_bar_waits_for_every_player_and_hides_from_watchers() -> None:
    table = Table(GameOptions(), ["Ann", "Bob"], rng=random.Random(2), admit=Person)
    ann = table.sit(0, Session(FakeTerminal()))
    bob = table.sit(1, Session(FakeTerminal()))
    watcher = table.watch("Sysop", Session(FakeTerminal()))
    assert ann.win_chances() is None and bob.win_chances() is None
    ann.toggle_win_bar()
    assert ann.win_chances() is None  # Bob has not asked
    bob.toggle_win_bar()
    ann_bar = ann.win_chances()
    assert ann_bar is not None and abs(sum(ann_bar) - 1) < 1e-9
    assert watcher.win_chances() is None
    bob.toggle_win_bar()
    assert ann.win_chances() is None


def test_a_watcher_of_a_game_against_the_computer_sees_the_bar() -> None:
    table = Table(GameOptions(), ["Ann", None], rng=random.Random(2), admit=Person)
    table.sit(0, Session(FakeTerminal()))
    watcher = table.watch("Sysop", Session(FakeTerminal()))
    assert watcher.win_chances() is not None


def test_everyone_who_sees_the_game_alike_shares_one_bar_until_it_moves() -> None:
    table = Table(GameOptions(level="easy"), [None, None], rng=random.Random(3), admit=Person)
    watchers = [table.watch(f"W{n}", Session(FakeTerminal())) for n in range(5)]
    game = table.game
    game.cut_for_deal()
    bars = {watcher.win_chances() for watcher in watchers}
    assert len(bars) == 1 and table.win_bars.worked_out == 1
    assert {watcher.win_chances() for watcher in watchers} == bars  # a redraw: no work
    assert table.win_bars.worked_out == 1
    game.deal()
    game.discard(0, list(game.hand(0)[:2]))  # the game moves: worked out again, once,
    # from the hand kept (the hands dealt alone told a watcher no more than the table)
    moved = {watcher.win_chances() for watcher in watchers}
    assert len(moved) == 1 and table.win_bars.worked_out == 2
    assert moved != bars


def test_no_bar_is_worked_out_while_the_show_panel_hides_it() -> None:
    table = Table(GameOptions(level="easy"), ["Ann", None], rng=random.Random(4), admit=Person)
    ann = table.sit(0, Session(FakeTerminal()))
    if not ann.wants_win_bar:
        ann.toggle_win_bar()
    game = table.game
    game.cut_for_deal()
    game.deal()
    ann.compose()
    assert ann.view.win_chances is not None
    worked_out = table.win_bars.worked_out
    game.discard(0, list(game.hand(0)[:2]))  # the game moves, under the show's panel
    table.panel = ShowPanel(0, False, tuple(game.hand(0)), None)
    ann.compose()
    assert ann.view.win_chances is None and table.win_bars.worked_out == worked_out
    table.panel = None
    ann.compose()
    assert ann.view.win_chances is not None and table.win_bars.worked_out == worked_out + 1


@run_async
async def test_the_sysop_may_start_the_bar_off_and_a_caller_turns_it_on() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW), win_bar="off")
    await until_status(terminal, task, "RETURN mark")
    assert "Win:" not in bar_of(terminal)
    await press(terminal, task, "w")
    assert "Win: You" in bar_of(terminal)
    task.cancel()


@run_async
async def test_where_the_sysop_says_never_w_is_refused_and_no_bar_is_worked_out() -> None:
    terminal = KeyboardTerminal()
    tables: list[Table] = []
    task = start(terminal, StackedRandom(*KNOWN_SHOW), win_bar="never", on_table=tables.append)
    await until_status(terminal, task, "RETURN mark")
    await press(terminal, task, "w")
    assert "Win:" not in bar_of(terminal)
    assert "The sysop has turned the win bar off" in log_text(terminal)
    await press(terminal, task, Key.ENTER, Key.RIGHT, Key.ENTER, Key.ENTER)  # the game moves
    assert "Win:" not in bar_of(terminal)
    assert tables[0].win_bars.worked_out == 0
    task.cancel()


def test_where_the_sysop_says_never_watchers_get_no_bar_nor_the_key_for_it() -> None:
    table = Table(
        GameOptions(level="easy"), [None, None], rng=random.Random(3), admit=Person, win_bar="never"
    )
    watcher = table.watch("Sysop", Session(FakeTerminal()))
    watcher.toggle_win_bar()
    watcher.compose()
    assert watcher.view.win_chances is None and table.win_bars.worked_out == 0
    assert "Watching" in watcher.view.status and "win bar" not in watcher.view.status
    shown = Table(GameOptions(level="easy"), [None, None], rng=random.Random(3), admit=Person)
    seen = shown.watch("Sysop", Session(FakeTerminal()))
    seen.compose()
    assert "w win bar" in seen.view.status


def test_a_table_refuses_a_win_bar_setting_it_does_not_know() -> None:
    with pytest.raises(ValueError, match="on, off, never"):
        Table(GameOptions(), ["Ann", None], rng=random.Random(2), admit=Person, win_bar="sometimes")


@run_async
async def test_between_callers_w_says_who_asked_and_what_the_other_presses() -> None:
    table = Table(GameOptions(), ["Ann", "Bob"], rng=random.Random(2), admit=Person, pause=0)
    ann_terminal, bob_terminal = KeyboardTerminal(), KeyboardTerminal()
    people = [table.sit(0, Session(ann_terminal)), table.sit(1, Session(bob_terminal))]
    tasks = [asyncio.ensure_future(person.attend()) for person in people]
    table.start()
    # Both choose their throws: their message lines are the discard's prompt.
    await play_together(
        [ann_terminal, bob_terminal],
        stop=lambda: all("RETURN mark" in t.status for t in (ann_terminal, bob_terminal)),
    )
    await ann_terminal.until_waiting(tasks[0])
    ann_terminal.press("w")
    asked = "Asked Bob for the win bar: it shows when they agree."
    await until(lambda: asked in flat(ann_terminal))
    await until(lambda: "Ann asks for the win bar: press w to agree." in flat(bob_terminal))
    assert "Win:" not in bar_of(ann_terminal)
    bob_terminal.press("w")
    for terminal in (ann_terminal, bob_terminal):
        await until(lambda t=terminal: "Every player asked for the win bar" in flat(t))
        await until(lambda t=terminal: "Win:" in bar_of(t))
    ann_terminal.press("w")
    await until(lambda: "Win bar off: w asks for it again." in flat(ann_terminal))
    await until(lambda: "Ann turned the win bar off." in flat(bob_terminal))
    table.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def flat(terminal: KeyboardTerminal) -> str:
    return " ".join(" ".join(terminal.display).split())


def test_at_three_a_second_w_reads_as_agreeing_to_whoever_asked() -> None:
    # By hand at four (Gail, Hugo, Ivy, the computer): Hugo pressed w, then Gail; Hugo
    # read "Gail asks for the win bar: press w to agree.", a w he had pressed already.
    table = Table(GameOptions(players=3), ["Ann", "Bob", "Cy"], rng=random.Random(2), admit=Person)
    ann, bob, cy = (table.sit(index, Session(FakeTerminal())) for index in range(3))

    def last(person: Person) -> str:
        return person.view.log.lines[-1].text

    ann.toggle_win_bar()
    assert last(bob) == last(cy) == "Ann asks for the win bar: press w to agree."
    bob.toggle_win_bar()
    assert last(ann) == "Bob agrees to the win bar: waiting for Cy."
    assert last(cy) == "Bob asks for the win bar: press w to agree."
    assert last(bob) == "Asked Cy for the win bar: it shows when they agree."
    cy.toggle_win_bar()
    assert ann.win_chances() is not None
