"""A game between callers of two workers stalled by one of them (door/table/stalls.py):
the relayed caller is offered the claim on their own screen and their ``g`` reaches the
table, and the table's own caller can claim against the relayed one. The workers are two
Doors in one event loop on a real ``redis-server`` (tests/door/cluster/test_two_workers.py)."""

from __future__ import annotations

from typing import Any

from door.config import Config, config_from_mapping
from door.storage.store import Store
from door.table.flow import Table
from door.term.keys import Key
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.cluster.test_two_workers import Worker, ada_challenges_bob, two_workers
from tests.door.storage.conftest import Database
from tests.door.waiting import until


def flat(terminal: KeyboardTerminal) -> str:
    return " ".join(" ".join(terminal.display).split())


async def at_the_throw(
    first: Worker, second: Worker, store: Store
) -> tuple[KeyboardTerminal, KeyboardTerminal, Table[Any]]:
    """Ada (at ``first``) challenges Bob (at ``second``), who accepts; the dealer deals
    and both are asked their throw: their lines, and the table (at Ada's worker, to
    which Bob's line is relayed)."""
    ada, bob, _, _ = await ada_challenges_bob(first, second, store)
    await until(lambda: bool(first.presence.tables))
    table = first.presence.tables[0]
    callers = (ada, bob)
    await until(lambda: any("blank line: deal" in t.status for t in callers))
    next(t for t in callers if "blank line: deal" in t.status).press(Key.ENTER)
    await until(lambda: all("RETURN mark" in t.status for t in callers))
    return ada, bob, table


def claim_config(redis_url: str) -> Config:
    """Two workers on ``redis_url`` whose games may be claimed after a second's stall."""
    return config_from_mapping(
        {
            "game": {"computer_pause_seconds": 0, "level": "easy", "claim_after_seconds": 1},
            "cluster": {"redis_url": redis_url},
        }
    )


@run_async
async def test_a_relayed_caller_claims_a_game_the_tables_own_caller_stalls(
    redis_url: str, database: Database
) -> None:
    async with two_workers(redis_url, database, claim_config(redis_url)) as (first, second, store):
        assert store is not None
        ada, bob, table = await at_the_throw(first, second, store)
        bob.press(Key.ENTER, "2", Key.ENTER, Key.ENTER)  # Bob throws; Ada sits on hers
        await until(lambda: "may claim the game in" in flat(ada), what="Ada warned")
        await until(lambda: "g claim the game" in bob.status, what="Bob's offer, relayed")
        bob.press("g")
        said = "Bob claimed the game: Ada had not moved for 1 second, and forfeits it."
        await until(lambda: table.over and said in flat(ada) and said in flat(bob))
        outcome = table.game.outcome()
        assert outcome is not None and outcome.forfeited_by == 0 and outcome.winner_side == 1
        # Both workers' lobbies read how it ended, as they read that it began.
        ended = "Ada vs Bob: Bob won by a claim at 0 to 0 (Ada kept it waiting)."
        for worker in (first, second):
            chat = worker.presence.chat
            await until(lambda chat=chat: any(line.text == ended for line in chat))
            assert any(line.text == "Ada vs Bob: a game begins." for line in chat)


@run_async
async def test_the_tables_own_caller_claims_a_game_a_relayed_caller_stalls(
    redis_url: str, database: Database
) -> None:
    async with two_workers(redis_url, database, claim_config(redis_url)) as (first, second, store):
        assert store is not None
        ada, bob, table = await at_the_throw(first, second, store)
        ada.press(Key.ENTER, "2", Key.ENTER, Key.ENTER)
        bob.press("c", "a moment", Key.ENTER)  # Bob chats on: his line stays alive
        await until(lambda: "may claim the game in" in flat(bob), what="Bob warned, relayed")
        await until(lambda: "g claim the game" in ada.status, what="Ada's offer")
        ada.press("g")
        said = "Ada claimed the game: Bob had not moved for 1 second, and forfeits it."
        await until(lambda: table.over and said in flat(ada) and said in flat(bob))
        outcome = table.game.outcome()
        assert outcome is not None and outcome.forfeited_by == 1 and outcome.winner_side == 0
