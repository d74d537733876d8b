"""The sysop's bans screen and recent-chat screen, drawn from their views. Pure drawing,
80 columns (rows 2-19 for the list, then the line being typed, the message and the keys,
as every screen has them)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from door.app.moderation import HeardLine
from door.defence.bans import Ban
from door.defence.mutes import Mute
from door.screens import theme
from door.screens.account import draw_title
from door.screens.chat import Entry, draw_entry
from door.screens.frame import draw_message, draw_status
from door.screens.layout import SCREEN_COLS
from door.term.ansi import sanitize
from door.term.canvas import Canvas

TOP: Final = 2
LAST_ROW: Final = 19
LIST_ROWS: Final = LAST_ROW - TOP - 1
"""Bans or chat lines one page shows (below its heading)."""


@dataclass
class ModerationView:
    """A title, the rows of one page, the line typed, the message, the keys."""

    title: str
    entry: Entry | None = None
    message: str = ""
    error: bool = False
    status: str = ""
    first: int = 0
    """The place in the whole list of the page's first row (from 0)."""


@dataclass
class BansView(ModerationView):
    bans: Sequence[Ban] = field(default_factory=list)


@dataclass
class RecentChatView(ModerationView):
    lines: Sequence[HeardLine] = field(default_factory=list)
    mutes: Sequence[Mute] = field(default_factory=list)


def _moment(moment: dt.datetime | None) -> str:
    return moment.astimezone(dt.UTC).strftime("%m-%d %H:%M") if moment else "-"


def _rule(canvas: Canvas, row: int, title: str) -> None:
    canvas.fill(row, 0, SCREEN_COLS, "─", theme.DIM)
    canvas.put(row, 2, f" {title} ", theme.LABEL)


def _finish(canvas: Canvas, view: ModerationView) -> tuple[Canvas, tuple[int, int] | None]:
    cursor = draw_entry(canvas, view.entry) if view.entry is not None else None
    # Without a line being typed its row is free: a question (whom a ban bars) wraps there.
    draw_message(canvas, view.message, error=view.error, spare=0 if view.entry else 1)
    draw_status(canvas, view.status)
    return canvas, cursor


TARGET_WIDTH: Final = 22
BAN_HEADING: Final = (
    f"{'#':>4}  {'Banned':<{TARGET_WIDTH}} {'Ends (UTC)':<11}  {'By':<10} Reason (told them)"
)


def ban_row(ban: Ban) -> str:
    ends = _moment(ban.until) if ban.until else "never"
    target = _cut(str(ban.target), TARGET_WIDTH)
    row = f"{ban.id:>4}  {target:<{TARGET_WIDTH}} {ends:<11}  {ban.actor[:10]:<10} {ban.reason}"
    return _cut(row, SCREEN_COLS - 2)


def _cut(text: str, width: int) -> str:
    """``text`` in ``width`` columns, a cut one ending in "~"."""
    return text if len(text) <= width else text[: width - 1] + "~"


def draw_bans(view: BansView) -> tuple[Canvas, tuple[int, int] | None]:
    canvas = Canvas()
    draw_title(canvas, view.title)
    _rule(canvas, TOP - 1, f"Bans in force ({len(view.bans)})")
    canvas.put(TOP, 1, BAN_HEADING, theme.LABEL)
    if not view.bans:
        canvas.put(TOP + 2, 6, "Nobody is banned.", theme.DIM)
    for offset, ban in enumerate(view.bans[view.first : view.first + LIST_ROWS]):
        canvas.put(TOP + 1 + offset, 1, ban_row(ban), theme.TEXT)
    return _finish(canvas, view)


CHAT_HEADING: Final = f"{'#':>3}  {'When':<5}  {'Who':<15}  {'From':<18}  Said"
ADDRESS_WIDTH: Final = 18
"""An IPv4 address whole; an IPv6 one's first part, then "~" (the sysop bans its /64)."""


def _from(line: HeardLine) -> str:
    """Where the speaker calls from: a linked BBS's caller "via NODES", since the address
    is the BBS's, every caller of it the same (a ban of it bars them all)."""
    return _cut(f"via {sanitize(line.bbs, 20)}" if line.bbs else line.address or "-", ADDRESS_WIDTH)


def chat_row(number: int, line: HeardLine, muted: bool) -> str:
    who = sanitize(line.speaker, 14) + ("*" if muted else "")
    when = line.at.astimezone(dt.UTC).strftime("%H:%M")
    # A table's line says so ("table Bob vs Eve" is too long beside it); the lobby's is bare.
    said = line.text if line.where == "lobby" else f"[{line.where.split()[0]}] {line.text}"
    row = f"{number:>3}  {when:<5}  {who:<15}  {_from(line):<18}  {said}"
    return _cut(row, SCREEN_COLS - 2)


def draw_recent_chat(view: RecentChatView) -> tuple[Canvas, tuple[int, int] | None]:
    canvas = Canvas()
    draw_title(canvas, view.title)
    muted = {mute.name.casefold() for mute in view.mutes}
    _rule(canvas, TOP - 1, "Recent chat here, lobby and tables, newest first, UTC (* muted)")
    canvas.put(TOP, 1, CHAT_HEADING, theme.LABEL)
    if not view.lines:
        canvas.put(TOP + 2, 6, "Nobody has said anything yet.", theme.DIM)
    shown = view.lines[view.first : view.first + LIST_ROWS]
    for offset, line in enumerate(shown):
        number = view.first + offset + 1
        is_muted = line.speaker.casefold() in muted
        style = theme.DIM if is_muted else theme.TEXT
        canvas.put(TOP + 1 + offset, 1, chat_row(number, line, is_muted), style)
    return _finish(canvas, view)
