"""A member's preferences in the store (door/storage/preferences.py), on SQLite and
PostgreSQL: screen-reader mode is off for a new member, and kept once set."""

from __future__ import annotations

from tests.door.caller import run_async
from tests.door.storage.conftest import Database


@run_async
async def test_screen_reader_mode_is_off_for_a_new_member_and_kept_once_set(
    database: Database,
) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", "correct horse")
        bob = await store.create_account("Bob", "correct horse")
        assert await store.screen_reader(ada.id) is False
        await store.set_screen_reader(ada.id, True)
    async with database.store() as store:  # a later call: the door started again
        assert await store.screen_reader(ada.id) is True
        assert await store.screen_reader(bob.id) is False
        await store.set_screen_reader(ada.id, False)
        assert await store.screen_reader(ada.id) is False
        assert await store.screen_reader(9999) is False  # no such member
