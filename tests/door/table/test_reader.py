"""The screen-reader mode at a table (door/table/reader.py): a game against the computer
played to its end by typed words, its transcript free of anything a screen reader reads
as noise, and typed lines that answer nothing told why in one sentence."""

from __future__ import annotations

import asyncio
import random
import re

from door.table.admission import person_or_reader
from door.table.flow import Table
from door.table.options import GameOptions
from door.term.display import Display
from door.term.keys import Key
from door.ui.session import Session
from tests.door.caller import run_async
from tests.door.table.reader_client import (
    play_in_words,
    sent,
    speech_terminal,
    start_game,
)
from tests.door.waiting import until

NOISE = re.compile("[\x1b\u2500-\u259f♠♥♦♣]")
"""Escapes, box drawing and blocks, suit symbols: what a reader must never be sent."""


async def typed(terminal, task, line: str) -> str:  # type: ignore[no-untyped-def]
    """What the door sends back for ``line`` typed with RETURN."""
    await terminal.until_waiting(task)
    before = len(sent(terminal))
    terminal.press(line + "\r")
    await terminal.until_waiting(task)
    return sent(terminal)[before:]


@run_async
async def test_a_game_against_the_computer_is_played_to_its_end_in_words() -> None:
    terminal = speech_terminal()
    task = start_game(terminal)
    await play_in_words(terminal, task)
    result = await task
    assert result.outcome is not None and max(result.outcome.scores) == 121
    text = sent(terminal)
    assert NOISE.search(text) is None, NOISE.search(text)
    assert re.search(r"Your hand: 1 \w+ of \w+, 2 \w+ of \w+, ", text)
    assert "You win, 121 to" in text or "Computer wins, 121 to" in text
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")


@run_async
async def test_counting_by_hand_is_answered_with_count() -> None:
    terminal = speech_terminal()
    task = start_game(terminal, counting="manual")
    await play_in_words(terminal, task, stop="Computer's crib counts")
    text = sent(terminal)
    # The prompt names the cards to count; the client says 0 for every hand.
    assert re.search(r"Your hand: (\w+ of \w+, )+", text)
    assert "You said 0" in text or "You say 0" in text
    task.cancel()


@run_async
async def test_a_line_that_answers_nothing_gets_one_sentence_and_changes_nothing() -> None:
    terminal = speech_terminal()
    task = start_game(terminal)
    await play_in_words(terminal, task, stop="type throw and 2 numbers")
    assert (await typed(terminal, task, "throw 1")).strip() == (
        "throw 1\r\nGive 2 card numbers, from 1 to 6."
    )
    assert "Give each card once." in await typed(terminal, task, "throw 3 3")
    assert "'9' is not a number from 1 to 6." in await typed(terminal, task, "throw 1 9")
    assert "Type throw and 2 card numbers, such as throw 1 2." in await typed(
        terminal, task, "play 1"
    )
    assert "Type throw and 2" in await typed(terminal, task, "dance")
    hand = await typed(terminal, task, "hand")
    assert hand.count(" of ") == 6, hand  # still all six cards
    assert not task.done()
    task.cancel()


@run_async
async def test_words_that_work_at_any_time() -> None:
    terminal = speech_terminal()
    task = start_game(terminal)
    await play_in_words(terminal, task, stop="type throw and 2 numbers")
    assert "You 0, Computer 0, Computer deals." in await typed(terminal, task, "score")
    board = await typed(terminal, task, "board")
    assert "You are not yet on the board, 121 to go." in board
    assert "Hand 1: Computer deals." in await typed(terminal, task, "log")
    assert "Throw 2 cards to Computer's crib" in await typed(terminal, task, "repeat")
    assert "throw 2 5" in (await typed(terminal, task, "help")).replace("throw 1 2", "")
    chat = await typed(terminal, task, "say good luck")
    assert "You say: good luck" in chat and "Computer says: " in chat
    assert "Type say and what" in await typed(terminal, task, "say   ")
    assert "Leave the game?" in await typed(terminal, task, "quit")
    assert "You stay in the game." in await typed(terminal, task, "no")
    assert "Leave the game?" in await typed(terminal, task, "quit")
    await typed(terminal, task, "yes")
    result = await task
    assert result.quit


@run_async
async def test_a_speech_terminal_is_sent_no_escape_and_no_box() -> None:
    terminal = speech_terminal()
    terminal.write("\x1b[2J\x1b[1;1H┌──┐ hi █ ♠\r\n")
    assert bytes(terminal.output).decode() == "     hi    \r\n"


@run_async
async def test_a_session_turned_to_speech_sends_lines_from_then_on() -> None:
    terminal = speech_terminal()
    terminal.display_mode = Display.SCREEN
    session = Session(terminal)
    assert not session.speech and not session.lines
    session.use_speech()
    assert session.speech and session.lines
    session.write_text("\x1b[H╔═╗ Welcome")
    assert bytes(terminal.output).decode() == "    Welcome"


@run_async
async def test_bare_numbers_answer_the_step_and_the_line_is_edited_at_its_end() -> None:
    terminal = speech_terminal()
    task = start_game(terminal)
    await play_in_words(terminal, task, stop="type throw and 2 numbers")
    await terminal.until_waiting(task)
    before = len(sent(terminal))
    terminal.press("throw 9", Key.BACKSPACE, Key.LEFT, Key.HOME, Key.CTRL_U)
    await terminal.until_waiting(task)
    # Typed, one rubbed out, arrows ignored, the rest rubbed out: nothing left to obey.
    assert sent(terminal)[before:] == "throw 9" + "\b \b" + "\b \b" * 6
    thrown = await typed(terminal, task, "1 2")
    assert "You throw " in thrown and " to Computer's crib." in thrown
    assert "Cut the deck" in thrown or "Cut the deck" in sent(terminal)
    task.cancel()


@run_async
async def test_who_is_at_the_table_and_each_sides_chances_are_said_on_demand() -> None:
    terminal = speech_terminal()
    task = start_game(terminal)
    await play_in_words(terminal, task, stop="Type play and a number")
    assert "At the table: you, Computer." in await typed(terminal, task, "who")
    said = await typed(terminal, task, "chances")
    match = re.search(r"Chances to win: You (\d+) percent, Computer (\d+) percent\.", said)
    assert match, said
    assert 99 <= int(match.group(1)) + int(match.group(2)) <= 101
    task.cancel()


@run_async
async def test_a_line_too_long_rings_once_and_cards_in_chat_are_said_in_words() -> None:
    terminal = speech_terminal()
    task = start_game(terminal)
    await play_in_words(terminal, task, stop="type throw and 2 numbers")
    said = await typed(terminal, task, "say " + "A" * 200)
    assert said.count("\a") == 1
    assert "You say: " + "A" * 60 in said
    assert "You say: my 5♥ and 10♠" not in (
        said := await typed(terminal, task, "say my 5♥ and 10♠")
    )
    assert "You say: my five of hearts and ten of spades" in said
    task.cancel()


@run_async
async def test_the_next_game_is_told_as_the_first_shows_and_all() -> None:
    terminal = speech_terminal()
    task = start_game(terminal)
    await play_in_words(terminal, task, stop="Type yes or no")
    again = len(sent(terminal))
    terminal.press("yes\r")
    await play_in_words(terminal, task, stop="Press RETURN to go on to", since=again)
    second_game = sent(terminal)[again:]
    assert "A new game: the loser of the last one deals first." in second_game
    # The first show of the new game is said with its cards and its count in full.
    assert re.search(r"(Your|Computer's) hand: (\w+ of \w+, )+.*starter \w+ of \w+\.", second_game)
    task.cancel()


@run_async
async def test_the_log_says_what_happened_not_the_prompts() -> None:
    terminal = speech_terminal()
    task = start_game(terminal)
    await play_in_words(terminal, task, stop="Your turn, the count is 10")
    log = await typed(terminal, task, "log")
    assert "You play " in log or "Computer plays " in log
    assert "Type play and a number" not in log and "Press RETURN" not in log
    task.cancel()


@run_async
async def test_the_coach_weighs_each_choice_in_a_sentence() -> None:
    terminal = speech_terminal()
    task = start_game(terminal)
    await play_in_words(terminal, task, stop="type throw and 2 numbers")
    on = await typed(terminal, task, "coach")
    assert "Coach on: each choice is weighed against the best one (coach again: off)." in on
    assert "There is no review yet" in await typed(terminal, task, "review")
    mark = len(sent(terminal))
    terminal.press("throw 1 2\r")
    await until(lambda: "\r\nCoach: " in sent(terminal)[mark:])
    advice = sent(terminal)[mark:].split("\r\nCoach: ", 1)[1].split("\r\n", 1)[0]
    assert re.search(r"\w+ of \w+", advice), advice  # the cards in words
    assert NOISE.search(advice) is None and not re.search(r"\b[2-9TJQKA][SHDC]\b", advice)
    assert "Coach off." in await typed(terminal, task, "coach")
    task.cancel()


@run_async
async def test_a_match_says_its_score_between_games_and_goes_on_by_word() -> None:
    terminal = speech_terminal()
    task = start_game(terminal, seed=3, best_of=3)
    await play_in_words(terminal, task, stop="of the match? Type yes or no.")
    text = sent(terminal)
    assert re.search(r"(Ada|Computer) leads 1 to 0 in games, \d+ to \d+ in points\.", text)
    assert "On to game 2 of the match? Type yes or no." in text
    assert "Game 2 of the match" in await typed(terminal, task, "yes")
    task.cancel()


@run_async
async def test_a_watcher_hears_each_show_in_the_order_it_was_counted() -> None:
    # The computer playing itself counts a hand's shows one after another with nobody
    # to press RETURN between them: they were said the crib first and the pone's hand
    # last, each description put in front of what was waiting.
    terminal = speech_terminal()
    table = Table(
        GameOptions(level="easy"),
        [None, None],
        rng=random.Random(4),
        admit=person_or_reader,
        pause=0,
    )
    watcher = table.watch("Ada", Session(terminal))
    table.start()
    watching = asyncio.ensure_future(watcher.attend())  # type: ignore[attr-defined]
    await until(lambda: "Hand 3:" in sent(terminal), 30, what="two hands shown")
    text = sent(terminal)
    table.person_quit(watcher)
    watching.cancel()
    for number in (1, 2):
        hand = text[text.index(f"Hand {number}:") : text.index(f"Hand {number + 1}:")]
        dealer = re.search(r"Hand \d: (.+) deals\.", hand).group(1)  # type: ignore[union-attr]
        pone = next(name for name in table.names if name != dealer)
        told = re.findall(r"^(\S+(?: 2)?'s (?:hand|crib))(:| counts)", hand, re.MULTILINE)
        descriptions = [whose for whose, how in told if how == ":"]
        assert descriptions == [f"{pone}'s hand", f"{dealer}'s hand", f"{dealer}'s crib"], hand
        for whose in descriptions:  # each said before the line that gives its points
            assert hand.index(f"{whose}:") < hand.index(f"{whose} counts"), hand
