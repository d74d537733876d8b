"""Names that look alike (the TR39 confusable skeleton) are one name: a guest cannot pass
for a member, the sysop or anyone online, nor a new handle for an old one."""

from __future__ import annotations

import doctest

import pytest

import door.defence.lookalike
from door.app.members import NameInUse
from door.app.presence import Presence
from door.defence.lookalike import looks_like, skeleton
from door.storage.errors import HandleTakenError
from door.ui.session import Session
from tests.door.caller import run_async
from tests.door.fake_terminal import FakeTerminal
from tests.door.storage.conftest import Database


def test_module_examples_run() -> None:
    assert doctest.testmod(door.defence.lookalike).failed == 0


@pytest.mark.parametrize(
    ("name", "other", "alike"),
    [
        ("\u0410da", "Ada", True),  # Cyrillic capital A
        ("\u0430da", "ada", True),  # Cyrillic small a
        ("A\u200bda", "Ada", True),  # a zero-width space inside
        ("A\u00adda", "Ada", True),  # a soft hyphen inside
        ("\u202eAda", "Ada", True),  # a bidi override in front
        ("\uff21\uff44\uff41", "Ada", True),  # full width
        ("\U0001d400da", "Ada", True),  # mathematical bold capital A
        ("Sys\u043ep", "Sysop", True),  # Cyrillic o
        ("Bi11", "Bill", True),  # digits one as l
        ("Kim", "Kirn", True),  # m as r n
        ("Ada  Lovelace", "ada lovelace", True),
        ("Ada", "Eda", False),
        ("Zoë", "Zoe", False),  # a diaeresis is not a look-alike
        ("Bob", "Bobby", False),
    ],
)
def test_skeletons_tell_which_names_look_alike(name: str, other: str, alike: bool) -> None:
    assert looks_like(name, other) is alike
    assert (skeleton(name) == skeleton(other)) is alike


def test_a_guest_cannot_take_a_name_that_looks_like_someone_online_or_the_sysop() -> None:
    presence = Presence("Sysop")
    presence.join("Ada", Session(FakeTerminal()))
    with pytest.raises(NameInUse, match="looks like Ada"):
        presence.join("\u0410da", Session(FakeTerminal()))
    with pytest.raises(NameInUse, match="sysop"):
        presence.join("Sys\u043ep", Session(FakeTerminal()))
    assert presence.join("Eda", Session(FakeTerminal())).name == "Eda"
    # The looks of who is online are kept as they come and go (door/app/presence.py).
    presence.leave(presence.members["ada"])
    assert presence.join("\u0410da", Session(FakeTerminal())).name == "\u0410da"
    with pytest.raises(NameInUse, match="looks like \u0410da"):
        presence.join("ADA", Session(FakeTerminal()))


@run_async
async def test_a_new_handle_that_looks_like_a_member_s_is_refused(database: Database) -> None:
    async with database.store(reserved_handles=("Sysop",)) as store:
        await store.create_account("Bill", "a long enough password")
        with pytest.raises(HandleTakenError, match="looks too much like Bill"):
            await store.check_new_handle("Bi11")
        with pytest.raises(HandleTakenError, match="looks too much like Sysop"):
            await store.check_new_handle("Sys0p")
        assert await store.lookalike_handle("Bi1l") == "Bill"
        assert await store.lookalike_handle("Ben") is None
