"""A line-reading client for the screen-reader mode: it reads what the door sends as
lines and types words back, as a caller with a screen reader does."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

from door.table.options import GameOptions
from door.table.solo import play_against_computer
from door.term.display import Display
from door.ui.session import Session
from tests.door.caller import KeyboardTerminal


def speech_terminal() -> KeyboardTerminal:
    terminal = KeyboardTerminal(term_type="xterm-256color")
    terminal.display_mode = Display.SPEECH
    return terminal


def sent(terminal: KeyboardTerminal) -> str:
    return bytes(terminal.output).decode("utf-8")


def start_game(terminal: KeyboardTerminal, seed: int = 5, **options: Any) -> asyncio.Future[Any]:
    """A game against the computer for ``terminal`` as a screen reader's caller."""
    session = Session(terminal)
    game_options = GameOptions(level="easy", **options)
    game = play_against_computer(session, game_options, "Ada", rng=random.Random(seed), pause=0)
    return asyncio.ensure_future(game)


def words_for(prompt: str, tried: int) -> str | None:
    """What the client types for the door's last line; ``tried`` cards refused so far
    in the play. None: the line asks for nothing (wait for more)."""
    if "Type play and a number" in prompt or "the count cannot pass 31" in prompt:
        return f"play {tried + 1}"
    if match := re.search(r"type throw and (\d) numbers?\.", prompt):
        return "throw " + " ".join(str(n) for n in range(1, int(match.group(1)) + 1))
    if "Cut the deck" in prompt:
        return "cut 7"
    if "Type count and the points" in prompt:
        return "count 0"
    if "Type yes or no" in prompt:
        return "no"
    if "Press RETURN" in prompt:
        return ""
    return None


async def play_in_words(
    terminal: KeyboardTerminal,
    task: asyncio.Future[Any],
    *,
    stop: str | None = None,
    since: int = 0,
    max_lines: int = 3000,
) -> None:
    """Answer the door's prompts with typed words until the game ends (or the door's
    output from ``since`` on holds ``stop``)."""
    seen = since
    tried = 0
    for _ in range(max_lines):
        await terminal.until_waiting(task)
        if task.done():
            return
        text = sent(terminal)
        if stop is not None and stop in text[since:]:
            return
        new = text[seen:]
        lines = new.rstrip().splitlines()
        typed = words_for(lines[-1], tried) if lines else None
        if typed is None:
            await asyncio.sleep(0.002)  # the door has more to say: the computer thinks
            continue
        seen = len(text)
        tried = tried + 1 if "the count cannot pass 31" in lines[-1] else 0
        terminal.press(typed + "\r")
    raise AssertionError("the game did not end")
