"""Callers who come through a BBS's door get an account keyed by (BBS, user number)."""

from __future__ import annotations

import asyncio

import pytest

from door.storage.errors import LoginError
from door.storage.rules import handle_candidates
from tests.door.caller import run_async
from tests.door.storage.conftest import Database

PASSWORD = "correct horse battery"


@pytest.mark.parametrize(
    ("alias", "first"),
    [
        ("Ada", "Ada"),
        ("  Dr.  Who?? ", "Dr. Who"),
        ("42 Zaphod", "Zaphod"),
        ("Ünïcode Ñame", "Unicode Name"),
        ("x", "Caller"),
        ("guest", "Caller"),
        ("A very long alias indeed here", "A very long alias in"),
    ],
)
def test_an_alias_becomes_a_handle_that_keeps_the_rules(alias: str, first: str) -> None:
    candidates = handle_candidates(alias)
    assert next(candidates) == first
    assert next(candidates) == f"{first[:18].strip()} 2"


def test_the_sysops_name_is_never_a_callers_handle() -> None:
    assert next(handle_candidates("Sysop Sam", reserved=("Sysop Sam",))) == "Sysop Sam 2"


@run_async
async def test_the_same_bbs_user_gets_the_same_account_every_call(database: Database) -> None:
    async with database.store() as store:
        first = await store.bbs_account("FakeBBS 1.0", "#12", "Ada")
        again = await store.bbs_account("FakeBBS 1.0", "#12", "Ada Renamed")
        other_bbs = await store.bbs_account("OtherBBS", "#12", "Ada")
        other_user = await store.bbs_account("FakeBBS 1.0", "#13", "Ada")
    assert again.id == first.id and again.handle == "Ada"
    assert first.handle == "Ada"
    assert {other_bbs.handle, other_user.handle} == {"Ada 2", "Ada 3"}
    assert len({first.id, other_bbs.id, other_user.id}) == 3


@run_async
async def test_a_members_handle_is_not_taken_and_nobody_logs_in_as_a_bbs_user(
    database: Database,
) -> None:
    async with database.store() as store:
        member = await store.create_account("Bob", PASSWORD)
        caller = await store.bbs_account("FakeBBS", "#1", "bob")
        with pytest.raises(LoginError):
            await store.verify_login(caller.handle, "")
    assert caller.handle == "bob 2" and caller.id != member.id


@run_async
async def test_two_nodes_making_the_same_callers_account_at_once_agree(database: Database) -> None:
    async with database.store() as store:
        accounts = await asyncio.gather(
            *(store.bbs_account("FakeBBS", "#7", "Cy") for _ in range(4))
        )
    assert len({account.id for account in accounts}) == 1


@run_async
async def test_a_bbs_caller_gets_no_held_handle_nor_one_that_looks_like_a_members(
    database: Database,
) -> None:
    async with database.store() as store:
        await store.create_account("Bob", PASSWORD)
        await store.rename_member("Bob", "Robert")  # "Bob" is held for 30 days
        await store.create_account("Adam", PASSWORD)
        held = await store.bbs_account("FakeBBS", "#1", "Bob")
        lookalike = await store.bbs_account("FakeBBS", "#2", "Adarn")  # rn reads as m
    assert (held.handle, lookalike.handle) == ("Bob 2", "Adarn 2")
