"""Callers in screen-reader mode among full-screen ones, without a network: the door of
tests/door/app/test_lobby.py (sessions on keyboard terminals sharing one Presence), with
some callers' terminals in ``Display.SPEECH`` reading lines and typing words back."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from typing import Final

from door.app.call import Caller, run_session
from door.term.display import Display
from tests.door.app.test_lobby import Callers
from tests.door.caller import KeyboardTerminal, answer_at_table
from tests.door.table.reader_client import sent, words_for

NOISE: Final = re.compile("[\x1b\u2500-\u259f♠♥♦♣]")
"""What a screen reader must never be sent: an escape (so no cursor movement or
clearing), box drawing and blocks, suit symbols."""


def call_reader(door: Callers, name: str) -> KeyboardTerminal:
    """``name`` calls the door with a screen reader (as after S at the arrival menu)."""
    terminal = KeyboardTerminal(term_type="xterm-256color")
    terminal.display_mode = Display.SPEECH
    door.seed += 1
    caller = Caller(name, "test")
    session = run_session(terminal, door.config, caller, random.Random(door.seed), door.presence)
    door.tasks.append(asyncio.ensure_future(session))
    return terminal


def waits(terminal: KeyboardTerminal) -> bool:
    """The door has read every key pressed and waits for the next."""
    return terminal.reading and terminal.read == terminal.pressed


class ReaderPlayer:
    """A screen reader's caller answering the door's prompts with typed words, from the
    byte ``since`` of what it was sent."""

    def __init__(self, terminal: KeyboardTerminal, since: int = 0) -> None:
        self.terminal = terminal
        self.seen = since
        self.tried = 0

    def act(self) -> bool:
        """Type what the last line asks for, if it asks for something; whether it did."""
        terminal = self.terminal
        if not waits(terminal):
            return False
        lines = sent(terminal)[self.seen :].rstrip().splitlines()
        typed = words_for(lines[-1], self.tried) if lines else None
        if typed is None:
            return False
        self.seen = len(sent(terminal))
        self.tried = self.tried + 1 if "the count cannot pass 31" in lines[-1] else 0
        terminal.press(typed + "\r")
        return True


async def play_mixed(
    screens: list[KeyboardTerminal],
    readers: list[ReaderPlayer],
    stop: Callable[[], bool],
    max_steps: int = 40000,
) -> None:
    """Full-screen callers press what their status lines ask, screen readers type what
    their prompts ask, until ``stop`` says so."""
    for _ in range(max_steps):
        if stop():
            return
        acted = False
        for terminal in screens:
            keys = answer_at_table(terminal.status) if waits(terminal) else None
            if keys:
                terminal.press(*keys)
                acted = True
        for reader in readers:
            acted = reader.act() or acted
        await asyncio.sleep(0 if acted else 0.002)
    raise AssertionError("the game did not end")
