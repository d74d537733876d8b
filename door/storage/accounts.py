"""Accounts in the store: handles, passwords and the lock-out, BBS users, SSH keys."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar

import argon2
from sqlalchemy import Row, case, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from door.defence.hash_pool import HashPoolFull, password_checks
from door.defence.lookalike import skeleton
from door.storage.database import StoreBase
from door.storage.errors import (
    AccountLockedError,
    HandleTakenError,
    LoginError,
    PasswordResetRequired,
    SshKeyError,
    StorageUnavailableError,
)
from door.storage.handle_index import FRESH_SECONDS, HandleIndex
from door.storage.member_checks import (
    held_handle_like,
    held_handles_now,
    held_refusal,
    valid_reset_code,
)
from door.storage.rules import (
    check_handle,
    check_password,
    handle_candidates,
    handle_key,
    normalize_public_key,
)
from door.storage.schema import accounts, bbs_users, ssh_keys
from door.storage.values import WRONG_LOGIN, Account

logger = logging.getLogger(__name__)

T = TypeVar("T")


async def _insert_account(
    connection: AsyncConnection,
    handle: str,
    password_hash: str,
    now: dt.datetime,
    last_login_at: dt.datetime | None = None,
) -> int:
    """A new row in accounts; raises IntegrityError when the handle is taken."""
    account_id = await connection.scalar(
        accounts.insert()
        .values(
            handle=handle,
            handle_key=handle_key(handle),
            password_hash=password_hash,
            created_at=now,
            last_login_at=last_login_at,
        )
        .returning(accounts.c.id)
    )
    assert account_id is not None
    return int(account_id)


class AccountStore(StoreBase):
    """Accounts, passwords and SSH keys (part of ``Store``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._handle_index: HandleIndex | None = None
        self._handle_index_read = 0.0
        self._handle_index_lock = asyncio.Lock()
        self.hash_pool = password_checks()
        """Where passwords are hashed and checked: a few at once for the whole process,
        each holding argon2's 64 MiB (door/defence/hash_pool.py)."""

    async def _hashing(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` through the hash pool; a full pool is the store being
        unavailable for this one request (a clear message, and the caller stays on)."""
        try:
            return await self.hash_pool.run(function, *args)
        except HashPoolFull as busy:
            raise StorageUnavailableError(str(busy), "every password check was taken") from None

    # --- accounts -----------------------------------------------------------------

    async def check_new_handle(self, handle: str) -> str:
        """The handle as it would be kept, if it follows the rules and nobody has it.

        Raises HandleError or HandleTakenError (and StorageUnavailableError): a sign-up
        screen asks this before asking for a password.
        """
        handle = check_handle(handle, self.reserved_handles)
        async with self._transaction() as connection:
            taken = await connection.scalar(
                select(accounts.c.id).where(accounts.c.handle_key == handle_key(handle))
            )
        if taken is not None:
            raise _taken(handle)
        async with self._transaction() as connection:
            held = await held_handle_like(connection, handle, self._clock())
        if held is not None:  # a renamed or deleted member's, for a while
            raise held_refusal(handle, held)
        lookalike = await self.lookalike_handle(handle)
        if lookalike is not None:
            raise HandleTakenError(
                f"{handle} looks too much like {lookalike}: please choose another handle."
            )
        return handle

    async def lookalike_handle(self, name: str, *, reserved: bool = True) -> str | None:
        """A member's handle (or, with ``reserved``, a reserved one) that is ``name`` or
        looks like it to a reader (the same TR39 confusable skeleton,
        door/defence/lookalike.py), from the store's index of handles."""
        wanted = skeleton(name)
        for kept in self.reserved_handles if reserved else ():
            if skeleton(kept) == wanted:
                return kept
        return (await self.handle_index()).lookalike(name)

    async def handle_index(self) -> HandleIndex:
        """Every member's handle, read once a minute at most (door/storage/handle_index.py);
        callers arriving together wait for one read."""
        now = time.monotonic()
        index = self._handle_index
        if index is not None and now - self._handle_index_read < FRESH_SECONDS:
            return index
        async with self._handle_index_lock:
            if self._handle_index is not None and now - self._handle_index_read < FRESH_SECONDS:
                return self._handle_index
            async with self._transaction() as connection:
                members = (await connection.scalars(select(accounts.c.handle))).all()
                # A renamed or deleted member's old handle is held from guests too.
                held = (await connection.scalars(held_handles_now(self._clock()))).all()
            self._handle_index = HandleIndex(str(handle) for handle in (*members, *held))
            self._handle_index_read = time.monotonic()
            return self._handle_index

    def _indexed(self, handle: str) -> None:
        """A new account's handle, in the index at once (this process made it)."""
        if self._handle_index is not None:
            self._handle_index.add(handle)

    async def create_account(self, handle: str, password: str) -> Account:
        """A new account. Raises HandleError (rules), HandleTakenError (someone has it,
        in any case), PasswordRuleError; the password is kept only as an argon2id hash."""
        handle = check_handle(handle, self.reserved_handles)
        check_password(password, handle)
        password_hash = await self._hashing(self._hasher.hash, password)
        now = self._clock()
        try:
            async with self._transaction() as connection:
                account_id = await _insert_account(connection, handle, password_hash, now)
        except IntegrityError:
            raise _taken(handle) from None
        self._indexed(handle)
        logger.info("new account %r", handle)
        return Account(account_id, handle, now)

    async def bbs_account(self, system: str, user_id: str, alias: str) -> Account:
        """The account of the caller ``user_id`` of the BBS ``system`` ("#12" for a drop
        file's user record 12, an RLogin alias lowercased), who comes in through it with no
        password: made on their first call, under their ``alias`` made
        to fit the handle rules (with a number added when a member here has it). Its
        password is a random secret nobody knows, so it logs in only through the BBS."""
        system = " ".join(system.split())[:60] or "BBS"
        user_id = user_id[:60]
        found = await self._bbs_account(system, user_id)
        if found is not None:
            return found
        secret = secrets.token_urlsafe(32)
        password_hash = await self._hashing(self._hasher.hash, secret)
        now = self._clock()
        for handle in handle_candidates(alias, self.reserved_handles):
            # As at sign-up: not a handle held after a rename or a deletion, nor one that
            # looks like a member's to a reader; the next candidate has a number added.
            if await self.lookalike_handle(handle) is not None:
                continue
            try:
                async with self._transaction() as connection:
                    if await held_handle_like(connection, handle, now) is not None:
                        continue
                    account_id = await _insert_account(
                        connection, handle, password_hash, now, last_login_at=now
                    )
                    await connection.execute(
                        bbs_users.insert().values(
                            system=system, user_id=user_id, account_id=account_id, created_at=now
                        )
                    )
            except IntegrityError:
                # The handle is a member's, or another node made this caller's account
                # at the same moment: then that one is theirs.
                found = await self._bbs_account(system, user_id)
                if found is not None:
                    return found
                continue
            self._indexed(handle)
            logger.info("new account %r for %r of %r", handle, user_id, system)
            return Account(account_id, handle, now, now)
        raise HandleTakenError(f"No handle like {alias!r} is free.")

    async def _bbs_account(self, system: str, user_id: str) -> Account | None:
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(accounts)
                    .join(bbs_users, bbs_users.c.account_id == accounts.c.id)
                    .where(bbs_users.c.system == system, bbs_users.c.user_id == user_id)
                )
            ).first()
            if row is None:
                return None
            now = self._clock()
            await connection.execute(
                update(accounts).where(accounts.c.id == row.id).values(last_login_at=now)
            )
        return Account(row.id, row.handle, row.created_at, now)

    async def account(self, handle: str) -> Account | None:
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(accounts).where(accounts.c.handle_key == handle_key(handle))
                )
            ).first()
        return account_from_row(row) if row is not None else None

    async def verify_login(self, handle: str, password: str) -> Account:
        """The account, if ``password`` is right and the account is not locked.

        Raises LoginError for a wrong handle or password (without saying which), and
        AccountLockedError when the policy's number of wrong passwords came within its
        window: the account then refuses every password until the lock-out ends.
        """
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(accounts).where(accounts.c.handle_key == handle_key(handle))
                )
            ).first()
        now = self._clock()
        if row is None:
            # Check against a hash all the same, so that a wrong handle takes as long as
            # a wrong password and the timing does not tell which handles exist.
            if not self._dummy_hash:
                self._dummy_hash = await self._hashing(self._hasher.hash, "no account")
            await self._hashing(self._password_matches, self._dummy_hash, password)
            raise LoginError(WRONG_LOGIN)
        if row.locked_until is not None and row.locked_until > now:
            raise _locked(row.handle, row.locked_until - now)
        if not await self._hashing(self._password_matches, row.password_hash, password):
            async with self._transaction() as connection:
                code = await valid_reset_code(connection, row.id, password, now)
            if code:  # the sysop's one-time code: a new password is chosen next
                raise PasswordResetRequired(row.id, row.handle)
            await self._count_failure(row.id, row.handle, now)
            raise LoginError(WRONG_LOGIN)
        values: dict[str, Any] = {
            "failed_logins": 0,
            "first_failed_at": None,
            "locked_until": None,
            "last_login_at": now,
        }
        if self._hasher.check_needs_rehash(row.password_hash):
            values["password_hash"] = await self._hashing(self._hasher.hash, password)
        async with self._transaction() as connection:
            await connection.execute(update(accounts).where(accounts.c.id == row.id).values(values))
        return Account(row.id, row.handle, row.created_at, now)

    def _password_matches(self, password_hash: str, password: str) -> bool:
        try:
            return self._hasher.verify(password_hash, password)
        except argon2.exceptions.VerifyMismatchError:
            return False
        except argon2.exceptions.InvalidHashError:
            logger.error("an account's password hash cannot be read; it cannot log in")
            return False

    async def _count_failure(self, account_id: int, handle: str, now: dt.datetime) -> None:
        # One UPDATE, so that wrong passwords tried at once on several lines all count.
        window_start = now - self.policy.window
        fresh = or_(accounts.c.first_failed_at.is_(None), accounts.c.first_failed_at < window_start)
        async with self._transaction() as connection:
            failures = await connection.scalar(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(
                    failed_logins=case((fresh, 1), else_=accounts.c.failed_logins + 1),
                    first_failed_at=case((fresh, now), else_=accounts.c.first_failed_at),
                )
                .returning(accounts.c.failed_logins)
            )
            locked = (
                self.policy.max_failures > 0
                and failures is not None
                and failures >= self.policy.max_failures
            )
            if locked:
                await connection.execute(
                    update(accounts)
                    .where(accounts.c.id == account_id)
                    .values(
                        failed_logins=0,
                        first_failed_at=None,
                        locked_until=now + self.policy.lockout,
                    )
                )
        if locked:
            # Raised only now: raising inside the transaction would roll the lock back.
            logger.warning("account %r locked after %d wrong passwords", handle, failures)
            raise _locked(handle, self.policy.lockout, after_wrong_password=True)

    async def change_password(self, account_id: int, password: str) -> None:
        """Set a new password. Raises PasswordRuleError for one that breaks the rules,
        LoginError if the account is gone."""
        async with self._transaction() as connection:
            handle = await connection.scalar(
                select(accounts.c.handle).where(accounts.c.id == account_id)
            )
        if handle is None:
            raise LoginError("That account no longer exists.")
        check_password(password, handle)
        password_hash = await self._hashing(self._hasher.hash, password)
        async with self._transaction() as connection:
            await connection.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(password_hash=password_hash)
            )

    # --- SSH keys -----------------------------------------------------------------

    async def add_ssh_key(self, account_id: int, public_key: str) -> str:
        """Attach an OpenSSH public key to the account; returns it as stored.

        Raises SshKeyError if it is not a key or another account has it. Adding a key
        the account already has changes nothing.
        """
        key = normalize_public_key(public_key)
        try:
            async with self._transaction() as connection:
                owner = await connection.scalar(
                    select(ssh_keys.c.account_id).where(ssh_keys.c.public_key == key)
                )
                if owner == account_id:
                    return key
                if owner is not None:
                    raise SshKeyError("That key is already attached to another account.")
                await connection.execute(
                    ssh_keys.insert().values(
                        account_id=account_id, public_key=key, added_at=self._clock()
                    )
                )
        except IntegrityError:
            raise SshKeyError("That key is already attached to another account.") from None
        return key

    async def remove_ssh_key(self, account_id: int, public_key: str) -> bool:
        key = normalize_public_key(public_key)
        async with self._transaction() as connection:
            result = await connection.execute(
                ssh_keys.delete().where(
                    ssh_keys.c.account_id == account_id, ssh_keys.c.public_key == key
                )
            )
        return result.rowcount > 0

    async def ssh_keys_for(self, account_id: int) -> list[str]:
        async with self._transaction() as connection:
            rows = await connection.scalars(
                select(ssh_keys.c.public_key)
                .where(ssh_keys.c.account_id == account_id)
                .order_by(ssh_keys.c.id)
            )
            return list(rows)

    async def account_for_public_key(self, public_key: str) -> Account | None:
        """The account a public key (an OpenSSH line, comment or not) logs in, or None."""
        try:
            key = normalize_public_key(public_key)
        except SshKeyError:
            return None
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(accounts)
                    .join(ssh_keys, ssh_keys.c.account_id == accounts.c.id)
                    .where(ssh_keys.c.public_key == key)
                )
            ).first()
        return account_from_row(row) if row is not None else None


def account_from_row(row: Row[Any]) -> Account:
    return Account(row.id, row.handle, row.created_at, row.last_login_at)


def _taken(handle: str) -> HandleTakenError:
    return HandleTakenError(f'Someone already has the handle "{handle}": choose another.')


def _locked(
    handle: str, left: dt.timedelta, *, after_wrong_password: bool = False
) -> AccountLockedError:

    seconds = max(1, int(left.total_seconds()))
    minutes = (seconds + 59) // 60
    wait = f"{minutes} minute{'s' if minutes != 1 else ''}"
    first = (
        "Wrong password, and too many of them"
        if after_wrong_password
        else "Too many wrong passwords"
    )
    return AccountLockedError(f"{first}: {handle} is locked for {wait}. Try again later.", seconds)
