"""Saving a game after every action, without making the game wait for the database.

A ``GameSaver`` is the ``on_action`` hook of an ``engine.rules.record.RecordedGame``: the game
calls it (synchronously) after each action, and it hands the newest recording to one
writer task per game, which writes it as soon as the previous write is done. Writes
never pile up: a writer that falls behind skips to the newest recording. So a crash or
restart loses at most the action being written, and a slow disk never slows the play.

When the game ends (someone reaches 121) the saver closes it in the store itself: the
log and every seated account's statistics. A caller who quits is settled with
``forfeit(seat)``. A line that drops settles nothing: the game stays open to resume.
A game everyone left is ``set_aside``: closed without a result, in its turn after the
writes before it, so a first save still on its way (or waiting for the store to come
back) never leaves behind an open game that a later call would resume.

The saver never raises into the game. If a write fails (a full disk, a database that is
down), the saver logs it once, tells the player once through ``on_trouble`` ("cannot be
saved right now"), keeps the newest state and tries again, waiting longer each time (up
to a minute); when a write goes through again, ``on_trouble`` says so. ``failure`` holds
the last error while writes are failing (None once they work again).

A caller whose line dropped while writes were failing may call back as soon as the store
is back, while their game's newest state still waits for the saver's next try: before
their saved game is read, ``settle`` has the saver try at once and waits a little for it
(``door.app.records.Records.saved_game``), so they are offered what they last saw, not the
last state that happened to get through.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from door.metrics.tally import TALLY
from door.storage.errors import GameNotFoundError, StorageUnavailableError, StoreError
from door.storage.store import Seat, Store
from engine.rules.game import Phase
from engine.rules.record import Action, RecordedGame, Recording

logger = logging.getLogger(__name__)

RETRY_FIRST_SECONDS: Final = 1.0
RETRY_MAX_SECONDS: Final = 60.0
CANNOT_SAVE: Final = "Your game cannot be saved right now: the door keeps trying."
SAVING_AGAIN: Final = "Your game is being saved again."
CLOSED_ELSEWHERE: Final = "This game was closed by another door on the same store: not saved."
FLUSH_POLL_SECONDS: Final = 0.05


@dataclass
class _SavedGame:
    """One game of the table's run and its row in the store."""

    game: RecordedGame
    game_id: int | None = None
    settled: bool = False
    aside: bool = False
    """Nobody will play it on (``GameSaver.set_aside``)."""
    forfeited_by: int | None = None
    """The seat whose win at 121 counts as their forfeit (``GameSaver.forfeited_at_end``)."""


def opponent_kind(players: int, callers: int, level: str) -> str:
    """The name statistics are kept under for whom a caller played: "computer-normal"
    against the computer alone, "people" when other callers sat in; "-3p" or "-4p" is
    added for three and four players."""
    kind = "people" if callers > 1 else f"computer-{level}"
    return kind if players == 2 else f"{kind}-{players}p"


class GameSaver:
    """Keeps one table's games saved; see the module docstring.

    ``seats`` says who sits where (accounts and names), ``opponent`` the kind of
    opponent the statistics are kept under ("computer-normal", "people"...). Pass the
    ``game`` and its ``game_id`` when resuming a saved game, so it goes on in its row;
    ``writes``, a set that holds the writer task while it runs (see ``Records.close``).
    """

    def __init__(
        self,
        store: Store,
        seats: Sequence[Seat],
        opponent: str,
        *,
        game: RecordedGame | None = None,
        game_id: int | None = None,
        writes: set[asyncio.Task[None]] | None = None,
    ) -> None:
        self.store = store
        self._writes = writes
        """Where the writer task is put while it runs: the door's ``Records`` waits for
        them before it closes the store, so a game that ended just before the door
        stopped still has its result written."""
        self.seats = tuple(seats)
        self.opponent = opponent
        self.failure: StoreError | None = None
        self.table_settings: Callable[[], str | None] | None = None
        """Asked for when each game is first saved: how its table is set (a game
        between callers keeps its options and the match so far with it)."""
        self.on_trouble: Callable[[str], None] | None = None
        """Told (once each way) when saving stops working and when it works again."""
        self.retry_seconds = RETRY_FIRST_SECONDS
        self._current = _SavedGame(game, game_id) if game is not None else None
        # Newest first-unwritten state of each game, oldest game first: a game's states
        # are coalesced, but a finished game's last state is never lost to the next's.
        self._queue: list[tuple[_SavedGame, Recording, bool]] = []
        self._writer: asyncio.Task[None] | None = None
        self._try_now = asyncio.Event()
        """Set to end the wait before the next try after a failure (``settle``)."""

    @property
    def account_ids(self) -> frozenset[int]:
        """The accounts seated at this saver's games."""
        return frozenset(seat.account_id for seat in self.seats if seat.account_id is not None)

    @property
    def all_written(self) -> bool:
        """Whether the game as it stands is in the store: saved once, nothing waiting,
        no write failing (a caller may be told it is saved)."""
        current = self._current
        return (
            current is not None
            and current.game_id is not None
            and not self._queue
            and self.failure is None
        )

    @property
    def unwritten(self) -> bool:
        """Whether some state handed over is not written yet (on its way, or waiting to
        be tried again after a failure)."""
        return bool(self._queue)

    @property
    def game_id(self) -> int | None:
        """The current game's number in the store (None until its first save)."""
        return self._current.game_id if self._current is not None else None

    def action_taken(self, game: RecordedGame, action: Action) -> None:
        """The game's ``on_action`` hook: save the game as it now stands."""
        if self._current is None or self._current.game is not game:
            self._current = _SavedGame(game)  # the next game of a play-again run
        if self._current.aside:
            return
        state = (self._current, game.recording, game.phase is Phase.OVER)
        if self._queue and self._queue[-1][0] is self._current:
            self._queue[-1] = state
        else:
            self._queue.append(state)
        self._start_writing()

    def _start_writing(self) -> None:
        if self._writer is None or self._writer.done():
            writer = self._writer = asyncio.get_running_loop().create_task(self._write())
            if self._writes is not None:
                self._writes.add(writer)
                writer.add_done_callback(self._writes.discard)

    def set_aside(self) -> None:
        """Everyone left the game: nobody will resume it. Once what is queued before is
        written it is closed in the store without a result (a game not saved yet is
        never saved), and nothing more is written for it."""
        saved = self._current
        if saved is None or saved.settled:
            return
        saved.aside = True
        if not any(entry[0] is saved for entry in self._queue):
            self._queue.append((saved, saved.game.recording, False))
        self._start_writing()

    async def flush(self) -> None:
        """Wait until everything handed over so far is written, or until a write has
        failed: the saver then goes on trying in the background, and nobody waits."""
        while self._writer is not None and not self._writer.done() and self.failure is None:
            await asyncio.wait({self._writer}, timeout=FLUSH_POLL_SECONDS)

    async def settle(self, seconds: float) -> bool:
        """Try what is unwritten at once (not after the wait a failure set) and wait up to
        ``seconds`` for it to be written; whether everything is written."""
        if not self._queue:
            return True
        self._try_now.set()
        self._start_writing()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while self._queue and self._writer is not None and loop.time() < deadline:
            await asyncio.wait({self._writer}, timeout=min(FLUSH_POLL_SECONDS, seconds))
        self._try_now.clear()  # a failure from here on waits as usual
        return not self._queue

    def forfeited_at_end(self, seat: int) -> None:
        """The game just reached 121 for ``seat``'s side but counts as their forfeit (the
        computer won it in the seat of a caller whose line was down): its end, queued by
        the action that reached 121 and written after, is written so. Called before the
        loop turns, the write still waits."""
        if self._current is not None and not self._current.settled:
            self._current.forfeited_by = seat

    async def forfeit(self, seat: int) -> None:
        """The caller in ``seat`` left the game unfinished: it is a loss for their side.

        Does nothing if the game was never saved or is already settled.
        """
        await self.flush()
        saved = self._current
        if saved is None or saved.game_id is None or saved.settled:
            return
        try:
            await self.store.finish_game(saved.game_id, saved.game.recording, forfeited_by=seat)
            saved.settled = True
        except StoreError as error:
            self._failed(error)

    async def _write(self) -> None:
        """Write what is queued, oldest game first; on a store error keep it queued and
        try again later, so the newest state is written once the store is back."""
        while self._queue:
            saved, recording, over = self._queue[0]
            try:
                await self._write_one(saved, recording, over)
                if saved.aside and not saved.settled:
                    continue  # set aside while that write was on its way: close it now
            except GameNotFoundError:
                self._closed_elsewhere(saved)
                continue
            except StoreError as error:
                self._failed(error)
                if not self._try_now.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._try_now.wait(), self.retry_seconds)
                self._try_now.clear()
                self.retry_seconds = min(self.retry_seconds * 2, RETRY_MAX_SECONDS)
                continue
            if self._queue and self._queue[0][1] is recording:
                self._queue.pop(0)
            if self.failure is not None:
                self._recovered()

    async def _write_one(self, saved: _SavedGame, recording: Recording, over: bool) -> None:
        if saved.aside:
            if saved.game_id is not None and not saved.settled:
                await self.store.discard_game(saved.game_id)
            saved.settled = True
            return
        if saved.game_id is None:
            settings = self.table_settings() if self.table_settings is not None else None
            saved.game_id = await self.store.start_game(
                recording, self.seats, self.opponent, table_settings=settings
            )
            logger.info("game %d saved for %s", saved.game_id, self._names())
        elif not over:
            await self.store.save_game(saved.game_id, recording)
        if over and not saved.settled:
            await self.store.finish_game(saved.game_id, recording, forfeited_by=saved.forfeited_by)
            saved.settled = True

    def _closed_elsewhere(self, saved: _SavedGame) -> None:
        """The game's row is closed, and not by this saver: another door process on the
        same store finished it or set it aside. It stays closed (retrying would never
        get anywhere): nothing more is written for it."""
        logger.warning("game %s was closed by another door: no longer saved here", saved.game_id)
        saved.aside = saved.settled = True
        self._queue = [entry for entry in self._queue if entry[0] is not saved]
        if self.on_trouble is not None:
            self.on_trouble(CLOSED_ELSEWHERE)

    def _failed(self, error: StoreError) -> None:
        TALLY.save_failures += 1
        first = self.failure is None
        self.failure = error
        if not first:
            return
        if not isinstance(error, StorageUnavailableError):  # that one the store logged
            logger.error("games for %s cannot be saved now (retrying): %s", self._names(), error)
        if self.on_trouble is not None:
            self.on_trouble(CANNOT_SAVE)

    def _recovered(self) -> None:
        self.failure = None
        self.retry_seconds = RETRY_FIRST_SECONDS
        logger.info("games for %s are saved again", self._names())
        if self.on_trouble is not None:
            self.on_trouble(SAVING_AGAIN)

    def _names(self) -> str:
        return ", ".join(seat.name for seat in self.seats)
