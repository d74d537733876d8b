"""A member calling in again at another worker takes over their own line there: the
first line is hung up, and the lobby chat at both workers says nothing of it (they
neither left nor came). Two workers in one event loop, a real Redis and store."""

from __future__ import annotations

from tests.door.app.test_lobby import in_lobby
from tests.door.app.test_saved_games import flat
from tests.door.caller import run_async
from tests.door.cluster.test_two_workers import two_workers
from tests.door.storage.conftest import Database
from tests.door.waiting import until


@run_async
async def test_taking_over_ones_line_at_another_worker_says_nothing_in_the_chat(
    redis_url: str, database: Database
) -> None:
    async with two_workers(redis_url, database) as (first, second, store):
        assert store is not None
        ada = await store.create_account("Ada", "correct horse")
        bob = second.call(name="Bob")
        old_line = first.call(ada)
        await in_lobby(bob, old_line)
        await until(lambda: any(line.text == "Ada has come in." for line in second.presence.chat))
        new_line = second.call(ada)
        await until(lambda: "Hang that line up" in flat(new_line))
        new_line.press("y")
        await until(lambda: "You have called in again on another line" in flat(old_line))
        await in_lobby(new_line)
        # Cy comes in at the first worker after it all: once the second has that line,
        # it has every earlier one the first sent.
        cy = first.call(name="Cy")
        await in_lobby(cy)
        await until(lambda: any(line.text == "Cy has come in." for line in second.presence.chat))
        for worker in (first, second):
            said = sorted(line.text for line in worker.presence.chat)
            assert said == ["Ada has come in.", "Bob has come in.", "Cy has come in."], said
