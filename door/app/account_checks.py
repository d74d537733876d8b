"""Account checks the transports and the arrival make before any screen: whether a
name is a member's handle, an SSH log-in by password or key, a key's fingerprint. They take
the store and return values; none of them draws or reads a key."""

from __future__ import annotations

import base64
import functools
import hashlib
import logging
from dataclasses import dataclass, field
from typing import Final

from door.defence.logins import LoginAttempts
from door.storage.errors import (
    PasswordResetRequired,
    StoreError,
)
from door.storage.rules import (
    handle_key,
    normalize_public_key,
)
from door.storage.store import Account, Store

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PendingReset:
    """A member who typed the sysop's reset code as their SSH password: they choose a new
    password before they come in (door/app/accounts.py, ``choose_new_password``)."""

    account_id: int
    handle: str
    code: str = field(repr=False)


NEW_USER: Final = "new"
"""The SSH user name that signs up."""
GUEST_USER: Final = "guest"
"""The SSH user name that comes in as a guest."""


async def name_is_an_account(store: Store | None, name: str) -> bool:
    """Whether a guest's chosen name is someone's handle, or looks like one (a guest may
    not take it), from the store's index of handles: no database wait per sign-in. With
    no store, or a failing one, nobody can be told apart, so it says False."""
    if store is None:
        return False
    try:
        # The sysop's name is the presence's to refuse, in its own words.
        return await store.lookalike_handle(name, reserved=False) is not None
    except StoreError:
        return False


def ssh_needs_auth(username: str) -> bool:
    """False for the SSH users that come in without a password: ``new`` (who signs up)
    and ``guest``; every other user name is a handle to authenticate."""
    return handle_key(username) not in (NEW_USER, GUEST_USER)


async def ssh_password_login(
    store: Store | None, username: str, password: str, attempts: LoginAttempts | None = None
) -> Account | None:
    """The account an SSH password logs in, or None (wrong, locked, or no store: then
    the client may try again as ``guest``). TooManyTries passes through: the server
    closes the connection; so does PasswordResetRequired, for a reset code typed as the
    password."""
    if store is None:
        return None
    try:
        if attempts is None:
            return await store.verify_login(username, password)
        return await attempts.verify(
            username, functools.partial(store.verify_login, username, password)
        )
    except PasswordResetRequired:
        raise  # the transport lets them in to choose a new password
    except StoreError as refused:
        logger.info("SSH password log-in for %r refused: %s", username, refused)
        return None


def key_fingerprint(public_key: str) -> str:
    """An OpenSSH public key line as ``ssh ssh-ed25519 SHA256:...``, the way
    ``ssh-keygen -l`` prints it, so a caller can tell which of their keys it is."""
    key = normalize_public_key(public_key)
    key_type, encoded = key.split()
    digest = hashlib.sha256(base64.b64decode(encoded)).digest()
    return f"{key_type} SHA256:{base64.b64encode(digest).decode().rstrip('=')}"


async def ssh_key_login(store: Store | None, username: str, public_key: str) -> Account | None:
    """The account, if ``public_key`` (an OpenSSH line) is attached to the account whose
    handle is ``username``; else None."""
    if store is None:
        return None
    try:
        account = await store.account_for_public_key(public_key)
    except StoreError:
        return None
    if account is None or handle_key(account.handle) != handle_key(username):
        return None
    return account
