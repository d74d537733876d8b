import asyncio

import pytest

from door.term.idle import IdleGuardTerminal, IdleTimeout
from door.term.keys import Key
from tests.door.fake_terminal import FakeTerminal


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_idle_caller_is_warned_then_disconnected() -> None:
    async def scenario() -> list[str]:
        terminal = FakeTerminal()
        guard = IdleGuardTerminal(terminal, warn_after=0.05, hang_up_after=0.15)
        with pytest.raises(IdleTimeout):
            await guard.read_key()
        return terminal.display

    display = asyncio.run(scenario())
    screen = "\n".join(display)
    assert "Are you there?" in screen
    assert "goodbye" in screen


def test_a_key_after_the_warning_repaints_first_then_arrives() -> None:
    async def scenario() -> list[Key]:
        terminal = FakeTerminal()
        guard = IdleGuardTerminal(terminal, warn_after=0.05, hang_up_after=5)

        async def press_later() -> None:
            await asyncio.sleep(0.12)
            terminal.push_keys("x")

        task = asyncio.create_task(press_later())
        keys = [await guard.read_key(), await guard.read_key()]
        await task
        return keys

    assert asyncio.run(scenario()) == [Key.CTRL_L, Key.printable("x")]
