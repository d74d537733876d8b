"""Bans and mutes across workers (door/cluster/moderation.py): ``ban add`` from the shell
turns an address away from ``serve --workers 2`` within 10 s, on whichever worker its
callers are; a ban or mute made at one worker is in force at the other at once, by the
cluster link, not at its next look at the store; a caller muted at their worker is refused
at a table the other worker holds."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from pathlib import Path

from door.app.moderation import REFRESH_SECONDS
from door.storage.store import Store
from door.term.keys import Key
from tests.door.app.test_lobby import log_text, screen
from tests.door.app.test_moderation import TelnetCallerFrom, cribbage_door
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.cluster.conftest import redis_server, redis_url  # noqa: F401 (fixtures)
from tests.door.cluster.test_two_workers import ada_challenges_bob, two_workers
from tests.door.metrics.test_workers import door_running
from tests.door.storage.conftest import Database
from tests.door.waiting import until

TOLD = "Your address is banned from this door: spamming the lobby (for good)."


@run_async
async def test_ban_add_turns_the_address_away_from_both_workers_within_10_s(
    tmp_path: Path,
    redis_url: str,  # noqa: F811
) -> None:
    with door_running(tmp_path, redis_url) as door:
        port = door.ports["telnet"]
        spammers, others = [], []
        deadline = time.monotonic() + 60
        while True:  # until both workers have started listening
            try:
                probe = TelnetCallerFrom("127.0.0.3")
                await probe.connect(port)
                await probe.wait_for("G guest")
                probe.hang_up()
                break
            except (OSError, AssertionError):
                if time.monotonic() > deadline:
                    raise AssertionError(door.log.read_text()) from None
                await asyncio.sleep(0.5)
        # Three callers from each address (each worker allows 4 at once from one): the
        # kernel spreads them over the two workers.
        for _ in range(3):
            for source, callers in (("127.0.0.2", spammers), ("127.0.0.3", others)):
                caller = TelnetCallerFrom(source)
                await caller.connect(port)
                await caller.wait_for("G guest")
                callers.append(caller)
        status, output = await cribbage_door(
            "ban", "add", "127.0.0.2", "--reason", "spamming the lobby",
            "--data-dir", str(tmp_path / "data"),
        )  # fmt: skip
        assert status == 0, output
        banned_at = time.monotonic()
        for caller in spammers:
            await caller.wait_for(TOLD, timeout=10)
            await caller.wait_for_close(timeout=10)
        assert time.monotonic() - banned_at < 10
        # Each worker reads the store by itself: by 10 s after the ban both have, and
        # from then on the address gets no further than the one line, on either.
        await asyncio.sleep(max(0.0, banned_at + 2 * REFRESH_SECONDS + 1 - time.monotonic()))
        for _ in range(6):
            again = TelnetCallerFrom("127.0.0.2")
            await again.connect(port)
            await again.wait_for_close(timeout=5)
            assert TOLD in again.words and "guest" not in again.text
        await asyncio.sleep(0.3)
        assert not any(caller.closed for caller in others)
        newcomer = TelnetCallerFrom("127.0.0.3")
        await newcomer.connect(port)
        await newcomer.wait_for("G guest")
        for caller in [*others, newcomer]:
            caller.hang_up()
        log = door.log.read_text()
    workers = set(
        re.findall(r"INFO (worker-\d+) telnet caller from 127\.0\.0\.2:\d+ turned away", log)
    )
    assert workers, log
    print(f"turned away by {sorted(workers)} within {REFRESH_SECONDS} s of the store's change")


@run_async
async def test_a_ban_or_mute_made_at_one_worker_is_in_force_at_the_other_at_once(
    tmp_path: Path,
    redis_url: str,  # noqa: F811
) -> None:
    database = Database("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'door.sqlite3'}")
    async with two_workers(redis_url, database) as (first, second, _store):
        # Neither refreshes by itself here: only the link can carry the news.
        for worker in (first, second):
            await worker.door.moderation.refresh()
        ban = await first.door.moderation.ban("10.9.8.0/24", "flooding", 1.0, "Sysop")
        assert first.door.bans.refusal("10.9.8.7") is not None
        await _until(lambda: second.door.bans.refusal("10.9.8.7") is not None, 2.0)
        assert second.door.bans.refusal("10.9.8.7") == ban.refusal()
        await first.door.moderation.mute("Eve", "flooding", 30, "Sysop")
        await _until(lambda: second.door.moderation.chat_refusal("eve") is not None, 2.0)
        await second.door.moderation.lift(ban.id, "Sysop")
        await _until(lambda: first.door.bans.refusal("10.9.8.7") is None, 2.0)
        store = await Store.open(database.url)
        try:
            actions = [(entry.action, entry.target) for entry in await store.recorded_actions()]
        finally:
            await store.close()
        assert actions == [
            ("ban.remove", "10.9.8.0/24"),
            ("chat.mute", "Eve"),
            ("ban.add", "10.9.8.0/24"),
        ]


async def _until(condition: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s")
        await asyncio.sleep(0.02)


async def say(caller: KeyboardTerminal, text: str) -> None:
    """``caller`` says ``text`` at the table: on the dealer's open chat line, or with c."""
    if "Chat: " not in screen(caller):
        caller.press("c")
        await until(lambda: "Say: " in screen(caller))
    caller.press(*text, Key.ENTER)


@run_async
async def test_a_caller_muted_at_their_worker_is_refused_at_the_table_of_the_other(
    tmp_path: Path,
    redis_url: str,  # noqa: F811
) -> None:
    database = Database("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'door.sqlite3'}")
    async with two_workers(redis_url, database) as (first, second, store):
        assert store is not None
        for worker in (first, second):
            await worker.door.moderation.refresh()
        # The game is played at the first worker; Bob's line is relayed from the second.
        ada, bob, _, _ = await ada_challenges_bob(first, second, store)
        # Before the first deal the dealer's chat line is open; the other says with c.
        await until(lambda: "Chat: " in screen(ada) + screen(bob))
        await second.door.moderation.mute("Bob", "flooding the table", 30, "Sysop")
        await _until(lambda: first.door.moderation.chat_refusal("bob") is not None, 2.0)
        await say(bob, "buy my stuff")
        await until(lambda: "You are muted in chat until" in log_text(bob))
        await say(ada, "hello Bob")
        await until(lambda: "Ada: hello Bob" in log_text(bob))
        assert "buy my stuff" not in screen(ada) + screen(bob)
