"""Bans and mutes in the store (part of ``Store``): made, lifted, read in force, and a
cheap fingerprint of both tables that tells a running door whether to read them again
(door/app/moderation.py asks every few seconds; the shell's ``ban`` commands write)."""

from __future__ import annotations

import contextlib
import datetime as dt
from typing import Any

from sqlalchemy import Row, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from door.defence.bans import Ban, BanTarget
from door.defence.lookalike import skeleton
from door.defence.mutes import Mute
from door.storage.database import StoreBase
from door.storage.errors import StoreError
from door.storage.rules import handle_key
from door.storage.schema import account_addresses, accounts, bans, mutes, sysop_addresses

RECENT_DAYS = 30
"""How far back a member's addresses count as theirs when a ban is checked against them."""

Fingerprint = tuple[int, int, int, int]
"""(highest ban id, bans lifted, highest mute id, mutes lifted): changes whenever a ban
or a mute is made or lifted, and reads two indexes, not the rows."""


class BanNotFoundError(StoreError):
    """No ban in force has that number."""


class MuteNotFoundError(StoreError):
    """Nobody of that name is muted."""


class BanStore(StoreBase):
    """Bans and mutes (part of ``Store``)."""

    async def add_ban(
        self, target: BanTarget, reason: str, until: dt.datetime | None, actor: str
    ) -> Ban:
        """Keep a new ban; the caller has checked ``reason`` (door.defence.bans)."""
        now = self._clock()
        async with self._transaction() as connection:
            ban_id = await connection.scalar(
                bans.insert()
                .values(
                    target=str(target),
                    reason=reason,
                    actor=actor,
                    created_at=now,
                    ends_at=until,
                )
                .returning(bans.c.id)
            )
        assert ban_id is not None
        return Ban(int(ban_id), target, reason, until, actor, now)

    async def lift_ban(self, ban_id: int, actor: str) -> Ban:
        """Lift ban ``ban_id``; BanNotFoundError unless it is in force."""
        now = self._clock()
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(bans).where(bans.c.id == ban_id, bans.c.lifted_at.is_(None))
                )
            ).first()
            if row is None or not _ban(row).in_force(now):
                raise BanNotFoundError(f"there is no ban in force numbered {ban_id}")
            await connection.execute(
                update(bans).where(bans.c.id == ban_id).values(lifted_at=now, lifted_by=actor)
            )
        return _ban(row)

    async def bans_in_force(self) -> list[Ban]:
        """Every ban not lifted and not ended, oldest first."""
        now = self._clock()
        async with self._transaction() as connection:
            rows = await connection.execute(
                select(bans)
                .where(
                    bans.c.lifted_at.is_(None), or_(bans.c.ends_at.is_(None), bans.c.ends_at > now)
                )
                .order_by(bans.c.id)
            )
            return [_ban(row) for row in rows]

    async def add_mute(self, name: str, reason: str, until: dt.datetime, actor: str) -> Mute:
        """Mute ``name`` in chat until ``until`` (a mute already on them is replaced)."""
        now = self._clock()
        look = skeleton(name)
        async with self._transaction() as connection:
            await connection.execute(
                update(mutes)
                .where(mutes.c.name_look == look, mutes.c.lifted_at.is_(None))
                .values(lifted_at=now, lifted_by=actor)
            )
            mute_id = await connection.scalar(
                mutes.insert()
                .values(
                    name=name,
                    name_look=look,
                    reason=reason,
                    actor=actor,
                    created_at=now,
                    ends_at=until,
                )
                .returning(mutes.c.id)
            )
        assert mute_id is not None
        return Mute(int(mute_id), name, reason, until, actor)

    async def lift_mute(self, name: str, actor: str) -> Mute:
        """Lift the mute on ``name``; MuteNotFoundError if there is none in force."""
        now = self._clock()
        look = skeleton(name)
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(mutes)
                    .where(
                        mutes.c.name_look == look,
                        mutes.c.lifted_at.is_(None),
                        mutes.c.ends_at > now,
                    )
                    .order_by(mutes.c.id.desc())
                )
            ).first()
            if row is None:
                raise MuteNotFoundError(f"{name} is not muted")
            await connection.execute(
                update(mutes)
                .where(mutes.c.name_look == look, mutes.c.lifted_at.is_(None))
                .values(lifted_at=now, lifted_by=actor)
            )
        return _mute(row)

    async def mutes_in_force(self) -> list[Mute]:
        now = self._clock()
        async with self._transaction() as connection:
            rows = await connection.execute(
                select(mutes)
                .where(mutes.c.lifted_at.is_(None), mutes.c.ends_at > now)
                .order_by(mutes.c.id)
            )
            return [_mute(row) for row in rows]

    async def sysop_came_from(self, address: str) -> None:
        """The sysop called in from ``address`` (kept for ``sysop_addresses``)."""
        now = self._clock()
        async with self._transaction() as connection:
            updated = await connection.execute(
                update(sysop_addresses)
                .where(sysop_addresses.c.address == address)
                .values(last_seen=now)
            )
            if not updated.rowcount:
                with contextlib.suppress(IntegrityError):  # another worker, just now
                    async with connection.begin_nested():
                        await connection.execute(
                            sysop_addresses.insert().values(address=address, last_seen=now)
                        )

    async def sysop_addresses(self, sysop: str) -> list[str]:
        """Where the sysop called in from in the last ``RECENT_DAYS`` days: as the sysop,
        and as the member of the sysop's name, if there is one."""
        since = self._clock() - dt.timedelta(days=RECENT_DAYS)
        async with self._transaction() as connection:
            as_member = await connection.execute(
                select(account_addresses.c.address)
                .join(accounts, accounts.c.id == account_addresses.c.account_id)
                .where(
                    accounts.c.handle_key == handle_key(sysop),
                    account_addresses.c.last_seen >= since,
                )
            )
            as_sysop = await connection.execute(
                select(sysop_addresses.c.address).where(sysop_addresses.c.last_seen >= since)
            )
            return [str(row.address) for row in [*as_member, *as_sysop]]

    async def moderation_fingerprint(self) -> Fingerprint:
        """Changes whenever a ban or mute is made or lifted (see ``Fingerprint``)."""
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(
                        select(func.coalesce(func.max(bans.c.id), 0)).scalar_subquery(),
                        select(func.count(bans.c.lifted_at)).scalar_subquery(),
                        select(func.coalesce(func.max(mutes.c.id), 0)).scalar_subquery(),
                        select(func.count(mutes.c.lifted_at)).scalar_subquery(),
                    )
                )
            ).one()
        return (int(row[0]), int(row[1]), int(row[2]), int(row[3]))


def _ban(row: Row[Any]) -> Ban:
    return Ban(
        row.id, BanTarget.parse(row.target), row.reason, row.ends_at, row.actor, row.created_at
    )


def _mute(row: Row[Any]) -> Mute:
    return Mute(row.id, row.name, row.reason, row.ends_at, row.actor)
