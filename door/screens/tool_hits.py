"""What a click on one of the sysop's tool screens means (the tools menu, the members,
one member, the audit, the bans, the recent chat): the hit map of one frame.

Every key the key bar offers is pressed by a click on its words, the line being typed
included (``RETURN done  Esc cancel``); a line of the tools menu is its key; a member
on the list is opened by a click on their line (their number and RETURN, as the sysop
would type them). The wheel turns the pages of a list as N and P do. While a line is
typed only the key bar is clicked: a click on the list must not type into the line.
"""

from __future__ import annotations

from typing import Protocol

from door.screens.chat import Entry
from door.screens.layout import SCREEN_COLS, STATUS_ROW
from door.screens.sysop_tools import MEMBER_ROWS, TOP, MembersView, MenuView, menu_row
from door.term.clicks import Hit, HitMap, key_line_hits
from door.term.keys import Key

PAGE_KEYS = (Key.printable("p"), Key.printable("n"))
"""The wheel up and down on a list: its previous and next page."""


class ToolView(Protocol):
    """What every tool screen's view has: the line typed, if any, and the key bar."""

    entry: Entry | None
    status: str


def key_bar_hits(view: ToolView) -> HitMap:
    """The offers of the key bar only (one member's screen)."""
    return HitMap(key_line_hits(view.status, STATUS_ROW))


def list_hits(view: ToolView) -> HitMap:
    """The key bar, and the wheel turning the list's pages (the audit, bans, chat)."""
    hits = key_bar_hits(view)
    return hits if view.entry is not None else hits.scrolled_by(*PAGE_KEYS)


def menu_hits(view: MenuView) -> HitMap:
    """The key bar, and each line of the menu standing for its key."""
    hits = key_bar_hits(view)
    if view.entry is not None:
        return hits
    lines = tuple(
        Hit(menu_row(number), 1, SCREEN_COLS - 1, (Key.printable(key),))
        for number, (key, _) in enumerate(view.items)
    )
    return hits + HitMap(lines)


def members_hits(view: MembersView) -> HitMap:
    """The key bar and the wheel over the pages, and each member's line opening them."""
    hits = list_hits(view)
    if view.entry is not None:
        return hits
    lines = []
    for offset in range(min(len(view.members), MEMBER_ROWS)):
        number = str(view.first + offset + 1)
        keys = (*(Key.printable(digit) for digit in number), Key.ENTER)
        lines.append(Hit(TOP + 1 + offset, 1, SCREEN_COLS - 1, keys))
    return hits + HitMap(tuple(lines))
