"""The sysop's tool screens in sentences, for a sysop with a screen reader: the tools
menu, the members, one member, the audit, the bans and the recent chat, a sentence a
row where the screens draw columns (read out cell by cell they mean nothing), then the
key bar as the words to act, and a prompt saying what is awaited. Pure: a view in
(door/screens/sysop_tools.py, door/screens/moderation.py), a ``Said`` out.

>>> keys_said("L lock  C reset code  Esc back")
'Keys: l lock, c reset code, back to go back.'
>>> keys_said("1-99/O open  / search  N next  Esc back  ^L redraw")
'Keys: a number or o open, / search, n next, back to go back.'
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Final, Protocol

from door.screens.account_speech import games_said
from door.screens.chat import Entry
from door.screens.moderation import LIST_ROWS, BansView, RecentChatView
from door.screens.speech import Said, keys_for_pointer
from door.screens.sysop_tools import (
    AUDIT_ROWS,
    AuditView,
    MembersView,
    MemberView,
    MenuView,
    member_lines,
)
from door.term.ansi import sanitize

CONFIRM_KEYS: Final = "Y yes  N no  Esc no"
"""The key bar while a tool screen asks yes or no (door/app/tool_screen.py)."""
YES_OR_NO: Final = "Type yes or no, then RETURN."
KEY_PROMPT: Final = "Type a key or its word, then RETURN."


class SaidView(Protocol):
    """What every tool screen's view has: the line typed, the message, the key bar."""

    title: str
    entry: Entry | None
    message: str
    status: str


def keys_said(status: str) -> str:
    """A key bar as a sentence: each key in lower case with its words (what a line may
    type: the key, or the words), Esc as the word back; ^L, a key of screens, dropped."""
    parts = []
    for offer in (part.strip() for part in status.split("  ")):
        key, _, words = offer.partition(" ")
        if not offer or key == "^L":
            continue
        if key == "Esc":
            parts.append("back to go back" if words == "back" else f"back: {words}")
        elif key.startswith("1-"):
            parts.append(f"a number or {key[-1].lower()} {words}")
        else:
            parts.append(f"{key.lower()} {words}")
    return f"Keys: {', '.join(parts)}."


def tool_said(view: SaidView, sentences: Iterable[str], keys: str = "") -> Said:
    """A tool screen: its title, its rows, then its keys (``keys``, or its key bar
    said); the line typed or the question asked as the prompt."""
    said = [f"{view.title.split(' · ')[-1]}.", *sentences]
    keys = keys or keys_said(view.status)
    if view.entry is not None:
        prompt = view.entry.prompt.strip()  # the message says RETURN and Esc
    elif view.status == CONFIRM_KEYS:
        prompt = YES_OR_NO
    else:
        said.append(keys)
        prompt = KEY_PROMPT
    # A key that does nothing sends the sysop to the key bar: said, the keys themselves.
    message = keys_for_pointer(view.message.replace(" Press Y or N.", ""), keys)
    return Said(tuple(said), message=message, prompt=prompt)


def menu_said(view: MenuView) -> Said:
    """Each tool, ``m: Members: list, search...``; a tool is typed as its letter or
    its name (the words before the colon)."""
    names = ", ".join(label.split(":")[0].lower() for _, label in view.items)
    keys = f"Type a tool's letter or its name ({names}); back goes back to the lobby."
    return tool_said(view, (f"{key}: {label}." for key, label in view.items), keys)


def _day(moment: dt.datetime | None) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%d") if moment else "never"


def _moment(moment: dt.datetime | None) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC") if moment else "never"


def members_said(view: MembersView) -> Said:
    """``3: Ada, 12 games, rating 1520, active; first call 2026-01-02, last 2026-03-04.``"""
    sentences = []
    if view.search:
        sentences.append(f"Members whose handle holds {view.search}.")
    if not view.members:
        sentences.append("Nobody." if view.search else "No members yet.")
    for number, member in enumerate(view.members, view.first + 1):
        rating = f"rating {member.rating:.0f}" if member.rating is not None else "no rating"
        sentences.append(
            f"{number}: {member.handle}, {games_said(member.games)}, {rating}, {member.status};"
            f" first call {_day(member.first_call)}, last {_day(member.last_call)}."
        )
    return tool_said(view, sentences)


def member_said(view: MemberView) -> Said:
    """One member: each line of theirs a sentence, then the addresses seen lately."""
    detail = view.detail
    if detail is None:
        return tool_said(view, ("This member is no longer there.",))
    sentences = [f"{detail.line.handle}."]
    for label, value in member_lines(detail):
        sentences.append(f"{label}: {' '.join(value.split())}.")
    if not detail.addresses:
        sentences.append("No addresses kept yet.")
    for seen in detail.addresses:
        calls = f"{seen.calls} call{'s' if seen.calls != 1 else ''}"
        sentences.append(f"Seen from {seen.address}, last {_moment(seen.last_seen)}, {calls}.")
    return tool_said(view, sentences)


def audit_said(view: AuditView) -> Said:
    """``2026-03-04 10:15 UTC: Sysop did user.lock on Ada; reason: spam; until unlocked.``"""
    sentences = [] if view.entries else ["Nothing yet."]
    for entry in view.entries[:AUDIT_ROWS]:
        parts = [f"{_moment(entry.at)}: {entry.actor} did {entry.action}"]
        parts[0] += f" on {entry.target}" if entry.target else ""
        if entry.reason:
            parts.append(f"reason: {entry.reason}")
        if entry.detail:
            parts.append(entry.detail)
        sentences.append("; ".join(parts) + ".")
    return tool_said(view, sentences)


def bans_said(view: BansView) -> Said:
    """``Ban 3: Eve, for good, by Sysop; reason: spam.``"""
    sentences = [f"Bans in force: {len(view.bans)}."]
    for ban in view.bans[view.first : view.first + LIST_ROWS]:
        ends = f"until {_moment(ban.until)}" if ban.until else "for good"
        by = f", by {ban.actor}" if ban.actor else ""
        sentences.append(f"Ban {ban.id}: {ban.target}, {ends}{by}; reason: {ban.reason}.")
    return tool_said(view, sentences)


def recent_chat_said(view: RecentChatView) -> Said:
    """``1: 10:15 UTC, Ada (muted), from 192.0.2.1, in the lobby: hello.``"""
    muted = {mute.name.casefold() for mute in view.mutes}
    sentences = [] if view.lines else ["Nobody has said anything yet."]
    for number, line in enumerate(view.lines[view.first : view.first + LIST_ROWS], view.first + 1):
        who = sanitize(line.speaker, 20) + (" (muted)" if line.speaker.casefold() in muted else "")
        when = line.at.astimezone(dt.UTC).strftime("%H:%M UTC")
        where = "in the lobby" if line.where == "lobby" else f"at {line.where}"
        address = f", from {line.address}" if line.address else ""
        if line.bbs:  # the address is the linked BBS's, every caller of it the same
            address = f", through {sanitize(line.bbs, 20)} ({line.address})"
        sentences.append(f"{number}: {when}, {who}{address}, {where}: {line.text}")
    return tool_said(view, sentences)
