"""Members the sysop locks or deletes while they are online are told why and hung up on
within seconds, whichever worker holds them and whether the door (its member screen) or
the shell (``cribbage-door user lock``) did it: each worker looks at its own members in
the store every WATCH_SECONDS."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Final

from door.app.presence import Presence
from door.storage.errors import StoreError
from door.storage.store import Store

logger = logging.getLogger(__name__)

WATCH_SECONDS: Final = 5.0
"""How long a locked member may stay on at most. One query of the members online per
look (by their ids): with 1,200 members online a look took 4.6 ms of the worker's CPU on
SQLite and 6.8 ms on PostgreSQL (bench/member_watch.py, on a loaded two-core machine),
so looking every 5 s costs a worker about 0.1% of its CPU."""


async def hang_up_refused(store: Store, presence: Presence) -> list[str]:
    """Hang up on this worker's members who may no longer be online; their handles."""
    online = {
        member.account.id: member
        for member in list(presence.members.values())
        if member.account is not None and not member.sysop
    }
    refused = await store.refusals(online)
    for account_id, why in refused.items():
        member = online[account_id]
        logger.info("%r hung up on: %s", member.name, why)
        await member.line.hang_up(f"\r\n\x1b[0m\r\n*** {why} ***\r\n")
    return [online[number].name for number in refused]


async def watch_members(store: Store, presence: Presence, every: float = WATCH_SECONDS) -> None:
    """``hang_up_refused`` every ``every`` seconds until cancelled."""
    while True:
        await asyncio.sleep(every)
        with contextlib.suppress(StoreError):  # the store logs it; the next look tries again
            await hang_up_refused(store, presence)


def start_member_watch(store: Store | None, presence: Presence) -> asyncio.Task[None] | None:
    if store is None:
        return None
    return asyncio.get_running_loop().create_task(
        watch_members(store, presence), name="locked members"
    )
