"""Matches (best of three, five...) in the door's store: each game's outcome as it is
added; the rules are door/competition/match.py. Each method is one transaction.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from door.competition.match import Match, match_from_outcomes
from door.storage.errors import CompetitionNotFoundError
from door.storage.schema import (
    match_games,
    matches,
)
from door.storage.stats import outcome_from_json, outcome_to_json
from door.storage.store import Seat, Store
from engine.rules.outcome import Outcome

MAX_NAME_LENGTH: Final = 20


@dataclass(frozen=True)
class StoredMatch:
    match_id: int
    match: Match
    seats: tuple[Seat, Seat]
    rated: bool
    opponent: str
    finished_at: dt.datetime | None


class MatchStore:
    """Matches and their games."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def start_match(
        self,
        first: Seat,
        second: Seat,
        best_of: int,
        now: dt.datetime,
        *,
        opponent: str = "people",
        rated: bool = False,
    ) -> int:
        """Keep a new match (``Match`` checks its length); returns its number."""
        Match((first.name, second.name), best_of)
        async with self.store.transaction() as connection:
            match_id = await connection.scalar(
                matches.insert()
                .values(
                    best_of=best_of,
                    rated=rated,
                    opponent=opponent[:24],
                    first_account_id=first.account_id,
                    first_name=first.name[:MAX_NAME_LENGTH],
                    second_account_id=second.account_id,
                    second_name=second.name[:MAX_NAME_LENGTH],
                    created_at=now,
                )
                .returning(matches.c.id)
            )
        assert isinstance(match_id, int)
        return match_id

    async def add_match_game(
        self, match_id: int, outcome: Outcome, now: dt.datetime, *, game_id: int | None = None
    ) -> StoredMatch:
        """Add a finished game (side 0 the match's first player) and return the match as
        it now stands. Raises MatchOverError when the match is already decided."""
        async with self.store.transaction() as connection:
            # The write first: it takes the row, so two games of a match take turns.
            await connection.execute(
                update(matches).where(matches.c.id == match_id).values(finished_at=None)
            )
            stored = await _match(connection, match_id)
            match = stored.match.add(outcome)
            await connection.execute(
                match_games.insert().values(
                    match_id=match_id,
                    number=len(match.games),
                    game_id=game_id,
                    result=outcome_to_json(outcome),
                )
            )
            finished = now if match.decided else None
            await connection.execute(
                update(matches)
                .where(matches.c.id == match_id)
                .values(winner=match.winner, finished_at=finished)
            )
        return StoredMatch(match_id, match, stored.seats, stored.rated, stored.opponent, finished)

    async def match(self, match_id: int) -> StoredMatch:
        """The match as it stands. Raises CompetitionNotFoundError."""
        async with self.store.transaction() as connection:
            return await _match(connection, match_id)


async def _match(connection: AsyncConnection, match_id: int) -> StoredMatch:
    row = (await connection.execute(select(matches).where(matches.c.id == match_id))).first()
    if row is None:
        raise CompetitionNotFoundError(f"There is no match {match_id}.")
    results = await connection.scalars(
        select(match_games.c.result)
        .where(match_games.c.match_id == match_id)
        .order_by(match_games.c.number)
    )
    seats = (
        Seat(row.first_name, row.first_account_id),
        Seat(row.second_name, row.second_account_id),
    )
    match = match_from_outcomes(
        (row.first_name, row.second_name), row.best_of, [outcome_from_json(r) for r in results]
    )
    return StoredMatch(match_id, match, seats, row.rated, row.opponent, row.finished_at)
