"""The win bar comes after the key (issue #48): the frame answering a key is sent without
working out a new bar; the bar is worked out when the loop has run what was ready, and
drawn as its own update. Until then the last figure shows dimmed; a moment the game
leaves before its bar was worked out is skipped; watchers share one computation."""

from __future__ import annotations

import asyncio
import gc
import random
import time
import weakref

import pytest

from door.screens import theme
from door.screens.layout import LOG_RULE_ROW
from door.table import win_bars
from door.table.flow import Table
from door.table.options import GameOptions
from door.table.person import Person
from door.term.canvas import Canvas, Style
from door.term.keys import Key
from door.ui.session import Session
from engine.computer.selfplay import RandomPlayer, next_action
from engine.odds.winbar import win_bar
from engine.rules.game import Game, Phase
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.fake_terminal import FakeTerminal
from tests.door.table.test_table import KNOWN_SHOW, press, start, until_status
from tests.stacked import StackedRandom


async def loop_turns(turns: int = 5) -> None:
    for _ in range(turns):
        await asyncio.sleep(0)


def bar_cells(canvas: Canvas) -> list[tuple[str, Style]]:
    """The rule row's cells from the bar's "Win:" to its last name: (character, style)."""
    row = canvas.text(LOG_RULE_ROW)
    start_col, end_col = row.index("Win:"), len(row.rstrip("─ "))
    return [canvas.cell(LOG_RULE_ROW, col) for col in range(start_col, end_col)]


def watched_table(watchers: int = 1) -> tuple[Table[Person], list[Person], Game]:
    table = Table(GameOptions(level="easy"), [None, None], rng=random.Random(3), admit=Person)
    people = [table.watch(f"W{n}", Session(FakeTerminal())) for n in range(watchers)]
    table.game.cut_for_deal()
    return table, people, table.game


@run_async
async def test_a_frame_is_composed_without_working_out_the_bar_which_follows() -> None:
    table, (watcher,), _ = watched_table()
    watcher.compose()
    assert table.win_bars.worked_out == 0 and watcher.view.win_chances is None
    await loop_turns()
    assert table.win_bars.worked_out == 1
    watcher.compose()
    assert watcher.view.win_chances is not None and watcher.view.win_bar_current


@run_async
async def test_while_the_new_bar_waits_the_last_figure_shows_dimmed() -> None:
    table, (watcher,), game = watched_table()
    watcher.compose()
    await loop_turns()
    watcher.compose()
    before = watcher.view.win_chances
    game.deal()
    game.discard(0, list(game.hand(0)[:2]))  # the game moves: the frame shows the old
    # figure dimmed (the hands dealt alone told a watcher no more than the table)
    canvas, _ = watcher.frame()
    assert watcher.view.win_chances == before and not watcher.view.win_bar_current
    cells = bar_cells(canvas)
    assert "%" in "".join(char for char, _ in cells)
    assert {style for char, style in cells if char.strip()} == {theme.DIM}
    await loop_turns()
    canvas, _ = watcher.frame()
    assert watcher.view.win_bar_current and watcher.view.win_chances != before
    assert theme.DIM not in {style for char, style in bar_cells(canvas) if char == "%"}


@run_async
async def test_only_the_newest_moment_is_worked_out_the_ones_passed_are_skipped() -> None:
    table, (watcher,), game = watched_table()
    watcher.compose()  # asks for the bar after the cut
    game.deal()
    watcher.compose()  # the game moved before the loop turned: only this one counts
    await loop_turns()
    assert table.win_bars.worked_out == 1 and table.win_bars.skipped == 1


@run_async
async def test_a_bar_worked_out_after_the_game_moved_on_is_kept_for_the_new_moment() -> None:
    table, (watcher,), game = watched_table()
    watcher.compose()  # asks for the bar after the cut
    watcher.inbox.forget_wake()
    game.deal()  # the live game moves on before the queue's turn; nobody drew it yet
    await loop_turns()
    assert table.win_bars.worked_out == 1
    assert await asyncio.wait_for(watcher.inbox.wait_woken(), 1) is None  # told
    watcher.compose()  # draws the new moment's bar as worked out, asking for none again
    await loop_turns()
    assert watcher.view.win_bar_current and watcher.view.win_chances == win_bar(game, None)
    assert table.win_bars.worked_out == 1
    assert table.win_bars.skipped == 1  # the moment after the cut, passed unseen


@run_async
async def test_watchers_share_one_computation_and_all_are_woken_to_draw_it() -> None:
    table, watchers, _ = watched_table(watchers=5)
    for watcher in watchers:
        watcher.compose()
        watcher.inbox.forget_wake()
    await loop_turns()
    assert table.win_bars.worked_out == 1
    for watcher in watchers:
        assert await asyncio.wait_for(watcher.inbox.wait_woken(), 1) is None
        watcher.compose()
    assert len({watcher.view.win_chances for watcher in watchers}) == 1


@run_async
async def test_the_caller_sees_the_answer_to_a_key_before_its_bar_is_worked_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    terminal = KeyboardTerminal()
    status_when_worked_out: list[str] = []
    work_out = win_bars.win_bar

    def watched_win_bar(*args: object, **kwargs: object) -> tuple[float, ...]:
        terminal.output  # noqa: B018  (what was written counts as sent)
        status_when_worked_out.append(terminal.status)
        return work_out(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(win_bars, "win_bar", watched_win_bar)
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    status_when_worked_out.clear()
    # Two cards thrown to the crib: the game moves, and its chances with it.
    await press(terminal, task, Key.ENTER, Key.RIGHT, Key.ENTER, Key.ENTER)
    assert status_when_worked_out, "no bar was worked out for the throw"
    # The caller's screen had moved on from the throw when its bar was worked out.
    assert all("RETURN throw" not in status for status in status_when_worked_out)
    assert "Win: You" in terminal.display[LOG_RULE_ROW]
    assert terminal.cell(LOG_RULE_ROW, terminal.display[LOG_RULE_ROW].index("%") - 1).fg != (
        "black"
    )
    task.cancel()


@run_async
async def test_a_bar_waits_while_the_loop_is_busy_and_follows_on_a_quiet_turn() -> None:
    table, (watcher,), _ = watched_table()
    loop = asyncio.get_running_loop()
    busy_until = time.perf_counter() + 0.1  # well under OVERDUE_SECONDS

    def busy_turn() -> None:
        # Every turn of the loop has other work (callers' keys, say): 1 ms of it.
        started = time.thread_time()  # the door's processor time, as the queue times it
        while time.thread_time() - started < 0.001:
            pass
        if time.perf_counter() < busy_until:
            loop.call_soon(busy_turn)

    loop.call_soon(busy_turn)
    watcher.compose()
    while time.perf_counter() < busy_until:
        await asyncio.sleep(0)
        assert table.win_bars.worked_out == 0
    await loop_turns(10)
    assert table.win_bars.worked_out == 1


@run_async
async def test_under_overload_an_overdue_bar_is_still_worked_out() -> None:
    table, (watcher,), _ = watched_table()
    loop = asyncio.get_running_loop()
    busy = True

    def busy_turn() -> None:
        started = time.thread_time()
        while time.thread_time() - started < 0.001:
            pass
        if busy:
            loop.call_soon(busy_turn)

    loop.call_soon(busy_turn)
    # The clock starts before the bar is asked for: the bar is overdue from then, and on a
    # loaded machine composing the frame took 8 ms (CI on 7bdb46e: 0.242 s waited after it).
    started = time.perf_counter()
    watcher.compose()
    while table.win_bars.worked_out == 0 and time.perf_counter() - started < 5:
        await asyncio.sleep(0)
    busy = False
    waited = time.perf_counter() - started
    assert table.win_bars.worked_out == 1
    # (the upper bound allows for a machine busy with other work, where the loop's turns
    # take longer on the wall clock: at 0.5 s more the test failed twice beside a load
    # bench and a large test run, and passed alone)
    assert win_bars.OVERDUE_SECONDS <= waited < win_bars.OVERDUE_SECONDS + 2


@run_async
async def test_a_cheap_bar_is_worked_out_in_the_frame_that_shows_its_moment() -> None:
    table, (watcher,), game = watched_table()
    queue = win_bars.bar_queue()
    queue.learn(game, win_bars.CHEAP_BAR_SECONDS / 10)  # bars of this phase cost little
    watcher.compose()
    assert watcher.view.win_chances is not None and watcher.view.win_bar_current
    assert table.win_bars.worked_out == 1 and not table.win_bars.waiting and not queue


@run_async
async def test_a_bar_costing_half_a_millisecond_comes_in_its_frame() -> None:
    """On a saturated core a two-player cut's bar took 0.33 ms on average and one in
    six over 0.4 ms (caches cold): such a phase's bars come in the key's frame, not
    after it, where a loop that is never quiet would keep them waiting until overdue."""
    table, (watcher,), game = watched_table()
    queue = win_bars.bar_queue()
    queue.learn(game, 0.0005)
    watcher.compose()
    assert watcher.view.win_chances is not None and watcher.view.win_bar_current
    assert table.win_bars.worked_out == 1 and not table.win_bars.waiting and not queue


@run_async
async def test_a_dear_bar_or_one_not_timed_yet_follows_its_frame() -> None:
    table, (watcher,), game = watched_table()
    watcher.compose()  # no bar of this phase timed on this loop yet
    assert watcher.view.win_chances is None and table.win_bars.waiting
    await loop_turns()
    game.deal()
    win_bars.bar_queue().learn(game, win_bars.CHEAP_BAR_SECONDS * 2)
    watcher.compose()
    assert not watcher.view.win_bar_current and table.win_bars.waiting


@run_async
async def test_under_overload_overdue_bars_follow_at_a_share_of_the_core_not_a_fixed_rate() -> None:
    tables = [watched_table() for _ in range(10)]
    loop = asyncio.get_running_loop()
    busy = True

    def busy_turn() -> None:
        started = time.thread_time()
        while time.thread_time() - started < 0.001:
            pass
        if busy:
            loop.call_soon(busy_turn)

    loop.call_soon(busy_turn)
    for _, (watcher,), _ in tables:
        watcher.compose()  # ten tables' bars wait, and no turn is ever quiet
    started = time.perf_counter()
    while tables[0][0].win_bars.worked_out == 0 and time.perf_counter() - started < 5:
        await asyncio.sleep(0)
    first = time.perf_counter()
    while any(table.win_bars.waiting for table, _, _ in tables) and time.perf_counter() - first < 5:
        await asyncio.sleep(0)
    busy = False
    # A bar after the cut for deal takes about 0.02 ms: nine more, a turn (1 ms) or so
    # each, where one every 50 ms took 0.45 s.
    assert time.perf_counter() - first < 0.3


@run_async
async def test_once_a_phase_s_bars_are_known_cheap_one_in_eight_is_timed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Timing a bar reads the thread's processor clock, a system call, twice: once the
    phase's cost is known the queue times one bar in ``TIMED_EVERY`` and still learns."""
    tables = [watched_table() for _ in range(3 * win_bars.TIMED_EVERY)]
    win_bar(tables[0][2])  # the process's first bar reads the tables: not a cheap one
    queue = win_bars.bar_queue()
    queue.learn(tables[0][2], win_bars.CHEAP_BAR_SECONDS / 10)  # after the cut for deal
    reads = 0
    thread_time = time.thread_time

    def counted() -> float:
        nonlocal reads
        reads += 1
        return thread_time()

    monkeypatch.setattr(time, "thread_time", counted)
    for _, (watcher,), _ in tables:
        watcher.compose()  # a cheap bar, worked out in the frame
        assert watcher.view.win_bar_current
    assert sum(table.win_bars.worked_out for table, _, _ in tables) == len(tables)
    assert reads == 2 * 3  # three bars timed, each read before and after
    assert queue.affords(tables[0][2])


def test_a_closed_loops_queue_of_bars_is_let_go() -> None:
    """The queues are kept by their loop, weakly: one that held its loop strongly kept
    every test's loop, and its queue, alive for good."""
    loop = asyncio.new_event_loop()

    async def ask() -> None:
        win_bars.bar_queue()

    loop.run_until_complete(ask())
    loop.close()
    gone = weakref.ref(loop)
    del loop
    gc.collect()
    assert gone() is None


@run_async
async def test_a_seats_bar_asked_for_in_a_deal_that_ends_before_its_turn_is_dropped_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # A seat's view names the cards it threw: carried into the next deal, whose crib
    # does not hold them, the engine refuses it. That is the deal moving on, not a fault
    # to log with a traceback.
    bars = win_bars.WinBars()
    game = Game(rng=random.Random(5))
    players = [RandomPlayer(random.Random(seat)) for seat in range(2)]
    while game.phase is not Phase.DISCARD:
        next_action(game, players)
    thrown = tuple(game.hand(0)[:2])
    game.discard(0, list(thrown))
    while game.phase is not Phase.CUT:
        next_action(game, players)
    assert bars.shown(game, 0, thrown) is None  # asked for, waiting its turn
    deal = game.hand_number
    while game.hand_number == deal:  # the deal ends before the queue's turn
        next_action(game, players)
    with caplog.at_level("DEBUG", logger="door.table.win_bars"):
        await loop_turns()
    assert bars.worked_out == 0 and not bars.waiting
    assert not [record for record in caplog.records if record.levelname == "ERROR"]
