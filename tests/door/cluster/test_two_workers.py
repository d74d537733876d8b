"""Two workers of one door, in one event loop, sharing a real Redis server and a real
store (SQLite): callers of each see one lobby and one chat, a challenge between them
becomes a game played to the end on one worker with the other caller's line relayed,
and a worker that dies without a word loses its callers from the other's lobby within
seconds while its game between members goes on, from the store, on the worker they
call back to."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import shutil
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from door.app.call import Caller
from door.app.door import Door
from door.app.records import Records
from door.cluster.link import MEMBER_TTL_SECONDS, SYNC_SECONDS
from door.config import Config, config_from_mapping
from door.serve import join_cluster
from door.storage.store import Account, Store
from door.storage.values import PlayerStats
from door.table.flow import Table
from door.term.keys import Key
from engine.rules.game import Phase
from tests.door.app.test_lobby import (
    challenge,
    flat,
    in_lobby,
    in_lobby_after_game,
    screen,
)
from tests.door.caller import KeyboardTerminal, play_together, run_async
from tests.door.cluster.conftest import until_port
from tests.door.netclients import free_port
from tests.door.storage.conftest import FAST_HASHER, Database
from tests.door.waiting import until


class Worker:
    """One worker: a Door with its link to the others, and its callers' sessions."""

    def __init__(self, door: Door) -> None:
        self.door = door
        self.sessions: list[asyncio.Task[None]] = []

    @property
    def presence(self):  # type: ignore[no-untyped-def]
        return self.door.presence

    def call(
        self, account: Account | None = None, name: str | None = None, *, sysop: bool = False
    ) -> KeyboardTerminal:
        terminal = KeyboardTerminal()
        caller = Caller(name, "test", account=account, sysop=sysop)
        self.sessions.append(asyncio.ensure_future(self.door.serve_caller(terminal, caller)))
        return terminal

    async def die(self) -> None:
        """As kill -9 would: nothing is said to Redis, nothing saved on the way out."""
        link = self.presence.cluster
        # A task may take its cancellation for trouble with Redis and go round again
        # (ClusterLink.close): its loops end on _closing, which says nothing to Redis.
        link._closing = True
        for task in link._tasks:
            task.cancel()
        for task in self.sessions:
            task.cancel()
        for table in list(self.presence.tables):
            table.close()
        await asyncio.gather(*link._tasks, *self.sessions, return_exceptions=True)
        await link._close_quietly()
        link._tasks.clear()

    async def stop(self) -> None:
        await self.door.shut_down()
        if self.presence.cluster is not None and self.presence.cluster._tasks:
            await self.presence.cluster.close()
        for task in self.sessions:
            task.cancel()
        await asyncio.gather(*self.sessions, return_exceptions=True)


def worker_config(redis_url: str) -> Config:
    return config_from_mapping(
        {
            "game": {"computer_pause_seconds": 0, "level": "easy"},
            "cluster": {"redis_url": redis_url},
        }
    )


@asynccontextmanager
async def two_workers(
    redis_url: str, database: Database | None = None, config: Config | None = None
) -> AsyncIterator[tuple[Worker, Worker, Store | None]]:
    store = None
    if database is not None:
        store = await Store.open(
            database.url, connect_args=database.connect_args, hasher=FAST_HASHER
        )
    config = config or worker_config(redis_url)
    workers = []
    for _ in range(2):
        door = Door(config, records=Records(store))
        await join_cluster(door, config)
        workers.append(Worker(door))
    try:
        yield workers[0], workers[1], store
    finally:
        for worker in workers:
            with contextlib.suppress(Exception):
                await worker.stop()
        if store is not None:
            await store.close()


async def ada_challenges_bob(
    first: Worker, second: Worker, store: Store
) -> tuple[KeyboardTerminal, KeyboardTerminal, Account, Account]:
    """Members Ada (at the first worker) and Bob (at the second); Ada challenges Bob and
    he accepts. Their terminals and accounts."""
    ada_account = await store.create_account("Ada", "correct horse")
    bob_account = await store.create_account("Bob", "battery staple")
    ada = first.call(ada_account)
    bob = second.call(bob_account)
    await in_lobby(ada, bob)
    await challenge(ada, bob)
    return ada, bob, ada_account, bob_account


async def bob_relayed_waiting_on_ada(
    first: Worker, second: Worker
) -> tuple[KeyboardTerminal, KeyboardTerminal, Table]:
    """Guests Ada (first worker, the table's) and Bob (second, relayed), at the point
    where the game waits on Ada alone."""
    ada = first.call(name="Ada")
    bob = second.call(name="Bob")
    await in_lobby(ada, bob)
    await until(lambda: "Bob" in screen(ada))
    await challenge(ada, bob)
    await until(lambda: bool(first.presence.tables))
    table = first.presence.tables[0]
    bobs = next(seat.index for seat in table.seats if seat.name == "Bob")
    await until(lambda: table.seats[bobs].person is not None, what="Bob seated, relayed")
    await play_together([bob], stop=lambda: bool(table.waits) and bobs not in table.waits)
    return ada, bob, table


async def a_game_under_way(
    first: Worker, second: Worker, store: Store
) -> tuple[KeyboardTerminal, KeyboardTerminal, Account, Account, Table]:
    """Ada and Bob (``ada_challenges_bob``) eight actions into their game, played on the
    first worker and in the store as it stands (the saver writes in the background)."""
    ada, bob, ada_account, bob_account = await ada_challenges_bob(first, second, store)
    await until(lambda: bool(first.presence.tables))
    table = first.presence.tables[0]
    await play_together([ada, bob], stop=lambda: len(table.game.recording.actions) >= 8)

    async def saved_as_it_stands() -> bool:
        saved = await store.load_unfinished_game(ada_account.id)
        played = table.game.recording.actions
        return saved is not None and len(saved.recording.actions) == len(played)

    await until(saved_as_it_stands, what="the game in the store as it stands")
    return ada, bob, ada_account, bob_account, table


@run_async
async def test_callers_of_two_workers_share_one_lobby_and_its_chat(redis_url: str) -> None:
    async with two_workers(redis_url) as (first, second, _):
        ada = first.call(name="Ada")
        bob = second.call(name="Bob")
        await in_lobby(ada, bob)
        await until(lambda: "Bob" in screen(ada) and "Ada" in screen(bob))
        ada.press("c", *"hello from one", "\r")
        await until(lambda: "Ada: hello from one" in screen(bob))
        # A name is one caller's across the cluster.
        other = second.call(name="Ada")
        await until(lambda: "online already" in screen(other))


@run_async
async def test_both_workers_lobbies_read_a_game_everyone_left(redis_url: str) -> None:
    # A game everyone left had no end line, where a game played out, forfeited or
    # claimed has one at every worker.
    async with two_workers(redis_url) as (first, second, _):
        ada, bob, table = await bob_relayed_waiting_on_ada(first, second)
        for caller in (bob, ada):  # Bob's line relayed to the table's worker
            caller.press(Key.CTRL_C)
            await until(lambda caller=caller: "the computer plays your seat" in flat(caller))
            caller.press("y")
        await until(lambda: table.over and table.abandoned)
        ended = "Ada vs Bob: the game was abandoned (everyone left)."
        for worker in (first, second):
            chat = worker.presence.chat
            await until(lambda chat=chat: any(line.text == ended for line in chat))


@run_async
async def test_a_challenge_across_workers_is_played_to_the_end_and_recorded(
    redis_url: str, database: Database
) -> None:
    async with two_workers(redis_url, database) as (first, second, store):
        assert store is not None
        ada, bob, ada_account, bob_account = await ada_challenges_bob(first, second, store)
        # The table is on Ada's worker; Bob's session goes on there, his line relayed.
        await until(lambda: bool(first.presence.tables) and "Hand 1" in screen(bob))
        table = first.presence.tables[0]
        assert not second.presence.tables
        assert [seat.account_id for seat in table.seats] == [ada_account.id, bob_account.id]
        await play_together([ada, bob], stop=lambda: table.over)
        await in_lobby_after_game(ada, bob)
        assert table.game.phase is Phase.OVER
        records = await games_recorded(store, ("Ada", "Bob"))
        assert sorted(r.total.wins for r in records) == [0, 1]


@run_async
async def test_a_relayed_caller_waiting_on_the_other_is_not_hung_up_at_either_worker(
    redis_url: str,
) -> None:
    config = worker_config(redis_url)
    quick = dataclasses.replace(config.server, idle_warning_seconds=1, idle_timeout_seconds=2)
    async with two_workers(redis_url, config=dataclasses.replace(config, server=quick)) as (
        first,
        second,
        _,
    ):
        ada, bob, table = await bob_relayed_waiting_on_ada(first, second)
        await asyncio.sleep(5)  # Ada thinks (and is hung up for it): 2.5 hang-ups
        (bobs_call,) = second.sessions
        assert not bobs_call.done()
        assert "Are you there?" not in screen(bob) and "goodbye" not in screen(bob)
        assert "Ada's line was closed: no key pressed" in flat(bob)


@run_async
async def test_a_dead_workers_callers_vanish_and_its_game_goes_on_from_the_store(
    redis_url: str, database: Database
) -> None:
    async with two_workers(redis_url, database) as (first, second, store):
        assert store is not None
        # Play into the first hand, then the table's worker dies.
        ada, bob, ada_account, bob_account, table = await a_game_under_way(first, second, store)
        actions = len(table.game.recording.actions)
        game_id = table.saved_as()
        loop = asyncio.get_running_loop()
        died = loop.time()
        await first.die()

        # Ada vanishes from the live worker's lobby within the expiry and one sync.
        await until(lambda: second.presence.find("Ada") is None, timeout=MEMBER_TTL_SECONDS + 5)
        vanished = loop.time() - died
        assert vanished <= MEMBER_TTL_SECONDS + 2 * SYNC_SECONDS + 1

        # Bob, whose line the live worker relayed to the dead one, carries on there: the
        # game is set again from the store where it stood, and waits for Ada.
        await until(lambda: bool(second.presence.tables), timeout=MEMBER_TTL_SECONDS + 8)
        resumed = second.presence.tables[0]
        assert resumed.saved_as() == game_id
        assert len(resumed.game.recording.actions) == actions
        assert resumed.names == table.names
        await until(lambda: "it goes on where it was saved" in flat(bob))
        # Ada calls back (to the live worker) and sits down again.
        ada_again = second.call(ada_account)
        await until(lambda: all(seat.person is not None for seat in resumed.seats))
        bob_again = bob
        await play_together([ada_again, bob_again], stop=lambda: resumed.over)
        await in_lobby_after_game(ada_again, bob_again)
        records = await games_recorded(store, ("Ada", "Bob"))
        assert sorted(r.total.wins for r in records) == [0, 1]


async def games_recorded(store: Store, handles: tuple[str, ...]) -> list[PlayerStats]:
    """Each handle's statistics once one finished game is written for every one of them
    (the saver writes in the background)."""
    records: list[PlayerStats | None] = []

    async def recorded() -> bool:
        records[:] = [await store.stats_for(handle) for handle in handles]
        return all(r is not None and r.total.games == 1 for r in records)

    await until(recorded, what=lambda: f"the game recorded: {records}")
    return [r for r in records if r is not None]


@run_async
async def test_a_caller_watches_a_game_played_at_the_other_worker(redis_url: str) -> None:
    async with two_workers(redis_url) as (first, second, _):
        ada = first.call(name="Ada")
        cy = second.call(name="Cy")
        await in_lobby(ada, cy)
        ada.press("p")
        await until(lambda: "playing" in second.presence.find("Ada").place, timeout=5)
        number = 1 + [m.name for m in second.presence.online()].index("Ada")
        cy.press("v", str(number))
        # Cy's line is relayed to Ada's worker, where Cy watches her table.
        await until(lambda: "You are watching Ada vs Computer" in flat(cy))
        table = first.presence.tables[0]
        assert [person.name for person in table.watchers] == ["Cy"]
        assert not second.presence.tables


@run_async
async def test_the_sysop_pages_a_caller_of_the_other_worker_into_a_private_chat(
    redis_url: str,
) -> None:
    async with two_workers(redis_url) as (first, second, _):
        sysop = first.call(name="Sysop", sysop=True)
        cy = second.call(name="Cy")
        await in_lobby(sysop, cy)
        await until(lambda: second.presence.find("Sysop") is not None, timeout=5)
        number = 1 + [m.name for m in first.presence.online()].index("Cy")
        sysop.press("o", str(number))
        # Cy is sent to the sysop's worker, and both are in one private chat there.
        await until(lambda: "pages Cy into chat" in flat(cy))
        await until(lambda: "pages Cy into chat" in flat(sysop))
        cy.press(*"hi sysop", "\r")
        await until(lambda: "hi sysop" in flat(sysop))


@run_async
async def test_the_workers_carry_on_through_a_redis_restart(tmp_path: Path) -> None:
    program = shutil.which("redis-server")
    if program is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    port = free_port()

    def start_redis() -> subprocess.Popen[bytes]:
        command = [program, "--port", str(port), "--save", "", "--dir", str(tmp_path)]
        return subprocess.Popen(command, stdout=subprocess.DEVNULL)

    redis = start_redis()
    await until_port(port)
    try:
        async with two_workers(f"redis://127.0.0.1:{port}/0") as (first, second, _):
            ada = first.call(name="Ada")
            bob = second.call(name="Bob")
            await in_lobby(ada, bob)
            await until(lambda: "Bob" in screen(ada))
            redis.terminate()
            redis.wait()
            await asyncio.sleep(2 * SYNC_SECONDS)  # the point: an outage of two syncs
            # Nothing reaches the other worker, but nobody is dropped or thrown out.
            assert "Bob" in screen(ada) and first.presence.find("Ada") is not None
            redis = start_redis()
            await until_port(port)
            # A caller arriving at one worker shows at the other once the links are back
            # (its heartbeat), and the chat flows again (each resubscribes on its own).
            carl = second.call(name="Carl")
            await in_lobby(carl)
            await until(lambda: "Carl" in screen(ada), timeout=10)
            # The link says nothing when its chat subscription is back: a second for it.
            await asyncio.sleep(1.0)
            ada.press("c", *"after the restart", "\r")
            await until(lambda: "Ada: after the restart" in flat(bob), timeout=10)
    finally:
        redis.terminate()
        redis.wait()


@run_async
async def test_a_worker_stopped_by_the_sysop_hands_its_relayed_callers_back(
    redis_url: str, database: Database
) -> None:
    async with two_workers(redis_url, database) as (first, second, store):
        assert store is not None
        ada, bob, ada_account, _, table = await a_game_under_way(first, second, store)
        actions = len(table.game.recording.actions)
        loop = asyncio.get_running_loop()
        stopped = loop.time()
        await first.stop()  # SIGTERM to one worker: a rolling restart, say
        # Ada (the stopping worker's own caller) is told; Bob, relayed from the second
        # worker, carries on there at once, the game set again where it stood.
        assert "shutting the door down" in flat(ada)
        await until(lambda: bool(second.presence.tables), timeout=5)
        resumed = second.presence.tables[0]
        assert len(resumed.game.recording.actions) == actions
        await until(lambda: "it goes on where it was saved" in flat(bob))
        assert loop.time() - stopped < 3.0
        ada_again = second.call(ada_account)
        await until(lambda: all(seat.person is not None for seat in resumed.seats))
        await play_together([ada_again, bob], stop=lambda: resumed.over)


@run_async
async def test_a_stopping_worker_saves_and_lets_go_of_a_game_before_handing_its_caller_back(
    redis_url: str, database: Database
) -> None:
    """Bob's worker sets the game again while the stopping worker is still in the
    cluster: it was let go of, not left to expire, and the last move before the stop
    is in it (nobody waited for the saver)."""
    async with two_workers(redis_url, database) as (first, second, store):
        assert store is not None
        _, bob, _, _, table = await a_game_under_way(first, second, store)
        actions = len(table.game.recording.actions)
        await first.door.shut_down()  # its link to the other workers is still up
        assert first.presence.cluster.worker in second.presence.cluster.alive
        await until(lambda: bool(second.presence.tables), timeout=1.5)
        assert len(second.presence.tables[0].game.recording.actions) == actions
        await until(lambda: "it goes on where it was saved" in flat(bob))


@run_async
async def test_wrong_passwords_count_at_every_worker(redis_url: str) -> None:
    async with two_workers(redis_url) as (first, second, _):
        for _ in range(6):
            first.door.records.logins.failed("ada", "203.0.113.9")
        # The other worker makes the next try from that address wait as long.
        await until(
            lambda: (
                second.door.records.logins.delay("ada", "203.0.113.9")
                == first.door.records.logins.delay("ada", "203.0.113.9")
                > 0
            ),
            timeout=5,
        )
        first.door.records.logins.succeeded("ada", "203.0.113.9")
        await until(lambda: second.door.records.logins.delay("ada", "203.0.113.9") == 0, timeout=5)


@run_async
async def test_a_guest_back_from_a_dead_worker_is_not_told_their_game_goes_on(
    redis_url: str, database: Database
) -> None:
    """A guest's game is never kept, so nothing sets it again: by hand, a guest whose
    table's worker was killed read "it goes on here where it was saved" in the lobby."""
    async with two_workers(redis_url, database) as (first, second, store):
        assert store is not None
        ada = first.call(await store.create_account("Ada", "correct horse"))
        gus = second.call(name="Gus")
        await in_lobby(ada, gus)
        await until(lambda: "Gus" in screen(ada))
        await challenge(ada, gus)
        await until(lambda: bool(first.presence.tables))
        table = first.presence.tables[0]
        await play_together([ada, gus], stop=lambda: len(table.game.recording.actions) >= 8)
        await first.die()
        await until(lambda: "process holding your game stopped" in flat(gus), timeout=15)
        assert "a guest's games are not kept, so it is over" in flat(gus)
        assert "where it was saved" not in flat(gus)


class TouchTerminal(KeyboardTerminal):
    """A web page's terminal on a touch screen, as the session sees it: told the keys on
    offer, it sends them with its next flush (as door/transports/web.py's sink does)."""

    def __init__(self) -> None:
        super().__init__()
        self.offered: list[list[str]] = []
        self._offers: list[str] | None = None

    def offer_keys(self, offers: Any) -> None:
        self._offers = [offer.label for offer in offers]

    async def flush(self) -> None:
        await super().flush()
        if self._offers is not None:
            self.offered.append(self._offers)
            self._offers = None


@run_async
async def test_a_relayed_touch_callers_page_is_told_the_keys_the_table_offers(
    redis_url: str,
) -> None:
    # Before: the relay carried bytes only, so Bob's page kept his lobby's keys (c ? q)
    # through the whole game at the other worker.
    async with two_workers(redis_url) as (first, second, _):
        ada = first.call(name="Ada")
        bob = TouchTerminal()
        caller = Caller("Bob", "test", touch=True)
        second.sessions.append(asyncio.ensure_future(second.door.serve_caller(bob, caller)))
        await in_lobby(ada, bob)
        await until(lambda: bool(bob.offered), what="the lobby's keys offered")
        assert bob.offered[-1] == ["c", "?", "q"]
        await until(lambda: "Bob" in screen(ada))
        await challenge(ada, bob)
        await until(lambda: bool(first.presence.tables))
        table = first.presence.tables[0]
        bobs = next(seat.index for seat in table.seats if seat.name == "Bob")
        both = (ada, bob)
        await until(lambda: any("blank line: deal" in t.status for t in both), what="a deal")
        next(t for t in both if "blank line: deal" in t.status).press(Key.ENTER)
        await until(lambda: "RETURN mark" in bob.status, what="Bob's throw")
        assert table.seats[bobs].person is not None  # his session is at Ada's worker
        throw = ["<-", "->", "RETURN", "DEL", "c", "?", "q"]
        await until(lambda: bob.offered[-1] == throw, what=f"{throw} offered, relayed")
