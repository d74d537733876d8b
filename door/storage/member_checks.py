"""Checks on a handle or a password that both the accounts and the sysop's tools make:
whether a handle is held (a renamed or deleted member's, for a while) or looks like a held
one, whether a password typed is the member's one-time reset code, and a member's row by
handle."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Row, Select, select
from sqlalchemy.ext.asyncio import AsyncConnection

from door.defence.lookalike import skeleton
from door.storage import reset_codes
from door.storage.errors import HandleTakenError, UnknownMemberError
from door.storage.rules import handle_key
from door.storage.schema import accounts, held_handles, password_resets


async def valid_reset_code(
    connection: AsyncConnection, account_id: int, typed: str, now: dt.datetime
) -> bool:
    """Whether ``typed`` is the account's reset code and still valid (a password that
    cannot be a code costs no database read)."""
    if reset_codes.normalized(typed) is None:
        return False
    stored = await connection.scalar(
        select(password_resets.c.code_hash).where(
            password_resets.c.account_id == account_id, password_resets.c.expires_at > now
        )
    )
    return stored is not None and reset_codes.matches(stored, typed)


async def held_handle_like(
    connection: AsyncConnection, handle: str, now: dt.datetime, account_id: int | None = None
) -> str | None:
    """A handle held now (for someone other than ``account_id``) that ``handle`` is, or
    looks like to a reader (door/defence/lookalike.py)."""
    rows = await connection.execute(
        select(held_handles.c.handle, held_handles.c.account_id).where(
            held_handles.c.held_until > now
        )
    )
    wanted = skeleton(handle)
    for held, owner in rows:
        if (account_id is None or owner != account_id) and skeleton(held) == wanted:
            return str(held)
    return None


def held_handles_now(now: dt.datetime) -> Select[tuple[str]]:
    """The handles held at ``now``, for the index of handles guests may not take."""
    return select(held_handles.c.handle).where(held_handles.c.held_until > now)


def held_refusal(handle: str, held: str) -> HandleTakenError:
    if handle_key(handle) == handle_key(held):
        return HandleTakenError(
            f'"{handle}" was a member\'s handle until lately and is held: choose another.'
        )
    return HandleTakenError(f"{handle} looks too much like {held}: please choose another handle.")


async def member_row(connection: AsyncConnection, handle: str) -> Row[Any]:
    """The member's row in ``accounts``; UnknownMemberError when no member has ``handle``."""
    row = (
        await connection.execute(
            select(accounts).where(accounts.c.handle_key == handle_key(handle))
        )
    ).first()
    if row is None:
        raise UnknownMemberError(f"No member has the handle {handle!r}.")
    return row
