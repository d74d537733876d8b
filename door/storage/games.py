"""Games in the store: saved after every action, resumed, finished with their log and
every seated account's statistics, and told again as text."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row, case, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from door.storage.database import StoreBase
from door.storage.errors import GameNotFoundError
from door.storage.schema import STAT_COUNTERS, game_logs, game_seats, games, player_stats
from door.storage.stats import (
    GameStats,
    SeatStats,
    game_stats,
    outcome_from_json,
    outcome_to_json,
)
from door.storage.values import (
    MAX_NAME_LENGTH,
    MAX_OPPONENT_LENGTH,
    GameSummary,
    SavedGame,
    Seat,
)
from engine.odds.winbar import win_bar
from engine.rules.gamelog import game_log, recording_finished
from engine.rules.outcome import Outcome
from engine.rules.record import Recording, RecordingError, replay

logger = logging.getLogger(__name__)


class GameStore(StoreBase):
    """Saved games, results and game logs (part of ``Store``)."""

    # --- games ----------------------------------------------------------------------

    async def start_game(
        self,
        recording: Recording,
        seats: Sequence[Seat],
        opponent: str,
        *,
        table_settings: str | None = None,
    ) -> int:
        """Save a new game (usually before its first action); returns its number.

        ``seats`` names who sits where, one per seat; ``opponent`` is the kind of
        opponent the statistics are kept under, such as "computer-normal" or "people";
        ``table_settings`` how a table between callers was set (kept as given).
        """
        async with self._transaction() as connection:
            return await self._insert_game(
                connection, recording, seats, opponent, table_settings=table_settings
            )

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
            return SavedGame(
                row.id, recording, seats, row.opponent, row.updated_at, row.table_settings
            )

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

        ``forfeited_by`` is the seat that left an unfinished game (it loses), or whose
        win at 121 counts as their forfeit (``stats.game_stats``). Raises
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

    async def log_finished_game(
        self, connection: AsyncConnection, stats: GameStats, seats: Sequence[Seat], opponent: str
    ) -> int:
        """Log a finished game (``stats`` from ``game_stats``) with every seated
        account's statistics inside ``connection``, a transaction its caller opened with
        ``transaction()``: for a store beside this one whose own change must commit or
        fail with the log (a play-by-mail game's end, door/storage/pbm_games.py).
        Returns the game's number."""
        game_id = await self._insert_game(connection, stats.recording, seats, opponent)
        await self._settle(connection, game_id, stats)
        return game_id

    async def _insert_game(
        self,
        connection: AsyncConnection,
        recording: Recording,
        seats: Sequence[Seat],
        opponent: str,
        *,
        table_settings: str | None = None,
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
                table_settings=table_settings,
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

    async def recent_games(
        self, *, account_id: int | None = None, limit: int = 10
    ) -> list[GameSummary]:
        """The latest ``limit`` games, newest first: all of them, or those the account
        sat at. Each with its number, so that ``cribbage-door replay N`` can be found."""
        query = (
            select(
                games.c.id,
                games.c.players,
                games.c.finished,
                games.c.updated_at,
                game_logs.c.result,
                game_logs.c.finished_at,
            )
            .outerjoin(game_logs, game_logs.c.game_id == games.c.id)
            .order_by(games.c.id.desc())
            .limit(max(0, limit))
        )
        if account_id is not None:
            sat = select(game_seats.c.game_id).where(game_seats.c.account_id == account_id)
            query = query.where(games.c.id.in_(sat))
        async with self._transaction() as connection:
            rows = (await connection.execute(query)).all()
            seat_rows = await connection.execute(
                select(game_seats.c.game_id, game_seats.c.name, game_seats.c.account_id)
                .where(game_seats.c.game_id.in_([row.id for row in rows]))
                .order_by(game_seats.c.game_id, game_seats.c.seat)
            )
            seats: dict[int, list[Seat]] = {}
            for seat in seat_rows:
                seats.setdefault(seat.game_id, []).append(Seat(seat.name, seat.account_id))
        return [
            GameSummary(
                row.id,
                row.players,
                tuple(seats.get(row.id, ())),
                row.finished_at or row.updated_at,
                row.finished,
                outcome_from_json(row.result) if row.result else None,
            )
            for row in rows
        ]

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
            names = [seat.name for seat in seats]
            body = game_log(recording, names, chances=win_bar if chances else None)
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
