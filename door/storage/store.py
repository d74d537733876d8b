"""The door's database: accounts, SSH keys, statistics, saved games and game logs.

One ``Store`` serves the whole server; every method is a coroutine and one transaction.
Open it with ``Store.open(url)`` (which also brings the schema up to date) and close it
with ``close()``.

When the database cannot be used (a read-only or damaged SQLite file, a PostgreSQL
server that is down, a full disk) ``open`` and every method raise
``StorageUnavailableError``: its message tells a caller that accounts are off and they
can play as a guest, its ``detail`` tells the sysop which database and why. Nothing
else about a failing database escapes, so a session that catches ``StoreError`` around
each call keeps serving its caller, and the server keeps serving everyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import os
import secrets
import stat
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Final, Literal

import argon2
from alembic.util import CommandError
from sqlalchemy import Row, case, event, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from door.defence.lookalike import skeleton
from door.storage.errors import (
    AccountLockedError,
    GameNotFoundError,
    HandleTakenError,
    LoginError,
    SshKeyError,
    StorageUnavailableError,
    StoreError,
)
from door.storage.migrate import upgrade_to_head
from door.storage.rules import (
    check_handle,
    check_password,
    handle_candidates,
    handle_key,
    normalize_public_key,
)
from door.storage.schema import (
    STAT_COUNTERS,
    accounts,
    bbs_users,
    game_logs,
    game_seats,
    games,
    player_stats,
    ssh_keys,
)
from door.storage.settings import DatabaseSettings, redact_url
from door.storage.stats import GameStats, SeatStats, game_stats, outcome_to_json
from engine.gamelog import game_log, recording_finished
from engine.outcome import Outcome
from engine.record import RecordedGame, Recording, RecordingError, replay

logger = logging.getLogger(__name__)

Clock = Callable[[], dt.datetime]
LeaderboardOrder = Literal["wins", "win_rate"]

MAX_NAME_LENGTH: Final = 20
MAX_OPPONENT_LENGTH: Final = 24
WRONG_LOGIN: Final = "Wrong handle or password."


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class LoginPolicy:
    """``max_failures`` wrong passwords within ``window`` lock an account for ``lockout``
    (0: never)."""

    max_failures: int = 5
    window: dt.timedelta = dt.timedelta(minutes=15)
    lockout: dt.timedelta = dt.timedelta(minutes=15)

    @classmethod
    def from_settings(cls, settings: DatabaseSettings) -> LoginPolicy:
        return cls(
            settings.max_failed_logins,
            dt.timedelta(seconds=settings.failed_login_window_seconds),
            dt.timedelta(seconds=settings.lockout_seconds),
        )


@dataclass(frozen=True)
class Account:
    id: int
    handle: str
    created_at: dt.datetime
    last_login_at: dt.datetime | None = None


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: an account, or just a name (a guest, the computer)."""

    name: str
    account_id: int | None = None


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game as last saved; ``resume()`` rebuilds it to play on."""

    game_id: int
    recording: Recording
    seats: tuple[Seat, ...]
    opponent: str
    updated_at: dt.datetime

    def resume(self) -> RecordedGame:
        """The game as it stood, recording on (raises RecordingError if it no longer
        replays, which ``Store.load_unfinished_game`` has already ruled out)."""
        return replay(self.recording)


@dataclass(frozen=True)
class StatLine:
    """Totals for one mode (runs rule, counting, opponent), or for all modes together
    (then those three are "all")."""

    runs: str
    counting: str
    opponent: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    skunks_given: int = 0
    skunks_taken: int = 0
    double_skunks_given: int = 0
    double_skunks_taken: int = 0
    pegging_points: int = 0
    hand_points: int = 0
    crib_points: int = 0
    muggins_taken: int = 0
    muggins_given: int = 0
    hands_dealt: int = 0
    hands_shown: int = 0
    cribs_shown: int = 0
    best_hand_score: int = 0
    best_hand_cards: str | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def pegging_per_hand(self) -> float:
        return self.pegging_points / self.hands_dealt if self.hands_dealt else 0.0

    @property
    def average_hand(self) -> float:
        return self.hand_points / self.hands_shown if self.hands_shown else 0.0

    @property
    def average_crib(self) -> float:
        return self.crib_points / self.cribs_shown if self.cribs_shown else 0.0

    @classmethod
    def total(cls, lines: Sequence[StatLine]) -> StatLine:
        best = max(lines, key=lambda line: line.best_hand_score, default=None)
        sums = {name: sum(getattr(line, name) for line in lines) for name in STAT_COUNTERS}
        return cls(
            "all",
            "all",
            "all",
            **sums,
            best_hand_score=best.best_hand_score if best else 0,
            best_hand_cards=best.best_hand_cards if best else None,
        )


@dataclass(frozen=True)
class PlayerStats:
    account: Account
    modes: tuple[StatLine, ...]

    @property
    def total(self) -> StatLine:
        return StatLine.total(self.modes)


@dataclass(frozen=True)
class LeaderboardEntry:
    place: int
    handle: str
    games: int
    wins: int
    losses: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


async def _insert_account(
    connection: AsyncConnection,
    handle: str,
    password_hash: str,
    now: dt.datetime,
    last_login_at: dt.datetime | None = None,
) -> int:
    """A new row in accounts; raises IntegrityError when the handle is taken."""
    account_id = await connection.scalar(
        accounts.insert()
        .values(
            handle=handle,
            handle_key=handle_key(handle),
            password_hash=password_hash,
            created_at=now,
            last_login_at=last_login_at,
        )
        .returning(accounts.c.id)
    )
    assert account_id is not None
    return int(account_id)


class Store:
    """The database behind the door. Create with ``await Store.open(url)``."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        policy: LoginPolicy,
        hasher: argon2.PasswordHasher,
        clock: Clock,
        name: str,
        reserved_handles: Sequence[str] = (),
    ) -> None:
        self._engine = engine
        self.reserved_handles = tuple(reserved_handles)
        self.policy = policy
        self._hasher = hasher
        self._clock = clock
        self.name = name
        self._dummy_hash = ""

    # --- opening and closing ------------------------------------------------------

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        policy: LoginPolicy | None = None,
        hasher: argon2.PasswordHasher | None = None,
        clock: Clock = utc_now,
        connect_args: dict[str, Any] | None = None,
        reserved_handles: Sequence[str] = (),
    ) -> Store:
        """Connect to ``url`` (``sqlite+aiosqlite:///file`` or ``postgresql+asyncpg://...``)
        and apply any pending migrations.

        Raises StorageUnavailableError, with the database and the reason in ``detail``,
        when the database cannot be opened, is read-only or damaged, or cannot migrate.
        ``hasher`` defaults to argon2-cffi's argon2id parameters (RFC 9106, low memory).
        ``reserved_handles`` are names nobody may sign up as (the sysop's, say), besides
        door.storage.rules.RESERVED_HANDLES.
        """
        name = redact_url(url)
        try:
            parsed = make_url(url)
        except ArgumentError:
            detail = f"database URL {name!r} cannot be read"
            logger.error("%s", detail)  # as every other reason not to open is
            raise StorageUnavailableError(
                _caller_message("the database is not set up right"), detail
            ) from None
        if parsed.get_backend_name() == "sqlite":
            try:
                _check_sqlite_file(parsed.database, name)
            except StorageUnavailableError as error:
                logger.error("%s", error.detail)
                raise
        engine = create_async_engine(url, connect_args=connect_args or {})
        if parsed.get_backend_name() == "sqlite":
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        store = cls(
            engine,
            policy=policy or LoginPolicy(),
            hasher=hasher or argon2.PasswordHasher(),
            clock=clock,
            name=name,
            reserved_handles=reserved_handles,
        )
        try:
            async with store._transaction() as connection:
                await connection.run_sync(upgrade_to_head)
        except CommandError as error:
            # Typically a revision this door does not know: a newer door migrated it.
            await engine.dispose()
            detail = f"database {name}: cannot bring the schema up to date ({error})"
            logger.error("%s", detail)
            raise StorageUnavailableError(
                _caller_message("the database belongs to a newer version of the door"), detail
            ) from None
        except BaseException:
            await engine.dispose()
            raise
        logger.info("database %s is ready", name)
        return store

    async def close(self) -> None:
        await self._engine.dispose()

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[AsyncConnection]:
        """One transaction, with any database failure turned into StorageUnavailableError."""
        try:
            async with self._engine.begin() as connection:
                yield connection
        except StoreError:
            raise
        except IntegrityError:
            raise  # the caller turns these into rule errors (a handle taken...)
        except (DBAPIError, OSError, TimeoutError) as error:
            # Logged here, once, so that no caller needs to; callers show str(error).
            reason = _reason(error)
            detail = f"database {self.name}: {reason} ({_first_line(error)})"
            logger.error("%s", detail)
            raise StorageUnavailableError(_caller_message(reason), detail) from error

    def transaction(self) -> contextlib.AbstractAsyncContextManager[AsyncConnection]:
        """One transaction with the store's error handling, for the storage modules
        beside this one (door.storage.competition)."""
        return self._transaction()

    # --- accounts -----------------------------------------------------------------

    async def check_new_handle(self, handle: str) -> str:
        """The handle as it would be kept, if it follows the rules and nobody has it.

        Raises HandleError or HandleTakenError (and StorageUnavailableError): a sign-up
        screen asks this before asking for a password.
        """
        handle = check_handle(handle, self.reserved_handles)
        async with self._transaction() as connection:
            taken = await connection.scalar(
                select(accounts.c.id).where(accounts.c.handle_key == handle_key(handle))
            )
        if taken is not None:
            raise _taken(handle)
        lookalike = await self.lookalike_handle(handle)
        if lookalike is not None:
            raise HandleTakenError(
                f"{handle} looks too much like {lookalike}: please choose another handle."
            )
        return handle

    async def lookalike_handle(self, name: str, *, reserved: bool = True) -> str | None:
        """A member's handle (or, with ``reserved``, a reserved one) that looks like
        ``name`` to a reader (the same TR39 confusable skeleton, door/defence/lookalike.py)."""
        wanted = skeleton(name)
        for kept in self.reserved_handles if reserved else ():
            if skeleton(kept) == wanted:
                return kept
        async with self._transaction() as connection:
            handles = (await connection.scalars(select(accounts.c.handle))).all()
        for handle in handles:
            if skeleton(handle) == wanted:
                return str(handle)
        return None

    async def create_account(self, handle: str, password: str) -> Account:
        """A new account. Raises HandleError (rules), HandleTakenError (someone has it,
        in any case), PasswordRuleError; the password is kept only as an argon2id hash."""
        handle = check_handle(handle, self.reserved_handles)
        check_password(password, handle)
        password_hash = await asyncio.to_thread(self._hasher.hash, password)
        now = self._clock()
        try:
            async with self._transaction() as connection:
                account_id = await _insert_account(connection, handle, password_hash, now)
        except IntegrityError:
            raise _taken(handle) from None
        logger.info("new account %r", handle)
        return Account(account_id, handle, now)

    async def bbs_account(self, system: str, user_id: str, alias: str) -> Account:
        """The account of the caller ``user_id`` of the BBS ``system`` ("#12" for a drop
        file's user record 12, an RLogin alias lowercased), who comes in through it with no
        password: made on their first call, under their ``alias`` made
        to fit the handle rules (with a number added when a member here has it). Its
        password is a random secret nobody knows, so it logs in only through the BBS."""
        system = " ".join(system.split())[:60] or "BBS"
        user_id = user_id[:60]
        found = await self._bbs_account(system, user_id)
        if found is not None:
            return found
        secret = secrets.token_urlsafe(32)
        password_hash = await asyncio.to_thread(self._hasher.hash, secret)
        now = self._clock()
        for handle in handle_candidates(alias, self.reserved_handles):
            try:
                async with self._transaction() as connection:
                    account_id = await _insert_account(
                        connection, handle, password_hash, now, last_login_at=now
                    )
                    await connection.execute(
                        bbs_users.insert().values(
                            system=system,
                            user_id=user_id,
                            account_id=account_id,
                            created_at=now,
                        )
                    )
            except IntegrityError:
                # The handle is a member's, or another node made this caller's account
                # at the same moment: then that one is theirs.
                found = await self._bbs_account(system, user_id)
                if found is not None:
                    return found
                continue
            logger.info("new account %r for %r of %r", handle, user_id, system)
            return Account(account_id, handle, now, now)
        raise HandleTakenError(f"No handle like {alias!r} is free.")

    async def _bbs_account(self, system: str, user_id: str) -> Account | None:
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(accounts)
                    .join(bbs_users, bbs_users.c.account_id == accounts.c.id)
                    .where(bbs_users.c.system == system, bbs_users.c.user_id == user_id)
                )
            ).first()
            if row is None:
                return None
            now = self._clock()
            await connection.execute(
                update(accounts).where(accounts.c.id == row.id).values(last_login_at=now)
            )
        return Account(row.id, row.handle, row.created_at, now)

    async def account(self, handle: str) -> Account | None:
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(accounts).where(accounts.c.handle_key == handle_key(handle))
                )
            ).first()
        return _account(row) if row is not None else None

    async def verify_login(self, handle: str, password: str) -> Account:
        """The account, if ``password`` is right and the account is not locked.

        Raises LoginError for a wrong handle or password (without saying which), and
        AccountLockedError when the policy's number of wrong passwords came within its
        window: the account then refuses every password until the lock-out ends.
        """
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(accounts).where(accounts.c.handle_key == handle_key(handle))
                )
            ).first()
        now = self._clock()
        if row is None:
            # Check against a hash all the same, so that a wrong handle takes as long as
            # a wrong password and the timing does not tell which handles exist.
            if not self._dummy_hash:
                self._dummy_hash = await asyncio.to_thread(self._hasher.hash, "no account")
            await asyncio.to_thread(self._password_matches, self._dummy_hash, password)
            raise LoginError(WRONG_LOGIN)
        if row.locked_until is not None and row.locked_until > now:
            raise _locked(row.handle, row.locked_until - now)
        if not await asyncio.to_thread(self._password_matches, row.password_hash, password):
            await self._count_failure(row.id, row.handle, now)
            raise LoginError(WRONG_LOGIN)
        values: dict[str, Any] = {
            "failed_logins": 0,
            "first_failed_at": None,
            "locked_until": None,
            "last_login_at": now,
        }
        if self._hasher.check_needs_rehash(row.password_hash):
            values["password_hash"] = await asyncio.to_thread(self._hasher.hash, password)
        async with self._transaction() as connection:
            await connection.execute(update(accounts).where(accounts.c.id == row.id).values(values))
        return Account(row.id, row.handle, row.created_at, now)

    def _password_matches(self, password_hash: str, password: str) -> bool:
        try:
            return self._hasher.verify(password_hash, password)
        except argon2.exceptions.VerifyMismatchError:
            return False
        except argon2.exceptions.InvalidHashError:
            logger.error("an account's password hash cannot be read; it cannot log in")
            return False

    async def _count_failure(self, account_id: int, handle: str, now: dt.datetime) -> None:
        # One UPDATE, so that wrong passwords tried at once on several lines all count.
        window_start = now - self.policy.window
        fresh = or_(accounts.c.first_failed_at.is_(None), accounts.c.first_failed_at < window_start)
        async with self._transaction() as connection:
            failures = await connection.scalar(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(
                    failed_logins=case((fresh, 1), else_=accounts.c.failed_logins + 1),
                    first_failed_at=case((fresh, now), else_=accounts.c.first_failed_at),
                )
                .returning(accounts.c.failed_logins)
            )
            locked = (
                self.policy.max_failures > 0
                and failures is not None
                and failures >= self.policy.max_failures
            )
            if locked:
                await connection.execute(
                    update(accounts)
                    .where(accounts.c.id == account_id)
                    .values(
                        failed_logins=0,
                        first_failed_at=None,
                        locked_until=now + self.policy.lockout,
                    )
                )
        if locked:
            # Raised only now: raising inside the transaction would roll the lock back.
            logger.warning("account %r locked after %d wrong passwords", handle, failures)
            raise _locked(handle, self.policy.lockout, after_wrong_password=True)

    async def change_password(self, account_id: int, password: str) -> None:
        """Set a new password. Raises PasswordRuleError for one that breaks the rules,
        LoginError if the account is gone."""
        async with self._transaction() as connection:
            handle = await connection.scalar(
                select(accounts.c.handle).where(accounts.c.id == account_id)
            )
        if handle is None:
            raise LoginError("That account no longer exists.")
        check_password(password, handle)
        password_hash = await asyncio.to_thread(self._hasher.hash, password)
        async with self._transaction() as connection:
            await connection.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(password_hash=password_hash)
            )

    # --- SSH keys -----------------------------------------------------------------

    async def add_ssh_key(self, account_id: int, public_key: str) -> str:
        """Attach an OpenSSH public key to the account; returns it as stored.

        Raises SshKeyError if it is not a key or another account has it. Adding a key
        the account already has changes nothing.
        """
        key = normalize_public_key(public_key)
        try:
            async with self._transaction() as connection:
                owner = await connection.scalar(
                    select(ssh_keys.c.account_id).where(ssh_keys.c.public_key == key)
                )
                if owner == account_id:
                    return key
                if owner is not None:
                    raise SshKeyError("That key is already attached to another account.")
                await connection.execute(
                    ssh_keys.insert().values(
                        account_id=account_id, public_key=key, added_at=self._clock()
                    )
                )
        except IntegrityError:
            raise SshKeyError("That key is already attached to another account.") from None
        return key

    async def remove_ssh_key(self, account_id: int, public_key: str) -> bool:
        key = normalize_public_key(public_key)
        async with self._transaction() as connection:
            result = await connection.execute(
                ssh_keys.delete().where(
                    ssh_keys.c.account_id == account_id, ssh_keys.c.public_key == key
                )
            )
        return result.rowcount > 0

    async def ssh_keys_for(self, account_id: int) -> list[str]:
        async with self._transaction() as connection:
            rows = await connection.scalars(
                select(ssh_keys.c.public_key)
                .where(ssh_keys.c.account_id == account_id)
                .order_by(ssh_keys.c.id)
            )
            return list(rows)

    async def account_for_public_key(self, public_key: str) -> Account | None:
        """The account a public key (an OpenSSH line, comment or not) logs in, or None."""
        try:
            key = normalize_public_key(public_key)
        except SshKeyError:
            return None
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(accounts)
                    .join(ssh_keys, ssh_keys.c.account_id == accounts.c.id)
                    .where(ssh_keys.c.public_key == key)
                )
            ).first()
        return _account(row) if row is not None else None

    # --- games ----------------------------------------------------------------------

    async def start_game(self, recording: Recording, seats: Sequence[Seat], opponent: str) -> int:
        """Save a new game (usually before its first action); returns its number.

        ``seats`` names who sits where, one per seat; ``opponent`` is the kind of
        opponent the statistics are kept under, such as "computer-normal" or "people".
        """
        async with self._transaction() as connection:
            return await self._insert_game(connection, recording, seats, opponent)

    async def save_game(self, game_id: int, recording: Recording) -> None:
        """Replace the game's saved recording with a newer one (call after each action).

        A save older than the one stored (fewer actions) is ignored, so saves that arrive
        out of order do no harm. Raises GameNotFoundError if there is no such game or it
        is finished.
        """
        async with self._transaction() as connection:
            result = await connection.execute(
                update(games)
                .where(
                    games.c.id == game_id,
                    games.c.finished.is_(False),
                    games.c.actions <= len(recording.actions),
                )
                .values(
                    recording=recording.to_json(),
                    actions=len(recording.actions),
                    updated_at=self._clock(),
                )
            )
            if result.rowcount == 0:
                finished = await connection.scalar(
                    select(games.c.finished).where(games.c.id == game_id)
                )
                if finished is None or finished:
                    raise GameNotFoundError(f"There is no game {game_id} in progress.")

    async def load_unfinished_game(self, account_id: int) -> SavedGame | None:
        """The account's most recently saved unfinished game, or None.

        A saved game that no longer replays (damaged, or from an incompatible version) is
        logged, set aside as finished without statistics, and skipped.
        """
        while True:
            async with self._transaction() as connection:
                row = (
                    await connection.execute(
                        select(games)
                        .join(game_seats, game_seats.c.game_id == games.c.id)
                        .where(game_seats.c.account_id == account_id, games.c.finished.is_(False))
                        .order_by(games.c.updated_at.desc(), games.c.id.desc())
                        .limit(1)
                    )
                ).first()
                if row is None:
                    return None
                seats = await self._seats(connection, row.id)
            try:
                recording = Recording.from_json(row.recording)
                replay(recording)
            except RecordingError as error:
                logger.error("saved game %d does not replay, setting it aside: %s", row.id, error)
                await self.discard_game(row.id)
                continue
            return SavedGame(row.id, recording, seats, row.opponent, row.updated_at)

    async def discard_game(self, game_id: int) -> None:
        """Close a game without a result or statistics (one that cannot be resumed)."""
        async with self._transaction() as connection:
            await connection.execute(
                update(games).where(games.c.id == game_id).values(finished=True)
            )

    async def finish_game(
        self, game_id: int, recording: Recording, *, forfeited_by: int | None = None
    ) -> Outcome:
        """Close a saved game: its final recording, its log and every seated account's
        statistics, in one transaction (so a crash leaves it either open or all done).

        ``forfeited_by`` is the seat that left an unfinished game (it loses). Raises
        GameNotFoundError if there is no such open game, and ValueError (a bug in the
        caller) if the game is neither over nor forfeited.
        """
        stats = game_stats(recording, forfeited_by)
        async with self._transaction() as connection:
            await self._settle(connection, game_id, stats)
        return stats.result

    async def record_game_result(
        self,
        recording: Recording,
        seats: Sequence[Seat],
        opponent: str,
        *,
        forfeited_by: int | None = None,
    ) -> int:
        """Log a finished game that was never saved along the way, with its statistics;
        returns its number. Same rules as ``finish_game``."""
        stats = game_stats(recording, forfeited_by)
        async with self._transaction() as connection:
            game_id = await self._insert_game(connection, recording, seats, opponent)
            await self._settle(connection, game_id, stats)
        return game_id

    async def _insert_game(
        self,
        connection: AsyncConnection,
        recording: Recording,
        seats: Sequence[Seat],
        opponent: str,
    ) -> int:
        if len(seats) != recording.players:
            raise ValueError(f"{recording.players} players need {recording.players} seats")
        now = self._clock()
        game_id = await connection.scalar(
            games.insert()
            .values(
                players=recording.players,
                runs=recording.runs,
                counting=recording.counting,
                opponent=opponent[:MAX_OPPONENT_LENGTH],
                recording=recording.to_json(),
                actions=len(recording.actions),
                finished=False,
                created_at=now,
                updated_at=now,
            )
            .returning(games.c.id)
        )
        assert isinstance(game_id, int)
        await connection.execute(
            game_seats.insert(),
            [
                {
                    "game_id": game_id,
                    "seat": number,
                    "account_id": seat.account_id,
                    "name": seat.name[:MAX_NAME_LENGTH],
                }
                for number, seat in enumerate(seats)
            ],
        )
        return game_id

    async def _settle(self, connection: AsyncConnection, game_id: int, stats: GameStats) -> None:
        """Close the game with its final recording (a forfeit written in), its log and
        the seated accounts' statistics."""
        recording = stats.recording
        now = self._clock()
        closed = await connection.execute(
            update(games)
            .where(games.c.id == game_id, games.c.finished.is_(False))
            .values(
                recording=recording.to_json(),
                actions=len(recording.actions),
                finished=True,
                updated_at=now,
            )
            .returning(games.c.runs, games.c.counting, games.c.opponent)
        )
        mode = closed.first()
        if mode is None:
            raise GameNotFoundError(f"There is no game {game_id} in progress.")
        await connection.execute(
            game_logs.insert().values(
                game_id=game_id,
                recording=recording.to_json(),
                result=outcome_to_json(stats.result),
                finished_at=now,
            )
        )
        seats = await self._seats(connection, game_id)
        for number, seat in enumerate(seats):
            if seat.account_id is not None:
                await self._add_stats(connection, seat.account_id, mode, stats.seats[number])

    async def _add_stats(
        self, connection: AsyncConnection, account_id: int, mode: Row[Any], seat_stats: SeatStats
    ) -> None:
        insert = postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert
        statement = insert(player_stats).values(
            account_id=account_id,
            runs=mode.runs,
            counting=mode.counting,
            opponent=mode.opponent,
            **seat_stats.counters(),
            best_hand_cards=seat_stats.best_hand_cards,
        )
        new = statement.excluded
        better = or_(
            new.best_hand_score > player_stats.c.best_hand_score,
            player_stats.c.best_hand_cards.is_(None),
        )
        changes: dict[str, Any] = {name: player_stats.c[name] + new[name] for name in STAT_COUNTERS}
        changes["best_hand_score"] = case(
            (better, new.best_hand_score), else_=player_stats.c.best_hand_score
        )
        changes["best_hand_cards"] = case(
            (better, new.best_hand_cards), else_=player_stats.c.best_hand_cards
        )
        await connection.execute(
            statement.on_conflict_do_update(
                index_elements=["account_id", "runs", "counting", "opponent"], set_=changes
            )
        )

    async def _seats(self, connection: AsyncConnection, game_id: int) -> tuple[Seat, ...]:
        rows = await connection.execute(
            select(game_seats.c.name, game_seats.c.account_id)
            .where(game_seats.c.game_id == game_id)
            .order_by(game_seats.c.seat)
        )
        return tuple(Seat(row.name, row.account_id) for row in rows)

    async def game_log(self, game_id: int, *, chances: bool = False) -> list[str]:
        """The game told as text lines (finished or not), with each side's chance to win
        after every move if ``chances``. Raises GameNotFoundError."""
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(games, game_logs.c.recording.label("final_recording"))
                    .outerjoin(game_logs, game_logs.c.game_id == games.c.id)
                    .where(games.c.id == game_id)
                )
            ).first()
            if row is None:
                raise GameNotFoundError(f"There is no game {game_id}.")
            seats = await self._seats(connection, game_id)
        try:
            recording = Recording.from_json(row.final_recording or row.recording)
            body = game_log(recording, [seat.name for seat in seats], chances=chances)
        except RecordingError as error:
            return [f"Game {game_id} cannot be replayed: {error}"]
        started = row.created_at.strftime("%Y-%m-%d %H:%M UTC")
        if not row.finished:
            state = "in progress"
        elif recording_finished(recording):
            state = "finished"
        else:
            # Settled without an end on the board (abandoned, or given up when everyone
            # left): the log says it was not played to its end.
            state = "abandoned before its end"
        return [f"Game {game_id}, started {started}, {state}.", *body]

    # --- statistics -----------------------------------------------------------------

    async def stats_for(self, handle: str) -> PlayerStats | None:
        """Everything the account has played, per mode; None if nobody has the handle."""
        async with self._transaction() as connection:
            row = (
                await connection.execute(
                    select(accounts).where(accounts.c.handle_key == handle_key(handle))
                )
            ).first()
            if row is None:
                return None
            lines = await connection.execute(
                select(player_stats)
                .where(player_stats.c.account_id == row.id)
                .order_by(player_stats.c.opponent, player_stats.c.runs, player_stats.c.counting)
            )
            names = [field.name for field in fields(StatLine)]
            modes = tuple(
                StatLine(**{name: line._mapping[name] for name in names}) for line in lines
            )
        return PlayerStats(_account(row), modes)

    async def leaderboard(
        self, order: LeaderboardOrder = "wins", *, limit: int = 10, min_games: int = 10
    ) -> list[LeaderboardEntry]:
        """The top ``limit`` accounts over all modes: by most wins (then fewest games), or
        by win rate among those with at least ``min_games`` games (then most wins)."""
        total_games = func.sum(player_stats.c.games)
        total_wins = func.sum(player_stats.c.wins)
        query = (
            select(
                accounts.c.handle,
                total_games.label("games"),
                total_wins.label("wins"),
                func.sum(player_stats.c.losses).label("losses"),
            )
            .join(player_stats, player_stats.c.account_id == accounts.c.id)
            .group_by(accounts.c.id, accounts.c.handle, accounts.c.handle_key)
            .having(total_games > 0)
        )
        if order == "wins":
            query = query.order_by(total_wins.desc(), total_games, accounts.c.handle_key)
        else:
            rate = total_wins * 1.0 / total_games
            query = query.having(total_games >= min_games).order_by(
                rate.desc(), total_wins.desc(), accounts.c.handle_key
            )
        async with self._transaction() as connection:
            rows = (await connection.execute(query.limit(limit))).all()
        return [
            LeaderboardEntry(place, row.handle, int(row.games), int(row.wins), int(row.losses))
            for place, row in enumerate(rows, start=1)
        ]


# --- helpers ---------------------------------------------------------------------------


def _account(row: Row[Any]) -> Account:
    return Account(row.id, row.handle, row.created_at, row.last_login_at)


def _taken(handle: str) -> HandleTakenError:
    return HandleTakenError(f'Someone already has the handle "{handle}": choose another.')


def _locked(
    handle: str, left: dt.timedelta, *, after_wrong_password: bool = False
) -> AccountLockedError:
    seconds = max(1, int(left.total_seconds()))
    minutes = (seconds + 59) // 60
    wait = f"{minutes} minute{'s' if minutes != 1 else ''}"
    first = (
        "Wrong password, and too many of them"
        if after_wrong_password
        else "Too many wrong passwords"
    )
    return AccountLockedError(f"{first}: {handle} is locked for {wait}. Try again later.", seconds)


def _caller_message(reason: str) -> str:
    return (
        f"Accounts, statistics and saved games are not available right now ({reason}). "
        "You can still play as a guest."
    )


def _first_line(error: BaseException) -> str:
    text = str(getattr(error, "orig", None) or error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _reason(error: BaseException) -> str:
    """A short, caller-safe account of why the database failed."""
    text = _first_line(error).lower()
    if "readonly" in text or "read-only" in text or "read only" in text:
        return "the database is read-only"
    if "not a database" in text or "malformed" in text or "encrypted" in text:
        return "the database file is damaged"
    if "disk is full" in text or "disk full" in text or "no space" in text:
        return "the disk is full"
    if "locked" in text or "busy" in text:
        return "the database is busy"
    if "unable to open" in text:
        return "the database file cannot be opened"
    if isinstance(error, OSError | TimeoutError) or "connect" in text:
        return "the database server cannot be reached"
    return "the database failed"


def _check_sqlite_file(database: str | None, name: str) -> None:
    """Refuse, with a clear reason, a SQLite file the door could not write: finding out
    at the first sign-up or save would be later and less clear. The file's permission
    bits are read as well as access(), because root may write anything."""
    if not database or database == ":memory:":
        return
    path = Path(database)
    directory = path.parent
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageUnavailableError(
            _caller_message("the database file cannot be opened"),
            f"database {name}: cannot create the folder {directory} ({error.strerror})",
        ) from None
    if path.exists():
        mode = path.stat().st_mode
        if not stat.S_ISREG(mode):
            raise StorageUnavailableError(
                _caller_message("the database file cannot be opened"),
                f"database {name}: {path} is not a file",
            )
        if not os.access(path, os.W_OK) or not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            raise StorageUnavailableError(
                _caller_message("the database is read-only"),
                f"database {name}: the file {path} is read-only; make it writable "
                "for the door (accounts are off until then)",
            )
    dir_mode = directory.stat().st_mode
    if not os.access(directory, os.W_OK) or not dir_mode & (
        stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
    ):
        raise StorageUnavailableError(
            _caller_message("the database is read-only"),
            f"database {name}: the folder {directory} is read-only; SQLite needs to write "
            "its journal there",
        )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        # Foreign keys are off by default in SQLite; WAL lets readers and the writer
        # work at once and keeps every committed save through a crash; writers queue
        # for up to 5 s instead of failing at once.
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.execute("PRAGMA busy_timeout = 5000")
    finally:
        cursor.close()
