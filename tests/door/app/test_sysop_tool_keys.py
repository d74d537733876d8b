"""The sysop's tool screens declare their keys once (door/ui/bindings.py): every key runs
a method the screen has, the key bars are made from the declarations (the modules'
doctests), and the letters the sysop types reach the same actions as before."""

from __future__ import annotations

import doctest

import pytest

from door.app import moderation_screens, sysop_tools
from door.app.moderation_screens import LEAVE, BansScreen, RecentChatScreen
from door.app.sysop_tools import (
    AUDIT_KEYS,
    MEMBER_KEYS,
    MEMBERS_KEYS,
    TOOL_KEYS,
    TOOLS,
    MemberActions,
    MembersScreen,
)
from door.term.keys import Key
from door.ui.bindings import Bindings


@pytest.mark.parametrize(
    ("keys", "screen"),
    [
        (MEMBERS_KEYS, MembersScreen),
        (MEMBER_KEYS, MemberActions),
        (BansScreen.KEYS, BansScreen),
        (RecentChatScreen.KEYS, RecentChatScreen),
    ],
)
def test_every_key_runs_a_method_of_its_screen(keys: Bindings, screen: type) -> None:
    for binding in keys.bindings:
        if binding is not LEAVE:
            assert callable(getattr(screen, binding.action, None)), binding


def test_each_tool_has_its_key_and_escape_or_q_leave() -> None:
    assert [TOOL_KEYS.find(Key.printable(c)) for c in "mbca"] == [t.binding for t in TOOLS]
    for keys in (TOOL_KEYS, MEMBERS_KEYS, MEMBER_KEYS, AUDIT_KEYS, BansScreen.KEYS):
        assert keys.find(Key.ESCAPE) is LEAVE and keys.find(Key.printable("Q")) is LEAVE


def test_the_members_list_opens_by_number_enter_or_o_and_searches_by_slash_or_s() -> None:
    opening = [Key.printable(c) for c in "0123456789oO"] + [Key.ENTER]
    assert {MEMBERS_KEYS.find(key).action for key in opening} == {"open"}  # type: ignore[union-attr]
    searching = [Key.printable(c) for c in "/sS"]
    assert {MEMBERS_KEYS.find(key).action for key in searching} == {"search"}  # type: ignore[union-attr]
    assert MEMBERS_KEYS.find(Key.printable("x")) is None


@pytest.mark.parametrize("module", [sysop_tools, moderation_screens])
def test_the_key_bars_are_made_from_the_bindings(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted and not result.failed
