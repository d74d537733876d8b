"""``user export HANDLE``: everything the door keeps about one member, as JSON-able values.

The member's account (without the password hash), then every row of every table that
refers to their account (door/storage/schema.py's foreign keys to accounts, so a table
added later is exported without a change here), and every game they sat in: its seats,
result, recording, and the game told as ``replay`` tells it.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, Final

from sqlalchemy import Column, or_, select

from door.storage.errors import StoreError
from door.storage.schema import accounts, game_logs, game_seats, games, metadata
from door.storage.store import Store

EXPORT_FORMAT: Final = 1
"""Written into every export; bumped if its layout changes."""

NOT_EXPORTED: Final = frozenset({"password_hash", "code_hash"})
"""Columns that stay in the database (the password's hash, a reset code's): no use to the
member and of use to whoever reads the file."""

JSON_COLUMNS: Final = frozenset({"recording", "result", "table_settings", "games"})
"""Text columns that hold JSON, exported as the values they hold."""


class MemberNotFoundError(StoreError):
    """No member has the handle asked for."""


def _value(name: str, value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if name in JSON_COLUMNS and isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _row(row: Any, leave_out: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A result row (of any width) as JSON-able values by column name."""
    values: dict[str, Any] = dict(row._mapping)
    return {name: _value(name, value) for name, value in values.items() if name not in leave_out}


def _account_references() -> list[tuple[str, list[Column[Any]]]]:
    """Each table with columns referring to an account, and those columns."""
    found = []
    for table in metadata.sorted_tables:
        columns = [key.parent for key in table.foreign_keys if key.column is accounts.c.id]
        if columns:
            found.append((table.name, columns))
    return found


async def export_member(store: Store, handle: str) -> dict[str, Any]:
    """The member's data; raises MemberNotFoundError, or StorageUnavailableError."""
    account = await store.account(handle)
    if account is None:
        raise MemberNotFoundError(f"no member has the handle {handle!r}")
    member = account.id
    async with store.transaction() as connection:
        row = (await connection.execute(select(accounts).where(accounts.c.id == member))).one()
        tables: dict[str, list[dict[str, Any]]] = {}
        for name, columns in _account_references():
            table = columns[0].table
            rows = await connection.execute(
                select(table)
                .where(or_(*(column == member for column in columns)))
                .order_by(*table.primary_key.columns)
            )
            tables[name] = [_row(found, NOT_EXPORTED) for found in rows]
        played = await connection.execute(
            select(games, game_logs.c.result, game_logs.c.finished_at)
            .join(game_seats, game_seats.c.game_id == games.c.id)
            .outerjoin(game_logs, game_logs.c.game_id == games.c.id)
            .where(game_seats.c.account_id == member)
            .order_by(games.c.id)
        )
        game_rows = [_row(found) for found in played]
        for game in game_rows:
            seats = await connection.execute(
                select(game_seats.c.seat, game_seats.c.name, game_seats.c.account_id)
                .where(game_seats.c.game_id == game["id"])
                .order_by(game_seats.c.seat)
            )
            game["seats"] = [_row(seat) for seat in seats]
    for game in game_rows:
        game["text"] = await store.game_log(game["id"])
    return {
        "format": EXPORT_FORMAT,
        "exported_at": exported_now(),
        "account": _row(row, NOT_EXPORTED),
        "tables": tables,
        "games": game_rows,
    }


def exported_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
