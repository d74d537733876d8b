"""The coach: what a discard, a play or a count claim cost against the best choice, in
expected points and in the chance to win, with the best choice named; and a review of
a whole game's biggest mistakes.

Pure: each function takes a ``Game`` as it stood *before* the choice (or a recording)
and returns values; nothing is changed.

* ``analyse_discard``: every way to split the hand, valued by the kept hand, the crib
  (ours or theirs, by who deals), what the kept cards are measured to peg, and, through
  the board position, the chance to win (two players; with three or four the chance
  comes from the hand's distribution and the crib's value in points).
* ``analyse_play``: every card that fits, once for points (ours less theirs over the
  next cards) and once for the chance to win: at two players as the master weighs it
  (the opponent's cards read from what they did, the last seven searched to the end,
  ties broken as it breaks them), with three or four by the expert's pegging search.
* ``analyse_claim``: a count claim (manual counting) against the true count, muggins
  included.
* ``review_game``: replays a recording and returns the costliest choices, worst first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal, NamedTuple

import numpy as np

from engine.computer.discard import discard_values
from engine.computer.opponent import declined_ranks, least_pips_left
from engine.computer.play import MasterValues, master_play_values, play_values
from engine.odds.hand_values import (
    Unseen,
    crib_values_single,
    hand_distributions,
    hand_values,
    splits,
)
from engine.odds.model import GOAL, FloatArray, Stage
from engine.odds.tables import load_win_tables
from engine.odds.winbar import (
    chances_with,
    hand_stages,
    pegging_stages,
    seat_role,
    side_role,
    view_of,
)
from engine.rules.cards import Card, format_cards
from engine.rules.checks import card_list
from engine.rules.errors import IllegalActionError
from engine.rules.game import NINETEEN, Game, Phase, parse_claim
from engine.rules.record import RecordedGame, Recording
from engine.rules.scoring import score_peg, score_show

Kind = Literal["discard", "play", "claim"]
SHOW_POINTS: Final = 30


@dataclass(frozen=True)
class Choice:
    """One option: what it is (``"keep 5H 5D JC QS, throw 2H 9C"``), the expected points
    it brings net of the other side's, and the chosen seat's side's chance to win."""

    label: str
    points: float
    chance: float
    cards: tuple[Card, ...] = ()
    claim: int | None = None


@dataclass(frozen=True)
class Analysis:
    """A choice weighed against every other. ``options`` come best first (by the chance
    to win, points breaking ties; a two-player play's as the master breaks them);
    ``chosen`` is one of them."""

    kind: Kind
    seat: int
    chosen: Choice
    options: tuple[Choice, ...]

    @property
    def best(self) -> Choice:
        """The option with the best chance to win."""
        return self.options[0]

    @property
    def best_for_points(self) -> Choice:
        return max(self.options, key=lambda option: option.points)

    @property
    def points_cost(self) -> float:
        """Expected points given up against the best option for points (0 or more)."""
        return max(0.0, self.best_for_points.points - self.chosen.points)

    @property
    def chance_cost(self) -> float:
        """Chance to win given up against the best option (0 or more, 0.01 = 1 point)."""
        return max(0.0, self.best.chance - self.chosen.chance)

    @property
    def is_best(self) -> bool:
        return self.chance_cost < 1e-4 and self.points_cost < 0.05

    def describe(self) -> str:
        """One line for the screen, e.g. ``Throwing 2H 9C: best. Chance 56.1%.``"""
        said = {"discard": "Throwing", "play": "Playing", "claim": "Claiming"}[self.kind]
        what = (
            self.chosen.label.split(", throw ")[-1]
            if self.kind == "discard"
            else (self.chosen.label.removeprefix("play ").removeprefix("claim "))
        )
        if self.is_best:
            return f"{said} {what}: the best choice. Chance to win {self.chosen.chance:.1%}."
        return (
            f"{said} {what} cost {self.points_cost:.1f} points and "
            f"{self.chance_cost * 100:.1f}% to win; best: {self.best.label} "
            f"({self.best.chance:.1%})."
        )


def _ordered(options: list[Choice]) -> tuple[Choice, ...]:
    return tuple(sorted(options, key=lambda o: (-round(o.chance, 6), -o.points)))


def _my_scores(game: Game, seat: int) -> tuple[int, int]:
    mine = game.score_of(seat)
    theirs = max(s for side, s in enumerate(game.scores) if side != game.side_of(seat))
    return min(mine, GOAL - 1), min(theirs, GOAL - 1)


# --- the discard -------------------------------------------------------------------


def analyse_discard(game: Game, seat: int, thrown: Sequence[Card]) -> Analysis:
    """Weigh ``seat`` throwing ``thrown`` against every other throw of its hand.

    ``game`` is at the discard, before the seat has thrown. Raises IllegalActionError
    outside the discard or for cards that are not a throw from the seat's hand.
    """
    if game.phase is not Phase.DISCARD or not 0 <= seat < game.players:
        raise IllegalActionError("a discard is analysed at the discard, for a seat")
    hand = game.hand(seat)
    thrown = card_list(list(thrown), "the thrown cards")
    if len(hand) != game.cards_dealt or game.has_discarded(seat):
        raise IllegalActionError("that seat has already thrown to the crib")
    if len(set(thrown)) != game.discard_count or any(card not in hand for card in thrown):
        raise IllegalActionError(f"throw {game.discard_count} cards of the hand")
    options = splits(hand, game.discard_count)
    unseen = Unseen.excluding(hand)
    keeps = [kept for kept, _ in options]
    hand_ev = hand_values(keeps, unseen)
    ours = game.side_of(game.dealer) == game.side_of(seat)
    if game.players == 2:
        my_score, opp_score = _my_scores(game, seat)
        chances, points = discard_values(options, unseen, hand_ev, ours, my_score, opp_score)
    else:
        chances, points = _discard_values_many(game, seat, options, unseen, hand_ev, ours)
    choices = []
    chosen: Choice | None = None
    for row, (kept, throw) in enumerate(options):
        choice = Choice(
            f"keep {format_cards(kept)}, throw {format_cards(throw)}",
            float(points[row]),
            float(chances[row]),
            tuple(throw),
        )
        choices.append(choice)
        if set(throw) == set(thrown):
            chosen = choice
    assert chosen is not None
    return Analysis("discard", seat, chosen, _ordered(choices))


def _discard_values_many(
    game: Game,
    seat: int,
    options: Sequence[tuple[tuple[Card, ...], tuple[Card, ...]]],
    unseen: Unseen,
    hand_ev: FloatArray,
    ours: bool,
) -> tuple[FloatArray, FloatArray]:
    """Three or four players: the kept hand's distribution through the win tables, the
    crib's value in points moved into a chance at the board's value of a point."""
    crib_ev = crib_values_single([thrown[0] for _, thrown in options], unseen)
    share = 1.0 if ours else (-0.5 if game.players == 3 else -1.0)
    points = hand_ev + share * crib_ev
    view = view_of(game, seat)
    base = hand_stages(game, view)
    index = _show_index(game, seat)
    side = game.side_of(seat)
    distributions = hand_distributions([kept for kept, _ in options], unseen)
    chances = np.zeros(len(options))
    for row in range(len(options)):
        stages = list(base)
        stages[index] = ("add", side_role(game, seat), distributions[row])
        chances[row] = chances_with(game, stages)[side]
    my_score = game.score_of(seat)
    up = chances_with(game, [("add", side_role(game, seat), _point(1)), *base])[side]
    point_value = max(up - chances_with(game, base)[side], 0.0) if my_score < GOAL else 0.0
    return chances + point_value * share * (crib_ev - crib_ev.mean()), points


def _show_index(game: Game, seat: int) -> int:
    """Where the seat's own hand is among ``hand_stages`` before the play."""
    pegging = len(pegging_stages(game))
    return pegging + (seat_role(game, seat) - 1) % game.players


def _point(points: int) -> FloatArray:
    dist = np.zeros(SHOW_POINTS)
    dist[points] = 1.0
    return dist


# --- the play ----------------------------------------------------------------------


def analyse_play(game: Game, seat: int, card: Card, *, thrown: Sequence[Card] = ()) -> Analysis:
    """Weigh ``seat`` laying ``card`` against every other card it could lay now.

    ``thrown`` (the seat's own crib cards, if known) sharpens what is unseen. Raises
    IllegalActionError when it is not the seat's turn to play or the card does not fit.
    """
    if game.phase is not Phase.PLAY or game.turn != seat:
        raise IllegalActionError("a play is analysed when it is the seat's turn to play")
    legal = game.playable(seat)
    if card not in legal:
        raise IllegalActionError(f"{card} cannot be played now")
    seen = _PlaySeen.of(game, seat, thrown)
    masters_card = None
    if game.players == 2:
        for_points, for_chance = _as_the_master_weighs(game, seat, seen)
        points, chances, masters_card = for_points.values, for_chance.values, for_chance.best_rank
    else:
        points = _as_the_expert_weighs(game, seat, seen)
        chances = _play_chances_many(game, seat, legal, thrown)
    choices: list[Choice] = []
    chosen: Choice | None = None
    for option in legal:
        rank = int(option.rank)
        if any(c.cards[0].rank == option.rank for c in choices):
            continue  # one card of each rank: suits never score in the play
        choice = Choice(f"play {option}", points[rank], chances[rank], (option,))
        choices.append(choice)
    for choice in choices:
        if choice.cards[0].rank == card.rank:
            chosen = choice
    assert chosen is not None
    options = _ordered(choices)
    if masters_card is not None:
        # The master's card first: its chance is the best, ties broken as the master
        # breaks them (the deep search), not by points.
        options = tuple(sorted(options, key=lambda o: int(o.cards[0].rank) != masters_card))
    return Analysis("play", seat, chosen, options)


class _PlaySeen(NamedTuple):
    """What the seat knows at the play that the searches weigh (``play_values``'s keywords
    of the same names): every card laid this hand, the starter, the runs rule, the scores
    (capped below the goal), how many cards the next seat holds, whether the seat's side
    deals, whether the others said go (the count came back to the seat), the seat's own
    crib cards and kept hand, and the fewest pips the next seat may hold (two players; 1
    otherwise)."""

    played: list[Card]
    starter: Card | None
    runs: str
    my_score: int
    opp_score: int
    opp_cards_left: int
    dealer: bool
    opp_said_go: bool
    discards: tuple[Card, ...]
    kept: tuple[Card, ...] | None
    opp_min_pips: int

    @classmethod
    def of(cls, game: Game, seat: int, thrown: Sequence[Card]) -> _PlaySeen:
        my_score, opp_score = _my_scores(game, seat)
        current = game.plays[-len(game.count_cards) :] if game.count_cards else []
        return cls(
            played=[play.card for play in game.plays],
            starter=game.starter,
            runs=game.runs,
            my_score=my_score,
            opp_score=opp_score,
            opp_cards_left=len(game.hand(game.seat_after(seat))),
            dealer=game.side_of(game.dealer) == game.side_of(seat),
            opp_said_go=bool(current) and current[-1].seat == seat,
            discards=tuple(thrown),
            kept=game.kept(seat) or None,
            opp_min_pips=least_pips_left(game, seat) if game.players == 2 else 1,
        )


def _as_the_master_weighs(game: Game, seat: int, seen: _PlaySeen) -> tuple[MasterValues, ...]:
    """Each rank's value at two players as the master weighs a play, for points and for
    the chance to win (the hands drawn once for both): the opponent's cards judged by what
    they laid and passed up (and their first cards read), the last seven cards searched to
    the end over hands drawn through the expert's discard, earlier the deep search
    (``master_play_values``, the master's own path, its tie-break included). The coach's
    best card was another than the master's in 27 % of the master's plays with the
    expert's search, 5 % so (figures in 42fe4ec), 0.8 % with the tie-break."""
    return master_play_values(
        game.hand(seat),
        game.count_cards,
        played=seen.played,
        starter=seen.starter,
        runs=seen.runs,
        my_score=seen.my_score,
        opp_score=seen.opp_score,
        opp_cards_left=seen.opp_cards_left,
        dealer=seen.dealer,
        opp_said_go=seen.opp_said_go,
        discards=seen.discards,
        kept=seen.kept,
        opp_min_pips=seen.opp_min_pips,
        chances=(False, True),
        ties_told_for=(False, True),  # the points are shown, the master's card is the chance's
        opp_played=[play.card for play in game.plays if play.seat != seat],
        opp_declined=declined_ranks(game, seat),
    )


def _as_the_expert_weighs(game: Game, seat: int, seen: _PlaySeen) -> dict[int, float]:
    """Three or four players: each rank's points (ours less theirs over the next cards)
    by the expert's pegging search."""
    return play_values(
        game.hand(seat),
        game.count_cards,
        played=seen.played,
        starter=seen.starter,
        runs=seen.runs,
        my_score=seen.my_score,
        opp_score=seen.opp_score,
        opp_cards_left=seen.opp_cards_left,
        dealer=seen.dealer,
        opp_said_go=seen.opp_said_go,
        discards=seen.discards,
        kept=seen.kept,
        opp_min_pips=seen.opp_min_pips,
        chance=False,
    )


def _play_chances_many(
    game: Game, seat: int, legal: Sequence[Card], thrown: Sequence[Card]
) -> dict[int, float]:
    """Three or four players: the chance after each card's points, the rest of the play
    by the cards left."""
    view = view_of(game, seat, thrown)
    shows = hand_stages(game, view)[len(pegging_stages(game)) :]
    left = [0] * game.sides
    for other in range(game.players):
        left[side_role(game, other)] += len(game.hand(other))
    left[side_role(game, seat)] -= 1
    rest = load_win_tables().rest_stages(game.players, tuple(left))
    chances = {}
    for card in legal:
        points = score_peg([*game.count_cards, card], game.runs)
        stages: list[Stage] = [("add", side_role(game, seat), _point(points)), *rest, *shows]
        chances[int(card.rank)] = chances_with(game, stages)[game.side_of(seat)]
    return chances


# --- the count ---------------------------------------------------------------------


def analyse_claim(game: Game, claim: int | str, *, thrown: Sequence[Card] = ()) -> Analysis:
    """Weigh a claim for the hand being counted (manual counting) against the true count.

    Raises IllegalActionError outside the show, InvalidClaimError for a claim that is
    not a count.
    """
    showing = game.showing
    if showing is None or game.starter is None:
        raise IllegalActionError("a claim is analysed in the show")
    claimed = parse_claim(claim)
    seat, is_crib = showing
    cards = game.crib if is_crib else game.kept(seat)
    true = score_show(cards, game.starter, crib=is_crib).total
    view = view_of(game, seat, thrown)
    later = hand_stages(game, view)[1:]
    options = []
    for value in sorted({claimed, true}):
        if value == true:
            awarded, muggins = true, 0
        elif value == NINETEEN or value > true:
            awarded, muggins = 0, true
        else:
            awarded, muggins = value, true - value
        stages: list[Stage] = [("add", side_role(game, seat), _point(awarded))]
        if muggins:
            stages.append(("add", side_role(game, game.seat_after(seat)), _point(muggins)))
        chance = chances_with(game, [*stages, *later])[game.side_of(seat)]
        net = awarded - (
            muggins if game.side_of(game.seat_after(seat)) != game.side_of(seat) else 0
        )
        options.append(Choice(f"claim {value}", float(net), chance, claim=value))
    chosen = next(option for option in options if option.claim == claimed)
    return Analysis("claim", seat, chosen, _ordered(options))


# --- a whole game ------------------------------------------------------------------


@dataclass(frozen=True)
class Mistake:
    """A choice that cost something: where it was (action number from 1, hand number)
    and its analysis."""

    action: int
    hand: int
    analysis: Analysis

    def describe(self, names: Sequence[str] | None = None) -> str:
        """One line for a review screen: ``Hand 3, Ada: Playing 5S cost ...``."""
        seat = self.analysis.seat
        who = names[seat] if names is not None and seat < len(names) else f"Seat {seat + 1}"
        return f"Hand {self.hand}, {who}: {self.analysis.describe()}"


def review_game(
    recording: Recording, seats: Sequence[int] | None = None, limit: int = 10
) -> list[Mistake]:
    """The costliest choices of ``seats`` (every seat by default) in a recorded game:
    discards, plays and (manual counting) claims, by chance to win given up, then by
    points; at most ``limit``. Raises RecordingError if the recording does not replay."""
    game = RecordedGame.new(recording)
    wanted = set(range(recording.players) if seats is None else seats)
    thrown: dict[int, tuple[Card, ...]] = {}
    found: list[Mistake] = []
    for number, action in enumerate(recording.actions, start=1):
        analysis: Analysis | None = None
        if action.name == "discard" and game.phase is Phase.DISCARD:
            seat, cards = action.args
            assert isinstance(seat, int) and isinstance(cards, tuple)
            chosen = tuple(Card.parse(text) for text in cards)
            if seat in wanted:
                analysis = analyse_discard(game, seat, chosen)
            thrown[seat] = chosen
        elif action.name == "play" and game.phase is Phase.PLAY:
            seat, text = action.args
            assert isinstance(seat, int) and isinstance(text, str)
            if seat in wanted and len(game.playable(seat)) > 1:
                mine = thrown.get(seat, ()) if game.players == 2 else ()
                analysis = analyse_play(game, seat, Card.parse(text), thrown=mine)
        elif action.name == "count_hand" and game.counting == "manual":
            showing = game.showing
            claim = action.args[0] if action.args else None
            if showing is not None and showing[0] in wanted and isinstance(claim, int | str):
                analysis = analyse_claim(game, claim)
        if action.name == "deal":
            thrown = {}
        if analysis is not None and not analysis.is_best:
            found.append(Mistake(number, game.hand_number, analysis))
        action.apply(game)
    found.sort(key=lambda m: (-m.analysis.chance_cost, -m.analysis.points_cost, m.action))
    return found[:limit]


__all__ = [
    "Analysis",
    "Choice",
    "Mistake",
    "analyse_claim",
    "analyse_discard",
    "analyse_play",
    "review_game",
]
