"""The sysop's bans screen and recent-chat screen, two of the sysop's tools (door/app/
sysop_tools.py lists them from ``SCREENS``: key, words, screen).

Bans: the bans in force, a page at a time; A bans an address, a network or handle:NAME
(the reason, then hours or none for good), R lifts one by its number. Recent chat: the
last lines said in the lobby and at the tables of this door, newest first, with who and
where; M mutes the speaker of a line for a number of minutes, U lifts a mute, B bans the
speaker: the address they call from, or, for a caller of a linked BBS (RLogin), whose
address is the BBS's, their name. Barring a linked BBS's address, every caller of it, is
A on the bans screen, which names it so and asks first. Every
action goes through door/app/moderation.py, which writes the audit under the sysop's
name and puts it in force at every worker at once. Each screen declares its keys once
(``KEYS``, door/ui/bindings.py): the key bar is made from the same declarations.

>>> BansScreen.KEYS.menu_line().text + BACK
'A add  R remove  N next  P previous  Esc back'
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final

from door.app.moderation import (
    HeardLine,
    Moderation,
    ModerationError,
    every_caller_of,
)
from door.app.tool_screen import ToolPlace, ToolScreen, unknown_key
from door.defence.bans import HANDLE_PREFIX, MAX_REASON_LENGTH, Ban, ending
from door.screens.moderation import (
    LIST_ROWS,
    BansView,
    ModerationView,
    RecentChatView,
    draw_bans,
    draw_recent_chat,
)
from door.screens.speech import Said
from door.screens.tool_hits import list_hits
from door.screens.tool_speech import bans_said, recent_chat_said
from door.storage.errors import StoreError, refusal
from door.term.ansi import sanitize
from door.term.canvas import Canvas
from door.term.clicks import HitMap
from door.term.keys import Key
from door.ui.bindings import Binding, Bindings

REFRESH_SECONDS: Final = 5.0
"""How often an open screen reads the bans or the chat again without a key."""
BACK: Final = "  Esc back"
"""The end of every key bar here: Esc (or Q) leaves the screen."""
LEAVE: Final = Binding("q", "leave", also=(Key.ESCAPE,))


class ModerationScreen(ToolScreen):
    """A page of a list with its keys (``KEYS``); the actions are methods named there."""

    KEYS: Bindings = Bindings((LEAVE,))

    def __init__(self, place: ToolPlace, moderation: Moderation, view: ModerationView) -> None:
        super().__init__(
            place.session, view, self.draw, refresh_seconds=REFRESH_SECONDS, keys=self.KEYS
        )
        self.place = place
        self.moderation = moderation
        self.view: ModerationView = view
        view.status = self.KEYS.menu_line().text + BACK

    def draw(self) -> tuple[Canvas, tuple[int, int] | None]:
        raise NotImplementedError

    def hits(self) -> HitMap:
        """The key bar, and the wheel turning the pages."""
        return list_hits(self.view)

    def rows(self) -> int:
        raise NotImplementedError

    async def refresh(self) -> None:
        """Read the list again."""

    async def run(self) -> None:
        session = self.place.session
        with session.showing(self.screen):
            await self.refresh()
            while True:
                key = await self.next_key()
                if key is None:
                    await self.refresh()
                    continue
                binding = self.KEYS.find(key)
                if binding is LEAVE:
                    return
                self.view.message, self.view.error = "", False
                if binding is None:
                    self.view.message, self.view.error = unknown_key(key), True
                    continue
                try:
                    await getattr(self, binding.action)()
                except (ModerationError, StoreError) as refused:
                    self.view.message, self.view.error = refusal(refused), True
                await self.refresh()

    async def ask(self, prompt: str, limit: int) -> str | None:
        text = await self.read_line(prompt, limit)
        return text.strip() if text is not None else None

    async def ban(self, target: str, *, whole_bbs: bool = False) -> Ban | None:
        """Ask the reason and the hours and ban ``target``; None if the sysop left off."""
        reason = await self.ask("Reason (the caller is told it): ", MAX_REASON_LENGTH)
        if not reason:
            self.view.message = "Not banned: a ban needs a reason."
            return None
        hours = await self.ask("Hours (RETURN for good): ", 8)
        if hours is None:
            return None
        sysop = self.place.sysop.name
        return await self.moderation.ban(target, reason, _hours(hours), sysop, whole_bbs=whole_bbs)

    async def next_page(self) -> None:
        if self.view.first + LIST_ROWS < self.rows():
            self.view.first += LIST_ROWS
        else:
            self.view.message = "This is the last page."

    async def previous_page(self) -> None:
        self.view.first = max(0, self.view.first - LIST_ROWS)


def _hours(text: str) -> float | None:
    """Hours typed ("" for good); ModerationError for anything else."""
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        raise ModerationError(f"{text[:20]!r} is not a number of hours") from None


class BansScreen(ModerationScreen):
    KEYS = Bindings(
        (
            Binding("a", "add", "add"),
            Binding("r", "remove", "remove"),
            Binding("n", "next_page", "next"),
            Binding("p", "previous_page", "previous"),
            LEAVE,
        )
    )
    view: BansView

    def draw(self) -> tuple[Canvas, tuple[int, int] | None]:
        return draw_bans(self.view)

    def spoken(self) -> Said:
        return bans_said(self.view)

    def rows(self) -> int:
        return len(self.view.bans)

    async def refresh(self) -> None:
        store = self.moderation.store
        if store is not None:
            self.view.bans = await store.bans_in_force()

    async def add(self) -> None:
        target = await self.ask("Ban (address, network/bits or handle:NAME): ", 60)
        if not target:
            return
        bbses = await self.moderation.bbses_barred(target, self.place.sysop.name)
        if bbses:
            # Its callers all come from it: this is every one of them, not one caller.
            whom = every_caller_of(sanitize(tag, 20) for tag in bbses)
            question = f"{target} is a linked BBS's address: bar {whom}?"
            if not await self.confirm(question):
                self.view.message = f"Not banned. handle:NAME bans one caller, not {whom}."
                return
        ban = await self.ban(target, whole_bbs=bool(bbses))
        if ban is not None:
            self.view.message = f"Ban #{ban.id}: {ban.target} {ending(ban.until)}."

    async def remove(self) -> None:
        text = await self.ask("Lift ban number: ", 9)
        if not text:
            return
        if not text.isdigit():
            raise ModerationError(f"{text!r} is not a ban's number")
        ban = await self.moderation.lift(int(text), self.place.sysop.name)
        self.view.message = f"Ban #{ban.id} on {ban.target} lifted."


class RecentChatScreen(ModerationScreen):
    KEYS = Bindings(
        (
            Binding("m", "mute", "mute"),
            Binding("u", "unmute", "unmute"),
            Binding("b", "ban_speaker", "ban"),
            Binding("n", "next_page", "next"),
            Binding("p", "previous_page", "previous"),
            LEAVE,
        )
    )
    view: RecentChatView

    def draw(self) -> tuple[Canvas, tuple[int, int] | None]:
        return draw_recent_chat(self.view)

    def spoken(self) -> Said:
        return recent_chat_said(self.view)

    def rows(self) -> int:
        return len(self.view.lines)

    async def refresh(self) -> None:
        self.view.lines = list(reversed(self.moderation.recent))
        self.view.mutes = list(self.moderation.mutes.mutes)

    async def mute(self) -> None:
        text = await self.ask("Mute the speaker of line number: ", 4)
        if not text:
            return
        name = self._line(text).speaker
        minutes = await self.ask(f"Mute {name} for how many minutes: ", 6)
        if not minutes:
            return
        if not minutes.isdigit():
            raise ModerationError(f"{minutes!r} is not a number of minutes")
        reason = await self.ask("Reason (they are told it): ", MAX_REASON_LENGTH)
        if not reason:
            self.view.message = "Not muted: a mute needs a reason."
            return
        mute = await self.moderation.mute(name, reason, int(minutes), self.place.sysop.name)
        self.view.message = f"{mute.name} is muted {ending(mute.until)}."

    async def ban_speaker(self) -> None:
        """Ban the speaker of a line: by the address they call from, or by name where that
        address is a linked BBS's (shared by all its callers) or unknown."""
        text = await self.ask("Ban the speaker of line number: ", 4)
        if not text:
            return
        line = self._line(text)
        name = sanitize(line.speaker, 20)
        if line.bbs or not line.address:
            target = f"{HANDLE_PREFIX}{line.speaker}"
            question = f"Ban {name} by name ({HANDLE_PREFIX}{name})?"
            if line.bbs:
                bbs = sanitize(line.bbs, 20)
                question += f" Only {name}: other callers of {bbs} stay welcome."
        else:
            target = line.address
            question = f"Ban the address {target}, {name}'s? Every caller from it is barred."
        if not await self.confirm(question):
            self.view.message = "Not banned."
            return
        ban = await self.ban(target)
        if ban is not None:
            self.view.message = f"Ban #{ban.id}: {ban.target} {ending(ban.until)}."

    def _line(self, text: str) -> HeardLine:
        """The line of number ``text`` in the list; ModerationError for any other text."""
        index = int(text) - 1 if text.isdigit() else -1
        if not 0 <= index < len(self.view.lines):
            raise ModerationError(f"There is no line {text} in the list.")
        return self.view.lines[index]

    async def unmute(self) -> None:
        name = await self.ask("Unmute (name): ", 40)
        if not name:
            return
        mute = await self.moderation.unmute(name, self.place.sysop.name)
        self.view.message = f"{mute.name} may chat again."


def _moderation(place: ToolPlace) -> Moderation | None:
    moderation = place.presence.moderation
    if moderation is None or moderation.store is None:
        place.sysop.tell("Bans and mutes need the database, and accounts are off.")
        return None
    return moderation


async def bans_screen(place: ToolPlace) -> None:
    """The sysop's bans: list, add, remove."""
    moderation = _moderation(place)
    if moderation is not None:
        view = BansView(f"{place.bbs_name} · Bans")
        await BansScreen(place, moderation, view).run()


async def recent_chat_screen(place: ToolPlace) -> None:
    """The last lines said in the lobby and at tables here, with who and where; mute
    from there."""
    moderation = _moderation(place)
    if moderation is not None:
        view = RecentChatView(f"{place.bbs_name} · Recent chat")
        await RecentChatScreen(place, moderation, view).run()


SCREENS: Final[tuple[tuple[str, str, Callable[[ToolPlace], Awaitable[None]]], ...]] = (
    ("b", "Bans: addresses, networks and handles turned away; add, lift", bans_screen),
    ("c", "Recent chat: who said what, where; mute or ban a speaker", recent_chat_screen),
)
"""The entries for the sysop's tools menu (key, label, screen)."""
