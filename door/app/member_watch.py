"""Members the sysop locks, deletes or renames while they are online are told why and hung
up on within seconds, whichever worker holds them and whether the door (its member
screen) or the shell (``cribbage-door user lock``, ``user rename``) did it: each worker
looks at its own members in the store every WATCH_SECONDS.

A renamed member's seat at a table of this worker takes the new handle in the same look,
and the table says so: a seat whose caller was hung up on waits for them to call back
under the new handle, as for any dropped line (the member screen tells the table and hangs
up at once: ``rename_seats``; the table hears of a rename from the shell at the next look).
A locked or removed member's seat, once their line is down, is the computer's at once
(``Table.seat_refused``): they cannot call back, and the others are told why instead of
being asked to wait for them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any, Final

from door.app.presence import Presence
from door.storage.errors import StoreError
from door.storage.members import refusal
from door.storage.store import Store
from door.term.ansi import last_words

if TYPE_CHECKING:
    from door.table.flow import Table
    from door.table.seats import Seat

logger = logging.getLogger(__name__)

WATCH_SECONDS: Final = 5.0
"""How long a locked member may stay on at most. One query per look, of the members
online and those seated at this worker's games (by their ids): with 1,200 members online,
every one seated, a look took 6.8 ms of the worker's CPU on SQLite and 8.3 ms on
PostgreSQL, where the look at locks and deletions alone took 4.7 and 6.7 ms
(bench/member_watch.py, 150 looks, the same loaded two-core machine, main's bench
alternated with this one), so looking every 5 s costs a worker under 0.2% of its CPU."""


def _members_seated(presence: Presence) -> list[tuple[Table[Any], Seat]]:
    """The seats of members (callers with an account, still at the table) at this
    worker's games not yet over, with their tables."""
    return [
        (table, seat)
        for table in list(presence.tables)
        if not table.over
        for seat in table.seats
        if seat.human and seat.account_id is not None and not seat.left
    ]


def rename_seats(presence: Presence, old: str, new: str) -> None:
    """The member screen renamed the member ``old`` to ``new``: their seats at this
    worker's games take the new handle now, before the member is hung up on, so that the
    table says the rename and the line that drops is already the new handle's (the
    member watch's next look would find them, seconds after the drop)."""
    for table, seat in _members_seated(presence):
        if seat.name == old:
            table.seat_renamed(seat, new)


async def hang_up_refused(store: Store, presence: Presence) -> list[str]:
    """Hang up on this worker's members who may no longer be online, and give the seats
    of renamed members at its games their new handles (one query of the store); the
    handles hung up on."""
    online = {
        member.account.id: member
        for member in list(presence.members.values())
        if member.account is not None and not member.sysop
    }
    seated = _members_seated(presence)
    found = await store.members_now(online.keys() | {seat.account_id for _, seat in seated})
    # Seats first: the table then says the new handle when the line drops.
    for table, seat in seated:
        now = found.get(seat.account_id) if seat.account_id is not None else None
        if now is not None and now.handle != seat.name:
            table.seat_renamed(seat, now.handle)
    refused = []
    for number, member in online.items():
        why = refusal(member.name, found.get(number))
        if why is not None:
            logger.info("%r hung up on: %s", member.name, why)
            await member.line.hang_up(last_words(f"*** {why} ***"))
            refused.append(member.name)
    # A seat whose member was locked or removed waits for no call back: they cannot make
    # one. A seat whose caller is still there is handed over at the next look, once the
    # hang-up has emptied it.
    for table, seat in seated:
        now = found.get(seat.account_id) if seat.account_id is not None else None
        if now is None:
            table.seat_refused(seat, f"The sysop removed {seat.name}'s account")
        elif now.lock is not None:
            table.seat_refused(seat, f"The sysop locked {seat.name}'s account")
    return refused


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
