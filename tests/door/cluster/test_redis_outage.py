"""Redis killed and started again empty under a game between callers of two workers: the
relay and the claims are set up again, not torn down, and the game goes on. The workers
are two Doors in one event loop (tests/door/cluster/test_two_workers.py) on a real
``redis-server`` of the test's own, killed with SIGKILL and started again on its port with
nothing kept."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
from collections.abc import Callable, Coroutine
from typing import Any

from door.cluster.link import MEMBER_TTL_SECONDS, RETURN_GRACE_SECONDS, SYNC_SECONDS
from door.config import Config
from door.table.flow import Table
from door.term.keys import Key
from engine.rules.game import Phase
from tests.door.app.test_lobby import flat, log_text, screen
from tests.door.caller import KeyboardTerminal, answer_at_table, play_together
from tests.door.cluster.conftest import RedisProcess
from tests.door.cluster.test_two_workers import (
    a_game_under_way,
    bob_relayed_waiting_on_ada,
    two_workers,
    worker_config,
)
from tests.door.storage.conftest import Database
from tests.door.waiting import until

OUTAGE_SECONDS = 10.0
"""How long Redis stays down: what the attack of issue #52 did."""
BACK_WITHIN_SECONDS = 5.0
"""Table chat crosses between the workers again this soon after Redis is back."""


def run_async_for(seconds: float) -> Callable[..., Callable[..., None]]:
    def wrap(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
        @functools.wraps(test)
        def run(*args: Any, **kwargs: Any) -> None:
            asyncio.run(asyncio.wait_for(test(*args, **kwargs), seconds))

        return run

    return wrap


async def say_at_table(terminal: KeyboardTerminal, text: str) -> None:
    """Chat at the table: straight onto the chat line before a hand, else after ``c``."""
    await until(lambda: terminal.reading and terminal.read == terminal.pressed)
    if "Esc table keys" in terminal.status:  # the chat line is open before a hand
        terminal.press(text, Key.ENTER)
    else:
        terminal.press("c", text, Key.ENTER)


async def reaches(terminal: KeyboardTerminal, line: str, within: float = 10.0) -> None:
    """Until ``line`` shows in the game log of ``terminal``; the screen, if it never does."""
    await until(
        lambda: line in log_text(terminal),
        within,
        what=lambda: f"{line!r} in the log; the screen:\n" + "\n".join(terminal.display),
    )


async def play_on(ada: KeyboardTerminal, bob: KeyboardTerminal, table: Table, actions: int) -> None:
    """Both press what their screens ask for ``actions`` more actions (which need both
    callers' keys), and on to a discard that neither has begun: they stop there with no
    key on its way. Both screens show the table's chat then, and Ada has a throw to make."""
    goal = len(table.game.recording.actions) + actions
    callers = (ada, bob)
    for _ in range(20_000):
        assert not table.over  # still at the table, whose game goes on
        game = table.game
        at_discard = (
            len(game.recording.actions) >= goal
            and game.phase is Phase.DISCARD
            and not any(game.has_discarded(seat) for seat in (0, 1))
        )
        ready = [t for t in callers if t.reading and t.read == t.pressed]
        held = [t for t in ready if at_discard and "RETURN mark" in t.status]
        if len(held) == len(callers):
            return
        for terminal in ready:
            keys = answer_at_table(terminal.status)
            if keys and terminal not in held:
                terminal.press(*keys)
        await asyncio.sleep(0.005)
    raise AssertionError("the game never came to a discard")


@run_async_for(120)
async def test_a_game_across_workers_goes_on_after_redis_is_killed_and_started_empty(
    redis_process: RedisProcess, database: Database
) -> None:
    await redis_process.start()
    async with two_workers(redis_process.url, database) as (first, second, store):
        assert store is not None
        ada, bob, _, _, table = await a_game_under_way(first, second, store)
        await play_on(ada, bob, table, actions=0)
        bob_at_table = table.seats[1].person
        assert bob_at_table is not None
        redis_process.kill()
        # Meanwhile Ada throws to the crib at the table's worker, hers: what it sends to
        # Bob's screen about it is lost.
        loop = asyncio.get_running_loop()
        killed = loop.time()
        await play_together([ada], stop=lambda: table.game.has_discarded(0))
        assert "Ada holds 6" in flat(bob)
        await asyncio.sleep(killed + OUTAGE_SECONDS - loop.time())
        await redis_process.start()
        back = loop.time()
        # The first worker reads who is alive before either has written its heartbeat
        # again, as the first worker back does when the workers are processes of their own.
        await first.presence.cluster.sync()

        # Bob's screen is brought up to date without his pressing a key.
        await until(
            lambda: "Ada holds 4" in flat(bob),
            BACK_WITHIN_SECONDS,
            what=lambda: "Bob's screen brought up to date:\n" + "\n".join(bob.display),
        )
        # Table chat crosses both ways: Ada's line reaches Bob's screen (relayed from the
        # first worker), and Bob's keys reach the table (relayed to it).
        await say_at_table(ada, "ada after the outage")
        await reaches(bob, "Ada: ada after the outage", BACK_WITHIN_SECONDS)
        await say_at_table(bob, "bob after the outage")
        await reaches(ada, "Bob: bob after the outage", BACK_WITHIN_SECONDS - (loop.time() - back))

        # Both keep playing the same game, at the same table: nobody was dropped, put
        # back in a lobby or sent away.
        assert first.presence.tables == [table] and not second.presence.tables
        assert table.seats[1].person is bob_at_table and not bob_at_table.left
        # They play on (more actions need both callers' keys: each presses what their
        # screen asks), wait past the time a worker is given to write its heartbeat
        # again, and chat and play on again.
        await play_on(ada, bob, table, actions=4)
        await asyncio.sleep(back + MEMBER_TTL_SECONDS + 2 * SYNC_SECONDS - loop.time())
        await say_at_table(bob, "bob later on")
        await reaches(ada, "Bob: bob later on")
        await say_at_table(ada, "ada later on")
        await reaches(bob, "Ada: ada later on")
        await play_on(ada, bob, table, actions=4)
        assert first.presence.tables == [table] and not second.presence.tables
        assert table.seats[1].person is bob_at_table and not bob_at_table.left


@run_async_for(120)
async def test_a_worker_that_died_while_redis_was_away_is_gone_once_redis_is_back(
    redis_process: RedisProcess, database: Database
) -> None:
    """The grace after Redis comes back is only that: a worker that wrote no heartbeat
    since (it died while Redis was away) is gone once it is over, and its relayed
    caller carries on at their own worker, the game set again from the store."""
    await redis_process.start()
    async with two_workers(redis_process.url, database) as (first, second, store):
        assert store is not None
        _, bob, _, _, table = await a_game_under_way(first, second, store)
        actions = len(table.game.recording.actions)
        redis_process.kill()
        await first.die()
        await asyncio.sleep(3.0)  # the point: the worker dies while Redis is away
        await redis_process.start()
        loop = asyncio.get_running_loop()
        back = loop.time()
        await until(lambda: bool(second.presence.tables), timeout=MEMBER_TTL_SECONDS + 10)
        assert loop.time() - back >= RETURN_GRACE_SECONDS - 0.5  # not before the grace
        assert loop.time() - back <= RETURN_GRACE_SECONDS + 2 * SYNC_SECONDS + 2
        assert len(second.presence.tables[0].game.recording.actions) == actions
        await until(lambda: "it goes on where it was saved" in flat(bob))


def quick_guard(redis_url: str, hang_up: float = 4) -> Config:
    """Idle guards that warn after 2 s and hang up after ``hang_up`` s."""
    config = worker_config(redis_url)
    quick = dataclasses.replace(config.server, idle_warning_seconds=2, idle_timeout_seconds=hang_up)
    return dataclasses.replace(config, server=quick)


@run_async_for(90)
async def test_a_relayed_caller_who_walks_away_while_redis_is_down_is_hung_up_at_home(
    redis_process: RedisProcess,
) -> None:
    # Before: the relay carried Bob's line under his own worker's guard, and the guard
    # at the table's worker, which hangs him up, could not reach him: he sat for ever.
    await redis_process.start()
    async with two_workers(redis_process.url, config=quick_guard(redis_process.url)) as (
        first,
        second,
        _,
    ):
        _, bob, _ = await bob_relayed_waiting_on_ada(first, second)
        (bobs_call,) = second.sessions
        await asyncio.sleep(5)  # Redis up: the table waits on Ada, Bob is not idle
        assert not bobs_call.done() and "Are you there?" not in screen(bob)
        redis_process.kill()
        loop = asyncio.get_running_loop()
        killed = loop.time()
        await until(lambda: "Are you there?" in screen(bob), 15, what="Bob warned at home")
        await until(bobs_call.done, 15, what="Bob hung up at his own worker")
        assert loop.time() - killed >= 4 * 0.9
        assert "goodbye" in bytes(bob.output).decode()


@run_async_for(90)
async def test_a_relay_whose_far_session_ended_while_redis_was_down_ends_once_it_is_back(
    redis_process: RedisProcess,
) -> None:
    await redis_process.start()
    async with two_workers(redis_process.url) as (first, second, _):
        _, bob, table = await bob_relayed_waiting_on_ada(first, second)
        (bobs_call,) = second.sessions
        bob_at_table = next(s.person for s in table.seats if s.name == "Bob")
        assert bob_at_table is not None, [(s.name, s.person, s.away) for s in table.seats]
        redis_process.kill()
        await until(lambda: not first.presence.cluster.reachable, 15)
        # His session at the table's worker ends (hung up there, say): the close is lost.
        bob_at_table.session.terminal.close()
        await until(lambda: table.seats[1].person is None or table.seats[0].person is None)
        await asyncio.sleep(1)
        await redis_process.start()
        await first.presence.cluster.sync()
        # Before: his worker relayed his keys to a session that was no more, for ever.
        await until(lambda: second.presence.cluster.reachable, 15)
        bob.press(Key.CTRL_L)
        await until(bobs_call.done, 15, what="Bob's relay ended")


@run_async_for(120)
async def test_a_relayed_callers_warning_is_withdrawn_once_redis_is_back(
    redis_process: RedisProcess,
) -> None:
    # Before: the warning given at home while Redis was down stood until Bob pressed a
    # key, though nothing counted against him once it was back: a second outage hung him
    # up with no fresh warning (checked on the old code: goodbye, and no "Are you there?").
    await redis_process.start()
    config = quick_guard(redis_process.url, hang_up=HANG_UP_AFTER)
    async with two_workers(redis_process.url, config=config) as (first, second, _):
        _, bob, _ = await bob_relayed_waiting_on_ada(first, second)
        (bobs_call,) = second.sessions
        redis_process.kill()
        await until(lambda: "Are you there?" in screen(bob), 15, what="Bob warned at home")
        await redis_process.start()
        await until(lambda: second.presence.cluster.reachable, 5, what="Redis back")
        await until(lambda: "Are you there?" not in screen(bob), 10, what="the warning gone")
        await asyncio.sleep(HANG_UP_AFTER + 1)  # nothing counts: no warning, no hang-up
        assert "Are you there?" not in screen(bob), screen(bob)
        assert not bobs_call.done()
        mark = len(bob.output)
        redis_process.kill()  # a second outage: warned again before the hang-up
        await until(lambda: not second.presence.cluster.reachable, 15, what="Redis lost")
        await until(bobs_call.done, HANG_UP_AFTER + 10, what="Bob hung up at his worker")
        said = bytes(bob.output[mark:]).decode()
        assert "Are you there?" in said.split("goodbye")[0], said[-400:]


HANG_UP_AFTER = 8.0
"""Long enough after the warning (at 2 s) for Redis to be started again and heard."""
