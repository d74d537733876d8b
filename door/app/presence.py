"""Who is online, where they are, and what passes between them outside a game.

One ``Presence`` is shared by every session of a door. It holds a ``Member`` for each
caller who has given a name (and the sysop), the lobby's chat, the challenges in the air,
the private chats the sysop pages callers into, and the tables being played, so a
caller can watch one and a caller whose line dropped can get back to theirs.

Nothing here reads keys or draws: screens (``door.app.lobby``) read this state and are woken
through each member's ``Inbox`` whenever it changes. Every piece of caller text stored
here is sanitised on the way in, so whoever draws it shows plain text.

With several workers (door/cluster), ``cluster`` links this presence to the others':
members of other workers are listed (``remote``), names are claimed across them
(``enter``), and chat, challenges and their answers pass between them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import uuid
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final, Protocol

from door.app.lobby_wakes import LobbyWakes
from door.app.members import (
    IN_THE_LOBBY,
    KEPT_CHAT_LINES,
    Challenge,
    ChatLine,
    Line,
    Member,
    NameInUse,
    PrivateChat,
    Roster,
    TableFactory,
)
from door.defence.lookalike import skeleton
from door.screens.chat import clean_chat
from door.table.options import GameOptions
from door.term.ansi import sanitize

if TYPE_CHECKING:
    # Types only: presence lists tables and seats; it never runs or draws them.
    from door.app.moderation import Moderation
    from door.storage.store import Account
    from door.table.flow import Table

MAX_NAME_LENGTH: Final = 20
MAX_NOTICE_LENGTH: Final = 240
"""The longest notice of the lobby's chat: the door's own words, but with callers' names
in them. The longest it writes is a claim's end between four 20-letter names (225: the
title alone is 90); 120 cut a claim's end between two of them."""
CLAIM_WAIT_SECONDS: Final = 7.0
"""Longest a caller waits for the name claim of a worker that died to expire (its time to
live, door/cluster/link.py, and a sync)."""


class Peers(Protocol):
    """What the other workers provide (door/cluster/link.py's ``ClusterLink``): presence
    tells them of its members, chat and challenges, and the door claims names and saved
    games through them. They tell presence of theirs through its ``remote_*`` methods."""

    worker: str
    """This worker's name among them."""
    alive: set[str]
    """The workers known to be running."""

    async def claim_name(self, name: str) -> bool: ...

    def release_name(self, name: str) -> None: ...

    async def claim_game(self, game_id: int) -> str: ...

    async def release_games(self, game_ids: Iterable[int]) -> None: ...

    def member_changed(self, member: Member) -> None: ...

    def member_left(self, member: Member) -> None: ...

    def chat(self, line: ChatLine) -> None: ...

    def send(self, worker: str, event: dict[str, Any]) -> None: ...


class Presence:
    """Everyone online, the lobby chat, challenges, and the tables in play."""

    def __init__(self, sysop_name: str = "Sysop", rng: random.Random | None = None) -> None:
        self.sysop_name = sysop_name
        self.rng = rng or random.Random()
        self.members: Roster = Roster()
        self.chat: deque[ChatLine] = deque(maxlen=KEPT_CHAT_LINES)
        self.tables: list[Table] = []
        self.cluster: Peers | None = None
        """The other workers (door/cluster), when there are any."""
        self.moderation: Moderation | None = None
        """The sysop's mutes and the masked words, which the lobby chat goes through."""
        self.remote: Roster = Roster()
        """Callers of other workers, by their name casefolded (door/cluster/remote.py)."""
        self._online: tuple[Member, ...] = ()
        self._online_as_of: tuple[int, int] = (-1, -1)
        """The roster changes ``_online`` was sorted after (see ``online``)."""
        self._lobby_wakes = LobbyWakes(self._in_the_lobby, self._wake_in_the_lobby)
        self.make_remote: Callable[[str, dict[str, Any]], Member] | None = None
        self.sent: dict[str, Challenge] = {}
        """Challenges sent from here to someone of another worker, by id."""
        self.copies: dict[str, Challenge] = {}
        """Copies of other workers' challenges to callers here, by id."""
        self.background: set[asyncio.Task[None]] = set()

    # --- who is here ----------------------------------------------------------------

    def join(
        self,
        name: str,
        line: Line,
        *,
        sysop: bool = False,
        account: Account | None = None,
        quietly: bool = False,
    ) -> Member:
        """Put ``name`` online (logged in to ``account``, if any); ``quietly`` says
        nothing in the lobby chat (a member taking over their own line). Raises
        NameInUse if someone online has it, or if it is the sysop's name and this is not
        the sysop."""
        clean = clean_name(name)
        key = clean.casefold()
        if not clean:
            raise NameInUse("a name needs letters or digits")
        if not sysop and key == self.sysop_name.casefold():
            raise NameInUse(f"{clean} is the sysop's name")
        if key in self.members or key in self.remote:
            raise NameInUse(f"{clean} is online already")
        if account is None and not sysop:
            # A guest may not pass for someone: the sysop, or anyone online.
            look = skeleton(clean)
            if look == skeleton(self.sysop_name):
                raise NameInUse(f"{clean} looks like the sysop's name")
            if look in self.members.looks or look in self.remote.looks:
                other = next(
                    member
                    for member in [*self.members.values(), *self.remote.values()]
                    if skeleton(member.name) == look
                )
                raise NameInUse(f"{clean} looks like {other.name}, who is online")
        member = Member(clean, line, sysop=sysop, account=account)
        self.members[key] = member
        if self.cluster is not None:
            self.cluster.member_changed(member)
        if quietly:
            self.changed()
        else:
            self.notice(f"{clean} has come in.")
        return member

    async def enter(
        self,
        name: str,
        line: Line,
        *,
        sysop: bool = False,
        account: Account | None = None,
        quietly: bool = False,
    ) -> Member:
        """``join``, after claiming the name from the other workers (if any): two
        workers never let in the same name at once."""
        clean = clean_name(name)
        if self.cluster is not None and clean and clean.casefold() not in self.members:
            await self._claim(self.cluster, clean)
        try:
            return self.join(clean, line, sysop=sysop, account=account, quietly=quietly)
        except NameInUse:
            if self.cluster is not None and clean and clean.casefold() not in self.members:
                self.cluster.release_name(clean)
            raise

    async def _claim(self, cluster: Peers, name: str) -> None:
        """Claim ``name`` across the workers, or raise NameInUse. A claim left by a worker
        that died expires within seconds; until then, nobody online by that name shows
        in the list, so the caller waits for it rather than being turned away."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CLAIM_WAIT_SECONDS
        while not await cluster.claim_name(name):
            if name.casefold() in self.remote or loop.time() > deadline:
                raise NameInUse(f"{name} is online already")
            await asyncio.sleep(0.25)

    def leave(self, member: Member, *, quietly: bool = False) -> None:
        """``member`` is gone; ``quietly`` when their session goes on at another worker
        (and said nothing either when their line was taken over: ``Member.take_over``)."""
        if self.members.get(member.name.casefold()) is not member:
            return
        del self.members[member.name.casefold()]
        self._online = ()  # the sorted list must not keep anyone gone alive till the next
        if member.challenge is not None:
            self.withdraw(member.challenge, f"{member.name} has left.")
        if member.invitation is not None:
            self.decline(member.invitation, member, f"{member.name} has left.")
        if member.private_chat is not None:
            member.private_chat.close(member)
        if member.seat is not None:
            # A seat given and never taken (the line dropped on the way to it): away, as
            # for any caller whose line drops, so the wait for them and the others' "p"
            # apply, and a call back finds it.
            person, member.seat = member.seat, None
            person.table.person_dropped(person)
        if self.cluster is not None:
            self.cluster.member_left(member)
        if quietly or member.taken_over:
            self.changed()
        else:
            self.notice(f"{member.name} has left.")

    def find(self, name: str) -> Member | None:
        key = name.casefold()
        return self.members.get(key) or self.remote.get(key)

    def online(self) -> tuple[Member, ...]:
        """Everyone (here and at other workers), the sysop first, then in the order they
        came in. Sorted again only when someone has come or gone: every lobby frame asks,
        and with a thousand callers on a sort per frame was most of what the lobby cost."""
        as_of = (self.members.changes, self.remote.changes)
        if as_of != self._online_as_of:
            everyone = [*self.members.values(), *self.remote.values()]
            everyone.sort(key=lambda member: (not member.sysop, member.joined))
            self._online, self._online_as_of = tuple(everyone), as_of
        return self._online

    def set_place(self, member: Member, place: str, table: Table | None = None) -> None:
        member.place = place
        member.table = table
        if self.cluster is not None:
            self.cluster.member_changed(member)
        self.changed()

    def changed(self) -> None:
        """Wake every lobby so it redraws: at once after a quiet spell, then paced
        (door/app/lobby_wakes.py). Only callers in the lobby see who is on and the chat;
        one at a table redraws for the table, and waking them all for every arrival, game
        and line of chat cost each change a redraw per caller online."""
        self._lobby_wakes.changed()

    def _in_the_lobby(self) -> list[Member]:
        return [member for member in self.members.values() if member.place == IN_THE_LOBBY]

    @staticmethod
    def _wake_in_the_lobby(member: Member) -> None:
        if member.place == IN_THE_LOBBY:  # (it may have sat down since its round began)
            member.line.wake()

    # --- chat -----------------------------------------------------------------------

    def say(self, member: Member, text: str) -> None:
        """A line in the lobby chat, cleaned of anything a terminal would act on."""
        line = clean_chat(text)
        if line and self.moderation is not None:
            refusal = self.moderation.chat_refusal(member.name)
            if refusal is not None:
                member.tell(refusal)
                return
            line = self.moderation.heard(member.name, "lobby", line)
        if line:
            self._add_chat(ChatLine(member.name, line))

    def notice(self, text: str) -> None:
        self._add_chat(ChatLine("", sanitize(text, MAX_NOTICE_LENGTH)))

    def _add_chat(self, line: ChatLine) -> None:
        self.chat.append(line)
        if self.cluster is not None:
            self.cluster.chat(line)
        self.changed()

    def restore_chat(self, lines: Iterable[ChatLine]) -> None:
        """The chat the other workers kept (oldest first), as this worker joins them:
        shown to whoever comes in, and told to no worker again."""
        self.chat.extend(lines)

    def broadcast(self, sender: Member, text: str) -> None:
        """The sysop's message to everyone: the lobby, and every table's log."""
        line = clean_chat(text)
        if not line:
            return
        self._announce_everywhere(sender.name, line)
        self._add_chat(ChatLine(sender.name, line, "broadcast"))

    def tournament_match_settled(self, number: int, entrant: int, text: str) -> None:
        """The sysop settled ``entrant``'s match of tournament ``number`` without the
        game they may be playing for it: its table, at this worker or another, is told
        ``text`` at once and plays on for nothing there (door/table/company.py)."""
        self.settle_tables(number, entrant, text)
        if self.cluster is not None:
            event = {"t": "settled", "n": number, "e": entrant, "x": text}
            for worker in sorted(self.cluster.alive - {self.cluster.worker}):
                self.cluster.send(worker, event)

    def settle_tables(self, number: int, entrant: int, text: str) -> None:
        """This worker's part of ``tournament_match_settled``."""
        for table in list(self.tables):
            seated = any(seat.account_id == entrant for seat in table.seats)
            if table.options.tournament == number and seated and not table.over:
                table.tournament_match_settled(text)

    def _announce_everywhere(self, speaker: str, text: str) -> None:
        for table in self.tables:
            table.announce(f"*** {speaker}: {text}")

    # --- challenges -----------------------------------------------------------------

    def challenge(
        self,
        sender: Member,
        seating: list[Member],
        options: GameOptions,
        make_table: TableFactory | None = None,
    ) -> Challenge:
        """Invite the others in ``seating`` to a game with ``sender``, whose way of
        setting the table is ``make_table`` (needed when someone of another worker is
        invited: their answer comes here). Raises ValueError with a message for the
        sender if one of them cannot be invited now."""
        for member in seating:
            if member is sender:
                continue
            if self.find(member.name) is not member:
                raise ValueError(f"{member.name} is not online any more.")
            if not member.answers_challenges:
                raise ValueError(f"{member.name} is {member.place}: try again later.")
            if member.invitation is not None or member.challenge is not None:
                raise ValueError(f"{member.name} is answering another challenge.")
        if len(seating) > options.players:
            raise ValueError(f"A {options.players}-player game has room for {options.players}.")
        challenge = Challenge(sender, seating, options, {sender.name}, make_table=make_table)
        sender.challenge = challenge
        for member in challenge.invitees:
            member.invitation = challenge
            member.line.wake()  # on the tournaments page too, which the lobby's wake misses
        remote = self._remote_workers(challenge)
        if remote and self.cluster is not None:
            challenge.id = uuid.uuid4().hex
            self.sent[challenge.id] = challenge
            invite = {
                "t": "invite",
                "id": challenge.id,
                "sender": sender.name,
                "seating": [member.name for member in seating],
                "options": dataclasses.asdict(options),
            }
            for worker in remote:
                self.cluster.send(worker, invite)
        if self.cluster is not None:
            self.cluster.member_changed(sender)
        self.changed()
        return challenge

    def accept(self, challenge: Challenge, member: Member, make_table: TableFactory) -> None:
        """``member`` says yes; when everyone has, the table is set and each of them is
        given their seat (``Member.seat``) to go to."""
        if member.invitation is not challenge:
            return
        member.invitation = None
        if challenge.origin:
            # The challenge is held by the sender's worker, which sets the table.
            self._answer(challenge, member, yes=True)
            member.tell("You accept: the game begins when everyone has.")
            return
        self._accepted(challenge, member, make_table)

    def accept_remote(self, challenge: Challenge, member: Member) -> None:
        """Another worker's caller in ``challenge`` says yes."""
        if member not in challenge.seating:
            return
        if challenge.make_table is None:
            self.call_off(challenge, "This challenge cannot be played across the door's workers.")
            return
        self._accepted(challenge, member, challenge.make_table)

    def _accepted(self, challenge: Challenge, member: Member, make_table: TableFactory) -> None:
        challenge.accepted.add(member.name)
        if len(challenge.accepted) < len(challenge.seating):
            challenge.sender.tell(f"{member.name} accepts.")
            return
        challenge.sender.challenge = None
        self.sent.pop(challenge.id, None)
        names: list[str | None] = [m.name for m in challenge.seating]
        names += [None] * (challenge.options.players - len(names))
        table = make_table(challenge.options, names)
        elsewhere: dict[str, list[str]] = {}
        for index, seated in enumerate(challenge.seating):
            worker = self.worker_of(seated)
            if worker:
                # Their seat waits for them, as for a caller whose line dropped; their
                # worker sends their session here.
                elsewhere.setdefault(worker, []).append(seated.name)
            else:
                seated.seat = table.sit(index, seated.line)
                # Wherever they are (the sender may be on the tournaments page), their
                # screen gives way to the table: a seat nobody comes to holds up the game.
                seated.summon()
        self.add_table(table)
        table.start()
        if self.cluster is not None:
            for worker, seat_names in elsewhere.items():
                self.cluster.send(worker, {"t": "seated", "id": challenge.id, "names": seat_names})
        self.notice(f"{table.title}: a game begins.")

    def decline(self, challenge: Challenge, member: Member, why: str = "") -> None:
        if member.invitation is challenge:
            member.invitation = None
        why = why or f"{member.name} declines the challenge."
        if challenge.origin:
            self._answer(challenge, member, yes=False, why=why)
            return
        self.call_off(challenge, why)

    def withdraw(self, challenge: Challenge, why: str = "") -> None:
        self.call_off(challenge, why or f"{challenge.sender.name} withdrew the challenge.")

    def _answer(self, copy: Challenge, member: Member, *, yes: bool, why: str = "") -> None:
        if self.cluster is not None:
            answer = {"t": "answer", "id": copy.id, "n": member.name, "yes": yes, "why": why}
            self.cluster.send(copy.origin, answer)
            self.cluster.member_changed(member)

    def call_off(self, challenge: Challenge, why: str) -> None:
        if challenge.sender.challenge is challenge:
            challenge.sender.challenge = None
        self.sent.pop(challenge.id, None)
        self.copies.pop(challenge.id, None)
        for member in challenge.seating:
            if self.worker_of(member):
                continue  # told by their own worker
            if member.invitation is challenge:
                member.invitation = None
            member.tell(why)
        if self.cluster is not None and not challenge.origin:
            for worker in self._remote_workers(challenge):
                self.cluster.send(worker, {"t": "called_off", "id": challenge.id, "why": why})
        self.changed()

    def worker_of(self, member: Member) -> str:
        """The other worker ``member`` is online through ("" for one of ours)."""
        return str(getattr(member, "worker", ""))

    def _remote_workers(self, challenge: Challenge) -> list[str]:
        workers = {self.worker_of(member) for member in challenge.seating}
        return sorted(workers - {""})

    # --- callers of other workers (door/cluster) ------------------------------------

    def remote_sync(self, records: dict[str, tuple[str, dict[str, Any]]]) -> None:
        """Everyone at the other workers, as Redis has them now: those gone are dropped."""
        changed = False
        for key, (worker, record) in records.items():
            changed |= self._remote_record(key, worker, record)
        for key in [key for key in self.remote if key not in records]:
            self._remote_gone(self.remote.pop(key))
            changed = True
        if changed:
            self.changed()

    def remote_member(self, worker: str, record: dict[str, Any]) -> None:
        if self._remote_record(str(record["name"]).casefold(), worker, record):
            self.changed()

    def remote_left(self, worker: str, name: str) -> None:
        member = self.remote.get(name.casefold())
        if member is not None and self.worker_of(member) == worker:
            self._remote_gone(self.remote.pop(name.casefold()))
            self.changed()

    def remote_worker_gone(self, worker: str) -> None:
        gone = [key for key, member in self.remote.items() if self.worker_of(member) == worker]
        for key in gone:
            self._remote_gone(self.remote.pop(key))
        if gone:
            self.changed()

    def remote_chat(self, line: ChatLine) -> None:
        """A line of the lobby chat from another worker."""
        self.chat.append(line)
        if line.kind == "broadcast":
            self._announce_everywhere(line.speaker, line.text)
        self.changed()

    def _remote_record(self, key: str, worker: str, record: dict[str, Any]) -> bool:
        """Add or update a remote member; True if the lobby should be drawn again."""
        if key in self.members or self.make_remote is None:
            return False  # ours now (a caller handed over to this worker)
        member = self.remote.get(key)
        if member is None:
            self.remote[key] = self.make_remote(worker, record)
            return True
        place = member.place
        member.update(worker, record)  # type: ignore[attr-defined]
        return member.place != place

    def _remote_gone(self, member: Member) -> None:
        """A remote member left, or their worker died: call off challenges with them."""
        self._online = ()  # (as ``leave``)
        for challenge in list(self.sent.values()):
            if member in challenge.seating:
                self.call_off(challenge, f"{member.name} has left.")
        for copy in list(self.copies.values()):
            if copy.sender is member:
                self.copies.pop(copy.id, None)
                for invitee in copy.seating:
                    if invitee.invitation is copy:
                        invitee.invitation = None
                        invitee.tell(f"{member.name} has left.")

    # --- the sysop's private chat ---------------------------------------------------

    def page(self, sysop: Member, member: Member) -> PrivateChat | None:
        """Pull ``member`` into a private chat with the sysop; None (and a note for the
        sysop) if they are busy. A caller at a table is told in the game's log instead."""
        if member.table is not None and member.place.startswith("playing"):
            member.table.announce(
                f"*** {sysop.name} is paging {member.name}: press c to chat here, or come "
                "to the lobby after the game."
            )
            sysop.tell(f"{member.name} is {member.place}: the page went to their table.")
            return None
        if not member.in_lobby:
            sysop.tell(f"{member.name} is {member.place}: try again later.")
            return None
        if self.worker_of(member) and self.cluster is not None:
            # Their worker sends them here, where the sysop's chat is (paged_here).
            self.cluster.send(
                self.worker_of(member), {"t": "paged", "n": member.name, "by": sysop.name}
            )
            sysop.tell(f"Paging {member.name}: they join you in a moment.")
            return None
        room = PrivateChat((sysop, member))
        room.lines.append(ChatLine("", f"{sysop.name} pages {member.name} into chat.", "notice"))
        sysop.private_chat = member.private_chat = room
        self.changed()
        return room

    # --- tables -----------------------------------------------------------------------

    def add_table(self, table: Table) -> None:
        self.tables.append(table)
        self.changed()

    def remove_table(self, table: Table) -> None:
        if table in self.tables:
            self.tables.remove(table)
            self.changed()

    def table_waiting_for(self, name: str, account_id: int | None = None) -> Table | None:
        """A game still going in which ``name``'s seat waits for them (or is played by
        the computer since their line dropped). A seat taken by someone logged in waits
        only for the same account (``account_id``)."""
        for table in self.tables:
            if not table.over and table.waits_for(name, account_id) is not None:
                return table
        return None

    def close_tables(self) -> list[Table]:
        """Close every table here, as the door stops; returns them."""
        closed = list(self.tables)
        for table in closed:
            table.stopped = True  # its players read that the door closed it
            table.close()
        self.tables.clear()
        return closed


def clean_name(text: str) -> str:
    """A caller's name, safe to show anyone: printable, single-spaced, at most 20 long."""
    return " ".join(sanitize(text, MAX_NAME_LENGTH).split())
