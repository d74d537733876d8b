"""Play-by-mail games in the door's store.

A play-by-mail game is kept as the door keeps any game: its ``engine.rules.record.Recording``
as JSON, rewritten after every move. When it ends it is logged, with everyone's
statistics, exactly as a game played at a table (``games`` and ``game_logs``), in the same
transaction. Moments are passed in (``now``), as the competition rules take them.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Row, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from door.competition.pbm import PbmClock, PbmRules
from door.competition.turns import play_automatic, waiting_on
from door.storage.errors import CompetitionNotFoundError
from door.storage.games import GameStore
from door.storage.schema import (
    pbm_games,
)
from door.storage.stats import game_stats
from door.storage.values import Seat
from engine.rules.outcome import Outcome
from engine.rules.record import RecordedGame, Recording, RecordingError, replay

logger = logging.getLogger(__name__)

MAX_NAME_LENGTH: Final = 20


PBM_OPPONENT: Final = "people-pbm"
"""The opponent kind play-by-mail games keep their statistics under."""


class PbmGameChangedError(CompetitionNotFoundError):
    """The play-by-mail game was saved with moves the recording being saved lacks: it
    moved on since it was loaded (on another line, say). Nothing is kept."""


@dataclass(frozen=True)
class PbmGame:
    """A play-by-mail game as last saved; ``resume()`` rebuilds the game to play on."""

    pbm_id: int
    seats: tuple[Seat, Seat]
    recording: Recording
    clock: PbmClock
    rated: bool
    finished: bool
    game_id: int | None
    updated_at: dt.datetime
    """When it last changed: its last move, or when it was settled."""

    def resume(self) -> RecordedGame:
        return replay(self.recording)

    def seat_of(self, account_id: int) -> int:
        for number, seat in enumerate(self.seats):
            if seat.account_id == account_id:
                return number
        raise CompetitionNotFoundError(f"You do not play in game {self.pbm_id}.")

    def waiting_on(self) -> tuple[int, ...]:
        """The seats whose move the game waits for (after any automatic steps)."""
        if self.finished:
            return ()
        game = self.resume()
        play_automatic(game)
        return waiting_on(game)

    def status_line(self, account_id: int, now: dt.datetime) -> str:
        """The lobby's line: "your move against Ada (2 days left)"."""
        names = (self.seats[0].name, self.seats[1].name)
        return self.clock.status_line(self.seat_of(account_id), names, self.waiting_on(), now)


class PbmGameStore:
    """Play-by-mail games: started, moved in, finished, forfeited on time."""

    def __init__(self, store: GameStore) -> None:
        # The door's Store; its games part is all this needs (it logs a game's end).
        self.store = store

    async def start_pbm_game(
        self,
        first: Seat,
        second: Seat,
        recording: Recording,
        rules: PbmRules,
        now: dt.datetime,
        *,
        rated: bool = False,
    ) -> int:
        """Keep a new two-player play-by-mail game between two members; returns its
        number. Raises ValueError for a seat without an account or a game for more
        than two."""
        if first.account_id is None or second.account_id is None:
            raise ValueError("play-by-mail games are between members")
        if recording.players != 2:
            raise ValueError("play-by-mail games are for two players")
        async with self.store.transaction() as connection:
            pbm_id = await connection.scalar(
                pbm_games.insert()
                .values(
                    recording=recording.to_json(),
                    actions=len(recording.actions),
                    first_account_id=first.account_id,
                    first_name=first.name[:MAX_NAME_LENGTH],
                    second_account_id=second.account_id,
                    second_name=second.name[:MAX_NAME_LENGTH],
                    rated=rated,
                    days_per_move=rules.days_per_move,
                    moves_per_day=rules.moves_per_day,
                    waiting_since=now,
                    created_at=now,
                    updated_at=now,
                )
                .returning(pbm_games.c.id)
            )
        assert isinstance(pbm_id, int)
        return pbm_id

    async def pbm_game(self, pbm_id: int) -> PbmGame:
        """The game as last saved, finished or not. Raises CompetitionNotFoundError."""
        async with self.store.transaction() as connection:
            row = (
                await connection.execute(select(pbm_games).where(pbm_games.c.id == pbm_id))
            ).first()
        if row is None:
            raise CompetitionNotFoundError(f"There is no play-by-mail game {pbm_id}.")
        return _pbm_game(row)

    async def pbm_games_for(self, account_id: int) -> list[PbmGame]:
        """The member's unfinished play-by-mail games, oldest first."""
        async with self.store.transaction() as connection:
            rows = await connection.execute(
                select(pbm_games)
                .where(
                    (pbm_games.c.first_account_id == account_id)
                    | (pbm_games.c.second_account_id == account_id),
                    pbm_games.c.finished.is_(False),
                )
                .order_by(pbm_games.c.id)
            )
            return [_pbm_game(row) for row in rows]

    async def finished_pbm_games_for(self, account_id: int, limit: int = 5) -> list[PbmGame]:
        """The member's finished play-by-mail games, the last to finish first."""
        async with self.store.transaction() as connection:
            rows = await connection.execute(
                select(pbm_games)
                .where(
                    (pbm_games.c.first_account_id == account_id)
                    | (pbm_games.c.second_account_id == account_id),
                    pbm_games.c.finished.is_(True),
                )
                .order_by(pbm_games.c.updated_at.desc(), pbm_games.c.id.desc())
                .limit(limit)
            )
            return [_pbm_game(row) for row in rows]

    async def save_pbm_move(
        self, pbm_id: int, recording: Recording, seat: int | None, now: dt.datetime
    ) -> PbmClock:
        """Keep the game after ``seat``'s move at ``now`` (its recording with the move,
        and any automatic steps after it) and start the wait again; ``seat`` None keeps
        steps nobody decides (a show counted automatically) and leaves the clock alone.
        Raises MoveLimitError when the seat has made today's moves (nothing is kept),
        CompetitionNotFoundError when the game is over, and PbmGameChangedError when
        the saved game has moves the recording lacks."""
        async with self.store.transaction() as connection:
            row = (
                await connection.execute(
                    select(pbm_games)
                    .where(pbm_games.c.id == pbm_id, pbm_games.c.finished.is_(False))
                    .with_for_update()
                )
            ).first()
            if row is None:
                raise CompetitionNotFoundError(
                    f"There is no play-by-mail game {pbm_id} in progress."
                )
            saved = _pbm_game(row)
            if recording.actions[: len(saved.recording.actions)] != saved.recording.actions:
                raise PbmGameChangedError(
                    f"Play-by-mail game {pbm_id} moved on since it was opened: open it again."
                )
            clock = saved.clock if seat is None else saved.clock.moved(seat, now)
            await connection.execute(
                update(pbm_games)
                .where(pbm_games.c.id == pbm_id)
                .values(
                    recording=recording.to_json(),
                    actions=len(recording.actions),
                    updated_at=now,
                    **_clock_columns(clock),
                )
            )
        return clock

    async def finish_pbm_game(
        self,
        pbm_id: int,
        recording: Recording,
        *,
        forfeited_by: int | None = None,
        now: dt.datetime | None = None,
    ) -> tuple[Outcome, int]:
        """Close a play-by-mail game that reached 121 or that ``forfeited_by`` lost on
        time (at ``now``, if given: when it last changed): logged with both members'
        statistics as any game is, in one transaction. Returns its outcome and its
        number among the door's games (for ``rate_game``)."""
        stats = game_stats(recording, forfeited_by)
        async with self.store.transaction() as connection:
            row = (
                await connection.execute(
                    update(pbm_games)
                    .where(pbm_games.c.id == pbm_id, pbm_games.c.finished.is_(False))
                    .values(finished=True)
                    .returning(pbm_games)
                )
            ).first()
            if row is None:
                raise CompetitionNotFoundError(
                    f"There is no play-by-mail game {pbm_id} in progress."
                )
            seats = _pbm_game(row).seats
            game_id = await self.store.log_finished_game(connection, stats, seats, PBM_OPPONENT)
            await connection.execute(
                update(pbm_games)
                .where(pbm_games.c.id == pbm_id)
                .values(
                    game_id=game_id,
                    recording=stats.recording.to_json(),
                    actions=len(stats.recording.actions),
                    **({"updated_at": now} if now is not None else {}),
                )
            )
        return stats.result, game_id

    async def forfeit_overdue_pbm_games(
        self, now: dt.datetime, *, skip: frozenset[int] = frozenset()
    ) -> list[tuple[int, Outcome]]:
        """Settle every play-by-mail game whose player to move ran out of time at
        ``now`` as lost by that player, but those numbered in ``skip`` (a player has
        them open now). Returns each game's number and outcome."""
        async with self.store.transaction() as connection:
            rows = (
                await connection.execute(select(pbm_games).where(pbm_games.c.finished.is_(False)))
            ).all()
        settled = []
        for row in rows:
            game = _pbm_game(row)
            if game.pbm_id in skip:
                continue
            seat = game.clock.forfeiter(game.waiting_on(), now)
            if seat is None:
                continue
            try:
                outcome, _ = await self.finish_pbm_game(
                    game.pbm_id, game.recording, forfeited_by=seat, now=now
                )
            except CompetitionNotFoundError:
                continue  # settled meanwhile by its players
            settled.append((game.pbm_id, outcome))
        return settled


async def forfeit_pbm_games_of(
    connection: AsyncConnection, games: GameStore, account_id: int, now: dt.datetime
) -> int:
    """Settle the member's unfinished play-by-mail games as lost by them by forfeit (the
    opponent wins, as on time), each logged with its statistics, inside ``connection``:
    the transaction that deletes the member (door/storage/members.py), so a delete that
    is refused, or fails, settles nothing. Returns how many were settled."""
    rows = (
        await connection.execute(
            update(pbm_games)
            .where(
                (pbm_games.c.first_account_id == account_id)
                | (pbm_games.c.second_account_id == account_id),
                pbm_games.c.finished.is_(False),
            )
            .values(finished=True, updated_at=now)
            .returning(pbm_games)
        )
    ).all()
    for row in rows:
        leaver = 0 if row.first_account_id == account_id else 1
        try:
            stats = game_stats(Recording.from_json(row.recording), forfeited_by=leaver)
        except RecordingError as unreadable:
            # Nothing to score: it stays closed, unlogged, rather than refuse the delete.
            logger.error("mail game %d closed unscored: %s", row.id, unreadable)
            continue
        seats = _pbm_game_seats(row)
        game_id = await games.log_finished_game(connection, stats, seats, PBM_OPPONENT)
        await connection.execute(
            update(pbm_games)
            .where(pbm_games.c.id == row.id)
            .values(
                game_id=game_id,
                recording=stats.recording.to_json(),
                actions=len(stats.recording.actions),
            )
        )
    return len(rows)


def _pbm_game_seats(row: Row[Any]) -> tuple[Seat, Seat]:
    return Seat(row.first_name, row.first_account_id), Seat(row.second_name, row.second_account_id)


def _pbm_game(row: Row[Any]) -> PbmGame:
    clock = PbmClock(
        PbmRules(row.days_per_move, row.moves_per_day),
        row.waiting_since,
        (row.first_moved_at, row.second_moved_at),
        (row.first_moves_on_day, row.second_moves_on_day),
    )
    return PbmGame(
        row.id,
        _pbm_game_seats(row),
        Recording.from_json(row.recording),
        clock,
        row.rated,
        row.finished,
        row.game_id,
        row.updated_at,
    )


def _clock_columns(clock: PbmClock) -> dict[str, Any]:
    return {
        "waiting_since": clock.waiting_since,
        "first_moved_at": clock.last_moved[0],
        "second_moved_at": clock.last_moved[1],
        "first_moves_on_day": clock.moves_on_day[0],
        "second_moves_on_day": clock.moves_on_day[1],
    }
