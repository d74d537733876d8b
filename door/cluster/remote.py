"""Callers of other workers, as this worker's lobby sees them, and what passes to them.

A ``RemoteMember`` is a ``Member`` whose line is on another worker: the lobby lists it,
the caller may challenge it, the sysop may hang it up. Telling it something, hanging it
up or inviting it sends a message to its worker (door/cluster/link.py), whose handlers
here act on the member there.

A challenge with someone of another worker lives on the sender's worker; each invitee's
worker holds a copy (``Challenge.origin`` names the sender's worker) so the invitee sees
it and answers it there. When everyone has accepted, the sender's worker makes the table
and tells the other workers which seats are theirs to send over (door/cluster/relay.py).
A tournament match the sysop settles at one worker is told to every other, whose table
of it (if there) hears it at once (``Presence.tournament_match_settled``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
import time
from typing import TYPE_CHECKING, Any

from door.app.members import Challenge, Member
from door.app.presence import Presence
from door.defence.logins import LoginGuard
from door.storage.values import Account
from door.table.options import GameOptions

if TYPE_CHECKING:
    from door.cluster.link import ClusterLink

logger = logging.getLogger(__name__)

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


class RemoteLine:
    """A remote member's line, as far as this worker can reach it."""

    def __init__(self, link: ClusterLink, worker: str, name: str) -> None:
        self.link = link
        self.worker = worker
        self.name = name
        self.reported_idle = 0.0
        self.reported_at = time.monotonic()

    @property
    def idle(self) -> float:
        return self.reported_idle + (time.monotonic() - self.reported_at)

    def wake(self) -> None:
        """Its own worker wakes it."""

    async def hang_up(self, message: str, *, taken_over: bool = False) -> None:
        event = {"t": "hangup", "n": self.name, "x": message}
        self.link.send(self.worker, {**event, "over": True} if taken_over else event)


class RemoteMember(Member):
    """A caller online through another worker."""

    line: RemoteLine

    def __init__(self, link: ClusterLink, worker: str, record: dict[str, Any]) -> None:
        name = str(record["name"])
        super().__init__(name, RemoteLine(link, worker, name), sysop=bool(record.get("sysop")))
        self.busy = False
        self.update(worker, record)

    @property
    def worker(self) -> str:
        return self.line.worker

    async def take_over(self, message: str) -> None:
        """As ``Member.take_over``, at the worker whose member it is."""
        self.taken_over = True
        await self.line.hang_up(message, taken_over=True)

    def update(self, worker: str, record: dict[str, Any]) -> None:
        self.line.worker = worker
        self.place = str(record.get("place", ""))
        self.line.reported_idle = float(record.get("idle", 0.0))
        self.line.reported_at = time.monotonic()
        self.busy = bool(record.get("busy"))
        joined_ago = max(0.0, time.time() - float(record.get("joined", time.time())))
        self.joined = time.monotonic() - joined_ago
        account = record.get("account")
        if account is None:
            self.account = None
        elif self.account is None or self.account.id != int(account[0]):
            self.account = Account(int(account[0]), str(account[1]), _EPOCH)

    @property
    def in_lobby(self) -> bool:
        return super().in_lobby and not self.busy

    @property
    def answers_challenges(self) -> bool:
        return super().answers_challenges and not self.busy

    def tell(self, note: str) -> None:
        self.line.link.send(self.worker, {"t": "note", "n": self.name, "x": note})


def options_record(options: GameOptions) -> dict[str, Any]:
    return dataclasses.asdict(options)


def share_logins(link: ClusterLink, logins: LoginGuard) -> None:
    """Wrong passwords count at every worker: a guesser gets no more tries by being
    spread over them."""

    def share(kind: str, handle: str, address: str) -> None:
        link.publish_all({"t": "login", "w": link.worker, "k": kind, "h": handle, "a": address})

    def login(event: dict[str, Any]) -> None:
        handle, address = str(event.get("h", "")), str(event.get("a", ""))
        if event.get("k") == "failed":
            logins.failed(handle, address, here=False)
        elif event.get("k") == "succeeded":
            logins.succeeded(handle, address, here=False)

    logins.share = share
    link.handlers["login"] = login


def install(link: ClusterLink, presence: Presence) -> None:
    """Handle here what other workers send about this worker's members."""

    def local(name: Any) -> Member | None:
        member = presence.members.get(str(name).casefold())
        return None if member is None or isinstance(member, RemoteMember) else member

    def note(event: dict[str, Any]) -> None:
        member = local(event.get("n"))
        if member is not None:
            member.tell(str(event.get("x", "")))

    def hang_up(event: dict[str, Any]) -> None:
        member = local(event.get("n"))
        if member is not None:
            member.taken_over = member.taken_over or event.get("over") is True
            task = asyncio.get_running_loop().create_task(member.line.hang_up(str(event["x"])))
            presence.background.add(task)
            task.add_done_callback(presence.background.discard)

    def invite(event: dict[str, Any]) -> None:
        """A challenge from another worker's caller to some of ours: a copy here."""
        sender = presence.remote.get(str(event["sender"]).casefold())
        seating = [presence.find(str(name)) for name in event["seating"]]
        try:
            options = GameOptions(**event["options"])
        except (TypeError, ValueError):
            logger.warning("cluster: a challenge with options %r ignored", event["options"])
            return
        if sender is None or any(member is None for member in seating):
            gone = "Someone in that challenge is not online any more."
            link.send(event["from"], {"t": "answer", "id": event["id"], "yes": False, "why": gone})
            return
        copy = Challenge(sender, [m for m in seating if m is not None], options, {sender.name})
        copy.id, copy.origin = str(event["id"]), str(event["from"])
        presence.copies[copy.id] = copy
        for member in copy.seating:
            if isinstance(member, RemoteMember):
                continue
            if member.invitation is not None or member.challenge is not None:
                presence.decline(copy, member, f"{member.name} is answering another challenge.")
                return
            member.invitation = copy
            member.line.wake()
        presence.changed()

    def answer(event: dict[str, Any]) -> None:
        """An invitee of another worker answers a challenge sent from here."""
        challenge = presence.sent.get(str(event["id"]))
        if challenge is None:
            return
        member = presence.remote.get(str(event.get("n", "")).casefold())
        if event.get("yes") and member is not None:
            presence.accept_remote(challenge, member)
        else:
            presence.call_off(challenge, str(event.get("why") or "The challenge is off."))

    def called_off(event: dict[str, Any]) -> None:
        copy = presence.copies.pop(str(event["id"]), None)
        if copy is None:
            return
        why = str(event.get("why", ""))
        for member in copy.seating:
            if isinstance(member, RemoteMember):
                continue
            if member.invitation is copy:
                member.invitation = None
            member.tell(why)
        presence.changed()

    def seated(event: dict[str, Any]) -> None:
        """Everyone accepted: the table is on the sender's worker; send our callers there."""
        copy = presence.copies.pop(str(event["id"]), None)
        for name in event["names"]:
            member = local(name)
            if member is not None:
                if copy is not None and member.invitation is copy:
                    member.invitation = None
                member.handover = str(event["from"])
                member.summon()
        presence.changed()

    def paged(event: dict[str, Any]) -> None:
        """The sysop at another worker pages a caller of ours: they go on there."""
        member = local(event.get("n"))
        if member is not None and member.in_lobby and member.handover is None:
            member.paged_by = str(event.get("by", ""))
            member.handover = str(event["from"])
            member.line.wake()
        elif member is not None:
            busy = f"{member.name} is {member.place}: try again later."
            link.send(str(event["from"]), {"t": "note", "n": event.get("by", ""), "x": busy})

    def settled(event: dict[str, Any]) -> None:
        """The sysop at another worker settled a tournament match: its table may be here."""
        try:
            number, entrant = int(event["n"]), int(event["e"])
        except (KeyError, TypeError, ValueError):
            return
        presence.settle_tables(number, entrant, str(event.get("x", "")))

    link.handlers.update(
        settled=settled,
        paged=paged,
        note=note,
        hangup=hang_up,
        invite=invite,
        answer=answer,
        called_off=called_off,
        seated=seated,
    )
    presence.make_remote = lambda worker, record: RemoteMember(link, worker, record)
