"""What the idle warning says to each display (door/term/idle.py's ``_warn``): a
screen reader's caller types whole lines, and hears a bell as noise."""

from __future__ import annotations

import asyncio

import pytest

from door.term.display import Display
from door.term.idle import IdleGuardTerminal, IdleTimeout
from tests.door.fake_terminal import FakeTerminal


def warned(display: Display) -> bytes:
    """What a caller on ``display`` is sent from the warning up to the goodbye."""

    async def scenario() -> bytes:
        terminal = FakeTerminal(term_type="dumb")
        terminal.display_mode = display
        guard = IdleGuardTerminal(terminal, warn_after=0.05, hang_up_after=0.15)
        with pytest.raises(IdleTimeout):
            await guard.read_key()
        return bytes(terminal.output)

    sent = asyncio.run(scenario())
    return sent[: sent.index(b"No key pressed")]


def test_a_screen_readers_caller_is_asked_for_a_line_and_gets_no_bell() -> None:
    # It was "\a ... Press a key within ...": a key alone sends nothing from a client
    # that sends lines, and the bell was read out as "control G".
    sent = warned(Display.SPEECH)
    assert b"\a" not in sent and b"\x1b" not in sent
    assert b"Type something and press RETURN within" in sent and b"Press a key" not in sent


def test_a_teletype_still_rings_and_is_asked_for_a_key() -> None:
    sent = warned(Display.LINES)
    assert sent.startswith(b"\a") and b"Press a key within" in sent
