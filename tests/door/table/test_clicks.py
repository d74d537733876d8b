"""Clicks at the table: a game against the computer played with SGR mouse reports, as
an xterm sends them, checked on the screen the caller sees (pyte)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from door.table.options import GameOptions, GameResult
from door.table.solo import play_against_computer
from door.term.keys import Key
from door.ui.session import Session
from tests.door.caller import KeyboardTerminal, play_through, run_async
from tests.stacked import StackedRandom

HAND_LABELS, HAND_CARDS, PLAY_CARDS, STATUS = 12, 13, 9, 23
CARDS_COL, STEP = 11, 6
# The computer cuts the ace and deals; the caller holds 2C 3C 4S 7D 9H KS.
KNOWN_SHOW = ("KH AS", "2C 3C 9H KS 7D 4S QH QD QC QS KH KD AH")


def start(terminal: KeyboardTerminal) -> asyncio.Task[GameResult]:
    """A game against the computer, the caller's terminal reporting clicks."""
    options = GameOptions(level="easy")
    session = Session(terminal)
    terminal.mouse_reporting = True
    game = play_against_computer(session, options, "Alice", rng=StackedRandom(*KNOWN_SHOW), pause=0)
    return asyncio.ensure_future(game)


async def click(terminal: KeyboardTerminal, task: asyncio.Future[Any], row: int, col: int) -> None:
    """A left click at (row, col) as xterm reports it: SGR, 1-based, press then release."""
    terminal.pressed += 1  # one report taken (the release never reaches the queue)
    terminal.push_bytes(f"\x1b[<0;{col + 1};{row + 1}M\x1b[<0;{col + 1};{row + 1}m")
    await terminal.until_waiting(task)


def hand_card(index: int) -> int:
    return CARDS_COL + index * STEP


def where(terminal: KeyboardTerminal, words: str) -> int:
    column = terminal.status.find(words)
    assert column >= 0, terminal.status
    return column


async def until_status(terminal: KeyboardTerminal, task: asyncio.Future[Any], words: str) -> None:
    await play_through(terminal, task, stop=lambda terminal: words in terminal.status)


@run_async
async def test_two_clicked_cards_are_marked_and_a_click_on_return_throw_throws_them() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal)
    await until_status(terminal, task, "RETURN mark")
    assert terminal.message == (
        "Choose 2 cards for Computer's crib: click them, or use the bar and RETURN."
    )
    await click(terminal, task, HAND_CARDS + 1, hand_card(1) + 2)  # 3♣
    await click(terminal, task, HAND_LABELS, hand_card(4) + 1)  # 9♥, on its number
    assert "RETURN throws 3♣ 9♥ to Computer's crib" in terminal.message
    assert terminal.status.startswith(" RETURN throw  DEL unmark")
    for card in (1, 4):
        assert terminal.screen.buffer[HAND_CARDS + 1][hand_card(card) + 1].fg == "brown"
    await click(terminal, task, STATUS, where(terminal, "RETURN throw") + 3)
    assert terminal.shows("You throw 3♣ 9♥ to Computer's crib.")
    task.cancel()


@run_async
async def test_a_click_on_a_third_card_throws_nothing_and_leaves_the_two_marked() -> None:
    # It was the card's number and RETURN, and RETURN with two cards marked throws them:
    # a caller changing their mind threw the two they had marked.
    terminal = KeyboardTerminal()
    task = start(terminal)
    await until_status(terminal, task, "RETURN mark")
    await click(terminal, task, HAND_CARDS + 1, hand_card(1) + 2)  # 3♣
    await click(terminal, task, HAND_CARDS + 1, hand_card(4) + 2)  # 9♥
    await click(terminal, task, HAND_CARDS + 1, hand_card(0) + 2)  # 2♣: a third
    assert not terminal.shows("You throw")
    assert "RETURN throws 3♣ 9♥ to Computer's crib" in terminal.message
    assert terminal.message.endswith("; click one to un-mark it.")
    await click(terminal, task, HAND_CARDS + 1, hand_card(4) + 2)  # 9♥ un-marked
    await click(terminal, task, HAND_CARDS + 1, hand_card(0) + 2)  # 2♣ marked now
    assert "RETURN throws 3♣ 2♣ to Computer's crib" in terminal.message
    task.cancel()


@run_async
async def test_a_click_on_a_marked_card_unmarks_it() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal)
    await until_status(terminal, task, "RETURN mark")
    await click(terminal, task, HAND_CARDS, hand_card(0))
    assert terminal.screen.buffer[HAND_CARDS + 1][hand_card(0) + 1].fg == "brown"
    await click(terminal, task, HAND_CARDS + 2, hand_card(0) + 4)
    assert terminal.screen.buffer[HAND_CARDS + 1][hand_card(0) + 1].fg != "brown"
    assert "RETURN mark" in terminal.status
    assert terminal.screen.buffer[22][1].fg != "red"  # no complaint
    task.cancel()


@run_async
async def test_a_click_on_nothing_does_nothing_and_says_nothing() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal)
    await until_status(terminal, task, "RETURN mark")
    before = list(terminal.display)
    for row, col in ((2, 40), (HAND_CARDS + 1, hand_card(0) + 5), (STATUS, 78), (22, 5)):
        await click(terminal, task, row, col)
    assert terminal.display == before
    task.cancel()


@run_async
async def test_a_click_on_the_cut_picks_that_card_and_on_return_cut_cuts() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal)
    await until_status(terminal, task, "RETURN cut")
    assert terminal.message == "You cut: click a card of the deck, or type its number from 1 to 40."
    await click(terminal, task, PLAY_CARDS + 1, CARDS_COL + 28)  # card 29
    assert terminal.display[21].startswith(" Cut the deck at card number (1-40): 29")
    await click(terminal, task, PLAY_CARDS, CARDS_COL)  # card 1
    assert terminal.display[21].rstrip(" _") == " Cut the deck at card number (1-40): 1"
    await click(terminal, task, STATUS, where(terminal, "RETURN cut"))
    assert terminal.shows("You cut card 1: the starter is A♥.")
    task.cancel()


@run_async
async def test_clicks_are_ignored_where_the_caller_did_not_ask_for_reports() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal)
    terminal.mouse_reporting = False
    await until_status(terminal, task, "RETURN mark")
    assert "click" not in terminal.message  # the prompt offers what works
    terminal.push_bytes(f"\x1b[<0;{hand_card(0) + 2};{HAND_CARDS + 2}M")
    await asyncio.sleep(0)
    await terminal.until_waiting(task)
    assert terminal.screen.buffer[HAND_CARDS + 1][hand_card(0) + 1].fg != "brown"
    task.cancel()


@run_async
async def test_the_quit_dialog_and_the_help_are_answered_by_clicks_on_their_key_lines() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal)
    await until_status(terminal, task, "RETURN mark")
    await click(terminal, task, STATUS, where(terminal, "? help"))
    assert "PgUp back" in terminal.status
    await click(terminal, task, STATUS, where(terminal, "PgDn/RETURN next page") + 3)
    assert terminal.shows("Before each hand")  # the second page
    await click(terminal, task, STATUS, where(terminal, "PgUp back"))
    assert terminal.shows("Keys that work at any time")  # the first again
    terminal.press(Key.ESCAPE)  # any other key: back to the game
    await terminal.until_waiting(task)
    await click(terminal, task, STATUS, where(terminal, "q quit"))
    assert terminal.shows("Quit this game?")
    await click(terminal, task, STATUS, where(terminal, "N no"))
    assert not terminal.shows("Quit this game?")
    assert "RETURN mark" in terminal.status
    task.cancel()


async def wheel(terminal: KeyboardTerminal, task: asyncio.Future[Any], down: bool) -> None:
    """The wheel turned one notch over the middle of the screen, as xterm reports it."""
    terminal.pressed += 1
    terminal.push_bytes(f"\x1b[<{65 if down else 64};40;8M")
    await terminal.until_waiting(task)


@run_async
async def test_the_wheel_turns_the_help_pages_and_does_nothing_over_the_game() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal)
    await until_status(terminal, task, "RETURN mark")
    before = terminal.display
    await wheel(terminal, task, down=True)  # nothing scrolls in the discard
    assert terminal.display == before
    terminal.press("?")
    await terminal.until_waiting(task)
    assert terminal.shows("Keys that work at any time")
    await wheel(terminal, task, down=True)
    assert terminal.shows("Before each hand")  # the second page
    await wheel(terminal, task, down=False)
    assert terminal.shows("Keys that work at any time")  # the first again
    assert "PgUp back" in terminal.status  # still the help
    task.cancel()


@run_async
async def test_clicks_land_on_the_picture_centred_in_a_taller_window() -> None:
    # 80x30: the 24-row picture is sent 3 rows down (a phone held upright, a browser
    # window taller than wide enough for the side pane).
    terminal = KeyboardTerminal(80, 30)
    task = start(terminal)
    await until_status(terminal, task, "RETURN mark")
    top = terminal.top
    assert top == 3
    await click(terminal, task, top + HAND_CARDS + 1, hand_card(1) + 2)  # 3♣
    await click(terminal, task, top + HAND_LABELS, hand_card(4) + 1)  # 9♥, on its number
    assert "RETURN throws 3♣ 9♥ to Computer's crib" in terminal.message
    task.cancel()


@run_async
async def test_a_click_on_the_helps_any_other_key_goes_back_to_the_game() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal)
    await until_status(terminal, task, "RETURN mark")
    terminal.press("?")
    await terminal.until_waiting(task)
    assert "any other key: back to the game" in terminal.status
    await click(terminal, task, STATUS, where(terminal, "any other key") + 4)
    assert not terminal.shows("Keys that work at any time")
    assert "RETURN mark" in terminal.status
    task.cancel()


LOG_TOP, LOG_ROWS = 17, 4


def log_rows(terminal: KeyboardTerminal) -> list[str]:
    return [line.strip() for line in terminal.display[LOG_TOP : LOG_TOP + LOG_ROWS]]


@run_async
async def test_the_wheel_and_pgup_pgdn_scroll_the_log_and_an_answer_shows_the_newest() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal)
    await until_status(terminal, task, "RETURN play")
    newest = log_rows(terminal)
    await wheel(terminal, task, down=False)  # back: older lines, and a word on the newer
    back = log_rows(terminal)
    newer = re.fullmatch(r"\((\d) newer lines? below: PgDn or the wheel\)", back[-1])
    assert newer is not None, back
    # The lines before the newest, ending with the one before the newest shown first.
    assert back[:3] != newest[:3] and back[int(newer.group(1)) - 1] == newest[0], back
    terminal.press(Key.PGDN)
    await terminal.until_waiting(task)
    assert log_rows(terminal) == newest
    terminal.press(Key.PGUP)
    await terminal.until_waiting(task)
    assert log_rows(terminal) == back
    await wheel(terminal, task, down=True)
    assert log_rows(terminal) == newest
    await wheel(terminal, task, down=True)  # the newest already: nothing further
    assert log_rows(terminal) == newest
    await wheel(terminal, task, down=False)
    terminal.press(Key.RIGHT)  # an answer to the step: the newest again
    await terminal.until_waiting(task)
    assert log_rows(terminal) == newest
    task.cancel()


@run_async
async def test_the_tables_click_map_is_worked_out_once_a_click_comes_from_the_frame_sent(
    monkeypatch: Any,
) -> None:
    # Every frame of the table published its click map, worked out there, though most
    # frames are never clicked; the map is now worked out for the frame a click lands on.
    import door.screens.table_hits

    maps: list[int] = []
    counted = door.screens.table_hits.picture_top  # called once for each map worked out

    def picture_top(rows: int) -> int:
        maps.append(rows)
        return counted(rows)

    monkeypatch.setattr(door.screens.table_hits, "picture_top", picture_top)
    terminal = KeyboardTerminal()
    task = start(terminal)
    await until_status(terminal, task, "RETURN mark")
    assert maps == []  # the deal and the discard's frames: no click, no map
    await click(terminal, task, HAND_CARDS + 1, hand_card(1) + 2)  # 3♣, marked
    assert len(maps) == 1
    assert terminal.screen.buffer[HAND_CARDS + 1][hand_card(1) + 1].fg == "brown"
    await click(terminal, task, HAND_CARDS + 1, hand_card(1) + 2)  # on the frame since
    assert len(maps) == 2
    # Unmarked: the click was DEL, read from the frame that showed the card marked.
    assert terminal.screen.buffer[HAND_CARDS + 1][hand_card(1) + 1].fg != "brown"
    task.cancel()
