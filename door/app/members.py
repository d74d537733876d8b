"""Who is online, as values: a ``Member`` (a caller or the sysop, and where they are), a
``ChatLine``, a ``Challenge`` to a game, the sysop's ``PrivateChat`` with a caller, and the
``Roster`` that keeps members by name. ``Presence`` (door/app/presence.py) holds them and
changes them; screens read them.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol

from door.defence.lookalike import skeleton
from door.screens.chat import clean_chat
from door.table.options import GameOptions

if TYPE_CHECKING:
    from door.storage.store import Account
    from door.table.flow import Table
    from door.table.person import Person

KEPT_CHAT_LINES: Final = 100
IN_THE_LOBBY: Final = "in the lobby"
AT_THE_TOURNAMENTS: Final = "at the tournaments"
"""The tournaments page, where members challenge and answer for their tournament games."""


class NameInUse(Exception):
    """Someone online already goes by that name (or it is the sysop's)."""


class HandedOver(Exception):
    """The member's session goes on at another worker (``worker``), where their table is."""

    def __init__(self, worker: str, *, watch: str = "", paged_by: str = "") -> None:
        super().__init__(worker)
        self.worker = worker
        self.paged_by = paged_by
        """The sysop there who paged this member into a private chat."""
        self.watch = watch
        """The caller there whose game this member goes to watch ("": their own seat)."""


@dataclass(frozen=True)
class ChatLine:
    """One line of lobby or private chat; ``speaker`` is empty for door notices."""

    speaker: str
    text: str
    kind: str = "chat"
    """``chat``, ``broadcast`` (from the sysop to everyone) or ``notice`` (from the door)."""


class Line(Protocol):
    """What presence needs of a caller's line (the caller's session, door/ui/session.py)."""

    @property
    def idle(self) -> float: ...

    def wake(self) -> None: ...

    async def hang_up(self, message: str) -> None: ...


class Member:
    """A caller (or the sysop) who is online."""

    def __init__(
        self,
        name: str,
        line: Line,
        *,
        sysop: bool = False,
        account: Account | None = None,
    ) -> None:
        self.name = name
        self.line = line
        """The caller's line (their session): presence only wakes it, asks how long it
        has been idle and hangs it up; it never draws on it."""
        self.sysop = sysop
        self.account = account
        """The account the caller logged in to (their name is its handle); None for a
        guest and for the sysop."""
        self.place = IN_THE_LOBBY
        self.joined = time.monotonic()
        self.invitation: Challenge | None = None
        """A challenge this member has been sent and not answered."""
        self.challenge: Challenge | None = None
        """The challenge this member sent, while it waits for answers."""
        self.seat: Person | None = None
        """A seat at a table this member must go to (a challenge was accepted)."""
        self.private_chat: PrivateChat | None = None
        self.notes: deque[str] = deque(maxlen=4)
        """Things to tell the member on their lobby screen ("Bob declined")."""
        self.table: Table | None = None
        """The table this member is playing at or watching."""
        self.handover: str | None = None
        """Another worker whose table has a seat for this member: their session goes on
        there, this worker relaying their line (door/cluster/relay.py)."""
        self.paged_by = ""
        """With ``handover``: the sysop there paged this member into a private chat."""
        self.summons = asyncio.Event()
        """Set by ``summon``: whatever screen this member is on gives way to the seat (or
        the worker) that wants them (door/app/called_away.py)."""
        self.taken_over = False
        """Their line is being hung up for the same member calling in again on another
        (``take_over``): they leave the lobby without a word, as they come in again."""

    @property
    def idle(self) -> float:
        return self.line.idle

    @property
    def in_lobby(self) -> bool:
        return self.place == IN_THE_LOBBY and self.private_chat is None

    @property
    def answers_challenges(self) -> bool:
        """Where a challenge reaches them: the lobby, and the tournaments page (both
        players of a tournament game go there to play it)."""
        return self.in_lobby or (self.place == AT_THE_TOURNAMENTS and self.private_chat is None)

    @property
    def called(self) -> bool:
        """A seat at a table, a private chat or another worker wants this member."""
        return self.seat is not None or self.private_chat is not None or bool(self.handover)

    def summon(self) -> None:
        """A seat (or another worker) wants this member now: the screen they are on,
        the lobby or one away from it, takes them there."""
        self.summons.set()
        self.line.wake()

    async def take_over(self, message: str) -> None:
        """Hang up this line (telling it ``message``): the same member is calling in
        again on another, and goes on there."""
        self.taken_over = True
        await self.line.hang_up(message)

    def tell(self, note: str) -> None:
        self.notes.append(note)
        self.line.wake()


TableFactory = Callable[[GameOptions, list[str | None]], "Table"]


@dataclass
class Challenge:
    """An invitation to a game. ``seating`` is every caller in seat order (player 1
    first); ``sender`` is whoever sent it, who has accepted by sending it."""

    sender: Member
    seating: list[Member]
    options: GameOptions
    accepted: set[str] = field(default_factory=set)
    id: str = ""
    """Set when someone of another worker is in it: how the workers name it."""
    origin: str = ""
    """For the copy on an invitee's worker: the sender's worker, which holds the
    challenge itself ("" for a challenge held here)."""
    make_table: TableFactory | None = None
    """The sender's way of setting the table, for when an answer comes from another
    worker (an answer given here uses the answering caller's)."""

    @property
    def invitees(self) -> list[Member]:
        return [member for member in self.seating if member is not self.sender]

    def describe(self) -> str:
        """``2 players, free runs, auto count``."""
        runs = "exact runs" if self.options.runs == "exact" else "free runs"
        extra = self.options.players - len(self.seating)
        computer = f" (+{extra} computer)" if extra else ""
        match = f", {self.options.match_text}" if self.options.best_of > 1 else ""
        match += ", rated" if self.options.rated else ""
        match += ", a tournament game" if self.options.tournament else ""
        counting = f"{self.options.counting} count"
        return f"{self.options.players} players{computer}, {runs}, {counting}{match}"


@dataclass
class PrivateChat:
    """The sysop and one caller talking, away from the lobby."""

    members: tuple[Member, Member]
    lines: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=KEPT_CHAT_LINES))
    closed_by: str = ""

    def say(self, speaker: Member, text: str) -> None:
        line = clean_chat(text)
        if line and not self.closed_by:
            self.lines.append(ChatLine(speaker.name, line))
            self.wake()

    def close(self, by: Member) -> None:
        if not self.closed_by:
            self.closed_by = by.name
            for member in self.members:
                if member.private_chat is self:
                    member.private_chat = None
            self.wake()

    def wake(self) -> None:
        for member in self.members:
            member.line.wake()


class Roster(dict[str, "Member"]):
    """Members by name, counting every change, so that the list of everyone online is
    sorted again only when someone has come or gone, not at every lobby frame; and the
    look of every name (its confusable skeleton), so that a guest's name is checked
    against everyone online in one look-up rather than one per caller. Both are kept by
    item assignment, ``del`` and ``pop``, the only ways presence changes its rosters."""

    def __init__(self) -> None:
        super().__init__()
        self.changes = 0
        self.looks: dict[str, int] = {}
        """How many names here have each skeleton."""

    def __setitem__(self, key: str, member: Member) -> None:
        if key in self:
            self._forget_look(self[key])
        super().__setitem__(key, member)
        look = skeleton(member.name)
        self.looks[look] = self.looks.get(look, 0) + 1
        self.changes += 1

    def __delitem__(self, key: str) -> None:
        self._forget_look(self[key])
        super().__delitem__(key)
        self.changes += 1

    def pop(self, key: str, *default: Any) -> Any:
        if key in self:
            self._forget_look(self[key])
            self.changes += 1
        return super().pop(key, *default)

    def _forget_look(self, member: Member) -> None:
        look = skeleton(member.name)
        left = self.looks.get(look, 0) - 1
        if left > 0:
            self.looks[look] = left
        else:
            self.looks.pop(look, None)
