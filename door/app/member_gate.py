"""The last check before a member comes online, whichever way they proved who they are
(a password, an SSH key, a BBS): a member the sysop locked is refused with the reason
and the end, and a member let in has the address they call from kept (a few per member,
door/storage/members.py) for the sysop's member screen."""

from __future__ import annotations

import contextlib
import logging

from door.storage.errors import MemberLockedError, StoreError
from door.storage.store import Account, Store

logger = logging.getLogger(__name__)


async def refusal(store: Store | None, account: Account, address: str) -> str | None:
    """Why the member may not come in (the sysop's lock), or None: then their address is
    noted. A store that fails now lets them in unnoted, as their log-in just worked."""
    if store is None:
        return None
    try:
        await store.check_not_locked(account)
    except MemberLockedError as locked:
        logger.info("%r refused: locked by the sysop", account.handle)
        return str(locked)
    except StoreError:
        return None
    with contextlib.suppress(StoreError):  # the store has logged it; they play on
        await store.note_address(account.id, address)
    return None
