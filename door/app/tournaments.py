"""The door's tournaments, as values: what the lobby's tournaments screen
(door/app/tournament_screen.py) lists, what a member may do with them, and the results
of the games played for them. The pairing and scoring rules are
door/competition/tournament.py's; the store keeps every change
(door/storage/tournaments.py). No screen code here.

A tournament opens for sign-up when the sysop makes it; it starts when the sysop starts
it, or by itself at its start time if given (checked whenever someone looks at the
tournaments) if two members or more have signed up. Each game of a match is a game between the two
members at a table, challenged from the tournaments screen; its result is added to
their match, and when a round is complete the next is paired (byes are scored at once).
A member who never comes back for a game is settled by the sysop as a forfeit.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from typing import Final

from door.competition.errors import CompetitionError
from door.competition.tournament import KINDS, Kind, Pairing, Standing, Tournament
from door.storage.members import DELETED_MEMBER
from door.storage.store import Store
from door.storage.tournaments import TournamentStore
from door.storage.values import Clock, utc_now
from engine.rules.outcome import Outcome

logger = logging.getLogger(__name__)

GAMES_PER_MATCH: Final = (1, 2, 3, 4, 5, 6, 7)
MAX_ROUNDS: Final = 20
FINISHED_SHOWN: Final = 3


class TournamentRefusal(Exception):
    """Why a member (or the sysop) may not do that now, in words for the screen."""


@dataclass(frozen=True)
class TournamentInfo:
    """One tournament as the screen shows it."""

    number: int
    tournament: Tournament
    names: dict[int, str]

    def name_of(self, entrant: int | None) -> str:
        if entrant is None:
            return "(bye)"
        # An entrant without a name is a member deleted once the tournament was over,
        # as their games read in others' records.
        return self.names.get(entrant, DELETED_MEMBER)

    @property
    def standings(self) -> list[Standing]:
        return self.tournament.standings()

    @property
    def round_pairings(self) -> list[Pairing]:
        return self.tournament.round(self.tournament.current_round)


def parse_start(text: str, now: dt.datetime) -> dt.datetime | None:
    """A UTC moment written ``2026-12-01 20:00``, or None (nothing typed, or "now"):
    sign-up opens now and the sysop starts it (``G``). Raises TournamentRefusal."""
    text = " ".join(text.split())
    if text.lower() in ("", "now"):
        # Not a start at this moment: nobody has signed up yet. As a time, "now" started
        # the tournament as its second member signed up, before the others could.
        return None
    try:
        moment = dt.datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=dt.UTC)
    except ValueError:
        raise TournamentRefusal(
            f"{text!r} is not a time: write 2026-12-01 20:00 (UTC), or nothing to start it with G."
        ) from None
    if moment < now - dt.timedelta(minutes=1):
        raise TournamentRefusal(
            "That time has passed: give a later one, or nothing to start it with G."
        )
    return moment


class Tournaments:
    """Tournaments in one store, with the moments from ``clock``."""

    def __init__(self, store: Store, clock: Clock = utc_now) -> None:
        self.tournament_store = TournamentStore(store)
        self.clock = clock

    def now(self) -> dt.datetime:
        return self.clock()

    async def listing(self) -> list[TournamentInfo]:
        """Open and running tournaments (started first if their time has come), then
        the last few finished."""
        await self.start_due()
        current = await self.tournament_store.tournaments(("open", "running"))
        finished = await self.tournament_store.tournaments(("finished",))
        shown = current + finished[-FINISHED_SHOWN:]
        return [
            TournamentInfo(number, tournament, await self.tournament_store.entrant_names(number))
            for number, tournament in shown
        ]

    async def info(self, number: int) -> TournamentInfo:
        tournament = await self.tournament_store.tournament(number)
        return TournamentInfo(number, tournament, await self.tournament_store.entrant_names(number))

    async def start_due(self) -> list[int]:
        """Start the open tournaments whose time has come and that have two entrants or
        more; the numbers started."""
        now, started = self.now(), []
        for number, tournament in await self.tournament_store.tournaments(("open",)):
            if tournament.can_start(now):
                await self.tournament_store.start_tournament(number, now)
                logger.info("tournament %d (%s) started", number, tournament.name)
                started.append(number)
        return started

    async def create(
        self,
        name: str,
        kind: Kind,
        games_per_match: int,
        starts_at: dt.datetime | None,
        rounds: int,
    ) -> int:
        """A new tournament, open for sign-up until ``starts_at`` (None: until the sysop
        starts it). Raises TournamentRefusal for bad values."""
        if kind not in KINDS:
            raise TournamentRefusal("A tournament is a round robin or Swiss.")
        if games_per_match not in GAMES_PER_MATCH:
            raise TournamentRefusal("A match is 1 to 7 games.")
        if not 1 <= rounds <= MAX_ROUNDS:
            raise TournamentRefusal(f"A tournament has 1 to {MAX_ROUNDS} rounds.")
        try:
            tournament = Tournament(
                " ".join(name.split()),
                kind,
                games_per_match,
                starts_at,
                rounds if kind == "swiss" else None,
            )
        except CompetitionError as refusal:
            raise TournamentRefusal(str(refusal)) from None
        number = await self.tournament_store.create_tournament(tournament, self.now())
        logger.info("tournament %d (%s) made", number, tournament.name)
        return number

    async def toggle_entry(self, number: int, account_id: int) -> bool:
        """Sign up, or withdraw if signed up; True if now on the list."""
        tournament = await self.tournament_store.tournament(number)
        try:
            if account_id in tournament.entrants:
                await self.tournament_store.withdraw(number, account_id)
                return False
            await self.tournament_store.sign_up(number, account_id)
            return True
        except CompetitionError as refusal:
            raise TournamentRefusal(str(refusal)) from None

    async def start_now(self, number: int) -> Tournament:
        """The sysop starts a tournament now, before its time if need be."""
        try:
            return await self.tournament_store.start_tournament(number, self.now(), early=True)
        except CompetitionError as refusal:
            raise TournamentRefusal(str(refusal)) from None

    async def match_to_play(self, number: int, account_id: int) -> tuple[Pairing, int]:
        """The member's match in this round, and their opponent's account. Raises
        TournamentRefusal when there is none to play."""
        tournament = await self.tournament_store.tournament(number)
        if tournament.status != "running":
            raise TournamentRefusal(f"{tournament.name} is not being played now.")
        pairing = tournament.pairing_of(account_id)
        if pairing is None:
            raise TournamentRefusal(f"You are not playing in {tournament.name}.")
        if pairing.second is None:
            raise TournamentRefusal("You have a bye this round: your points are in.")
        if tournament.settled(pairing):
            raise TournamentRefusal("Your match this round is over: wait for the next round.")
        opponent = pairing.opponent_of(account_id)
        assert opponent is not None
        return pairing, opponent

    async def match_open(self, number: int, first: int, second: int) -> bool:
        """Whether ``first`` and ``second`` still have a match to play in the tournament
        this round (not settled by the sysop, nor the tournament gone or over). Raises
        StoreError."""
        tournament = await self.tournament_store.tournament(number)
        pairing = tournament.match_to_play(first)
        return pairing is not None and pairing.opponent_of(first) == second

    async def record(
        self, number: int, first: int, outcome: Outcome, against: int | None = None
    ) -> Tournament | None:
        """A game of a tournament match is over (``first`` played side 0, against
        ``against``); the tournament after it, or None if it no longer counts (the
        match was settled)."""
        try:
            return await self.tournament_store.record_tournament_game(
                number, first, outcome, 0, against
            )
        except CompetitionError as refusal:
            logger.info("a game for tournament %d did not count: %s", number, refusal)
            return None

    async def forfeit(self, number: int, account_id: int) -> Tournament:
        """The sysop settles a member's match this round as lost by forfeit."""
        try:
            return await self.tournament_store.forfeit_tournament_match(number, account_id)
        except CompetitionError as refusal:
            raise TournamentRefusal(str(refusal)) from None
