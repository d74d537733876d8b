"""Whole games against the computer through a fake terminal, checked on the screen the
caller sees (pyte)."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest

from door.table.flow import Table
from door.table.options import GameOptions, GameResult
from door.table.solo import play_against_computer
from door.term.ansi import CLEAR_SCREEN
from door.term.keys import Key
from door.term.terminal import Disconnected
from door.ui.session import Session
from engine import parse_cards, score_show
from engine.rules.game import Phase
from engine.rules.outcome import Outcome
from tests.door.caller import KeyboardTerminal, answer, play_through, run_async, screen_of
from tests.door.table.heard import Heard
from tests.stacked import StackedRandom

# Rows and columns of the game screen (see door/screens/layout.py).
PLAY_NUMBERS, PLAY_CARDS, HAND_LABELS, HAND_CARDS = 8, 9, 12, 13
CARDS_COL, STEP = 11, 6
SGR = re.compile(rb"\x1b\[[0-9;]*m")

# The caller cuts the ace and deals; everyone holds only ten-count cards, so every count
# goes 10, 20, 30 and then nobody can play, whatever the computer chooses.
ALL_TENS = ("AH KS", "TH TD TC TS JH JD QH QD QC QS KH KD")
# The computer cuts the ace and deals; the caller keeps 4S 7D 9H KS and cuts card 1, AH.
KNOWN_SHOW = ("KH AS", "2C 3C 9H KS 7D 4S QH QD QC QS KH KD AH")

# The computer deals; the caller keeps 5C 6C KD KH against ten-count cards, so after
# 6, 10 and K the count is 26: the five still plays, the king does not.
BLOCKED_KING = ("KS AS", "2C 3C 5C 6C KH KD QH QD QC QS JH JD 9S")


def start(
    terminal: KeyboardTerminal,
    rng: random.Random,
    *,
    counting: str = "auto",
    **kwargs: Any,
) -> asyncio.Task[GameResult]:
    options = GameOptions(counting=counting, level="easy")  # type: ignore[arg-type]
    game = play_against_computer(Session(terminal), options, "Alice", rng=rng, pause=0, **kwargs)
    return asyncio.ensure_future(game)


async def until_status(terminal: KeyboardTerminal, task: asyncio.Future[Any], words: str) -> None:
    await play_through(terminal, task, stop=lambda terminal: words in terminal.status)
    assert words in terminal.status, terminal.status


async def press(terminal: KeyboardTerminal, task: asyncio.Future[Any], *keys: Key | str) -> None:
    terminal.press(*keys)
    await terminal.until_waiting(task)


def hand_card(index: int) -> int:
    return CARDS_COL + index * STEP


def log_text(terminal: KeyboardTerminal) -> str:
    """The game log and chat window as one line (its lines wrap)."""
    return " ".join(line.strip() for line in terminal.display[17:21])


@run_async
async def test_the_discard_marks_cards_yellow_under_a_cyan_bar() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    assert terminal.display[HAND_CARDS + 1][hand_card(0) : hand_card(6) - 1] == (
        "│2♣ │ │3♣ │ │4♠ │ │7♦ │ │9♥ │ │K♠ │"
    )
    assert terminal.screen.buffer[HAND_LABELS][hand_card(0) + 2].bg == "cyan"

    await press(terminal, task, Key.ENTER)  # mark 2♣
    await press(terminal, task, "5")  # the bar jumps to the fifth card, 9♥
    two = terminal.screen.buffer[HAND_CARDS + 1][hand_card(0) + 1]
    assert (two.data, two.fg, two.bold, two.bg) == ("2", "brown", True, "default")
    labels = terminal.screen.buffer[HAND_LABELS]
    assert {labels[col].bg for col in range(hand_card(4), hand_card(4) + 5)} == {"cyan"}
    assert terminal.screen.buffer[HAND_LABELS][hand_card(0) + 2].bg == "default"
    assert (
        terminal.display[HAND_LABELS][hand_card(0) : hand_card(5) - 1]
        == " *1*    2     3     4   > 5 <"
    )

    await press(terminal, task, Key.ENTER)  # mark 9♥
    assert "RETURN throws 2♣ 9♥ to Computer's crib" in terminal.message
    assert terminal.status.startswith(" RETURN throw  DEL unmark")
    await press(terminal, task, Key.BACKSPACE)  # un-mark 9♥ again
    assert terminal.screen.buffer[HAND_CARDS + 1][hand_card(4) + 1].fg != "brown"
    await press(terminal, task, Key.LEFT, Key.LEFT, Key.LEFT, Key.ENTER)  # 3♣
    await press(terminal, task, Key.ENTER)  # confirm
    assert terminal.shows("You throw 2♣ 3♣ to Computer's crib.")
    assert terminal.display[HAND_CARDS + 1][hand_card(0) : hand_card(4) - 1] == (
        "│4♠ │ │7♦ │ │9♥ │ │K♠ │"
    )
    task.cancel()


@run_async
async def test_wrong_keys_are_answered_on_the_message_line() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    for key in ("z", Key.PGDN, "9", Key.INSERT, Key.TAB):
        await press(terminal, task, key)
        assert "RETURN mark" in terminal.status
        assert terminal.screen.buffer[22][1].fg == "red"
    assert "press 1 to 6" not in terminal.message  # the last message was about TAB
    await press(terminal, task, "9")
    assert terminal.message == "You hold 6 cards: press 1 to 6."
    await press(terminal, task, Key.DELETE)
    assert terminal.message.startswith("No card is marked")
    await press(terminal, task, Key.ENTER, Key.ENTER)
    assert terminal.message.startswith("That card is marked already")
    task.cancel()


@run_async
async def test_moving_the_bar_sends_a_small_fraction_of_a_full_repaint() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    sent = len(terminal.output)
    await press(terminal, task, Key.RIGHT)
    bar_move = len(terminal.output) - sent
    sent = len(terminal.output)
    await press(terminal, task, Key.CTRL_L)
    full = len(terminal.output) - sent
    assert CLEAR_SCREEN.encode() in terminal.output[sent:]
    assert bar_move < 300
    assert full > 10 * bar_move
    task.cancel()


@run_async
async def test_ctrl_l_restores_a_screen_garbled_by_line_noise() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    await press(terminal, task, Key.ENTER)
    before = list(terminal.display)
    colours = [(cell.fg, cell.bg) for cell in terminal.screen.buffer[HAND_CARDS + 1].values()]
    terminal.screen.reset()
    terminal.screen.draw("~~~ NO CARRIER ~~~ line noise")
    await press(terminal, task, Key.CTRL_L)
    assert terminal.display == before
    after = [(cell.fg, cell.bg) for cell in terminal.screen.buffer[HAND_CARDS + 1].values()]
    assert after == colours
    task.cancel()


@run_async
async def test_a_resize_repaints_the_whole_screen() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    before = list(terminal.display)
    terminal.screen.reset()
    terminal.resize(80, 24)
    assert terminal.display == before
    task.cancel()


@run_async
async def test_play_order_numbers_and_x_for_an_earlier_count_and_the_automatic_go() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*ALL_TENS))
    await until_status(terminal, task, "RETURN play")  # play 2: the computer led
    assert terminal.display[PLAY_NUMBERS][CARDS_COL : CARDS_COL + 5] == "  1  "
    await press(terminal, task, Key.ENTER)
    await until_status(terminal, task, "RETURN play")  # play 4, after 10-20-30 and a go
    assert "You cannot play: go. One for the go: Computer pegs 1." in log_text(terminal)
    assert terminal.display[PLAY_NUMBERS][CARDS_COL : CARDS_COL + 18] == "  x     x     x   "
    await press(terminal, task, Key.ENTER)
    await until_status(terminal, task, "RETURN play")  # play 6
    numbers = terminal.display[PLAY_NUMBERS][CARDS_COL : CARDS_COL + 5 * STEP]
    assert numbers.split() == ["x", "x", "x", "4", "5"]
    four = terminal.screen.buffer[PLAY_NUMBERS][hand_card(3) + 2]
    assert (four.data, four.fg) == ("4", "green")  # the caller's colour
    five = terminal.screen.buffer[PLAY_NUMBERS][hand_card(4) + 2]
    assert (five.data, five.fg) == ("5", "magenta")  # the computer's
    assert "Count" in terminal.display[PLAY_CARDS] and "20" in terminal.display[PLAY_CARDS + 1]
    task.cancel()


@run_async
async def test_the_key_bar_offers_no_moving_with_one_card_left() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*ALL_TENS))
    bars = []
    for _ in range(4):  # the caller's four plays, four cards to one
        await until_status(terminal, task, "RETURN play")
        bars.append(terminal.status.split("  c chat")[0].strip())
        await press(terminal, task, Key.ENTER)
    # Before: the last read "<- -> or 1-1 move  RETURN play".
    assert bars == [
        "<- -> or 1-4 move  RETURN play",
        "<- -> or 1-3 move  RETURN play",
        "<- -> or 1-2 move  RETURN play",
        "RETURN play",
    ]
    task.cancel()


@run_async
async def test_a_card_that_would_pass_31_is_dimmed_and_refused_with_the_reason() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*BLOCKED_KING))
    await until_status(terminal, task, "RETURN mark")
    await press(terminal, task, Key.ENTER, Key.RIGHT, Key.ENTER, Key.ENTER, "1", Key.ENTER)
    await until_status(terminal, task, "RETURN play")
    await press(terminal, task, "2", Key.ENTER)  # lead the six
    await until_status(terminal, task, "RETURN play")
    await press(terminal, task, "2", Key.ENTER)  # K♦ on the computer's ten: 26
    await until_status(terminal, task, "RETURN play")
    assert "cannot play: go." in log_text(terminal)
    assert "the count is 26" in terminal.message
    king = screen_of(terminal).buffer[HAND_CARDS + 1][hand_card(1) + 1]
    assert (king.data, king.fg, king.bold) == ("K", "black", True)  # dark grey
    await press(terminal, task, Key.RIGHT, Key.ENTER)
    assert terminal.message == "K♥ would make 36: the count cannot pass 31."
    await press(terminal, task, Key.LEFT, Key.ENTER)
    assert "You play 5♣ (count 31). Thirty-one for two: you peg 2." in log_text(terminal)
    task.cancel()


@run_async
async def test_the_computer_cuts_and_the_caller_sees_where() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*ALL_TENS))
    await until_status(terminal, task, "RETURN play")
    match = re.search(r"Computer cuts card (\d+): the starter is (\S+)\.", log_text(terminal))
    assert match and 1 <= int(match.group(1)) <= 40
    assert match.group(2) in terminal.display[PLAY_CARDS + 1]  # the starter, face up
    task.cancel()


@run_async
async def test_the_caller_cuts_by_number_and_the_show_explains_the_count() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    await press(terminal, task, Key.ENTER, Key.RIGHT, Key.ENTER, Key.ENTER)
    assert "RETURN cut" in terminal.status
    await press(terminal, task, "2", "9")
    assert terminal.display[21].startswith(" Cut the deck at card number (1-40): 29")
    chosen = terminal.screen.buffer[PLAY_CARDS][CARDS_COL + 28]
    assert (chosen.data, chosen.fg) == ("█", "cyan")
    await press(terminal, task, Key.BACKSPACE, Key.BACKSPACE, "1", Key.ENTER)
    assert terminal.shows("You cut card 1: the starter is A♥.")
    await until_status(terminal, task, "RETURN go on")
    assert terminal.display[PLAY_NUMBERS].startswith("  Your hand")
    assert terminal.display[PLAY_CARDS + 1][2:25] == "│4♠ │ │7♦ │ │9♥ │ │K♠ │"
    true = score_show(parse_cards("4S 7D 9H KS"), parse_cards("AH")[0]).total
    assert terminal.shows(f"Your hand counts {true} points.")
    assert terminal.shows("Fifteen two.")
    assert terminal.shows("fifteen A♥ 4♠ K♠ = 2")
    task.cancel()


@run_async
async def test_an_over_claim_in_manual_counting_is_muggins() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW), counting="manual")
    await until_status(terminal, task, "RETURN mark")
    await press(terminal, task, Key.ENTER, Key.RIGHT, Key.ENTER, Key.ENTER)
    await press(terminal, task, "1", Key.ENTER)
    await until_status(terminal, task, "your count")
    assert terminal.shows("Count your hand with the starter")
    assert not terminal.shows("Fifteen")  # no breakdown before the claim
    true = score_show(parse_cards("4S 7D 9H KS"), parse_cards("AH")[0]).total
    mine, theirs = terminal.score("Alice"), terminal.score("Computer")
    await press(terminal, task, "3", "0", Key.ENTER)  # 30 is no possible count
    assert terminal.message == "30 is not a possible count: a hand scores 0 to 29."
    await press(terminal, task, str(true + 7), Key.ENTER)
    assert terminal.shows(
        f"You said {true + 7}, but it counts {true}. Muggins! You score nothing and "
        f"Computer takes {true}."
    )
    muggins = terminal.find("Muggins!")
    assert muggins is not None
    assert terminal.screen.buffer[muggins[0]][muggins[1]].fg == "red"
    assert terminal.shows("fifteen A♥ 4♠ K♠ = 2")  # the full breakdown follows
    assert (terminal.score("Alice"), terminal.score("Computer")) == (mine, theirs + true)
    task.cancel()


@run_async
async def test_chat_before_the_deal_and_in_the_middle_of_the_discard() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await terminal.until_waiting(task)
    assert "blank line: deal" in terminal.status
    assert terminal.display[21].startswith(" Chat: ")
    assert terminal.shows("low card deals, Computer first.")
    await press(terminal, task, "hi there, q?", Key.ENTER)  # q and ? are text here
    assert terminal.shows("Alice: hi there, q?")
    assert re.search(r"Computer: \S", "\n".join(terminal.display[17:21]))
    await press(terminal, task, Key.ENTER)  # a blank line deals
    assert "RETURN mark" in terminal.status
    await press(terminal, task, Key.ENTER, "c")
    assert "RETURN send" in terminal.status
    await press(terminal, task, "nice cards", Key.ENTER)
    assert terminal.shows("Alice: nice cards")
    assert "RETURN mark" in terminal.status  # back where the caller was
    assert terminal.display[HAND_LABELS][hand_card(0) : hand_card(1) - 1] == ">*1*<"
    await press(terminal, task, "c", "never mind", Key.ESCAPE)
    assert not terminal.shows("never mind")
    task.cancel()


@run_async
async def test_help_pages_over_the_game_and_leaves_it_as_it_was() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    before = list(terminal.display)
    await press(terminal, task, "?")
    assert terminal.shows("Help: page 1 of 7")
    assert terminal.shows("CRIBBAGE DOOR HELP")  # from config/help.txt
    assert "PgDn" in terminal.status
    await press(terminal, task, Key.PGDN)
    assert terminal.shows("Help: page 2 of 7")
    assert terminal.shows("cyan highlight bar")
    await press(terminal, task, "x")
    assert terminal.display == before
    await press(terminal, task, Key.F1)
    assert terminal.shows("Help: page 1 of 7")
    task.cancel()


@run_async
async def test_help_text_can_be_given() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW), help_text="Ask the sysop.\n---\nPage two")
    await press(terminal, task, "?")
    assert terminal.shows("Help: page 1 of 2") and terminal.shows("Ask the sysop.")
    task.cancel()


@run_async
async def test_quitting_asks_first() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    await press(terminal, task, Key.ENTER, "q")
    assert terminal.shows("Quit this game?")
    await press(terminal, task, "n")
    assert not terminal.shows("Quit this game?")
    assert terminal.display[HAND_LABELS][hand_card(0) : hand_card(1) - 1] == ">*1*<"
    await press(terminal, task, Key.CTRL_C)
    assert terminal.shows("Quit this game?")
    await press(terminal, task, Key.ESCAPE)
    assert not terminal.shows("Quit this game?")
    await press(terminal, task, "Q", "y")
    result = await task
    assert result.quit and not result.caller_won and result.scores == (0, 0)
    # Leaving a game against the computer forfeits it, in the engine's own outcome.
    assert result.outcome == Outcome(1, (0, 0), (), forfeited_by=0)


@run_async
async def test_escape_on_the_blank_chat_line_gives_the_table_keys_before_the_deal() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "blank line: deal")
    assert "Esc table keys" in terminal.status  # the way out of the chat line is said
    await press(terminal, task, "h")
    assert terminal.shows("Chat: h")  # on the chat line, h is a letter
    await press(terminal, task, Key.ESCAPE, Key.ESCAPE)  # clears the line, then closes it
    assert not terminal.shows("Quit this game?")
    assert "RETURN deal  c chat  w win bar  h coach" in terminal.status
    await press(terminal, task, "h")  # the coach, before the first deal
    assert "Coach on" in log_text(terminal)
    await press(terminal, task, "x")
    assert "The 'x' key does nothing here: press RETURN to deal" in terminal.message
    await press(terminal, task, Key.ESCAPE)  # and Esc again asks to quit
    assert terminal.shows("Quit this game?")
    await press(terminal, task, "n", Key.ENTER)  # RETURN deals, the chat line closed
    assert "RETURN mark" in terminal.status
    task.cancel()


@run_async
async def test_a_dropped_line_ends_the_game_with_disconnected() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    terminal.hang_up()
    with pytest.raises(Disconnected):
        await task


async def full_game(term_type: str, seed: int) -> tuple[GameResult, KeyboardTerminal, list[Any]]:
    terminal = KeyboardTerminal(term_type=term_type)
    heard = Heard()
    results = heard.results
    task = start(terminal, random.Random(seed), listener=heard)
    steps = await play_through(terminal, task)
    return await task, terminal, [results, steps]


@pytest.mark.parametrize("term_type", ["xterm-256color", "ansi", "dumb"])
@run_async
async def test_a_full_game_to_121_with_the_keys_the_status_line_offers(term_type: str) -> None:
    result, terminal, (results, steps) = await full_game(term_type, seed=3)
    assert results == [result]
    assert not result.quit
    assert max(result.caller_score, result.computer_score) >= 121
    assert result.caller_won == (result.caller_score >= 121)
    winner_score = max(result.caller_score, result.computer_score)
    loser_score = min(result.caller_score, result.computer_score)
    assert result.skunk == (
        None if loser_score >= 91 else "skunk" if loser_score >= 61 else "double skunk"
    )
    headline = (
        f"You win, {winner_score} to {loser_score}!"
        if result.caller_won
        else f"Computer wins, {winner_score} to {loser_score}."
    )
    assert terminal.shows("Game over") and terminal.shows(headline)
    # The winner's front peg stands in the game hole at the left end of the inner lane.
    row = 3 if result.caller_won else 5
    assert terminal.display[row][2] in ("█", "#")
    assert steps > 50
    if term_type == "dumb":
        assert all(line.isascii() for line in terminal.display)
        assert not SGR.search(terminal.output)


@run_async
async def test_cp437_and_utf8_callers_see_the_same_screen() -> None:
    utf8 = await full_game("xterm", seed=8)
    cp437 = await full_game("syncterm", seed=8)
    assert cp437[0] == utf8[0]
    assert cp437[1].display == utf8[1].display
    assert len(cp437[1].output) < len(utf8[1].output)  # one byte a character


@run_async
async def test_play_again_starts_a_new_game_where_the_loser_deals() -> None:
    terminal = KeyboardTerminal()
    heard = Heard()
    results = heard.results
    task = start(terminal, random.Random(4), listener=heard)
    await play_through(terminal, task, stop=lambda terminal: "y play again" in terminal.status)
    await press(terminal, task, "y")
    assert len(results) == 1
    assert "blank line: deal" in terminal.status
    assert terminal.shows("Hand 1")
    loser_deals = "you deal" if results[0].caller_won is False else "Computer deals"
    assert loser_deals in terminal.message
    assert terminal.score("Alice") == terminal.score("Computer") == 0
    await press(terminal, task, Key.ESCAPE, Key.ESCAPE, "y")  # the chat line, then quit
    result = await task
    assert result.quit and (result.caller_score, result.computer_score) == (0, 0)


def test_the_scripted_caller_refuses_an_unknown_status() -> None:
    with pytest.raises(AssertionError):
        answer("nothing to press here")


@run_async
async def test_keys_typed_while_the_computer_thinks_do_not_answer_the_next_question() -> None:
    terminal = KeyboardTerminal()
    tables: list[Any] = []
    options = GameOptions(level="easy")
    task = asyncio.ensure_future(
        play_against_computer(
            Session(terminal),
            options,
            "Alice",
            rng=StackedRandom(*KNOWN_SHOW),
            pause=0.3,  # the computer takes its time over its throw
            on_table=tables.append,
        )
    )
    await until_status(terminal, task, "RETURN mark")
    await press(terminal, task, Key.ENTER, Key.RIGHT, Key.ENTER)
    assert "RETURN throw" in terminal.status
    # RETURN throws; "1" and RETURN are typed ahead, before the cut is asked.
    terminal.press(Key.ENTER, "1", Key.ENTER)
    await terminal.settle()
    await terminal.until_waiting(task)
    game = tables[0].game
    assert "RETURN cut" in terminal.status
    assert game.starter is None  # the typed-ahead "1" did not cut the deck
    assert terminal.dropped == 2
    await press(terminal, task, "3", Key.ENTER)  # keys pressed once it is asked do cut
    assert game.starter is not None
    task.cancel()


@run_async
async def test_a_card_number_past_the_deck_is_said_not_quietly_shortened() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    await press(terminal, task, Key.ENTER, Key.RIGHT, Key.ENTER, Key.ENTER)
    assert "RETURN cut" in terminal.status
    for typed in ("41", "99"):
        await press(terminal, task, *typed)
        assert terminal.message == f"There is no card {typed}: type a number from 1 to 40."
        assert terminal.display[21].rstrip().endswith("(1-40): __")  # nothing is picked
        await press(terminal, task, Key.ENTER)
        assert "First pick a card" in terminal.message  # and RETURN does not cut
    await press(terminal, task, "4", Key.ENTER)
    assert terminal.shows("You cut card 4")
    task.cancel()


@run_async
async def test_a_window_under_80x24_is_asked_to_grow_and_the_game_waits() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    terminal.resize(60, 20)
    await terminal.until_waiting(task)
    words = " ".join(" ".join(terminal.display).split())
    assert "Your window is 60x20. Cribbage Door needs at least 80x24" in words
    assert "The game waits for you." in words
    await press(terminal, task, Key.ENTER, Key.RIGHT, Key.ENTER, Key.ENTER)  # unseen: ignored
    terminal.resize(80, 24)
    await press(terminal, task, Key.CTRL_L)
    assert "RETURN mark" in terminal.status  # still the discard, nothing thrown
    assert terminal.display[HAND_CARDS + 1][hand_card(0) : hand_card(6) - 1] == (
        "│2♣ │ │3♣ │ │4♠ │ │7♦ │ │9♥ │ │K♠ │"
    )
    task.cancel()


@run_async
async def test_the_pause_after_the_pegging_s_last_card_says_the_play_is_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The last card down, the table pauses before the show: the message line said what
    # the computer's last turn left there ("Computer is playing..."), though nobody was.
    seen: list[str] = []
    pause = Table.pause

    async def noting_pause(table: Table[Any]) -> None:
        if table.game.phase is Phase.SHOW and not seen:
            seen.append(table.message)
        await pause(table)

    monkeypatch.setattr(Table, "pause", noting_pause)
    terminal = KeyboardTerminal()
    task = start(terminal, random.Random(5))
    await until_status(terminal, task, "RETURN go on")
    assert seen == ["The play is over: the hands are counted next."]
    task.cancel()
