"""The audit: what the sysop did, at the door or from the shell, kept in the store.

Append-only: the store writes an entry and reads them back, and has no way to change or
remove one. Every text is kept printable (a control character is written as its escape,
so a reason typed at the door cannot act on the terminal that later lists it) and cut
to its column.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

from sqlalchemy import func, select

from door.logtext import escaped
from door.storage.database import StoreBase
from door.storage.schema import audit

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
