"""The sysop's bans and mutes as a running door applies them, and the words chat masks.

The store holds the bans and mutes (door/storage/bans.py); each worker keeps those in
force in memory (``BansInForce``, which every connection is checked against, and a
``MuteList``) and reads them again when they change: at once when this door or another
worker made the change (door/cluster/moderation.py passes the word), and otherwise
within ``REFRESH_SECONDS``, by comparing the store's fingerprint of the two tables, so
that a ban made from the shell, or a message a worker missed, takes effect too. Callers
already on from a newly banned address, or under a newly banned name, are told why and
disconnected (``Lines.turn_away``); a newly muted caller is told until when.

The functions at the top make a ban or a mute and write the audit; the shell's commands
(door/ban_commands.py) and the sysop's screens both use them.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

from door.defence.bans import Ban, BanError, BanList, BansInForce, BanTarget, check_reason, ending
from door.defence.chat_mask import WordMask
from door.defence.guard import peer_address, peer_system
from door.defence.mutes import MAX_MUTE_HOURS, Mute, MuteList
from door.logtext import escaped
from door.storage.errors import StoreError

if TYPE_CHECKING:
    from door.storage.bans import Fingerprint
    from door.storage.store import Store

logger = logging.getLogger(__name__)

REFRESH_SECONDS: Final = 3.0
"""How often a door compares the store's fingerprint of the bans and mutes with the one
it read them at: a ban from the shell turns its address away within this (and a read of
two indexes every 3 s is nothing to the database)."""
MAX_BAN_HOURS: Final = 24 * 365 * 10
RECENT_CHAT_LINES: Final = 200
"""Chat lines the sysop's recent-chat screen can show (a few screens' worth)."""
LOOPBACK: Final = ("127.0.0.1", "::1")


class ModerationError(ValueError):
    """A ban or mute that cannot be made as asked; the message is one line."""


class CoversOwnAddress(ModerationError):
    """A ban that would turn the sysop away too (the shell may force it)."""


class CoversLinkedBbs(ModerationError):
    """A ban of a linked BBS's address: every caller of it, made only when asked for
    by name (``whole_bbs``), never as the ban of one of its callers."""


# --- making bans and mutes (the shell's and the door's) --------------------------------


def ban_end(hours: float | None, now: dt.datetime) -> dt.datetime | None:
    """When a ban of ``hours`` made ``now`` ends (None: for good)."""
    if hours is None:
        return None
    if not 0 < hours <= MAX_BAN_HOURS:
        raise ModerationError(f"--hours must be more than 0 and at most {MAX_BAN_HOURS}")
    return now + dt.timedelta(hours=hours)


def covered_own_address(target: BanTarget, own: Iterable[str]) -> str | None:
    """The first of the sysop's own addresses ``target`` would turn away, if any."""
    return next((address for address in own if target.covers(address)), None)


def covers_own(target: BanTarget, own: str) -> CoversOwnAddress:
    return CoversOwnAddress(f"Not banned: {target} covers {own}, one of the sysop's own addresses.")


def covered_linked_bbses(target: BanTarget, linked: Mapping[str, str]) -> list[str]:
    """The tags of the linked BBSes (``[rlogin] systems``: address -> tag) whose
    address ``target`` covers: a ban that turns away every caller of each."""
    return sorted({tag for address, tag in linked.items() if target.covers(address)})


def every_caller_of(tags: Iterable[str]) -> str:
    """``every caller of NODES`` (``and`` between several), as the sysop reads it."""
    return "every caller of " + " and ".join(tags)


def parsed_target(text: str) -> BanTarget:
    """``text`` as a ban's target; ModerationError saying why it is none."""
    try:
        return BanTarget.parse(text)
    except BanError as error:
        raise ModerationError(str(error)) from None


async def add_ban(
    store: Store,
    text: str,
    reason: str,
    hours: float | None,
    actor: str,
    *,
    own_addresses: Iterable[str] = LOOPBACK,
    force: bool = False,
    linked: Mapping[str, str] | None = None,
    whole_bbs: bool = False,
) -> Ban:
    """Ban ``text`` (an address, a CIDR network or handle:NAME) and write the audit.
    ModerationError for a bad target, reason or length, or a ban that would cover one of
    the sysop's ``own_addresses`` (unless ``force``); CoversLinkedBbs for one that covers
    the address of a ``linked`` BBS (address -> tag) unless ``whole_bbs``."""
    target = parsed_target(text)
    try:
        reason = check_reason(reason)
    except BanError as error:
        raise ModerationError(str(error)) from None
    until = ban_end(hours, dt.datetime.now(dt.UTC))
    own = covered_own_address(target, own_addresses)
    if own is not None and not force:
        raise covers_own(target, own)
    bbses = covered_linked_bbses(target, linked or {})
    if bbses and not whole_bbs:
        raise CoversLinkedBbs(
            f"Not banned: {target} is the address of a linked BBS: it would bar "
            f"{every_caller_of(bbses)}. handle:NAME bans one of its callers."
        )
    ban = await store.add_ban(target, reason, until, actor)
    detail = f"ban #{ban.id}, {ending(until)}" + (f", covers the sysop's {own}" if own else "")
    if bbses:
        detail += f", {every_caller_of(bbses)}"
    await store.record_action(actor, "ban.add", str(target), reason, detail)
    return ban


async def lift_ban(store: Store, ban_id: int, actor: str) -> Ban:
    """Lift ban number ``ban_id`` and write the audit (BanNotFoundError if none)."""
    ban = await store.lift_ban(ban_id, actor)
    await store.record_action(actor, "ban.remove", str(ban.target), None, f"ban #{ban.id}")
    return ban


async def add_mute(store: Store, name: str, reason: str, minutes: float, actor: str) -> Mute:
    """Mute ``name`` in chat for ``minutes`` and write the audit."""
    try:
        reason = check_reason(reason)
    except BanError as error:
        raise ModerationError(str(error)) from None
    if not 0 < minutes <= MAX_MUTE_HOURS * 60:
        raise ModerationError(f"a mute lasts from 1 minute to {MAX_MUTE_HOURS} hours")
    until = dt.datetime.now(dt.UTC) + dt.timedelta(minutes=minutes)
    mute = await store.add_mute(name, reason, until, actor)
    await store.record_action(actor, "chat.mute", name, reason, f"mute #{mute.id}, {ending(until)}")
    return mute


async def lift_mute(store: Store, name: str, actor: str) -> Mute:
    """Lift the mute on ``name`` and write the audit (MuteNotFoundError if none)."""
    mute = await store.lift_mute(name, actor)
    await store.record_action(actor, "chat.unmute", mute.name, None, f"mute #{mute.id}")
    return mute


# --- the running door -------------------------------------------------------------------


@dataclass(frozen=True)
class HeardLine:
    """A chat line as the sysop's recent-chat screen shows it."""

    at: dt.datetime
    speaker: str
    where: str
    """Where in the door it was said ("lobby", "table Bob vs Eve")."""
    text: str
    address: str = ""
    """Where the speaker calls from ("" when the door does not know)."""
    bbs: str = ""
    """The linked BBS the speaker came in through (RLogin): ``address`` is that BBS's,
    shared by all its callers ("" for a caller who came straight here)."""


class Lines(Protocol):
    """What moderation needs of the door's connected callers (door/app/door.py)."""

    def turn_away(self, bans: BanList) -> None:
        """Tell every caller here whom ``bans`` cover why, and disconnect them."""

    def tell(self, name: str, note: str) -> None:
        """Tell the caller here named ``name`` (if there is one) ``note``."""

    def peer_of(self, name: str) -> str:
        """The caller here named ``name``'s peer (door/defence/guard.py: ``peer_text`` or
        a linked BBS's ``system_peer``), "" if unknown."""


class Notices(Protocol):
    """The other workers (door/cluster/moderation.py)."""

    def changed(self) -> None:
        """Tell them the bans or mutes changed: they read them again now."""


class Moderation:
    """One door's bans and mutes in force, read from ``store``; see the module docstring."""

    def __init__(
        self,
        store: Store | None,
        bans: BansInForce,
        mask: WordMask,
        lines: Lines | None = None,
        linked: Mapping[str, str] | None = None,
    ) -> None:
        self.store = store
        self.linked: Mapping[str, str] = linked or {}
        """The linked BBSes by address (``[rlogin] systems``): a ban of one's address
        bars all its callers, so it is made only when the sysop asks for that."""
        self.bans = bans
        self.mutes = MuteList()
        self.mask = mask
        self.lines = lines
        self.notices: Notices | None = None
        self.recent: deque[HeardLine] = deque(maxlen=RECENT_CHAT_LINES)
        self.sysop_seen: deque[str] = deque(maxlen=10)
        """Addresses the sysop called from since the door started."""
        self._fingerprint: Fingerprint | None = None
        self._told_mutes: set[int] = set()
        self._failing = False
        self._reading = asyncio.Lock()
        self._keeping: set[asyncio.Task[None]] = set()

    # --- keeping up with the store ------------------------------------------------

    async def refresh(self) -> bool:
        """Read the bans and mutes again if the store's have changed; whether they had.
        A store that fails is logged once and the lists stay as they were."""
        if self.store is None:
            return False
        async with self._reading:
            try:
                fingerprint = await self.store.moderation_fingerprint()
                if fingerprint == self._fingerprint:
                    self._recovered()
                    return False
                bans = await self.store.bans_in_force()
                mutes = await self.store.mutes_in_force()
            except StoreError as error:
                if not self._failing:
                    logger.warning("bans and mutes cannot be read again for now: %s", error)
                    self._failing = True
                return False
            self._recovered()
            first = self._fingerprint is None
            self._fingerprint = fingerprint
            self.apply(bans, mutes, tell=not first)
            return True

    def _recovered(self) -> None:
        if self._failing:
            logger.info("bans and mutes can be read again")
            self._failing = False

    def apply(self, bans: Iterable[Ban], mutes: Iterable[Mute], *, tell: bool = True) -> None:
        """Put these bans and mutes in force here; with ``tell``, turn away whoever they
        cover and tell the newly muted."""
        self.bans.list = BanList(bans)
        self.mutes = MuteList(mutes)
        if not tell or self.lines is None:
            self._told_mutes = {mute.id for mute in self.mutes.mutes}
            return
        self.lines.turn_away(self.bans.list)
        for mute in self.mutes.mutes:
            if mute.id not in self._told_mutes:
                self.lines.tell(mute.name, mute.notice())
        self._told_mutes = {mute.id for mute in self.mutes.mutes}

    async def run(self, every: float = REFRESH_SECONDS) -> None:
        """Refresh every ``every`` seconds until cancelled."""
        while True:
            await asyncio.sleep(every)
            await self.refresh()

    async def changed_here(self) -> None:
        """A ban or mute was just made or lifted at this door: in force here at once,
        and at once at every other worker."""
        await self.refresh()
        if self.notices is not None:
            self.notices.changed()

    # --- the sysop's actions at the door ------------------------------------------

    def sysop_came_from(self, address: str) -> None:
        """The sysop's session began from ``address``: a ban must not cover it, here or
        from the shell (the store keeps it)."""
        self.sysop_seen.append(address)
        if self.store is not None:
            task = asyncio.get_running_loop().create_task(self._keep_sysop_address(address))
            self._keeping.add(task)
            task.add_done_callback(self._keeping.discard)

    async def _keep_sysop_address(self, address: str) -> None:
        assert self.store is not None
        try:
            await self.store.sysop_came_from(address)
        except StoreError as error:
            logger.warning("the sysop's address is not kept: %s", error)

    def own_addresses(self, also: Iterable[str] = ()) -> list[str]:
        return [*LOOPBACK, *self.sysop_seen, *also]

    async def ban(
        self,
        text: str,
        reason: str,
        hours: float | None,
        actor: str,
        *,
        force: bool = False,
        whole_bbs: bool = False,
    ) -> Ban:
        store = self._store()
        own = self.own_addresses(await store.sysop_addresses(actor))
        ban = await add_ban(
            store,
            text,
            reason,
            hours,
            actor,
            own_addresses=own,
            force=force,
            linked=self.linked,
            whole_bbs=whole_bbs,
        )
        logger.info("%s banned %s: %s", escaped(actor), ban.target, escaped(ban.reason))
        await self.changed_here()
        return ban

    async def bbses_barred(self, text: str, actor: str) -> list[str]:
        """The linked BBSes a ban of ``text`` would bar whole, for the sysop to confirm
        before anything more is asked; ModerationError at once for a bad target or one
        that covers the sysop's own address, where the ban itself would be refused."""
        target = parsed_target(text)
        own_addresses = self.own_addresses(await self._store().sysop_addresses(actor))
        own = covered_own_address(target, own_addresses)
        if own is not None:
            raise covers_own(target, own)
        return covered_linked_bbses(target, self.linked)

    async def lift(self, ban_id: int, actor: str) -> Ban:
        ban = await lift_ban(self._store(), ban_id, actor)
        logger.info("%s lifted ban #%d (%s)", escaped(actor), ban.id, ban.target)
        await self.changed_here()
        return ban

    async def mute(self, name: str, reason: str, minutes: float, actor: str) -> Mute:
        mute = await add_mute(self._store(), name, reason, minutes, actor)
        logger.info("%s muted %s %s", escaped(actor), escaped(name), ending(mute.until))
        await self.changed_here()
        return mute

    async def unmute(self, name: str, actor: str) -> Mute:
        mute = await lift_mute(self._store(), name, actor)
        await self.changed_here()
        return mute

    def _store(self) -> Store:
        if self.store is None:
            raise ModerationError("accounts are off: bans and mutes need the database")
        return self.store

    # --- chat -----------------------------------------------------------------------

    def chat_refusal(self, name: str) -> str | None:
        """Why ``name`` may not chat now (muted), or None."""
        mute = self.mutes.of(name)
        return mute.refusal() if mute is not None else None

    def heard(self, speaker: str, where: str, line: str) -> str:
        """A chat line going out: masked, and kept for the sysop's recent-chat screen."""
        shown = self.mask.masked(line)
        peer = self.lines.peer_of(speaker) if self.lines is not None else ""
        address = peer_address(peer) if peer else ""
        self.recent.append(
            HeardLine(dt.datetime.now(dt.UTC), speaker, where, shown, address, peer_system(peer))
        )
        return shown
