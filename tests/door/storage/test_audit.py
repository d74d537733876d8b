"""The audit in the store: what the sysop did is kept as it was said, read back newest
first, by time and by target, and never as a control sequence; on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select

from door.storage.audit import MAX_LISTED, AuditEntry
from door.storage.schema import audit
from tests.door.caller import run_async
from tests.door.storage.conftest import Database
from tests.door.storage.test_accounts import FakeClock


@run_async
async def test_an_action_is_kept_with_who_when_what_on_whom_and_why(database: Database) -> None:
    clock = FakeClock()
    async with database.store(clock=clock) as store:
        await store.record_action(
            "shell:root", "user.lock", "Ada", "spam in chat", "until 2025-03-02 12:00 UTC"
        )
        assert await store.recorded_actions() == [
            AuditEntry(
                1,
                dt.datetime(2025, 3, 1, 12, 0, tzinfo=dt.UTC),
                "shell:root",
                "user.lock",
                "Ada",
                "spam in chat",
                "until 2025-03-02 12:00 UTC",
            )
        ]


@run_async
async def test_actions_read_back_newest_first_since_a_moment_and_up_to_a_limit(
    database: Database,
) -> None:
    clock = FakeClock()
    async with database.store(clock=clock) as store:
        for number in range(5):
            await store.record_action("Sysop", "user.note", f"Member{number}", None)
            clock.advance(hours=1)
        newest = await store.recorded_actions()
        assert [entry.target for entry in newest] == [f"Member{n}" for n in (4, 3, 2, 1, 0)]
        since = dt.datetime(2025, 3, 1, 14, 0, tzinfo=dt.UTC)
        assert [e.target for e in await store.recorded_actions(since)] == [
            "Member4",
            "Member3",
            "Member2",
        ]
        assert [e.target for e in await store.recorded_actions(limit=2)] == ["Member4", "Member3"]
        assert len(await store.recorded_actions(limit=0)) == 1
        with pytest.raises(ValueError, match="time zone"):
            await store.recorded_actions(dt.datetime(2025, 3, 1, 14, 0))


@run_async
async def test_the_actions_on_one_member_are_found_in_any_case(database: Database) -> None:
    async with database.store() as store:
        await store.record_action("Sysop", "user.lock", "Ada", "spam")
        await store.record_action("Sysop", "user.lock", "Bob", "spam")
        await store.record_action("shell:root", "user.unlock", "Ada", None)
        found = await store.recorded_actions(target="ADA")
        assert [(e.action, e.target) for e in found] == [
            ("user.unlock", "Ada"),
            ("user.lock", "Ada"),
        ]


@run_async
async def test_control_sequences_and_overlong_texts_are_kept_harmless_and_cut(
    database: Database,
) -> None:
    async with database.store() as store:
        await store.record_action(
            "Sysop\x1b[2J", "user.lock", "Ada\r\nFORGED", "a" * 5000, "\x07" + "d" * 5000
        )
        [entry] = await store.recorded_actions()
    for text in (entry.actor, entry.target, entry.reason, entry.detail):
        assert text is not None and text.isprintable()
    assert entry.actor == "Sysop\\x1b[2J"
    assert entry.target == "Ada\\r\\nFORGED"
    assert entry.reason is not None and len(entry.reason) == 500
    assert entry.detail is not None and len(entry.detail) == 1000


@run_async
async def test_blank_texts_are_kept_as_none(database: Database) -> None:
    async with database.store() as store:
        await store.record_action("Sysop", "user.unlock", "  ", "", "\t")
        [entry] = await store.recorded_actions()
    assert (entry.target, entry.reason, entry.detail) == (None, None, None)


@run_async
async def test_one_reading_returns_at_most_the_bound(database: Database) -> None:
    async with database.store() as store:
        async with store._engine.begin() as connection:
            await connection.execute(
                audit.insert(),
                [
                    {"at": dt.datetime(2025, 1, 1, tzinfo=dt.UTC), "actor": "x", "action": "y"}
                    for _ in range(MAX_LISTED + 5)
                ],
            )
            assert await connection.scalar(select(func.count()).select_from(audit)) == 1005
        assert len(await store.recorded_actions(limit=10**9)) == MAX_LISTED


def test_the_store_has_no_way_to_change_or_remove_an_entry() -> None:
    from door.storage.audit import AuditStore

    own = {name for name in vars(AuditStore) if not name.startswith("__")}
    assert own == {"record_action", "recorded_actions"}
