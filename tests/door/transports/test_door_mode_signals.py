"""``cribbage-door door`` stopped by a signal (the BBS or the machine going down): the
caller is told, their game is saved, and the door exits at once with 0."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from door.transports.door_mode import EXIT_OK
from tests.door.transports.test_console import STOP_WITHIN_SECONDS, into_the_play
from tests.door.transports.test_door_mode import FakeBbs


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_signal_ends_the_door_within_seconds_and_the_game_is_kept(
    tmp_path: Path, signum: signal.Signals
) -> None:
    async def scenario() -> tuple[int | None, float]:
        bbs = FakeBbs()
        caller = await bbs.accept_caller()
        door = await bbs.run_door(tmp_path)
        try:
            await caller.wait_for("Welcome, Ada!", timeout=30)
            await caller.wait_for("Press a key from the menu")
            await into_the_play(caller)
            loop = asyncio.get_running_loop()
            signalled = loop.time()
            door.send_signal(signum)
            await asyncio.wait_for(door.wait(), STOP_WITHIN_SECONDS + 10)
            took, code = loop.time() - signalled, door.returncode
            await caller.wait_for("closing this door")
        finally:
            if door.returncode is None:
                door.kill()
                await door.wait()

        again = FakeBbs()  # the caller calls the BBS again and opens the door
        caller = await again.accept_caller()
        door = await again.run_door(tmp_path)
        try:
            await caller.wait_for("Your saved game", timeout=30)
        finally:
            door.kill()
            await door.wait()
        return code, took

    code, took = asyncio.run(scenario())
    assert code == EXIT_OK and took < STOP_WITHIN_SECONDS, (code, took)
