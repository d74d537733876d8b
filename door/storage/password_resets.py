"""The sysop's one-time password reset codes in the store: a new code for a member (only
its hash kept), whether a typed one matches, and using it, once, to set a new password.
The codes themselves (their shape, hash and lifetime) are door/storage/reset_codes.py.
"""

from __future__ import annotations

import datetime as dt
import secrets

from sqlalchemy import delete, select, update

from door.storage import reset_codes
from door.storage.accounts import AccountStore
from door.storage.errors import LoginError
from door.storage.member_checks import member_row, valid_reset_code
from door.storage.rules import check_password
from door.storage.schema import accounts, password_resets
from door.storage.values import Account


class PasswordResetStore(AccountStore):
    """One-time password reset codes, which the sysop gives a member who lost theirs."""

    async def make_reset_code(self, handle: str) -> tuple[Account, str, dt.datetime]:
        """A new one-time code for the member (replacing any earlier one), shown in groups
        (``ABCD-EFGH-JKMN``), valid for reset_codes.VALID_FOR; only its hash is kept. Any
        lock-out by wrong passwords is lifted, so the member can use it at once."""
        code = reset_codes.new_code()
        now = self._clock()
        expires = now + reset_codes.VALID_FOR
        async with self._transaction() as connection:
            row = await member_row(connection, handle)
            await connection.execute(
                delete(password_resets).where(password_resets.c.account_id == row.id)
            )
            await connection.execute(
                password_resets.insert().values(
                    account_id=row.id,
                    code_hash=reset_codes.code_hash(code),
                    created_at=now,
                    expires_at=expires,
                )
            )
            await connection.execute(
                update(accounts)
                .where(accounts.c.id == row.id)
                .values(locked_until=None, failed_logins=0, first_failed_at=None)
            )
        account = Account(row.id, row.handle, row.created_at, row.last_login_at)
        return account, reset_codes.shown(code), expires

    async def reset_code_matches(self, account_id: int, typed: str) -> bool:
        """Whether ``typed`` is the account's reset code, still valid."""
        async with self._transaction() as connection:
            return await valid_reset_code(connection, account_id, typed, self._clock())

    async def reset_password(self, account_id: int, code: str, password: str) -> Account:
        """Use the reset code (once) to set ``password``; the old password stops working.
        Raises PasswordRuleError for a password breaking the rules, LoginError when the
        code is no longer valid (used, replaced or expired meanwhile)."""
        now = self._clock()
        async with self._transaction() as connection:
            row = (
                await connection.execute(select(accounts).where(accounts.c.id == account_id))
            ).first()
        if row is None:
            raise LoginError("That account no longer exists.")
        check_password(password, row.handle)
        password_hash = await self._hashing(self._hasher.hash, password)
        normalized = reset_codes.normalized(code) or secrets.token_hex(8)
        async with self._transaction() as connection:
            used = await connection.execute(
                delete(password_resets).where(
                    password_resets.c.account_id == account_id,
                    password_resets.c.code_hash == reset_codes.code_hash(normalized),
                    password_resets.c.expires_at > now,
                )
            )
            if not used.rowcount:
                raise LoginError("That reset code is no longer valid: ask the sysop for a new one.")
            await connection.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(
                    password_hash=password_hash,
                    last_login_at=now,
                    failed_logins=0,
                    first_failed_at=None,
                    locked_until=None,
                )
            )
        return Account(row.id, row.handle, row.created_at, now)
