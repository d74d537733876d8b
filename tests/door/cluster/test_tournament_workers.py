"""The sysop at one worker settles a tournament match being played at another: that
table is told at once, as one at the sysop's own worker is, and plays on for nothing
in the tournament. Two workers in one event loop, a real Redis and store (SQLite, and
PostgreSQL when CRIBBAGE_TEST_POSTGRES_URL names a server)."""

from __future__ import annotations

from door.app.tournaments import Tournaments
from tests.door.app.test_lobby import in_lobby
from tests.door.app.test_mail_games import START
from tests.door.app.test_tournament_games import at_their_match, the_sysop_forfeits_ada
from tests.door.caller import run_async
from tests.door.cluster.test_two_workers import two_workers
from tests.door.storage.conftest import Database


@run_async
async def test_a_match_settled_at_the_sysops_worker_is_told_at_the_others_table(
    redis_url: str, database: Database
) -> None:
    # By hand (qa3): the table heard it only at the game's end, when not at the
    # sysop's worker.
    async with two_workers(redis_url, database) as (first, second, store):
        assert store is not None
        ada = await store.create_account("Ada", "correct horse")
        bob = await store.create_account("Bob", "correct horse")
        tournaments = Tournaments(store)
        number = await tournaments.create("Friday Cup", "round robin", 1, START, 1)
        for entrant in (ada.id, bob.id):
            await tournaments.toggle_entry(number, entrant)
        await tournaments.start_now(number)
        alice, bert = first.call(ada), first.call(bob)
        sysop = second.call(name="Sysop", sysop=True)
        await in_lobby(alice, bert, sysop)
        await at_their_match(alice, bert)
        (table,) = first.presence.tables
        await the_sysop_forfeits_ada(sysop, alice, bert)
        assert table.options.tournament == 0 and not table.over
