"""What the door keeps of its callers' games, and the sessions' one way to the database.

One ``Records`` serves the whole server. It holds the ``Store`` (None when the database
cannot be used: then accounts are off, ``unavailable`` says why to callers, and everyone
plays as a guest) and does what involves games:

- a game against the computer played by someone logged in is a ``RecordedGame`` that a
  ``GameSaver`` saves after every action (``computer_game``). Quitting it is a forfeit;
  a dropped line, a restart or a crash leaves it saved, to be resumed;
- a saved game is picked up where it stood (``resume``) or given up (``abandon``);
- play-by-mail games between members are ``mail`` (door/app/mail_games.py);
- a game between callers where someone logged in is saved after every action too
  (``keep_game_between_callers``) and closed with everyone's statistics once it is
  over. A caller whose line drops gets back to the table from memory
  (door/table/flow.py); if the door (or its worker) stopped, the first of them to call
  back sets the table again from the store (``game_between_callers_to_resume``) and
  the others find it there.

Nothing here raises a store failure into a session: what fails is logged, and the
caller's game goes on as a guest's would.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from door.app.mail_games import Clock, MailGames, utc_now
from door.app.tournaments import Tournaments
from door.competition.pbm import PbmRules
from door.config import Config
from door.defence.logins import LoginGuard
from door.storage.errors import StorageUnavailableError, StoreError, briefly
from door.storage.ratings import RatingStore
from door.storage.saver import GameSaver, opponent_kind
from door.storage.settings import database_url
from door.storage.store import Account, LoginPolicy, SavedGame, Seat, Store
from door.table.options import COMPUTER_NAME, LEVELS, GameOptions
from engine.rules.game import Game
from engine.rules.outcome import Outcome
from engine.rules.record import RecordedGame

logger = logging.getLogger(__name__)

ACCOUNTS_OFF: Final = "Accounts are off today: you play as a guest."
CLOSE_WAIT_SECONDS: Final = 10.0
"""How long closing the door waits for results still being written."""
SETTLE_SECONDS: Final = 2.0
"""How long a member's log-in waits for their games' savers to write what they hold
before reading their saved game: a write takes milliseconds once the store is back; a
store still failing is not waited for longer than this."""


@dataclass(frozen=True)
class KeptGame:
    """A game against the computer being saved as it is played."""

    options: GameOptions
    game: RecordedGame
    saver: GameSaver


class Records:
    """The door's games in the store; see the module docstring. ``Records()`` has no
    store: accounts are off."""

    def __init__(
        self,
        store: Store | None = None,
        unavailable: str = ACCOUNTS_OFF,
        *,
        pbm: PbmRules | None = None,
        clock: Clock = utc_now,
    ) -> None:
        self.store = store
        self.unavailable = unavailable
        """What a caller is told when there is no store."""
        self.mail = MailGames(store, pbm, clock) if store is not None else None
        """Play-by-mail games (None when accounts are off)."""
        self.tournaments = Tournaments(store, clock) if store is not None else None
        """The sysop's tournaments (None when accounts are off)."""
        self._writes: set[asyncio.Task[None]] = set()
        """The savers' writer tasks while they run (``close`` waits for them)."""
        self._savers: weakref.WeakSet[GameSaver] = weakref.WeakSet()
        """Every saver made here while it lives: a member's saved game is read only once
        theirs have written what they hold (``_settle_saving``)."""
        self.logins = LoginGuard()
        """Failed log-ins by account and address, shared by every connection."""

    @classmethod
    async def open(cls, config: Config) -> Records:
        """Open the configured database (migrating it). When it cannot be used the door
        still opens: one warning goes to the log, and callers play as guests."""
        settings = config.database
        try:
            store = await Store.open(
                database_url(settings, config.server.data_path),
                policy=LoginPolicy.from_settings(settings),
                reserved_handles=(config.sysop.name,),
            )
        except StorageUnavailableError as failure:
            # The store has logged which database and why; this says what follows.
            logger.warning(
                "accounts are off until the database can be used: callers play as guests"
            )
            return cls(None, str(failure))
        except Exception as error:  # a missing database driver, say: still serve guests
            logger.warning(
                "accounts are off: the database cannot be opened (%r): callers play as guests",
                error,
            )
            return cls(None)
        return cls(store, pbm=config.pbm.rules)

    async def close(self) -> None:
        """Wait (boundedly) for results still being written, then close the store."""
        if self._writes:
            await asyncio.wait(set(self._writes), timeout=CLOSE_WAIT_SECONDS)
        if self.store is not None:
            await self.store.close()

    # --- what members keep for themselves ----------------------------------------------

    async def member_settings(self, account: Account | None) -> dict[str, str]:
        """The settings a member keeps (door/storage/member_settings.py); none for a
        guest, with accounts off, or while the store cannot be read."""
        if self.store is None or account is None:
            return {}
        try:
            return await self.store.member_settings(account.id)
        except StoreError as failure:
            if not isinstance(failure, StorageUnavailableError):
                logger.error("could not read %r's settings: %s", account.handle, failure)
            return {}

    def keep_setting(self, account: Account | None, name: str, value: str) -> None:
        """Keep a member's choice for their next call, written meanwhile (the key that
        chose it is answered at once); nothing for a guest or with accounts off."""
        if self.store is None or account is None:
            return
        store = self.store

        async def write() -> None:
            try:
                await store.keep_member_setting(account.id, name, value)
            except StoreError as failure:
                if not isinstance(failure, StorageUnavailableError):
                    logger.error("could not keep %r's %s: %s", account.handle, name, failure)

        writer = asyncio.get_running_loop().create_task(write())
        self._writes.add(writer)
        writer.add_done_callback(self._writes.discard)

    # --- games against the computer ---------------------------------------------------

    def computer_game(
        self, account: Account, options: GameOptions, rng: random.Random
    ) -> KeptGame | None:
        """A new game for ``account`` against the computer, saved after every action;
        None when accounts are off."""
        if self.store is None:
            return None
        computers = [Seat(name) for name in computer_names(options.players - 1)]
        seats = [Seat(account.handle, account.id), *computers]
        saver = self._kept(
            GameSaver(
                self.store,
                seats,
                opponent_kind(options.players, 1, options.level),
                writes=self._writes,
            )
        )
        game = RecordedGame(
            options.players,
            seed=rng.getrandbits(64),
            runs=options.runs,
            counting=options.counting,
            on_action=saver.action_taken,
        )
        return KeptGame(options, game, saver)

    async def rate_against_computer(
        self, account: Account, level: str, outcome: Outcome | None
    ) -> str | None:
        """Rate a member's finished two-handed game against the computer (its levels have
        fixed ratings); the line to show ("Rating 1523 (+12)."), or None when the game is
        not rated (accounts off, no winner) or the store cannot take it now."""
        if self.store is None or outcome is None or len(outcome.scores) != 2:
            return None
        try:
            change, _ = await RatingStore(self.store).rate_game(
                account.id, level, outcome, dt.datetime.now(dt.UTC)
            )
        except StoreError as failure:
            if not isinstance(failure, StorageUnavailableError):
                logger.error("could not rate %r's game: %s", account.handle, failure)
            return None
        return f"{change.line()}."

    async def rate_between_members(
        self, first: Account, second: Account, outcome: Outcome | None
    ) -> tuple[str, str] | None:
        """Rate a finished rated game between two members (``first`` played side 0); the
        line to tell each, or None when it cannot be rated now."""
        if self.store is None or outcome is None or len(outcome.scores) != 2:
            return None
        try:
            mine, theirs = await RatingStore(self.store).rate_game(
                first.id, second.id, outcome, dt.datetime.now(dt.UTC)
            )
        except StoreError as failure:
            if not isinstance(failure, StorageUnavailableError):
                logger.error("could not rate %r v %r: %s", first.handle, second.handle, failure)
            return None
        assert theirs is not None  # a member's rating moves too
        return f"{mine.line()}.", f"{theirs.line()}."

    async def saved_game(self, account: Account) -> SavedGame | None:
        """The account's unfinished game against the computer, if it can be resumed.

        A saved game of another kind (one the caller is not player 1 of: the door never
        saves those, so it comes from elsewhere) is set aside, so it is not offered on
        every call."""
        if self.store is None:
            return None
        await self._settle_saving(account)
        try:
            saved = await self.store.load_unfinished_game(account.id)
            if saved is not None and saved.opponent.startswith("people"):
                return None  # a game between callers: the caller goes back to its table
            if saved is not None and not _resumable(saved, account):
                logger.warning(
                    "saved game %d is not one the door resumes; set aside", saved.game_id
                )
                await self.store.discard_game(saved.game_id)
                return None
        except StoreError:
            return None  # the store logged it; the caller plays on without
        return saved

    def resume(self, saved: SavedGame) -> KeptGame:
        """The saved game as it stood, saving on in the same row."""
        game, saver = self._saving_on(saved)
        options = GameOptions(
            runs=game.runs,
            counting=game.counting,
            level=level_of(saved.opponent),
            players=game.players,
        )
        return KeptGame(options, game, saver)

    async def abandon(self, saved: SavedGame) -> str:
        """Give the saved game up: a loss for the caller (seat 0), as quitting is.
        Returns what to tell the caller."""
        assert self.store is not None
        try:
            await self.store.finish_game(saved.game_id, saved.recording, forfeited_by=0)
        except StoreError as failure:
            if not isinstance(failure, StorageUnavailableError):
                logger.error("could not abandon saved game %d: %s", saved.game_id, failure)
            return f"The saved game could not be abandoned now: {briefly(failure)}"
        told = "Your saved game is abandoned: it counts as a loss."
        rating = await self._rate_abandoned(saved)
        return f"{told} {rating}" if rating else told

    async def _rate_abandoned(self, saved: SavedGame) -> str | None:
        """An abandoned two-handed game against the computer is rated as the loss it is."""
        account_id = saved.seats[0].account_id
        if account_id is None or not saved.opponent.startswith("computer"):
            return None
        game = saved.resume()
        if game.players != 2:
            return None
        game.forfeit(0)
        account = Account(account_id, saved.seats[0].name, saved.updated_at)
        return await self.rate_against_computer(account, level_of(saved.opponent), game.outcome())

    # --- games between callers ------------------------------------------------------

    def game_between_callers(
        self, options: GameOptions, accounts: Sequence[Account | None], rng: random.Random
    ) -> Game | None:
        """A recorded game for a table where someone has an account (so its result can
        be kept once it is over); None to let the table deal an unrecorded one."""
        if self.store is None or not any(accounts):
            return None
        return RecordedGame(
            options.players, seed=rng.getrandbits(64), runs=options.runs, counting=options.counting
        )

    def keep_game_between_callers(
        self,
        game: Game,
        names: Sequence[str],
        account_ids: Sequence[int | None],
        callers: int,
    ) -> GameSaver | None:
        """Save a game between callers after every action, and close it with its log
        and each account holder's statistics once it is over; None for a game that is
        not recorded (nobody logged in, or accounts are off)."""
        if self.store is None or not isinstance(game, RecordedGame):
            return None
        seats = [Seat(name, number) for name, number in zip(names, account_ids, strict=True)]
        saver = self._kept(
            GameSaver(
                self.store,
                seats,
                opponent_kind(game.players, callers, "people"),
                writes=self._writes,
            )
        )
        game.on_action = saver.action_taken
        return saver

    async def game_between_callers_to_resume(self, account: Account) -> SavedGame | None:
        """The account's unfinished game between callers, left by a door or worker that
        stopped mid-game (None if there is none, or the store cannot say now)."""
        if self.store is None:
            return None
        await self._settle_saving(account)
        try:
            saved = await self.store.load_unfinished_game(account.id)
        except StoreError:
            return None
        return saved if saved is not None and saved.opponent.startswith("people") else None

    def resume_between_callers(self, saved: SavedGame) -> tuple[RecordedGame, GameSaver]:
        """The saved game between callers as it stood, saving on in the same row."""
        return self._saving_on(saved)

    def _kept(self, saver: GameSaver) -> GameSaver:
        self._savers.add(saver)
        return saver

    async def _settle_saving(self, account: Account) -> None:
        """Have the savers of the member's games write what they still hold before their
        saved game is read. A line that dropped while writes failed leaves the game's
        newest state with its saver, which tries again only after a wait of up to a
        minute: without this, a caller back as soon as the store is would be offered the
        last state that got through, and the saver would then write the newer one over
        the game they resumed."""
        waiting = [
            saver for saver in self._savers if saver.unwritten and account.id in saver.account_ids
        ]
        if not waiting:
            return
        settled = await asyncio.gather(*(saver.settle(SETTLE_SECONDS) for saver in waiting))
        if not all(settled):
            logger.warning(
                "%s's game is not all saved yet: what the store holds is offered", account.handle
            )

    def _saving_on(self, saved: SavedGame) -> tuple[RecordedGame, GameSaver]:
        """``saved`` as it stood, with a saver that goes on in its row."""
        assert self.store is not None
        game = saved.resume()
        saver = self._kept(
            GameSaver(
                self.store,
                saved.seats,
                saved.opponent,
                game=game,
                game_id=saved.game_id,
                writes=self._writes,
            )
        )
        game.on_action = saver.action_taken
        return game, saver


def level_of(opponent: str) -> str:
    """The computer's level in an opponent kind: "computer-expert-3p" -> "expert"."""
    parts = opponent.split("-")
    if len(parts) >= 2 and parts[0] == "computer" and parts[1] in LEVELS:
        return parts[1]
    return "normal"


def _resumable(saved: SavedGame, account: Account) -> bool:
    return saved.opponent.startswith("computer") and saved.seats[0].account_id == account.id


def computer_names(count: int) -> list[str]:
    """The computer seats' names as the table shows them: "Computer", "Computer 2"..."""
    return [
        COMPUTER_NAME if number == 1 else f"{COMPUTER_NAME} {number}"
        for number in range(1, count + 1)
    ]


def _names(seats: Sequence[Seat]) -> str:
    return ", ".join(seat.name for seat in seats)
