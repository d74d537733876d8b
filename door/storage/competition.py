"""The store's competition tables: ratings and their history, matches, tournaments and
play-by-mail games. The rules are door.competition's; this module only keeps their values.

``CompetitionStore(store)`` works beside the door's ``Store``: every method is one
transaction of that store's (``Store.transaction``), so a failing database raises the
same ``StorageUnavailableError`` as the rest of the store. Moments are passed in
(``now``), as the competition rules take them.

A play-by-mail game is kept as the door keeps any game: its ``engine.rules.record.Recording``
as JSON, rewritten after every move. When it ends it is logged, with everyone's
statistics, exactly as a game played at a table (``games`` and ``game_logs``).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from sqlalchemy import Row, delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from door.competition.match import Match, match_from_outcomes
from door.competition.pbm import PbmClock, PbmRules
from door.competition.rating import Opponent, Rating, RatingChange, rate_game, score_of
from door.competition.tournament import Pairing, Tournament
from door.competition.turns import play_automatic, waiting_on
from door.storage.errors import StoreError
from door.storage.schema import (
    accounts,
    match_games,
    matches,
    pbm_games,
    rating_history,
    ratings,
    tournament_entrants,
    tournament_pairings,
    tournaments,
)
from door.storage.stats import game_stats, outcome_from_json, outcome_to_json
from door.storage.store import Seat, Store
from engine.rules.outcome import Outcome
from engine.rules.record import RecordedGame, Recording, replay

MAX_NAME_LENGTH: Final = 20
PBM_OPPONENT: Final = "people-pbm"
"""The opponent kind play-by-mail games keep their statistics under."""


class CompetitionNotFoundError(StoreError):
    """No match, tournament or play-by-mail game has that number (or it is over)."""


class PbmGameChangedError(CompetitionNotFoundError):
    """The play-by-mail game was saved with moves the recording being saved lacks: it
    moved on since it was loaded (on another line, say). Nothing is kept."""


# --- values read back -------------------------------------------------------------------


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


@dataclass(frozen=True)
class StoredMatch:
    match_id: int
    match: Match
    seats: tuple[Seat, Seat]
    rated: bool
    opponent: str
    finished_at: dt.datetime | None


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


# --- the store ----------------------------------------------------------------------


class CompetitionStore:
    """Ratings, matches, tournaments and play-by-mail games in the door's store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # --- ratings ----------------------------------------------------------------------

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

    # --- matches ----------------------------------------------------------------------

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

    # --- tournaments ------------------------------------------------------------------

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
        """Tournaments in those states, soonest start first, for the lobby."""
        async with self.store.transaction() as connection:
            ids = await connection.scalars(
                select(tournaments.c.id)
                .where(tournaments.c.status.in_(list(statuses)))
                .order_by(tournaments.c.starts_at, tournaments.c.id)
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
            if early and tournament.status == "open" and tournament.starts_at > now:
                tournament = replace(tournament, starts_at=now)
            return tournament.start(now)

        return await self._change(tournament_id, start)

    async def record_tournament_game(
        self, tournament_id: int, entrant: int, outcome: Outcome, side: int = 0
    ) -> Tournament:
        """Add a finished game to ``entrant``'s current match (see Tournament.record);
        pairs the next round when this one is over."""
        return await self._change(tournament_id, lambda t: t.record(entrant, outcome, side))

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

    # --- play-by-mail -----------------------------------------------------------------

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
            # The store's own steps for logging a game, inside this transaction.
            game_id = await self.store._insert_game(
                connection, stats.recording, seats, PBM_OPPONENT
            )
            await self.store._settle(connection, game_id, stats)
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


# --- rows to values and back --------------------------------------------------------


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
    pairings = await connection.execute(
        select(tournament_pairings)
        .where(tournament_pairings.c.tournament_id == tournament_id)
        .order_by(tournament_pairings.c.round, tournament_pairings.c.table_number)
    )
    return Tournament(
        row.name,
        row.kind,
        row.games_per_match,
        row.starts_at,
        row.rounds,
        tuple(entrants.all()),
        tuple(
            Pairing(
                p.round,
                p.table_number,
                p.first_account_id,
                p.second_account_id,
                tuple(outcome_from_json(json.dumps(game)) for game in json.loads(p.games)),
            )
            for p in pairings
        ),
        row.status,
    )


async def _write_tournament(
    connection: AsyncConnection, tournament_id: int, tournament: Tournament
) -> None:
    """Write the tournament's state whole: its status, entrants and pairings."""
    await connection.execute(
        update(tournaments)
        .where(tournaments.c.id == tournament_id)
        .values(status=tournament.status)
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


def _pbm_game(row: Row[Any]) -> PbmGame:
    clock = PbmClock(
        PbmRules(row.days_per_move, row.moves_per_day),
        row.waiting_since,
        (row.first_moved_at, row.second_moved_at),
        (row.first_moves_on_day, row.second_moves_on_day),
    )
    return PbmGame(
        row.id,
        (Seat(row.first_name, row.first_account_id), Seat(row.second_name, row.second_account_id)),
        Recording.from_json(row.recording),
        clock,
        row.rated,
        row.finished,
        row.game_id,
    )


def _clock_columns(clock: PbmClock) -> dict[str, Any]:
    return {
        "waiting_since": clock.waiting_since,
        "first_moved_at": clock.last_moved[0],
        "second_moved_at": clock.last_moved[1],
        "first_moves_on_day": clock.moves_on_day[0],
        "second_moves_on_day": clock.moves_on_day[1],
    }
