"""Tournaments: round robin and Swiss, scored in game points then spread.

Entrants are account numbers, listed in the order they signed up (the seeding: among
equals the earlier sign-up ranks first). Each round pairs them into matches of
``games_per_match`` games; every game is an ``engine.rules.outcome.Outcome`` whose side 0 is the
pairing's ``first`` entrant, scored as door.competition.match scores games (2 a win, 3 a
skunk, spread counted from 121). A game whose caller dropped and never came back is
settled by the door as a forfeit (``Outcome.forfeited_by``), and counts here like any
other game: a plain win for the side that stayed.

Round robin pairs everyone with everyone by the circle method: one entrant stays put,
the others turn round them one place a round; with an odd number a bye turns with them.

Swiss pairs each round from the standings: the best placed entrant meets the next best
they have not yet met, and so down the table (backtracking when the last ones would
have to meet again); nobody meets anybody twice. With an odd number the lowest-ranked
entrant who has not had a bye gets it; a bye counts as a won match: ``bye_points`` game
points and ``bye_spread`` spread for each game of it (2 and 0 by default).

Standings rank by game points, then spread, then sign-up order.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal

from door.competition.errors import PairingError, TournamentError
from door.competition.match import ACC_SCORING, ScoringRules, game_points, spread
from engine.rules.outcome import Outcome

Kind = Literal["round robin", "swiss"]
Status = Literal["open", "running", "finished"]
KINDS: Final = ("round robin", "swiss")
MAX_NAME_LENGTH: Final = 40
"""As long as door.storage.schema.tournaments keeps."""
Pair = tuple[int, int | None]
"""Two entrants to meet, or one entrant and None: a bye."""


@dataclass(frozen=True)
class Pairing:
    """One match of a round: ``first`` against ``second`` (None: a bye) and the games
    played so far, each with ``first`` as side 0."""

    round: int
    table: int
    first: int
    second: int | None
    games: tuple[Outcome, ...] = ()

    @property
    def bye(self) -> bool:
        return self.second is None

    @property
    def entrants(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def side_of(self, entrant: int) -> int:
        if entrant == self.first:
            return 0
        if entrant == self.second:
            return 1
        raise TournamentError(f"entrant {entrant} does not play at table {self.table}")

    def opponent_of(self, entrant: int) -> int | None:
        return self.second if self.side_of(entrant) == 0 else self.first


@dataclass(frozen=True)
class Standing:
    """An entrant's line in the standings."""

    entrant: int
    game_points: int = 0
    spread: int = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses


def round_robin(entrants: Sequence[int]) -> list[list[Pair]]:
    """Every round of a round robin by the circle method: each entrant meets each other
    once; with an odd number each has one bye. A bye is (entrant, None)."""
    _check_entrants(entrants)
    circle: list[int | None] = list(entrants)
    if len(circle) % 2:
        circle.append(None)
    size = len(circle)
    rounds: list[list[Pair]] = []
    for _ in range(size - 1):
        pairs: list[Pair] = []
        for index in range(size // 2):
            one, other = circle[index], circle[size - 1 - index]
            if one is None:
                one, other = other, None
            assert one is not None
            pairs.append((one, other))
        rounds.append(pairs)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def standings(
    entrants: Sequence[int],
    pairings: Iterable[Pairing],
    games_per_match: int = 1,
    rules: ScoringRules = ACC_SCORING,
) -> list[Standing]:
    """Everyone's standing, best first: game points, then spread, then sign-up order."""
    _check_entrants(entrants)
    totals = {entrant: Standing(entrant) for entrant in entrants}
    for pairing in pairings:
        if pairing.second is None:
            line = totals[pairing.first]
            totals[pairing.first] = replace(
                line,
                game_points=line.game_points + games_per_match * rules.bye_points,
                spread=line.spread + games_per_match * rules.bye_spread,
                wins=line.wins + games_per_match,
                byes=line.byes + 1,
            )
            continue
        for side, entrant in enumerate(pairing.entrants):
            line = totals[entrant]
            won = sum(1 for outcome in pairing.games if outcome.won(side))
            totals[entrant] = replace(
                line,
                game_points=line.game_points
                + sum(game_points(outcome, side, rules) for outcome in pairing.games),
                spread=line.spread + sum(spread(outcome, side) for outcome in pairing.games),
                wins=line.wins + won,
                losses=line.losses + len(pairing.games) - won,
            )
    seed = {entrant: number for number, entrant in enumerate(entrants)}
    return sorted(
        totals.values(), key=lambda line: (-line.game_points, -line.spread, seed[line.entrant])
    )


def swiss_pairings(
    entrants: Sequence[int],
    pairings: Iterable[Pairing],
    games_per_match: int = 1,
    rules: ScoringRules = ACC_SCORING,
) -> list[Pair]:
    """The next Swiss round from the rounds played (see the module docstring).

    Raises PairingError when no pairing avoids a repeat (more rounds than entrants can
    fill without meeting twice).
    """
    played = list(pairings)
    ranked = [line.entrant for line in standings(entrants, played, games_per_match, rules)]
    met = {frozenset(pairing.entrants) for pairing in played if not pairing.bye}
    had_bye = {pairing.first for pairing in played if pairing.bye}
    if len(ranked) % 2 == 0:
        pairs = _pair_down(ranked, met)
        if pairs is None:
            raise PairingError("Everyone left has met: no more Swiss rounds can be paired.")
        return pairs
    lowest_first = list(reversed(ranked))
    candidates = [entrant for entrant in lowest_first if entrant not in had_bye]
    candidates += [entrant for entrant in lowest_first if entrant in had_bye]
    for resting in candidates:
        pairs = _pair_down([entrant for entrant in ranked if entrant != resting], met)
        if pairs is not None:
            return [*pairs, (resting, None)]
    raise PairingError("Everyone left has met: no more Swiss rounds can be paired.")


def _pair_down(ranked: list[int], met: set[frozenset[int]]) -> list[Pair] | None:
    """Pair the best placed with the next best not yet met, down the table; None when
    no such pairing exists."""
    if not ranked:
        return []
    top, rest = ranked[0], ranked[1:]
    for index, other in enumerate(rest):
        if frozenset((top, other)) in met:
            continue
        below = _pair_down(rest[:index] + rest[index + 1 :], met)
        if below is not None:
            return [(top, other), *below]
    return None


def _check_entrants(entrants: Sequence[int]) -> None:
    if len(set(entrants)) != len(entrants):
        raise TournamentError("an entrant is listed twice")


@dataclass(frozen=True)
class Tournament:
    """A tournament as it stands. Changes return a new value.

    ``rounds`` is the number of Swiss rounds; a round robin has as many rounds as it
    takes everyone to meet everyone, and ``rounds`` (if given) may only cut it short.
    ``starts_at`` None: it waits for sign-ups until the sysop starts it.
    """

    name: str
    kind: Kind
    games_per_match: int
    starts_at: dt.datetime | None
    rounds: int | None = None
    entrants: tuple[int, ...] = ()
    pairings: tuple[Pairing, ...] = ()
    status: Status = "open"
    rules: ScoringRules = field(default=ACC_SCORING)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise TournamentError(f"a tournament is a round robin or Swiss, not {self.kind!r}")
        if not self.name.strip():
            raise TournamentError("A tournament needs a name.")
        if len(self.name) > MAX_NAME_LENGTH:
            raise TournamentError(f"A tournament's name is at most {MAX_NAME_LENGTH} characters.")
        if self.games_per_match < 1:
            raise TournamentError("A match is at least one game.")
        if self.kind == "swiss" and (self.rounds is None or self.rounds < 1):
            raise TournamentError("A Swiss tournament needs a number of rounds.")
        if self.rounds is not None and self.rounds < 1:
            raise TournamentError("A tournament is at least one round.")
        if self.starts_at is not None and self.starts_at.tzinfo is None:
            raise TournamentError("a tournament's start needs its time zone")

    # --- signing up and starting ----------------------------------------------------

    def sign_up(self, entrant: int) -> Tournament:
        """Add an entrant (again signing up changes nothing). Raises TournamentError once
        the tournament has started."""
        if self.status != "open":
            raise TournamentError(f"{self.name} has started: sign-ups are closed.")
        if entrant in self.entrants:
            return self
        return replace(self, entrants=(*self.entrants, entrant))

    def withdraw(self, entrant: int) -> Tournament:
        """Take an entrant off the list before the start."""
        if self.status != "open":
            raise TournamentError(f"{self.name} has started: nobody can leave the list now.")
        return replace(self, entrants=tuple(e for e in self.entrants if e != entrant))

    def can_start(self, now: dt.datetime) -> bool:
        """Whether it starts by itself at ``now`` (its time has come, with two entrants)."""
        due = self.starts_at is not None and now >= self.starts_at
        return self.status == "open" and due and len(self.entrants) >= 2

    def start(self, now: dt.datetime) -> Tournament:
        """Close sign-ups and pair the first round. Raises TournamentError before the
        start time (or without one: the sysop starts it, door/storage/tournaments.py's
        ``early``) or with fewer than two entrants."""
        if self.status != "open":
            raise TournamentError(f"{self.name} has already started.")
        if self.starts_at is None:
            raise TournamentError(f"{self.name} starts when the sysop starts it.")
        if now < self.starts_at:
            raise TournamentError(f"{self.name} starts at {self.starts_at:%Y-%m-%d %H:%M} UTC.")
        if len(self.entrants) < 2:
            raise TournamentError(f"{self.name} needs at least two players to start.")
        return replace(self, status="running")._paired()

    # --- rounds ---------------------------------------------------------------------

    @property
    def total_rounds(self) -> int:
        """The rounds to play: the sysop's number, but no more than it takes everyone to
        meet everyone once (a Swiss cannot pair more without a repeat: a Swiss of 3
        rounds that two members had signed up for, started, was stuck after round 1)."""
        full = len(self.entrants) - 1 + len(self.entrants) % 2
        return full if self.rounds is None else min(self.rounds, full)

    @property
    def current_round(self) -> int:
        """The round being played (0 before the start)."""
        return max((pairing.round for pairing in self.pairings), default=0)

    def round(self, number: int) -> list[Pairing]:
        return [pairing for pairing in self.pairings if pairing.round == number]

    def settled(self, pairing: Pairing) -> bool:
        return pairing.bye or len(pairing.games) >= self.games_per_match

    @property
    def round_over(self) -> bool:
        return all(self.settled(pairing) for pairing in self.round(self.current_round))

    def pairing_of(self, entrant: int, round_number: int | None = None) -> Pairing | None:
        """The entrant's pairing in a round (the current one by default)."""
        number = self.current_round if round_number is None else round_number
        for pairing in self.round(number):
            if entrant in pairing.entrants:
                return pairing
        return None

    def match_to_play(self, entrant: int) -> Pairing | None:
        """``entrant``'s match still to play in the current round; None when the
        tournament is not running, or they have a bye, or their match is settled."""
        if self.status != "running":
            return None
        pairing = self.pairing_of(entrant)
        if pairing is None or pairing.bye or self.settled(pairing):
            return None
        return pairing

    def record(
        self, entrant: int, outcome: Outcome, side: int = 0, against: int | None = None
    ) -> Tournament:
        """Add a finished game to ``entrant``'s match in the current round: ``outcome``
        as the engine ended it, in which ``entrant`` played ``side`` against ``against``
        (when given). When the round is then over, the next is paired (or the
        tournament finishes).

        Raises TournamentError when the entrant has no match to play now, or when their
        match now is not with ``against``: the match the game was played for was
        settled while it went on (the sysop forfeited it) and the rounds moved on, and
        its result must not land in a match against someone else.
        """
        if self.status != "running":
            raise TournamentError(f"{self.name} is not being played.")
        pairing = self.match_to_play(entrant)
        if pairing is None:
            raise TournamentError("You have no tournament game to play in this round.")
        if against is not None and pairing.opponent_of(entrant) != against:
            raise TournamentError("The match this game was played for was settled without it.")
        if pairing.side_of(entrant) != side:
            outcome = _swap_sides(outcome)
        played = replace(pairing, games=(*pairing.games, outcome))
        changed = replace(
            self, pairings=tuple(played if p is pairing else p for p in self.pairings)
        )
        return changed._advanced()

    def forfeit_match(self, entrant: int, scores: tuple[int, int] = (0, 0)) -> Tournament:
        """Settle the rest of ``entrant``'s match in the current round as lost by
        forfeit (they never came back for it): each remaining game is an Outcome
        forfeited by them at ``scores`` (their score first)."""
        tournament = self
        pairing = self.pairing_of(entrant)
        if pairing is None or pairing.bye:
            raise TournamentError("There is no match to forfeit in this round.")
        while not tournament.settled(pairing):
            tournament = tournament.record(entrant, Outcome(1, scores, (), forfeited_by=0))
            pairing = tournament.pairing_of(entrant, pairing.round) or pairing
        return tournament

    def standings(self) -> list[Standing]:
        return standings(self.entrants, self.pairings, self.games_per_match, self.rules)

    def _advanced(self) -> Tournament:
        if not self.round_over:
            return self
        if self.current_round >= self.total_rounds:
            return replace(self, status="finished")
        return self._paired()

    def _paired(self) -> Tournament:
        number = self.current_round + 1
        if self.kind == "round robin":
            pairs = round_robin(self.entrants)[number - 1]
        else:
            try:
                pairs = swiss_pairings(
                    self.entrants, self.pairings, self.games_per_match, self.rules
                )
            except PairingError:
                # The rounds played leave no pairing without a repeat, short of everyone
                # meeting everyone: the tournament ends on the standings it has.
                return replace(self, status="finished")
        new = tuple(
            Pairing(number, table, first, second)
            for table, (first, second) in enumerate(pairs, start=1)
        )
        return replace(self, pairings=(*self.pairings, *new))._advanced()


def _swap_sides(outcome: Outcome) -> Outcome:
    """The same two-sided game told from the other side."""
    return Outcome(
        1 - outcome.winner_side,
        (outcome.scores[1], outcome.scores[0]),
        tuple((1 - side, kind) for side, kind in outcome.skunks),
        None if outcome.forfeited_by is None else 1 - outcome.forfeited_by,
    )
