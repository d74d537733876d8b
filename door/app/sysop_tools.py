"""The sysop's tools (``X`` in the sysop's lobby): a menu of screens, each declared once
in ``TOOLS`` (its key binding and screen); the members list with search, one member with
the sysop's actions on them, and the audit (read only). Each screen declares its keys
once (door/ui/bindings.py) and its key bar is made from them:

>>> MEMBER_STATUS
'L lock  U unlock  C reset code  E note  R rename  D delete  Esc back'
>>> MEMBERS_STATUS
'1-99/O open  / search  N next  P previous  Esc back  ^L redraw'

Every action is written to the audit under the sysop's name, as the shell's are under
``shell:<unix user>`` (door/member_commands.py). A member locked or deleted while online
is told why and hung up on, here or at another worker. A reset code is shown to the
sysop on this screen once, and never logged.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from door.app.member_watch import rename_seats
from door.app.moderation_screens import LEAVE
from door.app.moderation_screens import SCREENS as MODERATION_SCREENS
from door.app.presence import Member, Presence
from door.app.tool_screen import ToolScreen, unknown_key
from door.screens.speech import Said
from door.screens.sysop_tools import (
    AUDIT_ROWS,
    MEMBER_ROWS,
    AuditView,
    MembersView,
    MemberView,
    MenuView,
    draw_audit,
    draw_member,
    draw_members,
    draw_menu,
)
from door.screens.tool_hits import list_hits, members_hits, menu_hits
from door.screens.tool_speech import audit_said, member_said, members_said, menu_said
from door.storage.audit import MAX_LISTED, AuditEntry
from door.storage.errors import StoreError, refusal
from door.storage.members import MAX_NOTE_LENGTH, MAX_REASON_LENGTH
from door.storage.rules import MAX_HANDLE_LENGTH
from door.storage.store import Store
from door.term.ansi import last_words
from door.term.canvas import Canvas
from door.term.clicks import HitMap
from door.term.keys import Key
from door.ui.bindings import Binding, Bindings
from door.ui.session import Session

logger = logging.getLogger(__name__)

REFRESH_SECONDS: Final = 30.0
MAX_LOCK_HOURS: Final = 24 * 366 * 10
MENU_STATUS: Final = "Press a tool's key  Esc back to the lobby  ^L redraw"

MEMBERS_KEYS: Final = Bindings(
    (
        Binding("o", "open", "open", also=(Key.ENTER,)),
        Binding("/", "search", "search"),
        Binding("s", "search"),
        Binding("n", "next_page", "next"),
        Binding("p", "previous_page", "previous"),
        *(Binding(digit, "open") for digit in "0123456789"),  # typed as the number's start
        LEAVE,
    )
)
MEMBERS_STATUS: Final = MEMBERS_KEYS.menu_line("1-99/").text + "  Esc back  ^L redraw"
MEMBER_KEYS: Final = Bindings(
    (
        Binding("l", "lock", "lock"),
        Binding("u", "unlock", "unlock"),
        Binding("c", "reset_code", "reset code"),
        Binding("e", "note", "note"),
        Binding("r", "rename", "rename"),
        Binding("d", "delete", "delete"),
        LEAVE,
    )
)
MEMBER_STATUS: Final = MEMBER_KEYS.menu_line().text + "  Esc back"
AUDIT_KEYS: Final = Bindings(
    (
        Binding("n", "next_page", "next page"),
        Binding("p", "previous_page", "previous page"),
        LEAVE,
    )
)
AUDIT_STATUS: Final = AUDIT_KEYS.menu_line().text + "  Esc back  ^L redraw"


@dataclass(frozen=True)
class ToolPlace:
    """What a tool's screen works with: the sysop's session and presence, the store."""

    session: Session
    presence: Presence
    sysop: Member
    store: Store
    bbs_name: str


@dataclass(frozen=True)
class Tool:
    """A line of the tools menu: its key and words, and the screen it opens."""

    binding: Binding
    screen: Callable[[ToolPlace], Awaitable[None]]


# --- the menu ---------------------------------------------------------------------------


async def open_tools(
    session: Session, presence: Presence, sysop: Member, store: Store | None, bbs_name: str
) -> None:
    """The sysop's tools from the lobby (the sysop only); they need the database."""
    if not sysop.sysop:
        return
    if store is None:
        sysop.tell("The sysop's tools need the database, and accounts are off.")
        return
    await run_tools(ToolPlace(session, presence, sysop, store, bbs_name))


async def run_tools(place: ToolPlace) -> None:
    """The tools menu until the sysop goes back to the lobby."""
    view = MenuView(
        f"{place.bbs_name} · Sysop's tools",
        items=[(tool.binding.key, tool.binding.label) for tool in TOOLS],
        status=MENU_STATUS,
    )
    tools = ToolScreen(
        place.session,
        view,
        lambda: draw_menu(view),
        refresh_seconds=REFRESH_SECONDS,
        hits=lambda: menu_hits(view),
        said=lambda: menu_said(view),
        keys=TOOL_KEYS,
    )
    with place.session.showing(tools.screen):
        while True:
            clicks = (
                f", or {place.session.click_word} it"
                if place.session.mouse and not place.session.speech
                else ""
            )
            view.message = view.message or f"Choose a tool by its key{clicks}."
            key = await tools.next_key()
            if key is None:
                continue
            view.message, view.error = "", False
            binding = TOOL_KEYS.find(key)
            if binding is LEAVE:
                return
            tool = next((tool for tool in TOOLS if tool.binding is binding), None)
            if tool is None:
                view.message, view.error = unknown_key(key), True
                continue
            await tool.screen(place)
            place.session.redraw_all()


# --- members ----------------------------------------------------------------------------


async def members_screen(place: ToolPlace) -> None:
    await MembersScreen(place).run()


class MembersScreen(ToolScreen):
    """A page of members (all, or those whose handle holds the search); open one."""

    def __init__(self, place: ToolPlace) -> None:
        self.place = place
        self.members = MembersView(f"{place.bbs_name} · Members", status=MEMBERS_STATUS)
        super().__init__(
            place.session,
            self.members,
            self.draw,
            refresh_seconds=REFRESH_SECONDS,
            keys=MEMBERS_KEYS,
        )
        self.more = False

    def draw(self) -> tuple[Canvas, tuple[int, int] | None]:
        return draw_members(self.members)

    def hits(self) -> HitMap:
        return members_hits(self.members)

    def spoken(self) -> Said:
        return members_said(self.members)

    async def refresh(self) -> None:
        view = self.members
        found = await self.place.store.members(view.search, MEMBER_ROWS + 1, view.first)
        view.members, self.more = found[:MEMBER_ROWS], len(found) > MEMBER_ROWS

    async def run(self) -> None:
        view = self.members
        with self.place.session.showing(self.screen):
            error = await _tried(self.refresh)
            while True:
                clicks = self.session.mouse and not self.session.speech
                hint = _members_hint(view, click=self.session.click_word if clicks else None)
                view.message, view.error = error or view.message or hint, bool(error)
                key = await self.next_key()
                if key is None:
                    error = await _tried(self.refresh)
                    continue
                error, view.message = "", ""
                binding = MEMBERS_KEYS.find(key)
                if binding is LEAVE:
                    return
                if binding is None:
                    error = unknown_key(key)
                else:
                    error = await getattr(self, binding.action)(key)
                error = error or await _tried(self.refresh)

    async def search(self, key: Key) -> str:
        view = self.members
        text = await self.read_line("Search handles: ", MAX_HANDLE_LENGTH, view.search)
        if text is not None:
            view.search, view.first = text.strip(), 0
        return ""

    async def next_page(self, key: Key) -> str:
        if not self.more:
            return "This is the last page."
        self.members.first += MEMBER_ROWS
        return ""

    async def previous_page(self, key: Key) -> str:
        if not self.members.first:
            return "This is the first page."
        self.members.first = max(0, self.members.first - MEMBER_ROWS)
        return ""

    async def open(self, key: Key) -> str:
        initial = key.char if key.is_printable and key.char.isdigit() else ""  # a number begun
        text = await self.read_line("Open (number or handle): ", 20, initial)
        if not text:
            return ""
        handle = _chosen(self.members, text.strip())
        if handle is None:
            return f"There is no member {text.strip()} on this page."
        await member_screen(self.place, handle)
        self.place.session.redraw_all()
        return ""


def _members_hint(view: MembersView, *, click: str | None) -> str:
    if not view.members:
        return "Press / to search again." if view.search else "Nobody has signed up yet."
    if click:
        return f"Open a member by a {click} on their line or their number, or search with /."
    return "Open a member by their number, or search with /."


def _chosen(view: MembersView, text: str) -> str | None:
    """The handle a number on the page, or a handle, names."""
    if text.isdigit():
        index = int(text) - 1 - view.first
        if 0 <= index < len(view.members):
            return view.members[index].handle
        return None
    return text or None


async def _tried(action: Callable[[], Awaitable[object]]) -> str:
    """Run ``action``; what the store refused, or ""."""
    try:
        await action()
    except StoreError as refused:
        return refusal(refused)
    except ValueError as refused:
        return str(refused)
    return ""


# --- one member -------------------------------------------------------------------------


async def member_screen(place: ToolPlace, handle: str) -> None:
    """One member, and the sysop's actions on them."""
    view = MemberView(f"{place.bbs_name} · Member", status=MEMBER_STATUS)
    screen = ToolScreen(
        place.session,
        view,
        lambda: draw_member(view),
        refresh_seconds=REFRESH_SECONDS,
        said=lambda: member_said(view),
        keys=MEMBER_KEYS,
    )
    actions = MemberActions(place, screen, view)

    async def refresh() -> None:
        view.detail = await place.store.member(actions.handle)

    actions.handle = handle
    with place.session.showing(screen.screen):
        error = await _tried(refresh)
        if view.detail is None and not error:
            error = f"No member has the handle {handle!r}."
        while True:
            view.message, view.error = error or view.message, bool(error)
            key = await screen.next_key()
            if key is None:
                error = await _tried(refresh)
                continue
            error, view.message = "", ""
            binding = MEMBER_KEYS.find(key)
            if binding is LEAVE:
                return
            if binding is None or view.detail is None:
                error = unknown_key(key) if view.detail is not None else "Esc goes back."
                continue
            error = await _tried(getattr(actions, binding.action))
            if actions.gone:
                return
            error = error or await _tried(refresh)


class MemberActions:
    """The sysop's actions on the member shown (``MEMBER_KEYS``); each writes the audit."""

    def __init__(self, place: ToolPlace, screen: ToolScreen, view: MemberView) -> None:
        self.place = place
        self.screen = screen
        self.view = view
        self.handle = ""
        self.gone = False

    @property
    def actor(self) -> str:
        return self.place.sysop.name

    def say(self, text: str) -> None:
        self.view.message, self.view.error = text, False

    async def lock(self) -> None:
        reason = await self.screen.read_line("Why (the member is told): ", MAX_REASON_LENGTH)
        if not reason or not reason.strip():
            self.say("Not locked: a lock needs a reason.")
            return
        hours_text = await self.screen.read_line("For how many hours (empty: until unlocked): ", 8)
        if hours_text is None:
            self.say("Not locked.")
            return
        ends = None
        if hours_text.strip():
            try:
                hours = float(hours_text)
            except ValueError:
                raise ValueError(f"{hours_text.strip()!r} is not a number of hours.") from None
            if not 0 < hours <= MAX_LOCK_HOURS:
                raise ValueError(f"Hours run from more than 0 to {MAX_LOCK_HOURS}.")
            ends = dt.datetime.now(dt.UTC) + dt.timedelta(hours=hours)
        store = self.place.store
        account = await store.lock_member(self.handle, reason, ends)
        until = f"until {ends:%Y-%m-%d %H:%M} UTC" if ends else "until unlocked"
        await store.record_action(self.actor, "user.lock", account.handle, reason, until)
        lock = await store.sysop_lock(account.id)
        told = await self._hang_up(account.handle, lock.refusal(account.handle) if lock else "")
        self.say(
            f"{account.handle} is locked {until}." + (" They were online: hung up." if told else "")
        )

    async def unlock(self) -> None:
        account = await self.place.store.unlock_member(self.handle)
        await self.place.store.record_action(self.actor, "user.unlock", account.handle, None)
        self.say(f"{account.handle} is unlocked.")

    async def reset_code(self) -> None:
        if not await self.screen.confirm(
            f"Make a one-time reset code for {self.handle}? Their password works until it is used."
        ):
            return
        account, code, expires = await self.place.store.make_reset_code(self.handle)
        until = f"{expires:%Y-%m-%d %H:%M} UTC"
        await self.place.store.record_action(
            self.actor, "user.reset-password", account.handle, None, f"code valid until {until}"
        )
        self.say(f"Reset code for {account.handle}: {code}  (once, until {until}; shown only now)")

    async def note(self) -> None:
        detail = self.view.detail
        text = await self.screen.read_line(
            "Note: ", MAX_NOTE_LENGTH, detail.note or "" if detail else ""
        )
        if text is None:
            return
        account = await self.place.store.set_member_note(self.handle, text)
        await self.place.store.record_action(self.actor, "user.note", account.handle, None, text)
        self.say("Note kept." if text.strip() else "Note removed.")

    async def rename(self) -> None:
        new = await self.screen.read_line("New handle: ", MAX_HANDLE_LENGTH)
        if not new:
            return
        old, renamed = await self.place.store.rename_member(self.handle, new)
        await self.place.store.record_action(self.actor, "user.rename", renamed, None, f"was {old}")
        self.handle = renamed
        rename_seats(self.place.presence, old, renamed)  # the tables first, then the line
        # Online under the old handle, they would sit in the lobby, at tables and in
        # saved games as someone who no longer exists: the door hangs up and says how
        # to call again, as a lock does.
        told = await self._hang_up(
            old,
            f"The sysop renamed your account to {renamed}: call again and log in as "
            f"{renamed} (your password is unchanged).",
        )
        note = " They were online: hung up." if told else ""
        self.say(f"{old} is now {renamed}; {old} is held from others for 30 days.{note}")

    async def delete(self) -> None:
        if not await self.screen.confirm(
            f"Delete {self.handle} for good? Their games stay in others' records."
        ):
            return
        reason = await self.screen.read_line("Why (kept in the audit): ", MAX_REASON_LENGTH)
        if reason is None:
            self.say("Not deleted.")
            return
        deleted = await self.place.store.delete_member(self.handle)
        await self.place.store.record_action(
            self.actor, "user.delete", deleted.handle, reason, deleted.kept()
        )
        await self._hang_up(deleted.handle, "The sysop has removed your account.")
        self.gone = True

    async def _hang_up(self, handle: str, why: str) -> bool:
        """Tell the member ``why`` and hang up on them, if they are online (here or at
        another worker); whether they were."""
        member = self.place.presence.find(handle)
        if member is None or member is self.place.sysop or member.account is None:
            return False
        await member.line.hang_up(last_words(f"*** {why} ***"))
        logger.info("%r hung up on: %s", handle, why)
        return True


# --- the audit --------------------------------------------------------------------------


async def audit_screen(place: ToolPlace) -> None:
    view = AuditView(f"{place.bbs_name} · Audit", status=AUDIT_STATUS)
    everything: list[AuditEntry] = []
    screen = ToolScreen(
        place.session,
        view,
        lambda: _audit_page(view, everything),
        refresh_seconds=REFRESH_SECONDS,
        hits=lambda: list_hits(view),
        said=lambda: audit_said(_audit_view(view, everything)),
        keys=AUDIT_KEYS,
    )

    async def refresh() -> None:
        everything[:] = await place.store.recorded_actions(limit=MAX_LISTED)

    with place.session.showing(screen.screen):
        error = await _tried(refresh)
        while True:
            page = view.first // AUDIT_ROWS + 1
            pages = max(1, -(-len(everything) // AUDIT_ROWS))
            view.message, view.error = error or f"Page {page} of {pages}.", bool(error)
            key = await screen.next_key()
            if key is None:
                error = await _tried(refresh)
                continue
            error = ""
            binding = AUDIT_KEYS.find(key)
            if binding is LEAVE:
                return
            if binding is None:
                error = unknown_key(key)
            elif binding.action == "next_page" and view.first + AUDIT_ROWS < len(everything):
                view.first += AUDIT_ROWS
            elif binding.action == "previous_page" and view.first:
                view.first -= AUDIT_ROWS
            else:
                error = "There is no page that way."


def _audit_page(
    view: AuditView, everything: list[AuditEntry]
) -> tuple[Canvas, tuple[int, int] | None]:
    return draw_audit(_audit_view(view, everything))


def _audit_view(view: AuditView, everything: list[AuditEntry]) -> AuditView:
    """``view`` with the entries of its page (drawn, or said: a said screen is not drawn)."""
    view.entries = everything[view.first : view.first + AUDIT_ROWS]
    return view


TOOLS: Final[list[Tool]] = [
    Tool(
        Binding("m", "members", "Members: list, search, lock, reset a password, rename, delete"),
        members_screen,
    ),
    *(
        Tool(Binding(key, screen.__name__, label), screen)
        for key, label, screen in MODERATION_SCREENS
    ),
    Tool(
        Binding("a", "audit", "Audit: what the sysop did, at the door and from the shell"),
        audit_screen,
    ),
]
"""The tools menu, in its order; a new tool adds its entry here (its key, its screen)."""
TOOL_KEYS: Final = Bindings((*(tool.binding for tool in TOOLS), LEAVE))
