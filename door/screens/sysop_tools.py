"""The sysop's tools screens, drawn from their views: the tools menu, the members list,
one member, and the audit. Pure drawing, 80x24 (rows 1-20 for the content, then the line
being typed, the message and the keys, as every screen has them)."""

from __future__ import annotations

import datetime as dt
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from door.screens import theme
from door.screens.account import draw_title
from door.screens.chat import Entry, draw_entry
from door.screens.frame import draw_message, draw_status
from door.screens.layout import SCREEN_COLS
from door.storage.audit import AuditEntry
from door.storage.members import MemberDetail, MemberLine
from door.term.canvas import Canvas

TOP: Final = 2
LAST_ROW: Final = 20
MEMBER_ROWS: Final = LAST_ROW - TOP - 1
"""Members a page of the list shows (below its heading)."""
AUDIT_ROWS: Final = (LAST_ROW - TOP - 1) // 2
"""Audit entries a page shows, two rows each."""


@dataclass
class ToolsView:
    """What every tools screen has: a title, the line typed, the message, the keys."""

    title: str
    entry: Entry | None = None
    message: str = ""
    error: bool = False
    status: str = ""


@dataclass
class MenuView(ToolsView):
    items: Sequence[tuple[str, str]] = ()
    """Each tool's key and label, in the menu's order."""


@dataclass
class MembersView(ToolsView):
    members: Sequence[MemberLine] = ()
    search: str = ""
    first: int = 0
    """The place in the whole list of the page's first member (from 0)."""


@dataclass
class MemberView(ToolsView):
    detail: MemberDetail | None = None


@dataclass
class AuditView(ToolsView):
    entries: Sequence[AuditEntry] = field(default_factory=list)
    first: int = 0


def _day(moment: dt.datetime | None) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%d") if moment else "-"


def _moment(moment: dt.datetime | None) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M") if moment else "-"


def _rule(canvas: Canvas, row: int, title: str) -> None:
    canvas.fill(row, 0, SCREEN_COLS, "─", theme.DIM)
    canvas.put(row, 2, f" {title} ", theme.LABEL)


def _finish(canvas: Canvas, view: ToolsView) -> tuple[Canvas, tuple[int, int] | None]:
    cursor = draw_entry(canvas, view.entry) if view.entry is not None else None
    # A long message (a reset code and its end) wraps onto the typing row when it is free.
    draw_message(canvas, view.message, error=view.error, spare=0 if view.entry else 1)
    draw_status(canvas, view.status)
    return canvas, cursor


def draw_menu(view: MenuView) -> tuple[Canvas, tuple[int, int] | None]:
    canvas = Canvas()
    draw_title(canvas, view.title)
    _rule(canvas, TOP - 1, "Sysop's tools")
    for number, (key, label) in enumerate(view.items):
        canvas.put(TOP + 1 + 2 * number, 8, f"{key.upper():>2}", theme.TITLE)
        canvas.put(TOP + 1 + 2 * number, 12, label)
    return _finish(canvas, view)


MEMBER_HEADING: Final = (
    f"{'#':>3}  {'Handle':<20}  {'First call':<10}  {'Last call':<10}  {'Games':>5}  "
    f"{'Rating':>6}  Status"
)


def member_row(number: int, member: MemberLine) -> str:
    rating = f"{member.rating:6.0f}" if member.rating is not None else f"{'-':>6}"
    return (
        f"{number:>3}  {member.handle:<20}  {_day(member.first_call):<10}  "
        f"{_day(member.last_call):<10}  {member.games:>5}  {rating}  {member.status}"
    )


def draw_members(view: MembersView) -> tuple[Canvas, tuple[int, int] | None]:
    canvas = Canvas()
    draw_title(canvas, view.title)
    searched = f"Members whose handle holds {view.search!r}" if view.search else "Members"
    _rule(canvas, TOP - 1, searched)
    canvas.put(TOP, 1, MEMBER_HEADING, theme.LABEL)
    if not view.members:
        canvas.put(TOP + 2, 6, "Nobody" if view.search else "No members yet.", theme.DIM)
    for offset, member in enumerate(view.members[:MEMBER_ROWS]):
        style = theme.ERROR if member.status != "active" else theme.TEXT
        canvas.put(TOP + 1 + offset, 1, member_row(view.first + offset + 1, member), style)
    return _finish(canvas, view)


def member_lines(detail: MemberDetail) -> list[tuple[str, str]]:
    """The member screen's label and value lines, before the addresses."""
    line = detail.line
    rating = f"{line.rating:.0f}" if line.rating is not None else "none yet"
    lines = [
        ("Status", line.status),
        ("First call", f"{_moment(line.first_call)} UTC"),
        ("Last call", f"{_moment(line.last_call)} UTC" if line.last_call else "-"),
        ("Games", f"{line.games} ({detail.wins} won, {detail.losses} lost)   rating {rating}"),
    ]
    if detail.lock is not None:
        ends = f"until {_moment(detail.lock.ends)} UTC" if detail.lock.ends else "until unlocked"
        lines.append(("Locked", f"since {_moment(detail.lock.since)} UTC, {ends}"))
        lines.append(("Reason", detail.lock.reason))
    if detail.locked_out_until is not None:
        lines.append(
            ("Locked out", f"by wrong passwords until {_moment(detail.locked_out_until)} UTC")
        )
    if detail.reset_code_until is not None:
        lines.append(("Reset code", f"given, valid until {_moment(detail.reset_code_until)} UTC"))
    lines.append(("Note", detail.note or "-"))
    return lines


VALUE_COL: Final = 15
VALUE_WIDTH: Final = SCREEN_COLS - VALUE_COL - 1
LONG_VALUE_ROWS: Final = 3
"""Rows a lock's reason or the note may take (most are one line); past them it ends in
"..." (``cribbage-door user show`` prints it whole). With both at three rows, four
addresses still fit above the typing row."""


def _value_rows(label: str, value: str) -> list[str]:
    if label not in ("Reason", "Note"):
        return [value[:VALUE_WIDTH]]
    rows = textwrap.wrap(value, VALUE_WIDTH, break_long_words=True) or [""]
    if len(rows) > LONG_VALUE_ROWS:
        rows = rows[:LONG_VALUE_ROWS]
        rows[-1] = rows[-1][: VALUE_WIDTH - 3] + "..."
    return rows


def draw_member(view: MemberView) -> tuple[Canvas, tuple[int, int] | None]:
    canvas = Canvas()
    draw_title(canvas, view.title)
    detail = view.detail
    if detail is None:
        _rule(canvas, TOP - 1, "Member")
        canvas.put(TOP + 1, 6, "This member is no longer there.", theme.DIM)
        return _finish(canvas, view)
    _rule(canvas, TOP - 1, detail.line.handle)
    row = TOP
    for label, value in member_lines(detail):
        canvas.put(row, 2, f"{label}:", theme.LABEL)
        for text in _value_rows(label, value):
            canvas.put(row, VALUE_COL, text, theme.TEXT)
            row += 1
    _rule(canvas, row + 1, "Addresses seen lately")
    row += 2
    if not detail.addresses:
        canvas.put(row, 4, "None kept yet.", theme.DIM)
    room = LAST_ROW + 1 - row
    shown = detail.addresses if len(detail.addresses) <= room else detail.addresses[: room - 1]
    for seen in shown:
        calls = f"{seen.calls} call{'s' if seen.calls != 1 else ''}"
        text = f"{seen.address:<39}  last {_moment(seen.last_seen)}  {calls}"
        canvas.put(row, 4, text[: SCREEN_COLS - 5], theme.TEXT)
        row += 1
    if len(shown) < len(detail.addresses):
        more = len(detail.addresses) - len(shown)
        canvas.put(row, 4, f"and {more} more (cribbage-door user show prints them all)", theme.DIM)
    return _finish(canvas, view)


def audit_rows(entry: AuditEntry) -> tuple[str, str]:
    """An entry's two rows: when, who, what and on whom; then why and what else."""
    first = f"{_moment(entry.at)}  {entry.actor[:20]:<20}  {entry.action[:20]:<20}  "
    why = f"reason: {entry.reason}" if entry.reason else ""
    second = "   ".join(part for part in (why, entry.detail or "") if part)
    return first + (entry.target or "-"), second


def draw_audit(view: AuditView) -> tuple[Canvas, tuple[int, int] | None]:
    canvas = Canvas()
    draw_title(canvas, view.title)
    _rule(canvas, TOP - 1, "Audit: what the sysop did, newest first")
    heading = f"{'When (UTC)':<16}  {'Who':<20}  {'What':<20}  On whom"
    canvas.put(TOP, 1, heading, theme.LABEL)
    if not view.entries:
        canvas.put(TOP + 2, 6, "Nothing yet.", theme.DIM)
    for offset, entry in enumerate(view.entries[:AUDIT_ROWS]):
        first, second = audit_rows(entry)
        row = TOP + 1 + 2 * offset
        canvas.put(row, 1, first[: SCREEN_COLS - 2], theme.TEXT)
        canvas.put(row + 1, 5, second[: SCREEN_COLS - 6], theme.DIM)
    return _finish(canvas, view)
