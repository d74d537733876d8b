"""The coach's review at the end of a member's game (one the door records), said to a
screen reader's caller (issue #50): the table says how many choices cost them something
and the word that reads them, and ``review`` reads each, cards in words."""

from __future__ import annotations

import asyncio
import random

from door.table.options import GameOptions
from door.table.solo import play_against_computer
from door.table.words import PLAY_AGAIN
from door.ui.session import Session
from engine.rules.record import RecordedGame
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.table.reader_client import play_in_words, sent, speech_terminal, words_for
from tests.door.table.test_reader import NOISE, typed
from tests.door.waiting import until

PLAY_AGAIN_SAID = PLAY_AGAIN.replace("Press y or n.", "Type yes or no.")


async def play_with_the_coach(
    terminal: KeyboardTerminal, task: asyncio.Future[object], since: int
) -> None:
    """Answer each prompt until the door asks to play again; the coach's sentences, said
    as it finishes weighing a choice (after the next prompt, at times), are not prompts."""
    seen, tried = since, 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while PLAY_AGAIN_SAID not in sent(terminal):
        assert loop.time() < deadline and not task.done(), sent(terminal)[-600:]
        await terminal.until_waiting(task)
        if PLAY_AGAIN_SAID in sent(terminal):
            return
        lines = [
            line
            for line in sent(terminal)[seen:].rstrip().splitlines()
            if not line.startswith("Coach")
        ]
        typed = words_for(lines[-1], tried) if lines else None
        if typed is None:
            await asyncio.sleep(0.005)
            continue
        seen = len(sent(terminal))
        tried = tried + 1 if "the count cannot pass 31" in lines[-1] else 0
        terminal.press(typed + "\r")


@run_async
async def test_a_members_coached_game_ends_with_the_coachs_review_said() -> None:
    terminal = speech_terminal()
    game = RecordedGame(seed=5)
    task = asyncio.ensure_future(
        play_against_computer(
            Session(terminal),
            GameOptions(level="easy"),
            "Ada",
            rng=random.Random(5),
            pause=0,
            game=game,
        )
    )
    await play_in_words(terminal, task, stop="type throw and 2 numbers")
    assert "Coach on" in await typed(terminal, task, "coach")
    since = len(sent(terminal))
    terminal.press("throw 1 2\r")
    await play_with_the_coach(terminal, task, since)
    await until(lambda: "Coach's review: " in sent(terminal), what="the coach's review")
    told = sent(terminal).split("Coach's review: ", 1)[1].split("\r\n", 1)[0]
    if "cost you something" in told:
        assert told.endswith("; type review to hear them."), told  # the word, not the key r
        review = await typed(terminal, task, "review")
        assert "Your costliest choices, worst first:\r\n1. Hand " in review  # a line each
        assert "\r\n2. Hand " in review or "1 choice cost" in told
        assert " of " in review and NOISE.search(review) is None, review  # cards in words
    else:
        assert told == "none of your choices cost anything."
    await typed(terminal, task, "no")
    await asyncio.wait_for(task, 10)
    assert NOISE.search(sent(terminal)) is None
