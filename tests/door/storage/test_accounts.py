"""Accounts in the store: sign-up, log-in, lock-out and SSH keys, on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt

import argon2
import asyncssh
import pytest
from sqlalchemy import select

from door.storage.errors import (
    AccountLockedError,
    HandleError,
    HandleTakenError,
    LoginError,
    PasswordRuleError,
    SshKeyError,
)
from door.storage.schema import accounts
from door.storage.store import LoginPolicy
from tests.door.caller import run_async
from tests.door.storage.conftest import Database

PASSWORD = "correct horse"


class FakeClock:
    def __init__(self) -> None:
        self.now = dt.datetime(2025, 3, 1, 12, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


async def stored_hash(store: object, handle_key: str) -> str:
    async with store._engine.connect() as connection:  # type: ignore[attr-defined]
        value = await connection.scalar(
            select(accounts.c.password_hash).where(accounts.c.handle_key == handle_key)
        )
    assert isinstance(value, str)
    return value


@run_async
async def test_a_new_account_logs_in_with_its_password_in_any_case_of_handle(
    database: Database,
) -> None:
    async with database.store() as store:
        created = await store.create_account("  Ada  Lovelace ", PASSWORD)
        assert created.handle == "Ada Lovelace"
        account = await store.verify_login("ADA LOVELACE", PASSWORD)
        assert (account.id, account.handle) == (created.id, "Ada Lovelace")
        assert account.last_login_at is not None


@run_async
async def test_the_password_is_kept_only_as_an_argon2id_hash(database: Database) -> None:
    async with database.store(hasher=argon2.PasswordHasher()) as store:
        await store.create_account("Ada", PASSWORD)
        password_hash = await stored_hash(store, "ada")
    assert password_hash.startswith("$argon2id$")
    assert PASSWORD not in password_hash
    assert argon2.PasswordHasher().verify(password_hash, PASSWORD)


@run_async
async def test_a_handle_differing_only_in_case_is_taken(database: Database) -> None:
    async with database.store() as store:
        await store.create_account("Ada", PASSWORD)
        with pytest.raises(HandleTakenError, match='Someone already has the handle "ADA"'):
            await store.create_account("ADA", PASSWORD)
        with pytest.raises(HandleTakenError):
            await store.check_new_handle(" ada ")
        assert await store.check_new_handle("Ada2") == "Ada2"


@pytest.mark.parametrize(
    ("handle", "complaint"),
    [
        ("A" * 21, "at most 20 characters long (that one has 21)"),
        ("Bad\x1b[2Jname", "control characters"),
        ("Tab\there", "control characters"),
        ("Zero\u200bwidth", "control characters"),
        ("9lives", "must start with a letter"),
        ("X", "at least 2 characters"),
        ("guest", "kept for the door"),
        ("Zoë", "only letters A-Z"),
    ],
)
@run_async
async def test_a_handle_that_breaks_the_rules_is_refused_and_not_stored(
    database: Database, handle: str, complaint: str
) -> None:
    async with database.store() as store:
        with pytest.raises(HandleError, match=complaint.replace("(", r"\(").replace(")", r"\)")):
            await store.create_account(handle, PASSWORD)
        assert await store.leaderboard() == []
        assert await store.account(handle) is None


@run_async
async def test_a_weak_password_is_refused(database: Database) -> None:
    async with database.store() as store:
        with pytest.raises(PasswordRuleError, match="at least 8"):
            await store.create_account("Ada", "short")
        with pytest.raises(PasswordRuleError, match="cannot be your handle"):
            await store.create_account("Adalovelace", "ADALOVELACE")
        assert await store.account("Ada") is None


@run_async
async def test_a_wrong_password_and_an_unknown_handle_get_the_same_answer(
    database: Database,
) -> None:
    async with database.store() as store:
        await store.create_account("Ada", PASSWORD)
        with pytest.raises(LoginError) as wrong_password:
            await store.verify_login("Ada", "incorrect horse")
        with pytest.raises(LoginError) as unknown:
            await store.verify_login("Babbage", PASSWORD)
    assert str(wrong_password.value) == str(unknown.value) == "Wrong handle or password."
    assert not isinstance(wrong_password.value, AccountLockedError)


@run_async
async def test_too_many_wrong_passwords_lock_the_account_until_the_lockout_ends(
    database: Database,
) -> None:
    clock = FakeClock()
    policy = LoginPolicy(3, dt.timedelta(minutes=10), dt.timedelta(minutes=15))
    async with database.store(policy=policy, clock=clock) as store:
        await store.create_account("Ada", PASSWORD)
        for _ in range(2):
            with pytest.raises(LoginError) as refused:
                await store.verify_login("Ada", "guess")
            assert not isinstance(refused.value, AccountLockedError)
        with pytest.raises(AccountLockedError, match="locked for 15 minutes") as locked:
            await store.verify_login("Ada", "guess")
        assert locked.value.seconds_left == 15 * 60

        clock.advance(minutes=5)
        with pytest.raises(AccountLockedError, match="locked for 10 minutes"):
            await store.verify_login("Ada", PASSWORD)  # even the right password waits

        clock.advance(minutes=10, seconds=1)
        assert (await store.verify_login("Ada", PASSWORD)).handle == "Ada"


@run_async
async def test_wrong_passwords_spread_beyond_the_window_do_not_lock(database: Database) -> None:
    clock = FakeClock()
    policy = LoginPolicy(3, dt.timedelta(minutes=10), dt.timedelta(minutes=15))
    async with database.store(policy=policy, clock=clock) as store:
        await store.create_account("Ada", PASSWORD)
        for _ in range(6):
            with pytest.raises(LoginError) as refused:
                await store.verify_login("Ada", "guess")
            assert not isinstance(refused.value, AccountLockedError)
            clock.advance(minutes=6)  # two failures at most inside any 10 minutes


@run_async
async def test_a_right_password_clears_the_count_of_wrong_ones(database: Database) -> None:
    policy = LoginPolicy(3, dt.timedelta(minutes=10), dt.timedelta(minutes=15))
    async with database.store(policy=policy, clock=FakeClock()) as store:
        await store.create_account("Ada", PASSWORD)
        for _ in range(3):
            for _ in range(2):
                with pytest.raises(LoginError):
                    await store.verify_login("Ada", "guess")
            await store.verify_login("Ada", PASSWORD)


@run_async
async def test_a_password_hashed_with_old_parameters_is_rehashed_at_log_in(
    database: Database,
) -> None:
    async with database.store() as store:
        await store.create_account("Ada", PASSWORD)
        old_hash = await stored_hash(store, "ada")
    stronger = argon2.PasswordHasher(time_cost=2, memory_cost=16, parallelism=1)
    async with database.store(hasher=stronger) as store:
        await store.verify_login("Ada", PASSWORD)
        new_hash = await stored_hash(store, "ada")
    assert new_hash != old_hash and "m=16,t=2" in new_hash
    assert stronger.verify(new_hash, PASSWORD)


@run_async
async def test_a_public_key_logs_in_the_account_it_is_attached_to(database: Database) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    line = key.export_public_key().decode().strip() + " ada@laptop"
    other = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode()
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        bob = await store.create_account("Bob", PASSWORD)
        stored = await store.add_ssh_key(ada.id, line)
        assert stored == " ".join(line.split()[:2])  # kept without the comment
        assert await store.add_ssh_key(ada.id, line) == stored  # adding it again: no change
        found = await store.account_for_public_key(key.export_public_key().decode())
        assert found is not None and found.id == ada.id
        assert await store.account_for_public_key(other) is None
        assert await store.account_for_public_key("not a key") is None
        with pytest.raises(SshKeyError, match="another account"):
            await store.add_ssh_key(bob.id, line)
        assert await store.ssh_keys_for(ada.id) == [stored]
        assert await store.remove_ssh_key(ada.id, line)
        assert await store.account_for_public_key(line) is None


@run_async
async def test_changing_the_password(database: Database) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        with pytest.raises(PasswordRuleError):
            await store.change_password(ada.id, "ada")
        await store.change_password(ada.id, "battery staple")
        with pytest.raises(LoginError):
            await store.verify_login("Ada", PASSWORD)
        assert (await store.verify_login("Ada", "battery staple")).id == ada.id


@run_async
async def test_the_sysops_name_cannot_be_taken_as_a_handle(database: Database) -> None:
    async with database.store(reserved_handles=("Merlin",)) as store:
        with pytest.raises(HandleError, match="kept for the door"):
            await store.create_account("MERLIN", PASSWORD)
        with pytest.raises(HandleError, match="kept for the door"):
            await store.check_new_handle("merlin")
        assert (await store.create_account("Merlina", PASSWORD)).handle == "Merlina"
