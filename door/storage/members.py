"""The sysop's tools for members in the store: list and search, one member's record,
lock and unlock, rename (the old handle held from others), delete (their games stay in
opponents' records under a placeholder), a note, and the addresses a member called from
lately. The one-time password reset codes are door/storage/password_resets.py.

These methods change members and return what they did; writing the audit is the
caller's (the shell's command or the door's screen knows who acted, and why).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from sqlalchemy import Row, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from door.defence.lookalike import skeleton
from door.storage.accounts import AccountStore
from door.storage.errors import (
    HandleTakenError,
    MemberLockedError,
)
from door.storage.games import GameStore
from door.storage.member_checks import held_handle_like, held_refusal, member_row
from door.storage.pbm_games import forfeit_pbm_games_of
from door.storage.rules import check_handle, handle_key
from door.storage.schema import (
    account_addresses,
    accounts,
    game_seats,
    held_handles,
    matches,
    password_resets,
    pbm_games,
    player_stats,
    rating_history,
    ratings,
    tournament_entrants,
    tournaments,
)
from door.storage.values import Account

logger = logging.getLogger(__name__)

DELETED_MEMBER: Final = "(deleted member)"
"""The name a deleted member's games show in their opponents' records."""
HELD_FOR: Final = dt.timedelta(days=30)
"""How long a renamed or deleted member's handle stays out of others' reach."""
ADDRESSES_KEPT: Final = 10
"""Addresses kept per member, the latest: enough to see a pattern, few enough to show
on one screen and to keep a member's row count bounded."""
MAX_NOTE_LENGTH: Final = 500
MAX_REASON_LENGTH: Final = 200
MAX_LISTED: Final = 1000

Status = Literal["active", "locked", "locked out"]


@dataclass(frozen=True)
class SysopLock:
    """The sysop locked the member: since when, why, until when (None: until unlocked)."""

    since: dt.datetime
    reason: str
    ends: dt.datetime | None

    def refusal(self, handle: str) -> str:
        """What a locked member is told at log-in."""
        until = f"until {_moment(self.ends)}" if self.ends else "until the sysop unlocks it"
        return f"The sysop has locked {handle} {until}. Reason: {self.reason}"


def rename_notice(handle: str) -> str:
    """What a member the sysop renamed to ``handle`` is told as the door hangs up."""
    return (
        f"The sysop renamed your account to {handle}: call again and log in as {handle} "
        "(your password is unchanged)."
    )


class DeletedMember(NamedTuple):
    """What ``delete_member`` did."""

    handle: str
    games_kept: int
    """Their finished games, which stay in the records (the mail games the delete
    settled among them)."""
    mail_forfeits: int
    """Their mail games going, settled as lost by them by forfeit."""

    def kept(self) -> str:
        """For the audit: ``3 games kept, 1 of them a mail game settled by forfeit``."""
        games = f"{self.games_kept} game" + ("" if self.games_kept == 1 else "s")
        settled = self.mail_forfeits
        if not settled:
            return f"{games} kept"
        which = "a mail game" if settled == 1 else "mail games"
        return f"{games} kept, {settled} of them {which} settled by forfeit"


class MemberNow(NamedTuple):
    """An account as it stands: its handle, and the sysop's lock in force, if any (a
    tuple: the member watch makes one per member online every few seconds)."""

    handle: str
    lock: SysopLock | None


def refusal(online_as: str, now: MemberNow | None) -> str | None:
    """What to tell a member online as ``online_as`` whose account stands as ``now``
    (None: deleted) if they may no longer be online: locked by the sysop, deleted, or
    renamed (the door knows them by a handle no longer theirs: they call again under the
    new one); None if they may stay."""
    if now is None:
        return "The sysop has removed your account."
    if now.lock is not None:
        return now.lock.refusal(now.handle)
    if now.handle != online_as:
        return rename_notice(now.handle)
    return None


@dataclass(frozen=True)
class MemberLine:
    """One member in the list."""

    handle: str
    first_call: dt.datetime
    last_call: dt.datetime | None
    games: int
    rating: float | None
    status: Status


@dataclass(frozen=True)
class SeenAddress:
    address: str
    first_seen: dt.datetime
    last_seen: dt.datetime
    calls: int


@dataclass(frozen=True)
class MemberDetail:
    """One member as the sysop's member screen and ``user show`` give them."""

    id: int
    line: MemberLine
    wins: int
    losses: int
    lock: SysopLock | None
    locked_out_until: dt.datetime | None
    """Locked out by wrong passwords (not by the sysop) until then."""
    reset_code_until: dt.datetime | None
    """A reset code was made and is valid until then (it is never shown again)."""
    note: str | None
    addresses: tuple[SeenAddress, ...]


def _moment(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _lock_of(row: Any, now: dt.datetime) -> SysopLock | None:
    if row.sysop_locked_at is None:
        return None
    if row.sysop_lock_ends is not None and row.sysop_lock_ends <= now:
        return None  # it ended by itself
    return SysopLock(row.sysop_locked_at, row.sysop_lock_reason or "", row.sysop_lock_ends)


def _status(row: Row[Any], now: dt.datetime) -> Status:
    if _lock_of(row, now) is not None:
        return "locked"
    if row.locked_until is not None and row.locked_until > now:
        return "locked out"
    return "active"


def clean_text(text: str, limit: int) -> str:
    """A reason or note as kept: one line of printable characters, at most ``limit``."""
    printable = "".join(char if char.isprintable() else " " for char in text)
    return " ".join(printable.split())[:limit]


def _games_played() -> Any:
    return (
        select(
            player_stats.c.account_id,
            func.sum(player_stats.c.games).label("games"),
            func.sum(player_stats.c.wins).label("wins"),
            func.sum(player_stats.c.losses).label("losses"),
        )
        .group_by(player_stats.c.account_id)
        .subquery()
    )


def _like_escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class MemberStore(AccountStore, GameStore):
    """The sysop's tools for members (part of ``Store``): accounts, as the sysop sees
    and changes them (and the games a deleted member leaves, which are logged)."""

    # --- reading ----------------------------------------------------------------------

    async def members(
        self, search: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[MemberLine]:
        """Members in handle order, those whose handle holds ``search`` (in any case)
        if given; ``limit`` at most (up to MAX_LISTED) from ``offset``."""
        played = _games_played()
        query = (
            select(accounts, played.c.games, ratings.c.rating)
            .outerjoin(played, played.c.account_id == accounts.c.id)
            .outerjoin(ratings, ratings.c.account_id == accounts.c.id)
            .order_by(accounts.c.handle_key)
            .limit(max(1, min(limit, MAX_LISTED)))
            .offset(max(0, offset))
        )
        wanted = " ".join((search or "").split()).lower()
        if wanted:
            query = query.where(
                accounts.c.handle_key.like(f"%{_like_escaped(wanted)}%", escape="\\")
            )
        now = self._clock()
        async with self._transaction() as connection:
            rows = (await connection.execute(query)).all()
        return [_line(row, now) for row in rows]

    async def member(self, handle: str) -> MemberDetail | None:
        """Everything the sysop sees of one member; None if nobody has the handle."""
        played = _games_played()
        now = self._clock()
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(
                        accounts, played.c.games, played.c.wins, played.c.losses, ratings.c.rating
                    )
                    .outerjoin(played, played.c.account_id == accounts.c.id)
                    .outerjoin(ratings, ratings.c.account_id == accounts.c.id)
                    .where(accounts.c.handle_key == handle_key(handle))
                )
            ).first()
            if row is None:
                return None
            reset_until = await connection.scalar(
                select(password_resets.c.expires_at).where(
                    password_resets.c.account_id == row.id, password_resets.c.expires_at > now
                )
            )
            seen = await connection.execute(
                select(account_addresses)
                .where(account_addresses.c.account_id == row.id)
                .order_by(account_addresses.c.last_seen.desc(), account_addresses.c.address)
            )
            addresses = tuple(
                SeenAddress(a.address, a.first_seen, a.last_seen, a.calls) for a in seen
            )
        locked_out = row.locked_until if row.locked_until and row.locked_until > now else None
        return MemberDetail(
            row.id,
            _line(row, now),
            int(row.wins or 0),
            int(row.losses or 0),
            _lock_of(row, now),
            locked_out,
            reset_until,
            row.sysop_note,
            addresses,
        )

    async def sysop_lock(self, account_id: int) -> SysopLock | None:
        """The sysop's lock on the account, if it holds now."""
        async with self._transaction() as connection:
            row = (
                await connection.execute(select(accounts).where(accounts.c.id == account_id))
            ).first()
        return None if row is None else _lock_of(row, self._clock())

    async def check_not_locked(self, account: Account) -> None:
        """Raises MemberLockedError, saying why and until when, if the sysop locked the
        account (every way in asks this: password, SSH key, a BBS)."""
        lock = await self.sysop_lock(account.id)
        if lock is not None:
            raise MemberLockedError(lock.refusal(account.handle))

    async def members_now(self, account_ids: Collection[int]) -> dict[int, MemberNow]:
        """The accounts ``account_ids`` as they stand now (a deleted one is left out): one
        query, for the member watch's look at who is online and who sits at a game."""
        wanted = set(account_ids)
        if not wanted:
            return {}
        now = self._clock()
        async with self._transaction() as connection:
            rows = (
                await connection.execute(
                    select(
                        accounts.c.id,
                        accounts.c.handle,
                        accounts.c.sysop_locked_at,
                        accounts.c.sysop_lock_reason,
                        accounts.c.sysop_lock_ends,
                    ).where(accounts.c.id.in_(wanted))
                )
            ).all()
        return {row.id: MemberNow(row.handle, _lock_of(row, now)) for row in rows}

    # --- what a log-in leaves -----------------------------------------------------------

    async def note_address(self, account_id: int, address: str) -> None:
        """Keep that the member called from ``address``; only the ADDRESSES_KEPT latest
        addresses stay."""
        address = address.strip()[:45]
        if not address:
            return
        now = self._clock()
        async with self._transaction() as connection:
            changed = await connection.execute(
                update(account_addresses)
                .where(
                    account_addresses.c.account_id == account_id,
                    account_addresses.c.address == address,
                )
                .values(last_seen=now, calls=account_addresses.c.calls + 1)
            )
            if changed.rowcount:
                return
            await connection.execute(
                account_addresses.insert().values(
                    account_id=account_id, address=address, first_seen=now, last_seen=now, calls=1
                )
            )
            kept = (
                select(account_addresses.c.address)
                .where(account_addresses.c.account_id == account_id)
                .order_by(account_addresses.c.last_seen.desc(), account_addresses.c.address)
                .limit(ADDRESSES_KEPT)
                .scalar_subquery()
            )
            await connection.execute(
                delete(account_addresses).where(
                    account_addresses.c.account_id == account_id,
                    account_addresses.c.address.not_in(kept),
                )
            )

    # --- the sysop's actions ------------------------------------------------------------

    async def lock_member(
        self, handle: str, reason: str, ends: dt.datetime | None = None
    ) -> Account:
        """Lock the member out until ``ends`` (None: until unlocked), for ``reason``.
        Raises UnknownMemberError, ValueError for no reason or an end already past."""
        reason = clean_text(reason, MAX_REASON_LENGTH)
        if not reason:
            raise ValueError("Give a reason: the member is told it.")
        now = self._clock()
        if ends is not None and ends <= now:
            raise ValueError("The lock's end is already past.")
        async with self._transaction() as connection:
            row = await member_row(connection, handle)
            await connection.execute(
                update(accounts)
                .where(accounts.c.id == row.id)
                .values(sysop_locked_at=now, sysop_lock_reason=reason, sysop_lock_ends=ends)
            )
        return Account(row.id, row.handle, row.created_at, row.last_login_at)

    async def unlock_member(self, handle: str) -> Account:
        """Lift the sysop's lock and any lock-out by wrong passwords."""
        async with self._transaction() as connection:
            row = await member_row(connection, handle)
            await connection.execute(
                update(accounts)
                .where(accounts.c.id == row.id)
                .values(
                    sysop_locked_at=None,
                    sysop_lock_reason=None,
                    sysop_lock_ends=None,
                    locked_until=None,
                    failed_logins=0,
                    first_failed_at=None,
                )
            )
        return Account(row.id, row.handle, row.created_at, row.last_login_at)

    async def set_member_note(self, handle: str, note: str) -> Account:
        """The sysop's note on the member (an empty note removes it)."""
        text = clean_text(note, MAX_NOTE_LENGTH) or None
        async with self._transaction() as connection:
            row = await member_row(connection, handle)
            await connection.execute(
                update(accounts).where(accounts.c.id == row.id).values(sysop_note=text)
            )
        return Account(row.id, row.handle, row.created_at, row.last_login_at)

    async def rename_member(self, handle: str, new_handle: str) -> tuple[str, str]:
        """Give the member ``new_handle`` (the handle rules and the look-alike rule apply,
        and a handle held for someone else is taken); their old handle is held from
        everyone else for HELD_FOR. Their games show the new handle. Returns the old and
        new handles. Raises UnknownMemberError, HandleError, HandleTakenError."""
        new_handle = check_handle(new_handle, self.reserved_handles)
        now = self._clock()
        async with self._transaction() as connection:
            row = await member_row(connection, handle)
        if handle_key(new_handle) != row.handle_key:
            await self._check_free_for(new_handle, row.id, now)
        async with self._transaction() as connection:
            row = await member_row(connection, handle)
            old = row.handle
            await connection.execute(
                update(accounts)
                .where(accounts.c.id == row.id)
                .values(handle=new_handle, handle_key=handle_key(new_handle))
            )
            await _rename_in_records(connection, row.id, new_handle)
            await connection.execute(
                delete(held_handles).where(held_handles.c.handle_key == handle_key(new_handle))
            )
            if row.handle_key != handle_key(new_handle):
                await _hold(connection, old, row.id, now)
        self._forget_handle_index()
        logger.info("member %r renamed %r", old, new_handle)
        return old, new_handle

    async def _check_free_for(self, handle: str, account_id: int, now: dt.datetime) -> None:
        key = handle_key(handle)
        async with self._transaction() as connection:
            owner = await connection.scalar(
                select(accounts.c.id).where(accounts.c.handle_key == key)
            )
            if owner is not None and owner != account_id:
                raise HandleTakenError(f'Someone already has the handle "{handle}".')
            held = await held_handle_like(connection, handle, now, account_id)
            if held is not None:
                raise held_refusal(handle, held)
            others = await connection.execute(
                select(accounts.c.handle).where(accounts.c.id != account_id)
            )
            names = [str(name) for (name,) in others]
        wanted = skeleton(handle)
        lookalike = next(
            (n for n in (*self.reserved_handles, *names) if skeleton(n) == wanted), None
        )
        if lookalike is not None:
            raise HandleTakenError(f"{handle} looks too much like {lookalike}.")

    async def held_handle(self, handle: str) -> str | None:
        """The held handle ``handle`` is (in any case), if it is held now."""
        async with self._transaction() as connection:
            return await connection.scalar(
                select(held_handles.c.handle).where(
                    held_handles.c.handle_key == handle_key(handle),
                    held_handles.c.held_until > self._clock(),
                )
            )

    async def delete_member(self, handle: str) -> DeletedMember:
        """Remove the member: their account, statistics, rating, keys and addresses go;
        the games they played stay in their opponents' records under DELETED_MEMBER (their
        mail games going are first settled as lost by them by forfeit), and their handle
        is held for HELD_FOR. Refused (ValueError) while they are entered in a tournament
        that is not over. Returns the handle they had and the games kept."""
        now = self._clock()
        async with self._transaction() as connection:
            row = await member_row(connection, handle)
            running = await connection.scalar(
                select(tournaments.c.name)
                .join(tournament_entrants, tournament_entrants.c.tournament_id == tournaments.c.id)
                .where(
                    tournament_entrants.c.account_id == row.id,
                    tournaments.c.status != "finished",
                )
                .limit(1)
            )
            if running is not None:
                raise ValueError(
                    f"{row.handle} is entered in the tournament {running!r}, which is not "
                    "over: delete them once it is."
                )
            forfeited = await forfeit_pbm_games_of(connection, self, row.id, now)
            kept = await connection.scalar(
                select(func.count(func.distinct(game_seats.c.game_id))).where(
                    game_seats.c.account_id == row.id
                )
            )
            await _rename_in_records(connection, row.id, DELETED_MEMBER)
            await connection.execute(
                update(rating_history)
                .where(rating_history.c.opponent == row.handle)
                .values(opponent=DELETED_MEMBER)
            )
            await connection.execute(
                update(held_handles)
                .where(held_handles.c.account_id == row.id)
                .values(account_id=None)
            )
            await _hold(connection, row.handle, None, now)
            await connection.execute(delete(accounts).where(accounts.c.id == row.id))
        self._forget_handle_index()
        logger.info("member %r deleted (%d mail games forfeited)", row.handle, forfeited)
        return DeletedMember(str(row.handle), int(kept or 0), forfeited)

    def _forget_handle_index(self) -> None:
        # The index of handles (door/storage/accounts.py) is read again on next use.
        self._handle_index = None


def _line(row: Row[Any], now: dt.datetime) -> MemberLine:
    return MemberLine(
        row.handle,
        row.created_at,
        row.last_login_at or row.created_at,  # signing up is a call
        int(row.games or 0),
        float(row.rating) if row.rating is not None else None,
        _status(row, now),
    )


async def _rename_in_records(connection: AsyncConnection, account_id: int, name: str) -> None:
    """The name the member's seats, matches and mail games show."""
    await connection.execute(
        update(game_seats).where(game_seats.c.account_id == account_id).values(name=name)
    )
    for table, side in (
        (matches, "first"),
        (matches, "second"),
        (pbm_games, "first"),
        (pbm_games, "second"),
    ):
        await connection.execute(
            update(table)
            .where(table.c[f"{side}_account_id"] == account_id)
            .values({f"{side}_name": name})
        )


async def _hold(
    connection: AsyncConnection, handle: str, account_id: int | None, now: dt.datetime
) -> None:
    key = handle_key(handle)
    await connection.execute(delete(held_handles).where(held_handles.c.handle_key == key))
    await connection.execute(
        held_handles.insert().values(
            handle_key=key, handle=handle, account_id=account_id, held_until=now + HELD_FOR
        )
    )
