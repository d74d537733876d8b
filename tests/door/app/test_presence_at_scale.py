"""Presence with a crowd: a burst of arrivals does not redraw every lobby per arrival,
and the list of who is on is sorted once per arrival, not once per lobby frame. A crowded
lobby's wakes are paced: a batch a turn of the loop, so keys are answered between the
batches, and the rounds further apart the more callers sit in the lobby, so the lobby's
redraws never take the whole worker (bench/load.py --think 60 with 1,200 callers in the
lobby: 81 % of the worker, and the playing callers' keys waited up to half a second
behind the rounds)."""

from __future__ import annotations

import asyncio
import random

from door.app.lobby_wakes import LOBBY_REDRAW_INTERVAL, SECONDS_A_LOBBY_REDRAW, WAKES_A_TURN
from door.app.presence import Presence


class _Line:
    woken = 0
    """Wakes of every line, in the order they came."""

    def __init__(self) -> None:
        self.wakes = 0

    @property
    def idle(self) -> float:
        return 0.0

    def wake(self) -> None:
        self.wakes += 1
        _Line.woken += 1

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


def _crowd(presence: Presence, count: int) -> list[_Line]:
    lines = [_Line() for _ in range(count)]
    for number, line in enumerate(lines):
        presence.join(f"Caller{number}", line)
    return lines


def test_a_crowded_lobby_is_woken_a_batch_a_turn_and_a_key_is_answered_between() -> None:
    async def scenario() -> tuple[int, list[int], list[_Line]]:
        presence = Presence("Sysop", random.Random(1))
        lines = _crowd(presence, 1_200)
        await asyncio.sleep(1_200 * SECONDS_A_LOBBY_REDRAW + LOBBY_REDRAW_INTERVAL)
        _Line.woken = 0
        for line in lines:
            line.wakes = 0
        presence.say(presence.members["caller0"], "hello")
        at_once = _Line.woken
        # A playing caller's key: a callback each turn of the loop, noting how many lobbies
        # were woken before it had its turn.
        seen: list[int] = []
        done = asyncio.get_running_loop().create_future()

        def key() -> None:
            seen.append(_Line.woken)
            if _Line.woken < 1_200 and len(seen) < 1_000:
                asyncio.get_running_loop().call_soon(key)
            else:
                done.set_result(None)

        asyncio.get_running_loop().call_soon(key)
        await done
        return at_once, seen, lines

    at_once, seen, lines = asyncio.run(scenario())
    assert at_once == WAKES_A_TURN  # the first batch at once: the lobby answers a change
    steps = [after - before for before, after in zip([at_once, *seen], seen, strict=False)]
    assert max(steps) <= WAKES_A_TURN  # never more than a batch between two turns
    assert seen[-1] == 1_200 and all(line.wakes == 1 for line in lines)  # each once


def test_rounds_come_further_apart_the_more_callers_sit_in_the_lobby() -> None:
    async def scenario(crowd: int, seconds: float) -> int:
        presence = Presence("Sysop", random.Random(1))
        lines = _crowd(presence, crowd)
        await asyncio.sleep(crowd * SECONDS_A_LOBBY_REDRAW + LOBBY_REDRAW_INTERVAL)
        watched = lines[0]
        watched.wakes = 0
        # A change every 10 ms (arrivals, chat, games) for ``seconds``.
        end = asyncio.get_running_loop().time() + seconds
        number = 0
        while asyncio.get_running_loop().time() < end:
            presence.say(presence.members["caller1"], f"line {number}")
            number += 1
            await asyncio.sleep(0.01)
        return watched.wakes

    few = asyncio.run(scenario(10, 1.0))
    many = asyncio.run(scenario(500, 1.5))  # a round every second with 500 in the lobby
    assert 8 <= few <= 11  # ten times a second for a small lobby, as before
    assert 1 <= many <= 2  # before: 15, each of them waking all 500


def test_a_caller_who_sat_down_before_their_turn_is_not_woken_and_no_change_is_lost() -> None:
    async def scenario() -> tuple[int, int, int]:
        presence = Presence("Sysop", random.Random(1))
        lines = _crowd(presence, 100)
        await asyncio.sleep(100 * SECONDS_A_LOBBY_REDRAW + LOBBY_REDRAW_INTERVAL)
        last = presence.members["caller99"]
        for line in lines:
            line.wakes = 0
        presence.say(presence.members["caller0"], "hello")  # a round begins
        presence.set_place(last, "playing the computer")  # before its batch's turn
        await asyncio.sleep(100 * SECONDS_A_LOBBY_REDRAW / 2)
        mid_round = lines[0].wakes
        # The place changed during the round: a round of its own follows the interval.
        await asyncio.sleep(100 * SECONDS_A_LOBBY_REDRAW + LOBBY_REDRAW_INTERVAL)
        return mid_round, lines[0].wakes, lines[-1].wakes

    mid_round, first_in_all, sat_down = asyncio.run(scenario())
    assert mid_round == 1
    assert first_in_all == 2  # the change made during the round was not lost
    assert sat_down == 0
