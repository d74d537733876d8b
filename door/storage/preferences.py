"""What a member chose for how the door talks to them, kept between calls (part of
``Store``): for now, screen-reader mode (door/table/reader.py)."""

from __future__ import annotations

from sqlalchemy import select, update

from door.storage.database import StoreBase
from door.storage.schema import accounts


class PreferenceStore(StoreBase):
    """A member's preferences (part of ``Store``)."""

    async def screen_reader(self, account_id: int) -> bool:
        """Whether the member plays in screen-reader mode (False for no such account)."""
        async with self._transaction() as connection:
            on = await connection.scalar(
                select(accounts.c.screen_reader).where(accounts.c.id == account_id)
            )
            return bool(on)

    async def set_screen_reader(self, account_id: int, on: bool) -> None:
        async with self._transaction() as connection:
            await connection.execute(
                update(accounts).where(accounts.c.id == account_id).values(screen_reader=on)
            )
