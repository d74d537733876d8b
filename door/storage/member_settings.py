"""What a member chose for themselves and keeps between calls, one value a name (the
mouse off, say): the door's own words both, checked here, so nothing a caller typed is
kept as a setting.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import delete, select

from door.storage.database import StoreBase
from door.storage.schema import member_settings

SETTINGS: Final = {"mouse": ("on", "off"), "screen_reader": ("on", "off")}
"""Every setting a member keeps, and the values it may take."""


def check_setting(name: str, value: str) -> None:
    """Raises ValueError unless ``value`` is one ``name`` may take."""
    if value not in SETTINGS.get(name, ()):
        raise ValueError(f"no member setting {name}={value!r}")


class MemberSettingsStore(StoreBase):
    async def member_settings(self, account_id: int) -> dict[str, str]:
        """The settings the member keeps, by name (what they never chose is absent)."""
        async with self._transaction() as connection:
            result = await connection.execute(
                select(member_settings.c.name, member_settings.c.value).where(
                    member_settings.c.account_id == account_id
                )
            )
            kept = {name: value for name, value in result}
        return {name: value for name, value in kept.items() if value in SETTINGS.get(name, ())}

    async def keep_member_setting(self, account_id: int, name: str, value: str) -> None:
        """Keep ``name`` = ``value`` for the member (the value they had is replaced)."""
        check_setting(name, value)
        async with self._transaction() as connection:
            await connection.execute(
                delete(member_settings).where(
                    (member_settings.c.account_id == account_id) & (member_settings.c.name == name)
                )
            )
            await connection.execute(
                member_settings.insert().values(account_id=account_id, name=name, value=value)
            )
