"""What one deal scores, measured by the computer playing itself: the raw counts behind
the win-probability tables (``bench/gen_winprob_tables.py`` turns them into arrays, which
the engine ships and reads: the door never measures).

Pure: a seeded ``random.Random`` in, NumPy counts out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from engine.computer.player import ComputerPlayer
from engine.odds.model import DealModel, sides_for
from engine.odds.tables import model_from_parts
from engine.rules.events import Event, Pegged, ShowScored
from engine.rules.game import Game, Phase

MAX_PEG = 40  # pegging points per deal are counted up to this (more is folded into it)
SHOW = 30
FloatArray = npt.NDArray[np.float64]


@dataclass
class DealCounts:
    """Counts over many deals for one number of players; roles count from the dealer.

    ``pegging``: two sides, [dealer side, other side] jointly; three, [role, points].
    ``hands``: [seat role, points] (seat role 0 is the dealer). ``crib``: [points].
    ``rest``: pegging still to come from a moment of the play, by the cards each side
    (two sides) or role (three) still holds: [left..., side points...] jointly for two
    sides, [left0, left1, left2, role, points] for three.
    ``keeps``: rows of (role, four kept ranks 1..13, own pegging, the other's), 2 players.
    """

    players: int
    deals: int = 0
    pegging: FloatArray = field(default_factory=lambda: np.zeros(0))
    hands: FloatArray = field(default_factory=lambda: np.zeros(0))
    crib: FloatArray = field(default_factory=lambda: np.zeros(SHOW))
    rest: FloatArray = field(default_factory=lambda: np.zeros(0))
    keeps: list[tuple[int, ...]] = field(default_factory=list)

    def __post_init__(self) -> None:
        sides = sides_for(self.players)
        if not self.pegging.size:
            self.pegging = np.zeros((MAX_PEG, MAX_PEG) if sides == 2 else (3, MAX_PEG))
        if not self.hands.size:
            self.hands = np.zeros((self.players, SHOW))
        if not self.rest.size:
            cards = 4 * self.players // sides
            if sides == 2:
                self.rest = np.zeros((cards + 1, cards + 1, MAX_PEG, MAX_PEG))
            else:
                self.rest = np.zeros((5, 5, 5, 3, MAX_PEG))

    def add(self, other: DealCounts) -> None:
        self.deals += other.deals
        self.pegging += other.pegging
        self.hands += other.hands
        self.crib += other.crib
        self.rest += other.rest
        self.keeps.extend(other.keeps)


def measure_deals(
    players: int, deals: int, rng: random.Random, level: str = "expert"
) -> DealCounts:
    """Play ``deals`` single deals from 0-0 with the computer at ``level`` in every seat."""
    counts = DealCounts(players)
    sides = sides_for(players)
    for _ in range(deals):
        game = Game(players, rng=random.Random(rng.getrandbits(64)), dealer=rng.randrange(players))
        seats = [ComputerPlayer(level, random.Random(rng.getrandbits(64))) for _ in range(players)]
        dealer = game.dealer
        role_of_seat = [(seat - dealer) % players for seat in range(players)]
        side_role = [role % sides for role in role_of_seat]

        game.deal()
        for seat in range(players):
            game.discard(seat, seats[seat].discard(game, seat))
        kept = [game.kept(seat) for seat in range(players)]
        events: list[Event] = game.cut(seats[game.cutter].cut(game, game.cutter))
        heels = sum(e.points for e in events if isinstance(e, Pegged))
        peg = [0] * sides
        snapshots: list[tuple[tuple[int, ...], list[int]]] = []
        while game.phase is Phase.PLAY:
            left = [0] * sides
            for seat in range(players):
                left[side_role[seat]] += len(game.hand(seat))
            snapshots.append((tuple(left), list(peg)))
            assert game.turn is not None
            seat = game.turn
            for event in game.play(seat, seats[seat].play(game, seat)):
                if isinstance(event, Pegged):
                    peg[side_role[event.seat]] += event.points
        while game.phase is Phase.SHOW:
            for event in game.count_hand():
                if isinstance(event, ShowScored):
                    if event.is_crib:
                        counts.crib[event.awarded] += 1
                    else:
                        counts.hands[role_of_seat[event.seat], event.awarded] += 1
        counts.deals += 1
        total = list(peg)
        total[0] += heels
        if sides == 2:
            counts.pegging[min(total[0], MAX_PEG - 1), min(total[1], MAX_PEG - 1)] += 1
        else:
            for role in range(3):
                counts.pegging[role, min(total[role], MAX_PEG - 1)] += 1
        for holding, before in snapshots:
            still = [min(end - start, MAX_PEG - 1) for end, start in zip(peg, before, strict=True)]
            if sides == 2:
                counts.rest[holding[0], holding[1], still[0], still[1]] += 1
            else:
                for role in range(3):
                    counts.rest[holding[0], holding[1], holding[2], role, still[role]] += 1
        if players == 2:
            for seat in range(2):
                role = role_of_seat[seat]
                ranks = sorted(int(card.rank) for card in kept[seat])
                counts.keeps.append((role, *ranks, peg[role], peg[1 - role]))
    return counts


def model_from_counts(counts: DealCounts) -> DealModel:
    return model_from_parts(counts.players, counts.pegging, counts.hands, counts.crib)
