"""Members' records in the store: statistics per mode and the leaderboard."""

from __future__ import annotations

from dataclasses import fields

from sqlalchemy import func, select

from door.storage.accounts import account_from_row
from door.storage.database import StoreBase
from door.storage.rules import handle_key
from door.storage.schema import accounts, player_stats
from door.storage.values import LeaderboardEntry, LeaderboardOrder, PlayerStats, StatLine


class RecordStore(StoreBase):
    """Statistics and the leaderboard (part of ``Store``)."""

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
        return PlayerStats(account_from_row(row), modes)

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
