"""Presence with a crowd: a burst of arrivals does not redraw every lobby per arrival,
and the list of who is on is sorted once per arrival, not once per lobby frame."""

from __future__ import annotations

import asyncio
import random

from door.app.lobby_wakes import LOBBY_REDRAW_INTERVAL, SECONDS_A_LOBBY_REDRAW
from door.app.presence import Presence


class _Line:
    def __init__(self) -> None:
        self.wakes = 0

    @property
    def idle(self) -> float:
        return 0.0

    def wake(self) -> None:
        self.wakes += 1

    async def hang_up(self, message: str) -> None:
        return None


def test_a_burst_of_arrivals_wakes_each_lobby_a_few_times_and_the_last_one_too() -> None:
    async def scenario() -> tuple[int, int, int]:
        presence = Presence("Sysop", random.Random(1))
        watcher = _Line()
        presence.join("Ada", watcher)
        # The pace of the rounds is what is measured here: these sleeps are the point.
        await asyncio.sleep(2 * LOBBY_REDRAW_INTERVAL)
        watcher.wakes = 0
        # 300 callers come in over 0.3 s: each arrival is a change for the lobby, whose
        # rounds of wakes come further apart as it fills (0.6 s with 300 in it).
        for number in range(300):
            presence.join(f"Caller{number}", _Line())
            await asyncio.sleep(0.001)
        during = watcher.wakes
        await asyncio.sleep(301 * SECONDS_A_LOBBY_REDRAW + LOBBY_REDRAW_INTERVAL)
        after = watcher.wakes
        await asyncio.sleep(301 * SECONDS_A_LOBBY_REDRAW + LOBBY_REDRAW_INTERVAL)
        presence.say(presence.members["ada"], "hello")  # once quiet, a change shows at once
        return during, after, watcher.wakes - after

    during, after, at_once = asyncio.run(scenario())
    assert 1 <= during <= 8  # (a few rounds, not 300)
    assert after == during + 1  # the changes since the last round are not lost
    assert at_once == 1


def test_the_list_of_who_is_on_is_sorted_again_only_when_someone_comes_or_goes() -> None:
    presence = Presence("Sysop", random.Random(1))
    for number in range(50):
        presence.join(f"Caller{number}", _Line())
    sysop = presence.join("Sysop", _Line(), sysop=True)
    first = presence.online()
    assert first[0] is sysop and [m.name for m in first[1:3]] == ["Caller0", "Caller1"]
    assert presence.online() is first  # nothing changed: the same list
    presence.set_place(first[5], "playing the computer")
    assert presence.online() is first  # a place is not an arrival
    presence.leave(first[1])
    now = presence.online()
    assert now is not first and first[1] not in now and len(now) == 50


def test_a_crowded_lobby_lists_a_page_of_who_is_on_and_counts_the_rest() -> None:
    from door.app.call import Caller, run_session
    from door.config import config_from_mapping
    from tests.door.app.test_lobby import in_lobby, screen
    from tests.door.caller import KeyboardTerminal

    async def scenario() -> str:
        presence = Presence("Sysop", random.Random(1))
        for number in range(40):
            presence.join(f"Caller{number}", _Line())
        terminal = KeyboardTerminal()
        config = config_from_mapping({"game": {"computer_pause_seconds": 0}})
        task = asyncio.ensure_future(
            run_session(terminal, config, Caller("Ada", "test"), random.Random(2), presence, None)
        )
        try:
            await in_lobby(terminal)
            return screen(terminal)
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    shown = asyncio.run(scenario())
    assert "Who is on (41)" in shown
    assert all(f"Caller{number} " in shown for number in range(6))
    assert "Caller6 " not in shown
    assert "... and 35 more" in shown
