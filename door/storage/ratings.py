"""Members' ratings and their history in the door's store (the rating rules are
door/competition/rating.py). Each method is one transaction of the store's.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from door.competition.rating import Opponent, Rating, RatingChange, rate_game, score_of
from door.storage.errors import CompetitionNotFoundError
from door.storage.schema import (
    accounts,
    rating_history,
    ratings,
)
from door.storage.store import Store
from engine.rules.outcome import Outcome


@dataclass(frozen=True)
class RatingHistoryEntry:
    """One rated game in a member's record."""

    rated_at: dt.datetime
    opponent: str
    score: float
    before: Rating
    after: Rating
    game_id: int | None

    @property
    def change(self) -> RatingChange:
        return RatingChange(self.before, self.after)


@dataclass(frozen=True)
class RatedMember:
    """A line of the leaderboard by rating."""

    account_id: int
    handle: str
    rating: Rating
    games: int


class RatingStore:
    """Ratings, their history and the leaderboard by rating."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def rating(self, account_id: int) -> Rating:
        """The member's rating (a newcomer's, 1500?, before their first rated game)."""
        async with self.store.transaction() as connection:
            return await _rating(connection, account_id)

    async def rate_game(
        self,
        account_id: int,
        opponent: int | str,
        outcome: Outcome,
        now: dt.datetime,
        *,
        side: int = 0,
        game_id: int | None = None,
    ) -> tuple[RatingChange, RatingChange | None]:
        """Rate a finished game of ``account_id`` (who played ``side`` in ``outcome``)
        against another member's account or the computer (its level, "expert"...). Both
        ratings are read and written in one transaction, with a history line each.
        Returns the changes to show; the computer's is None (its rating is fixed)."""
        score = score_of(outcome, side)
        async with self.store.transaction() as connection:
            mine = await _rating(connection, account_id, lock=True)
            theirs: Opponent = (
                opponent
                if isinstance(opponent, str)
                else await _rating(connection, opponent, lock=True)
            )
            my_change, their_change = rate_game(mine, theirs, score)
            names = await _handles(connection, [account_id, *_ids(opponent)])
            opponent_name = f"computer-{opponent}" if isinstance(opponent, str) else names[opponent]
            await _write_rating(
                connection, account_id, my_change, opponent_name, score, now, game_id
            )
            if their_change is not None:
                assert isinstance(opponent, int)
                await _write_rating(
                    connection, opponent, their_change, names[account_id], 1 - score, now, game_id
                )
        return my_change, their_change

    async def rating_history(self, account_id: int, limit: int = 20) -> list[RatingHistoryEntry]:
        """The member's rated games, newest first."""
        async with self.store.transaction() as connection:
            rows = await connection.execute(
                select(rating_history)
                .where(rating_history.c.account_id == account_id)
                .order_by(rating_history.c.rated_at.desc(), rating_history.c.id.desc())
                .limit(limit)
            )
            return [
                RatingHistoryEntry(
                    row.rated_at,
                    row.opponent,
                    row.score,
                    Rating(row.rating_before),
                    Rating(row.rating, row.deviation, row.volatility),
                    row.game_id,
                )
                for row in rows
            ]

    async def rating_leaderboard(self, limit: int = 10) -> list[RatedMember]:
        """Rated members, best rating first."""
        async with self.store.transaction() as connection:
            rows = await connection.execute(
                select(ratings, accounts.c.handle)
                .join(accounts, accounts.c.id == ratings.c.account_id)
                .order_by(ratings.c.rating.desc(), accounts.c.handle_key)
                .limit(limit)
            )
            return [
                RatedMember(
                    row.account_id,
                    row.handle,
                    Rating(row.rating, row.deviation, row.volatility),
                    row.games,
                )
                for row in rows
            ]


def _ids(opponent: int | str) -> list[int]:
    return [] if isinstance(opponent, str) else [opponent]


async def _handles(connection: AsyncConnection, account_ids: list[int]) -> dict[int, str]:
    rows = await connection.execute(
        select(accounts.c.id, accounts.c.handle).where(accounts.c.id.in_(account_ids))
    )
    found = {row.id: row.handle for row in rows}
    missing = set(account_ids) - set(found)
    if missing:
        raise CompetitionNotFoundError(f"There is no account {min(missing)}.")
    return found


async def _rating(connection: AsyncConnection, account_id: int, lock: bool = False) -> Rating:
    query = select(ratings).where(ratings.c.account_id == account_id)
    row = (await connection.execute(query.with_for_update() if lock else query)).first()
    if row is None:
        return Rating()
    return Rating(row.rating, row.deviation, row.volatility)


async def _write_rating(
    connection: AsyncConnection,
    account_id: int,
    change: RatingChange,
    opponent: str,
    score: float,
    now: dt.datetime,
    game_id: int | None,
) -> None:
    after = change.after
    values = {
        "rating": after.rating,
        "deviation": after.deviation,
        "volatility": after.volatility,
        "updated_at": now,
    }
    updated = await connection.execute(
        update(ratings)
        .where(ratings.c.account_id == account_id)
        .values(games=ratings.c.games + 1, **values)
    )
    if updated.rowcount == 0:
        await connection.execute(ratings.insert().values(account_id=account_id, games=1, **values))
    await connection.execute(
        rating_history.insert().values(
            account_id=account_id,
            game_id=game_id,
            opponent=opponent[:24],
            score=score,
            rating_before=change.before.rating,
            rating=after.rating,
            deviation=after.deviation,
            volatility=after.volatility,
            rated_at=now,
        )
    )
