"""The audit: what the sysop did, at the door or from the shell, kept in the store.

Append-only: the store writes an entry and reads them back, and has no way to change or
remove one; the database itself refuses (migration 0008's triggers). Only a restore that
replaces the whole database empties it (``clear_audit``). Every text is kept printable
(a control character is written as its escape, so a reason typed at the door cannot act
on the terminal that later lists it) and cut to its column.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

from sqlalchemy import delete, func, select, text
from sqlalchemy.ext.asyncio import AsyncConnection

from door.logtext import escaped
from door.storage.database import StoreBase
from door.storage.schema import audit

GUARDS: Final = {
    "sqlite": ("audit_no_update", "audit_no_delete"),
    "postgresql": ("audit_no_change", "audit_no_truncate"),
}
"""The triggers that make the database refuse to change or remove an entry, by dialect
(made by migration 0008)."""

MAX_LISTED: Final = 1000
"""The most entries one reading returns: a screen or a shell listing pages through them."""


@dataclass(frozen=True)
class AuditEntry:
    """One thing the sysop did: when, who (the sysop's handle at the door, or
    ``shell:<unix user>``), what (``user.lock``, ``ban.add``...), on whom or what, why,
    and anything else worth keeping."""

    id: int
    at: dt.datetime
    actor: str
    action: str
    target: str | None
    reason: str | None
    detail: str | None = None


def _kept(text: str | None, column_length: int) -> str | None:
    """``text`` as the audit keeps it: printable, within the column, None when empty."""
    if text is None or not text.strip():
        return None
    # Escaped in full first (an escape is longer than its character), then cut.
    shown = escaped(text.strip(), limit=column_length * 4)
    if len(shown) <= column_length:
        return shown
    return shown[: column_length - len("...")] + "..."


def _length(name: str) -> int:
    length = getattr(audit.c[name].type, "length", None)
    assert isinstance(length, int)
    return length


class AuditStore(StoreBase):
    """The audit (part of ``Store``)."""

    async def record_action(
        self,
        actor: str,
        action: str,
        target: str | None,
        reason: str | None,
        detail: str | None = None,
    ) -> None:
        """Keep one entry, stamped with the store's clock. Raises StorageUnavailableError
        when the database cannot be written (the action should then be reported as not
        recorded, or not done)."""
        values = {
            "at": self._clock(),
            "actor": _kept(actor, _length("actor")) or "?",
            "action": _kept(action, _length("action")) or "?",
            "target": _kept(target, _length("target")),
            "reason": _kept(reason, _length("reason")),
            "detail": _kept(detail, _length("detail")),
        }
        async with self._transaction() as connection:
            await connection.execute(audit.insert().values(values))

    async def recorded_actions(
        self,
        since: dt.datetime | None = None,
        limit: int = 200,
        *,
        target: str | None = None,
    ) -> list[AuditEntry]:
        """The latest entries, newest first: those at or after ``since`` if given, those
        on ``target`` if given (compared without regard to case), ``limit`` at most
        (1 to MAX_LISTED)."""
        query = select(audit).order_by(audit.c.at.desc(), audit.c.id.desc())
        if since is not None:
            if since.tzinfo is None:
                raise ValueError("since must have its time zone")
            query = query.where(audit.c.at >= since)
        if target is not None:
            query = query.where(func.lower(audit.c.target) == target.lower())
        query = query.limit(max(1, min(limit, MAX_LISTED)))
        async with self._transaction() as connection:
            rows = (await connection.execute(query)).all()
        return [
            AuditEntry(row.id, row.at, row.actor, row.action, row.target, row.reason, row.detail)
            for row in rows
        ]


async def clear_audit(connection: AsyncConnection) -> None:
    """Remove every entry, on ``connection``'s open transaction: for ``db restore
    --replace`` alone, which replaces the whole database with a backup (and its audit).
    The database's guard against removing entries is lifted for this one statement and
    is back before the transaction can commit."""
    if connection.dialect.name == "postgresql":
        # Disabling takes the table's exclusive lock until the transaction ends: no other
        # connection can write to the audit while the guard is down.
        await connection.execute(text("ALTER TABLE audit DISABLE TRIGGER USER"))
        await connection.execute(delete(audit))
        await connection.execute(text("ALTER TABLE audit ENABLE TRIGGER USER"))
        return
    # SQLite has no disabling: the triggers are dropped and made again from their own
    # text, inside the transaction (SQLite's schema changes are transactional).
    triggers = (
        await connection.execute(
            text(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit'"
            )
        )
    ).all()
    for name, _ in triggers:
        await connection.execute(text(f'DROP TRIGGER "{name}"'))
    await connection.execute(delete(audit))
    for _, sql in triggers:
        await connection.exec_driver_sql(sql)


async def missing_guards(connection: AsyncConnection) -> list[str]:
    """The audit's guard triggers (GUARDS) that are not there, or are disabled: for ``db
    check``, since anyone with the database's own tools can drop them."""
    expected = GUARDS.get(connection.dialect.name, ())
    if connection.dialect.name == "postgresql":
        query = text(
            "SELECT tgname FROM pg_trigger WHERE tgrelid = 'audit'::regclass "
            "AND NOT tgisinternal AND tgenabled <> 'D'"
        )
    else:
        query = text("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit'")
    present = set((await connection.execute(query)).scalars())
    return [name for name in expected if name not in present]
