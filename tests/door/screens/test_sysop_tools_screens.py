"""The sysop's tools screens at their fullest (the longest handle, reason, note and IPv6
addresses; a full page of members and of the audit) stay within 80x24: nothing runs
into the typing row, the message or the keys; a long reason or note takes three rows and
says where it is cut, addresses that do not fit say how many more there are."""

from __future__ import annotations

import datetime as dt

from door.screens.layout import ENTRY_ROW, MESSAGE_ROW, STATUS_ROW
from door.screens.sysop_tools import (
    AUDIT_ROWS,
    MEMBER_ROWS,
    AuditView,
    MembersView,
    MemberView,
    draw_audit,
    draw_member,
    draw_members,
)
from door.storage.audit import AuditEntry
from door.storage.members import MemberDetail, MemberLine, SeenAddress, SysopLock
from door.term.canvas import Canvas

WHEN = dt.datetime(2026, 11, 27, 22, 0, tzinfo=dt.UTC)
HANDLE = "Abcdefghij Klmnopqrs"  # 20 characters, the most a handle has
STATUS = "the keys"


def member(number: int) -> MemberLine:
    return MemberLine(f"{HANDLE[:18]}{number:02}", WHEN, WHEN, 99999, 2999.6, "locked out")


def rows_below_content(canvas: Canvas) -> list[str]:
    return [canvas.text(row).rstrip() for row in (ENTRY_ROW, MESSAGE_ROW, STATUS_ROW)]


def test_a_full_member_screen_keeps_its_rows() -> None:
    addresses = tuple(
        SeenAddress(f"2001:db8:aaaa:bbbb:cccc:dddd:eeee:{n:04x}", WHEN, WHEN, 1000)
        for n in range(10)
    )
    detail = MemberDetail(
        1,
        MemberLine(HANDLE, WHEN, WHEN, 99999, 2999.6, "locked"),
        50000,
        49999,
        SysopLock(WHEN, "r" * 200, WHEN + dt.timedelta(days=3650)),
        WHEN,
        WHEN,
        "n" * 500,
        addresses,
    )
    canvas, _ = draw_member(MemberView("Board · Member", detail=detail, message="m", status=STATUS))
    assert rows_below_content(canvas) == ["", " m", f" {STATUS}"]
    shown = [canvas.text(row).rstrip() for row in range(canvas.rows)]
    reason = shown.index("  Reason:      " + "r" * 64)
    assert shown[reason + 1 : reason + 3] == [" " * 15 + "r" * 64, " " * 15 + "r" * 61 + "..."]
    note = shown.index("  Note:        " + "n" * 64)
    assert shown[note + 2] == " " * 15 + "n" * 61 + "..."
    addresses = [text for text in shown if "2001:db8:aaaa" in text]
    after = shown.index(addresses[-1]) + 1
    assert shown[after].strip().startswith(f"and {10 - len(addresses)} more")
    assert after <= ENTRY_ROW - 1


def test_a_full_page_of_members_keeps_its_rows() -> None:
    view = MembersView("Board · Members", members=[member(n) for n in range(40)], first=980)
    view.message, view.status = "m", STATUS
    canvas, _ = draw_members(view)
    assert rows_below_content(canvas) == ["", " m", f" {STATUS}"]
    listed = [canvas.text(row) for row in range(canvas.rows) if HANDLE[:18] in canvas.text(row)]
    assert len(listed) == MEMBER_ROWS
    assert listed[-1].startswith(f"{980 + MEMBER_ROWS:>4}  {HANDLE[:18]}")
    assert listed[-1].rstrip().endswith("locked out")


def test_a_full_page_of_the_audit_keeps_its_rows() -> None:
    entry = AuditEntry(1, WHEN, "s" * 60, "a" * 40, "t" * 100, "r" * 500, "d" * 1000)
    view = AuditView("Board · Audit", entries=[entry] * 20, message="m", status=STATUS)
    canvas, _ = draw_audit(view)
    assert rows_below_content(canvas) == ["", " m", f" {STATUS}"]
    firsts = [row for row in range(canvas.rows) if canvas.text(row).startswith(" 2026-11-27")]
    assert len(firsts) == AUDIT_ROWS
    assert canvas.text(firsts[0] + 1).startswith("     reason: rrrr")
