"""Tournaments in the door's store: the whole ``Tournament`` value (entrants, pairings)
written back after each change; the rules are door/competition/tournament.py. Each
change is one transaction, which takes the tournament's row first.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Sequence
from dataclasses import replace

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from door.competition.tournament import Pairing, Tournament
from door.storage.errors import CompetitionNotFoundError
from door.storage.schema import (
    accounts,
    tournament_entrants,
    tournament_pairings,
    tournaments,
)
from door.storage.stats import outcome_from_json, outcome_to_json
from door.storage.store import Store
from engine.rules.outcome import Outcome


class TournamentStore:
    """Tournaments, their entrants and pairings."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create_tournament(self, tournament: Tournament, now: dt.datetime) -> int:
        """Keep a new tournament (the sysop's); returns its number."""
        async with self.store.transaction() as connection:
            tournament_id = await connection.scalar(
                tournaments.insert()
                .values(
                    name=tournament.name,
                    kind=tournament.kind,
                    games_per_match=tournament.games_per_match,
                    rounds=tournament.rounds,
                    starts_at=tournament.starts_at,
                    status=tournament.status,
                    created_at=now,
                )
                .returning(tournaments.c.id)
            )
            assert isinstance(tournament_id, int)
            await _write_tournament(connection, tournament_id, tournament)
        return tournament_id

    async def tournament(self, tournament_id: int) -> Tournament:
        """The tournament as it stands. Raises CompetitionNotFoundError."""
        async with self.store.transaction() as connection:
            return await _tournament(connection, tournament_id)

    async def tournaments(
        self, statuses: Sequence[str] = ("open", "running")
    ) -> list[tuple[int, Tournament]]:
        """Tournaments in those states, soonest start first (those the sysop starts
        last: SQLite and PostgreSQL would put NULL at opposite ends), for the lobby."""
        async with self.store.transaction() as connection:
            start = tournaments.c.starts_at
            ids = await connection.scalars(
                select(tournaments.c.id)
                .where(tournaments.c.status.in_(list(statuses)))
                .order_by(start.is_(None), start, tournaments.c.id)
            )
            return [(number, await _tournament(connection, number)) for number in ids.all()]

    async def entrant_names(self, tournament_id: int) -> dict[int, str]:
        """Each entrant's handle, for the tournament table."""
        async with self.store.transaction() as connection:
            rows = await connection.execute(
                select(accounts.c.id, accounts.c.handle)
                .join(tournament_entrants, tournament_entrants.c.account_id == accounts.c.id)
                .where(tournament_entrants.c.tournament_id == tournament_id)
            )
            return {row.id: row.handle for row in rows}

    async def sign_up(self, tournament_id: int, account_id: int) -> Tournament:
        return await self._change(tournament_id, lambda t: t.sign_up(account_id))

    async def withdraw(self, tournament_id: int, account_id: int) -> Tournament:
        return await self._change(tournament_id, lambda t: t.withdraw(account_id))

    async def start_tournament(
        self, tournament_id: int, now: dt.datetime, *, early: bool = False
    ) -> Tournament:
        """Close sign-ups and pair round one; ``early`` (the sysop's call) starts it
        before its time, which then becomes ``now``."""

        def start(tournament: Tournament) -> Tournament:
            if (
                early
                and tournament.status == "open"
                and (tournament.starts_at is None or tournament.starts_at > now)
            ):
                tournament = replace(tournament, starts_at=now)
            return tournament.start(now)

        return await self._change(tournament_id, start)

    async def record_tournament_game(
        self,
        tournament_id: int,
        entrant: int,
        outcome: Outcome,
        side: int = 0,
        against: int | None = None,
    ) -> Tournament:
        """Add a finished game to ``entrant``'s current match against ``against`` (see
        Tournament.record); pairs the next round when this one is over."""
        return await self._change(
            tournament_id, lambda t: t.record(entrant, outcome, side, against)
        )

    async def forfeit_tournament_match(
        self, tournament_id: int, entrant: int, scores: tuple[int, int] = (0, 0)
    ) -> Tournament:
        """Settle ``entrant``'s current match as lost by forfeit (they never came back)."""
        return await self._change(tournament_id, lambda t: t.forfeit_match(entrant, scores))

    async def _change(
        self, tournament_id: int, change: Callable[[Tournament], Tournament]
    ) -> Tournament:
        """Apply one change in one transaction; the version bump comes first, so it
        takes the row and concurrent changes take turns."""
        async with self.store.transaction() as connection:
            await connection.execute(
                update(tournaments)
                .where(tournaments.c.id == tournament_id)
                .values(version=tournaments.c.version + 1)
            )
            changed = change(await _tournament(connection, tournament_id))
            await _write_tournament(connection, tournament_id, changed)
        return changed


async def _tournament(connection: AsyncConnection, tournament_id: int) -> Tournament:
    row = (
        await connection.execute(select(tournaments).where(tournaments.c.id == tournament_id))
    ).first()
    if row is None:
        raise CompetitionNotFoundError(f"There is no tournament {tournament_id}.")
    entrants = await connection.scalars(
        select(tournament_entrants.c.account_id)
        .where(tournament_entrants.c.tournament_id == tournament_id)
        .order_by(tournament_entrants.c.seed)
    )
    rows = await connection.execute(
        select(tournament_pairings)
        .where(tournament_pairings.c.tournament_id == tournament_id)
        .order_by(tournament_pairings.c.round, tournament_pairings.c.table_number)
    )
    pairings = tuple(
        Pairing(
            p.round,
            p.table_number,
            p.first_account_id,
            p.second_account_id,
            tuple(outcome_from_json(json.dumps(game)) for game in json.loads(p.games)),
        )
        for p in rows
    )
    # A member deleted once the tournament was over leaves its entrants (their row goes
    # with the account) but not its pairings: they stay an entrant, with no name.
    seeded = tuple(entrants.all())
    gone = (entrant for p in pairings for entrant in p.entrants if entrant not in seeded)
    return Tournament(
        row.name,
        row.kind,
        row.games_per_match,
        row.starts_at,
        row.rounds,
        seeded + tuple(dict.fromkeys(gone)),
        pairings,
        row.status,
    )


async def _write_tournament(
    connection: AsyncConnection, tournament_id: int, tournament: Tournament
) -> None:
    """Write the tournament's state whole: its status, entrants and pairings."""
    await connection.execute(
        update(tournaments)
        .where(tournaments.c.id == tournament_id)
        # The start time too: the sysop's start (early, or one without a time) sets it.
        .values(status=tournament.status, starts_at=tournament.starts_at)
    )
    for table in (tournament_entrants, tournament_pairings):
        await connection.execute(delete(table).where(table.c.tournament_id == tournament_id))
    if tournament.entrants:
        await connection.execute(
            tournament_entrants.insert(),
            [
                {"tournament_id": tournament_id, "account_id": entrant, "seed": seed}
                for seed, entrant in enumerate(tournament.entrants)
            ],
        )
    if tournament.pairings:
        await connection.execute(
            tournament_pairings.insert(),
            [
                {
                    "tournament_id": tournament_id,
                    "round": pairing.round,
                    "table_number": pairing.table,
                    "first_account_id": pairing.first,
                    "second_account_id": pairing.second,
                    "games": json.dumps(
                        [json.loads(outcome_to_json(outcome)) for outcome in pairing.games]
                    ),
                }
                for pairing in tournament.pairings
            ],
        )
