"""Whole games between computer players, with totals: the engine's soak test.

Pure: it returns numbers; the command line prints them.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.rules.cards import Card
from engine.rules.events import Event, GameOver, HandOver, Pegged
from engine.rules.game import CountingMode, Game, Phase
from engine.rules.scoring import RunsRule, score_show


class Player(Protocol):
    """What a game needs from whoever sits in a seat."""

    def discard(self, game: Game, seat: int) -> Sequence[Card]: ...

    def cut(self, game: Game, seat: int) -> int: ...

    def play(self, game: Game, seat: int) -> Card: ...

    def claim(self, game: Game, seat: int) -> int: ...


class RandomPlayer:
    """Plays any legal card and throws any cards: the simplest legal opponent."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def discard(self, game: Game, seat: int) -> Sequence[Card]:
        return self.rng.sample(game.hand(seat), game.discard_count)

    def cut(self, game: Game, seat: int) -> int:
        return self.rng.randint(1, game.stock_size)

    def play(self, game: Game, seat: int) -> Card:
        return self.rng.choice(game.playable(seat))

    def claim(self, game: Game, seat: int) -> int:
        return true_count(game)


def true_count(game: Game) -> int:
    """The correct count of the hand now being shown."""
    showing = game.showing
    assert showing is not None and game.starter is not None
    seat, is_crib = showing
    cards = game.crib if is_crib else game.kept(seat)
    return score_show(cards, game.starter, crib=is_crib).total


def score_category(reason: str) -> str:
    """Group a Pegged reason: pegging, hand, crib, heels or muggins."""
    if reason.startswith("muggins"):
        return "muggins"
    if reason == "two for his heels":
        return "heels"
    if reason in ("hand", "crib"):
        return reason
    return "pegging"


def role_name(players: int, offset_from_dealer: int) -> str:
    if offset_from_dealer == 0:
        return "dealer"
    if players == 2:
        return "pone"
    return f"dealer+{offset_from_dealer}"


@dataclass
class GameRecord:
    winner_side: int
    winner_seat: int
    scores: tuple[int, ...]
    skunks: tuple[tuple[int, str], ...]
    actions: int
    # (role, category) -> points, over hands played to the end
    points_by_role: dict[tuple[str, str], int]
    completed_hands: int


def play_game(game: Game, players: Sequence[Player], check: bool = True) -> GameRecord:
    """Play ``game`` to the end with one Player per seat.

    ``check`` runs the game's invariant check after every action and lets
    any AssertionError out: an illegal state is a bug, never a result.
    """
    points_this_hand: dict[tuple[str, str], int] = defaultdict(int)
    points_by_role: dict[tuple[str, str], int] = defaultdict(int)
    completed_hands = 0
    actions = 0
    over: GameOver | None = None
    while over is None:
        dealer = game.dealer
        events = next_action(game, players)
        actions += 1
        if check:
            game.check_invariants()
        for event in events:
            if isinstance(event, Pegged):
                role = role_name(game.players, (event.seat - dealer) % game.players)
                points_this_hand[(role, score_category(event.reason))] += event.points
            elif isinstance(event, HandOver):
                completed_hands += 1
                for key, points in points_this_hand.items():
                    points_by_role[key] += points
                points_this_hand.clear()
            elif isinstance(event, GameOver):
                over = event
        if actions > 10_000:
            raise AssertionError("a game ran past 10,000 actions")
    return GameRecord(
        over.winner_side,
        over.winner_seat,
        over.scores,
        over.skunks,
        actions,
        dict(points_by_role),
        completed_hands,
    )


def next_action(game: Game, players: Sequence[Player]) -> list[Event]:
    """Make the game's next step, asking the seat whose step it is (``players`` by seat),
    and return its events: one step of ``play_game``, for a caller that watches each."""
    phase = game.phase
    if phase is Phase.CUT_FOR_DEAL:
        return game.cut_for_deal()
    if phase is Phase.DEAL:
        return game.deal()
    if phase is Phase.DISCARD:
        seat = next(s for s in range(game.players) if not game.has_discarded(s))
        return game.discard(seat, players[seat].discard(game, seat))
    if phase is Phase.CUT:
        return game.cut(players[game.cutter].cut(game, game.cutter))
    assert game.turn is not None
    seat = game.turn
    if phase is Phase.PLAY:
        return game.play(seat, players[seat].play(game, seat))
    if phase is Phase.SHOW:
        claim = players[seat].claim(game, seat) if game.counting == "manual" else None
        return game.count_hand(claim)
    raise AssertionError(f"no action in phase {phase}")


PlayerFactory = Callable[[random.Random], Player]


@dataclass
class Totals:
    players: int
    games: int = 0
    wins_by_seat: list[int] = field(default_factory=list)
    wins_by_label: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    skunks: int = 0
    double_skunks: int = 0
    hands: int = 0
    points_by_role: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    actions: int = 0

    def average(self, role: str, category: str) -> float:
        """Average points per completed hand for a role (dealer, pone...) and category."""
        return self.points_by_role.get((role, category), 0) / self.hands if self.hands else 0.0


def wilson_interval(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """95% confidence interval for a win rate (Wilson score interval)."""
    if games == 0:
        return (0.0, 1.0)
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def run_selfplay(
    games: int,
    seed: int,
    players: int = 2,
    runs: RunsRule = "free",
    a: PlayerFactory | None = None,
    b: PlayerFactory | None = None,
    counting: CountingMode = "auto",
) -> Totals:
    """Play ``games`` games; player A and player B alternate who deals first.

    With 2 players A and B take one seat each; with 3, A has seat 0 and B the
    others; with 4, A is the partnership of seats 0 and 2. Labels in the totals
    are "A" and "B". Without factories both are RandomPlayer.
    """
    rng = random.Random(seed)
    make_a = a or RandomPlayer
    make_b = b or RandomPlayer
    totals = Totals(players=players, wins_by_seat=[0] * players)
    for number in range(games):
        game_rng = random.Random(rng.getrandbits(64))
        seats: list[Player] = []
        labels: list[str] = []
        for seat in range(players):
            is_a = seat % 2 == 0 if players == 4 else seat == 0
            seats.append((make_a if is_a else make_b)(random.Random(game_rng.getrandbits(64))))
            labels.append("A" if is_a else "B")
        # Alternate which of A or B deals first.
        first_dealer = 0 if number % 2 == 0 else 1
        game = Game(players, runs=runs, counting=counting, rng=game_rng, dealer=first_dealer)
        record = play_game(game, seats)
        totals.games += 1
        totals.wins_by_seat[record.winner_seat] += 1
        totals.wins_by_label[labels[record.winner_seat]] += 1
        for _, kind in record.skunks:
            if kind == "skunk":
                totals.skunks += 1
            else:
                totals.double_skunks += 1
        totals.hands += record.completed_hands
        totals.actions += record.actions
        for key, points in record.points_by_role.items():
            totals.points_by_role[key] += points
    return totals
