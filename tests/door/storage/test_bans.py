"""Bans and mutes in the store: made, read in force, ended, lifted, and the fingerprint a
running door checks to know it must read them again; on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt

import pytest

from door.defence.bans import Ban, BanTarget
from door.storage.bans import BanNotFoundError, MuteNotFoundError
from tests.door.caller import run_async
from tests.door.storage.conftest import Database
from tests.door.storage.test_accounts import FakeClock


@run_async
async def test_a_ban_is_in_force_until_it_ends_or_is_lifted(database: Database) -> None:
    clock = FakeClock()
    start = clock.now
    async with database.store(clock=clock) as store:
        network = await store.add_ban(
            BanTarget.parse("10.0.0.0/24"), "spam", start + dt.timedelta(hours=2), "Sysop"
        )
        handle = await store.add_ban(BanTarget.parse("handle:Mallory"), "abuse", None, "shell:root")
        assert await store.bans_in_force() == [
            Ban(
                network.id,
                BanTarget.parse("10.0.0.0/24"),
                "spam",
                start + dt.timedelta(hours=2),
                "Sysop",
                start,
            ),
            Ban(handle.id, BanTarget.parse("handle:Mallory"), "abuse", None, "shell:root", start),
        ]
        clock.advance(hours=2)
        assert [ban.id for ban in await store.bans_in_force()] == [handle.id]
        with pytest.raises(BanNotFoundError, match=f"no ban in force numbered {network.id}"):
            await store.lift_ban(network.id, "Sysop")  # it has ended
        assert (await store.lift_ban(handle.id, "Sysop")).target == BanTarget.parse(
            "handle:Mallory"
        )
        assert await store.bans_in_force() == []
        with pytest.raises(BanNotFoundError):
            await store.lift_ban(handle.id, "Sysop")  # once only
        with pytest.raises(BanNotFoundError):
            await store.lift_ban(999, "Sysop")


@run_async
async def test_a_mute_replaces_the_one_before_and_is_lifted_by_name(database: Database) -> None:
    clock = FakeClock()
    later = clock.now + dt.timedelta(hours=1)
    async with database.store(clock=clock) as store:
        await store.add_mute("Eve", "flooding", later, "Sysop")
        await store.add_mute("EVE", "flooding again", later + dt.timedelta(hours=1), "Sysop")
        [mute] = await store.mutes_in_force()
        assert (mute.name, mute.reason) == ("EVE", "flooding again")
        assert (await store.lift_mute("\u0415ve", "Sysop")).reason == "flooding again"  # Cyrillic Е
        assert await store.mutes_in_force() == []
        with pytest.raises(MuteNotFoundError, match="Eve is not muted"):
            await store.lift_mute("Eve", "Sysop")


@run_async
async def test_the_fingerprint_changes_with_every_ban_or_mute_made_or_lifted(
    database: Database,
) -> None:
    clock = FakeClock()
    async with database.store(clock=clock) as store:
        seen = {await store.moderation_fingerprint()}
        ban = await store.add_ban(BanTarget.parse("10.0.0.7"), "spam", None, "Sysop")
        seen.add(await store.moderation_fingerprint())
        await store.lift_ban(ban.id, "Sysop")
        seen.add(await store.moderation_fingerprint())
        await store.add_mute("Eve", "flooding", clock.now + dt.timedelta(hours=1), "Sysop")
        seen.add(await store.moderation_fingerprint())
        await store.lift_mute("Eve", "Sysop")
        seen.add(await store.moderation_fingerprint())
        assert len(seen) == 5
        assert await store.moderation_fingerprint() in seen  # and nothing else moves it


@run_async
async def test_the_sysops_recent_addresses_are_kept_for_a_month(database: Database) -> None:
    clock = FakeClock()
    async with database.store(clock=clock) as store:
        await store.sysop_came_from("203.0.113.9")
        clock.advance(days=20)
        await store.sysop_came_from("2001:db8::5")
        await store.sysop_came_from("2001:db8::5")  # again: one row, seen later
        assert sorted(await store.sysop_addresses("Sysop")) == ["2001:db8::5", "203.0.113.9"]
        clock.advance(days=11)
        assert await store.sysop_addresses("Sysop") == ["2001:db8::5"]
