"""Screens a caller opens from the lobby (the tournaments, the records, help) give way
when a game starts for them.

The lobby takes a caller to a seat the moment one is given (``Member.seat``). A caller
who challenged someone and then opened another screen, or who challenged from the
tournaments page, is not in the lobby when the answer comes: their seat would wait,
and the game with it, for a caller who sees nothing of it. ``unless_called`` runs such
a screen until it ends or the caller is summoned (``Member.summon``), then closes it,
so the lobby takes them on to their seat. A screen closed this way leaves the keys
typed where they were (door/term/inbox.py): nothing is lost but the screen itself.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any

from door.app.members import Member


async def unless_called(member: Member, screen: Coroutine[Any, Any, None]) -> bool:
    """Run ``screen`` until it returns, or until ``member`` is called away: True if it
    was closed for that (or not opened: they were called already). The screen's own
    failures (a dropped line) are raised."""
    if member.called:
        screen.close()
        return True
    member.summons.clear()  # a summons answered already, or one for a seat gone since
    shown = asyncio.ensure_future(screen)
    summoned = asyncio.ensure_future(member.summons.wait())
    try:
        while True:
            await asyncio.wait({shown, summoned}, return_when=asyncio.FIRST_COMPLETED)
            if shown.done():
                shown.result()  # raises what the screen raised
                return False
            if member.called:
                return True
            member.summons.clear()
            summoned = asyncio.ensure_future(member.summons.wait())
    finally:
        summoned.cancel()
        if not shown.done():
            shown.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await shown
