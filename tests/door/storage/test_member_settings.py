"""What members keep for themselves between calls (door/storage/member_settings.py)."""

from __future__ import annotations

import pytest

from tests.door.caller import run_async
from tests.door.storage.conftest import Database


@run_async
async def test_a_setting_is_kept_replaced_and_read_back_per_member(database: Database) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", "correct horse battery")
        bob = await store.create_account("Bob", "correct horse battery")
        assert await store.member_settings(ada.id) == {}
        await store.keep_member_setting(ada.id, "mouse", "off")
        assert await store.member_settings(ada.id) == {"mouse": "off"}
        await store.keep_member_setting(ada.id, "mouse", "on")
        assert await store.member_settings(ada.id) == {"mouse": "on"}
        assert await store.member_settings(bob.id) == {}
        # Screen-reader mode (J in the lobby) is kept beside it, each by its own name.
        await store.keep_member_setting(ada.id, "screen_reader", "on")
        assert await store.member_settings(ada.id) == {"mouse": "on", "screen_reader": "on"}
        await store.keep_member_setting(ada.id, "screen_reader", "off")
        assert await store.member_settings(ada.id) == {"mouse": "on", "screen_reader": "off"}
        assert await store.member_settings(bob.id) == {}


@pytest.mark.parametrize(
    ("name", "value"), [("mouse", "maybe"), ("screen_reader", "yes"), ("colour", "on"), ("", "")]
)
@run_async
async def test_only_the_doors_own_settings_and_values_are_kept(
    database: Database, name: str, value: str
) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", "correct horse battery")
        with pytest.raises(ValueError, match="no member setting"):
            await store.keep_member_setting(ada.id, name, value)
        assert await store.member_settings(ada.id) == {}
