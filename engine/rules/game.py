"""The game state machine: cut for deal, deal, discard, cut, play, show, win.

A Game changes only through its action methods. Each validates its input,
raises a CribbageError subclass (changing nothing) when the action is not
allowed now, and otherwise returns the events it caused, in order.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from engine.rules.cards import FULL_DECK, Card, Deck, format_cards
from engine.rules.checks import is_whole_number
from engine.rules.claims import MAX_CLAIM, NINETEEN, NINETEEN_REMARK, parse_claim
from engine.rules.errors import IllegalActionError
from engine.rules.events import (
    CardPlayed,
    CountReset,
    CutForDeal,
    Discarded,
    Event,
    GameOver,
    GoSaid,
    HandDealt,
    HandOver,
    Pegged,
    ShowScored,
    StarterCut,
)
from engine.rules.outcome import (
    DOUBLE_SKUNK_LINE,
    SKUNK_LINE,
    WINNING_SCORE,
    Outcome,
    SkunkKind,
    skunk_kind,
)
from engine.rules.scoring import (
    RUNS_RULES,
    RunsRule,
    ScoreItem,
    peg_items,
    peg_reason,
    score_show,
)

__all__ = [
    "COUNTING_MODES",
    "DOUBLE_SKUNK_LINE",
    "MAX_CLAIM",
    "NINETEEN",
    "NINETEEN_REMARK",
    "SKUNK_LINE",
    "WINNING_SCORE",
    "CountingMode",
    "Game",
    "Phase",
    "Play",
    "parse_claim",
]

CountingMode = Literal["auto", "manual"]
COUNTING_MODES: Final = ("auto", "manual")


class Phase(enum.Enum):
    CUT_FOR_DEAL = "cut for deal"
    DEAL = "deal"
    DISCARD = "discard"
    CUT = "cut"
    PLAY = "play"
    SHOW = "show"
    OVER = "game over"


@dataclass(frozen=True)
class Play:
    """A card laid in the play; ``number`` counts from 1 each hand, ``round`` each count."""

    seat: int
    card: Card
    number: int
    round: int


class _GameWon(Exception):
    """Unwinds an action the instant a side reaches 121."""


class Game:
    """Cribbage for 2 players, 3 players, or 4 players in two partnerships.

    Raises IllegalActionError from the constructor for a player count other
    than 2, 3 or 4, or an unknown runs rule or counting mode.
    """

    def __init__(
        self,
        players: int = 2,
        *,
        runs: RunsRule = "free",
        counting: CountingMode = "auto",
        rng: random.Random | None = None,
        dealer: int | None = None,
    ) -> None:
        if not is_whole_number(players) or players not in (2, 3, 4):
            raise IllegalActionError(f"cribbage is for 2, 3 or 4 players, not {players!r}")
        if not isinstance(runs, str) or runs not in RUNS_RULES:
            raise IllegalActionError(f"runs must be 'free' or 'exact', not {runs!r}")
        if not isinstance(counting, str) or counting not in COUNTING_MODES:
            raise IllegalActionError(f"counting must be 'auto' or 'manual', not {counting!r}")
        if dealer is not None and (not is_whole_number(dealer) or not 0 <= dealer < players):
            raise IllegalActionError(f"there is no seat {dealer!r} to deal")
        if rng is not None and not isinstance(rng, random.Random):
            raise IllegalActionError(f"rng must be a random.Random, not {type(rng).__name__}")
        self.players: Final = players
        self.runs: Final[RunsRule] = runs
        self.counting: Final[CountingMode] = counting
        self.rng = rng if rng is not None else random.Random()
        self.sides: Final = 2 if players == 4 else players
        self.scores = [0] * self.sides
        self.previous_scores = [0] * self.sides
        self.phase = Phase.CUT_FOR_DEAL if dealer is None else Phase.DEAL
        self.dealer = 0 if dealer is None else dealer
        self.hand_number = 0
        self.winner_side: int | None = None
        self._outcome: Outcome | None = None
        self._held: list[list[Card]] = [[] for _ in range(players)]
        self._kept: list[tuple[Card, ...]] = [() for _ in range(players)]
        self._thrown: list[tuple[Card, ...]] = [() for _ in range(players)]
        self._discarded = [False] * players
        self._crib: list[Card] = []
        self._stock: tuple[Card, ...] = ()
        self.starter: Card | None = None
        self.turn: int | None = None if dealer is None else self.dealer
        self.count_cards: list[Card] = []
        self.plays: list[Play] = []
        self._count_round = 0
        self._gone: set[int] = set()
        self._show_order: list[tuple[int, bool]] = []
        self.shows: list[ShowScored] = []

    # --- what anyone may look at -----------------------------------------

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.players == 4 else seat

    def seat_after(self, seat: int) -> int:
        return (seat + 1) % self.players

    @property
    def cards_dealt(self) -> int:
        return 6 if self.players == 2 else 5

    @property
    def discard_count(self) -> int:
        """How many cards each player throws to the crib."""
        return 2 if self.players == 2 else 1

    @property
    def cutter(self) -> int:
        """The player who cuts for the starter: the one who plays just before the dealer."""
        return (self.dealer - 1) % self.players

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    @property
    def count(self) -> int:
        return sum(card.pips for card in self.count_cards)

    @property
    def crib(self) -> tuple[Card, ...]:
        return tuple(self._crib)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards the seat holds now: all six at the discard, the unplayed ones in play."""
        return tuple(self._held[seat])

    def kept(self, seat: int) -> tuple[Card, ...]:
        """The four cards the seat keeps for the show (empty before the discard)."""
        return self._kept[seat]

    def thrown_by(self, seat: int) -> tuple[Card, ...]:
        """The cards the seat threw to this hand's crib (empty before it has thrown): its
        own player knows them, whoever chose them and however often the line dropped.
        Raises IllegalActionError for a seat that does not exist."""
        self._check_seat(seat)
        return self._thrown[seat]

    def has_discarded(self, seat: int) -> bool:
        return self._discarded[seat]

    def playable(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards that fit under 31 on the current count."""
        room = 31 - self.count
        return tuple(card for card in self._held[seat] if card.pips <= room)

    @property
    def showing(self) -> tuple[int, bool] | None:
        """In the show: the seat whose hand is counted next and whether it is the crib."""
        if self.phase is not Phase.SHOW or not self._show_order:
            return None
        return self._show_order[0]

    def score_of(self, seat: int) -> int:
        return self.scores[self.side_of(seat)]

    # --- actions ---------------------------------------------------------

    def cut_for_deal(self) -> list[Event]:
        """Each player cuts; the lowest card deals and ties cut again.

        Raises IllegalActionError unless the game is at the cut for deal.
        """
        self._require(Phase.CUT_FOR_DEAL)
        events: list[Event] = []
        while True:
            deck = Deck(self.rng)
            draws = tuple((seat, deck.deal(1)[0]) for seat in range(self.players))
            lowest = min(card.rank for _, card in draws)
            low_seats = [seat for seat, card in draws if card.rank == lowest]
            dealer = low_seats[0] if len(low_seats) == 1 else None
            events.append(CutForDeal(draws, dealer))
            if dealer is not None:
                break
        self.dealer = dealer
        self.phase = Phase.DEAL
        self.turn = dealer
        return events

    def deal(self) -> list[Event]:
        """Shuffle and deal a new hand. Raises IllegalActionError unless it is time to deal."""
        self._require(Phase.DEAL)
        deck = Deck(self.rng)
        self.hand_number += 1
        self._held = [deck.deal(self.cards_dealt) for _ in range(self.players)]
        self._kept = [() for _ in range(self.players)]
        self._thrown = [() for _ in range(self.players)]
        self._discarded = [False] * self.players
        self._crib = deck.deal(1) if self.players == 3 else []
        self._stock = deck.stock
        self.starter = None
        self.count_cards = []
        self.plays = []
        self._count_round = 0
        self._gone = set()
        self.shows = []
        self.phase = Phase.DISCARD
        self.turn = None
        return [HandDealt(self.dealer, self.hand_number, self.cards_dealt)]

    def discard(self, seat: int, cards: Iterable[Card]) -> list[Event]:
        """Throw cards to the crib (two each with two players, otherwise one).

        Raises IllegalActionError outside the discard, for a seat that has
        already thrown, the wrong number of cards, or cards the seat does not hold.
        """
        self._require(Phase.DISCARD)
        self._check_seat(seat)
        if self._discarded[seat]:
            raise IllegalActionError("You have already thrown your cards to the crib.")
        need = self.discard_count
        thrown = _cards_given(cards, need)
        if len(thrown) != need or len(set(thrown)) != need:
            raise IllegalActionError(
                f"Throw {need} different card{'s' if need > 1 else ''} to the crib."
            )
        missing = [card for card in thrown if card not in self._held[seat]]
        if missing:
            raise IllegalActionError(f"You do not hold {format_cards(missing)}.")
        for card in thrown:
            self._held[seat].remove(card)
        self._kept[seat] = tuple(self._held[seat])
        self._thrown[seat] = tuple(thrown)
        self._crib.extend(thrown)
        self._discarded[seat] = True
        events: list[Event] = [Discarded(seat, need)]
        if all(self._discarded):
            self.phase = Phase.CUT
            self.turn = self.cutter
        return events

    def cut(self, position: int) -> list[Event]:
        """The cutter picks card number ``position`` (1..stock size) as the starter.

        Scores two for his heels when it is a jack. Raises IllegalActionError
        outside the cut or for a position off the stock.
        """
        self._require(Phase.CUT)
        if not is_whole_number(position) or not 1 <= position <= len(self._stock):
            raise IllegalActionError(f"Pick a card from 1 to {len(self._stock)}.")
        starter = self._stock[position - 1]
        self.starter = starter
        self._stock = self._stock[: position - 1] + self._stock[position:]
        events: list[Event] = [StarterCut(self.cutter, position, starter)]
        self.phase = Phase.PLAY
        self.turn = self.seat_after(self.dealer)
        return self._settle(events, lambda: self._heels(events))

    def play(self, seat: int, card: Card) -> list[Event]:
        """Lay a card on the count.

        Players who then cannot play are passed with a go; the count resets
        when nobody can play. Raises IllegalActionError when it is not the
        seat's turn to play, for a card it does not hold, or one that would
        take the count past 31.
        """
        self._require(Phase.PLAY)
        self._check_turn(seat)
        if not isinstance(card, Card):
            raise IllegalActionError(f"Play one of your cards, not {card!r}.")
        if card not in self._held[seat]:
            raise IllegalActionError(f"You do not hold {card}.")
        if self.count + card.pips > 31:
            raise IllegalActionError(
                f"{card} would make {self.count + card.pips}: the count cannot pass 31."
            )
        self._held[seat].remove(card)
        self.count_cards.append(card)
        self.plays.append(Play(seat, card, len(self.plays) + 1, self._count_round))
        events: list[Event] = [CardPlayed(seat, card, self.count, len(self.plays))]

        def score_and_pass() -> None:
            items = peg_items(self.count_cards, self.runs)
            if items:
                self._peg(events, seat, sum(i.points for i in items), peg_reason(items), items)
            self._pass_turn(events, seat)

        return self._settle(events, score_and_pass)

    def go(self, seat: int) -> list[Event]:
        """Say go. Players who cannot play are passed automatically, so this only
        ever raises IllegalActionError: a player whose turn it is can always play.
        """
        self._require(Phase.PLAY)
        self._check_turn(seat)
        raise IllegalActionError("You have a card that plays: you cannot say go.")

    def count_hand(self, claim: int | str | None = None) -> list[Event]:
        """Count the next hand in the show (left of the dealer first, the crib last).

        In automatic counting pass no claim. In manual counting the owner
        claims a number: an over-claim scores nothing and the next player
        takes the true count (muggins); an under-claim scores the claim and
        the next player takes what was missed. A claim of 19 ("nineteen", which
        no hand scores) is a claim of nothing: the next player takes the count.
        Raises InvalidClaimError for a claim that is not a whole number from 0 to
        29 (nothing changes, so it can be entered again) and IllegalActionError
        outside the show or for a claim in automatic counting.
        """
        self._require(Phase.SHOW)
        seat, is_crib = self._show_order[0]
        if self.counting == "auto":
            if claim is not None:
                raise IllegalActionError("Counting is automatic in this game: no claim is needed.")
            claimed = None
        else:
            claimed = parse_claim(claim)
        assert self.starter is not None
        cards = tuple(self._crib) if is_crib else self._kept[seat]
        score = score_show(cards, self.starter, crib=is_crib)
        true = score.total
        if claimed is None or claimed == true:
            awarded, muggins = true, 0
        elif claimed == NINETEEN:
            awarded, muggins = 0, true  # "nineteen" claims nothing; the count is missed
        elif claimed > true:
            awarded, muggins = 0, true
        else:
            awarded, muggins = claimed, true - claimed
        muggins_seat = self.seat_after(seat) if muggins else None
        remark = NINETEEN_REMARK if claimed == NINETEEN else ""
        shown = ShowScored(seat, is_crib, score, claimed, awarded, muggins, muggins_seat, remark)
        self.shows.append(shown)
        self._show_order.pop(0)
        events: list[Event] = [shown]

        def peg_show() -> None:
            what = "crib" if is_crib else "hand"
            if awarded:
                self._peg(events, seat, awarded, what, tuple(score.items))
            if muggins_seat is not None:
                self._peg(events, muggins_seat, muggins, f"muggins on the {what}", ())
            self.turn = self._show_order[0][0] if self._show_order else None
            if not self._show_order:
                self.dealer = self.seat_after(self.dealer)
                self.phase = Phase.DEAL
                self.turn = self.dealer
                events.append(HandOver(self.dealer))

        return self._settle(events, peg_show)

    def forfeit(self, seat: int, *, claimed_by: int | None = None) -> list[Event]:
        """``seat`` leaves the game before its end: their side loses it. With
        ``claimed_by``, that seat of the other side claimed it from ``seat``, who had not
        moved (a door's rule against stalling): the same end, told as a claim.

        With two sides the other side wins; with three players the best placed of the
        other two (the first after the leaver on equal scores). Nobody is skunked by a
        forfeit. Raises IllegalActionError for a seat that does not exist, a game that
        is already over, or a claim by a seat of the same side or in a game of three
        sides (where the winner need not be the claimant).
        """
        self._check_seat(seat)
        if self.phase is Phase.OVER:
            raise IllegalActionError("The game is over.")
        leaver = self.side_of(seat)
        if claimed_by is not None:
            self._check_seat(claimed_by)
            if self.sides != 2 or self.side_of(claimed_by) == leaver:
                raise IllegalActionError("Only the other side of two may claim the game.")
        others = [(seat + offset) % self.players for offset in range(1, self.players)]
        winner_seat = max(
            (s for s in others if self.side_of(s) != leaver),
            key=lambda s: self.scores[self.side_of(s)],
        )
        winner = self.side_of(winner_seat)
        claimed = claimed_by is not None
        scores = tuple(self.scores)
        self._end(winner, Outcome(winner, scores, (), forfeited_by=leaver, claimed=claimed))
        return [
            GameOver(winner, winner_seat, scores, (), forfeited_by=leaver, claimed_by=claimed_by)
        ]

    def snapshot(self) -> Game:
        """A plain ``Game`` standing exactly where this one stands, sharing nothing with
        it: the computer decides on a snapshot, so nothing it does (or a worker thread
        does meanwhile) can touch the live game. A subclass's hooks (a recorder, a saver)
        are left behind; the shuffling generator is copied in its current state."""
        twin = object.__new__(Game)
        for name in _game_fields():
            setattr(twin, name, _copied(getattr(self, name)))
        return twin

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it is still being played."""
        return self._outcome

    def next_game(self) -> Game:
        """A new game with the same options; the loser deals first.

        With more than one loser (three players) the lowest score deals.
        Raises IllegalActionError while this game is still being played.
        """
        self._require(Phase.OVER)
        losing_side = min(range(self.sides), key=lambda side: self.scores[side])
        dealer = next(seat for seat in range(self.players) if self.side_of(seat) == losing_side)
        return Game(
            self.players, runs=self.runs, counting=self.counting, rng=self.rng, dealer=dealer
        )

    # --- the workings ----------------------------------------------------

    def _require(self, phase: Phase) -> None:
        if self.phase is not phase:
            if self.phase is Phase.OVER:
                raise IllegalActionError("The game is over.")
            raise IllegalActionError(f"That cannot be done now: it is time to {self.phase.value}.")

    def _check_seat(self, seat: int) -> None:
        if not is_whole_number(seat) or not 0 <= seat < self.players:
            raise IllegalActionError(f"There is no seat {seat!r}.")

    def _check_turn(self, seat: int) -> None:
        self._check_seat(seat)
        if seat != self.turn:
            raise IllegalActionError("It is not your turn.")

    def _settle(self, events: list[Event], action: Callable[[], None]) -> list[Event]:
        """Run the scoring part of an action, stopping it short if the game is won."""
        with contextlib.suppress(_GameWon):
            action()
        return events

    def _heels(self, events: list[Event]) -> None:
        assert self.starter is not None
        if self.starter.rank == 11:
            item = ScoreItem("his heels", (self.starter,), 2)
            self._peg(events, self.dealer, 2, "two for his heels", (item,))

    def _peg(
        self,
        events: list[Event],
        seat: int,
        points: int,
        reason: str,
        items: Sequence[ScoreItem],
    ) -> None:
        side = self.side_of(seat)
        before = self.scores[side]
        # The peg stops in the game hole: points past 121 are never on the board, nor in
        # the event (so every record of points agrees with the score).
        after = min(before + points, WINNING_SCORE)
        self.previous_scores[side] = before
        self.scores[side] = after
        events.append(Pegged(seat, side, after - before, reason, tuple(items), after, before))
        if after >= WINNING_SCORE:
            skunks: tuple[tuple[int, SkunkKind], ...] = tuple(
                (other, kind)
                for other, score in enumerate(self.scores)
                if other != side and (kind := skunk_kind(score)) is not None
            )
            self._end(side, Outcome(side, tuple(self.scores), skunks))
            events.append(GameOver(side, seat, tuple(self.scores), skunks))
            raise _GameWon

    def _end(self, winner_side: int, outcome: Outcome) -> None:
        self.phase = Phase.OVER
        self.turn = None
        self.winner_side = winner_side
        self._outcome = outcome

    def _pass_turn(self, events: list[Event], last: int) -> None:
        """After ``last`` played: find who plays next, saying go for those who cannot."""
        if not any(self._held):
            if self.count != 31:
                self._peg(events, last, 1, "one for last", ())
            self._begin_show(events)
            return
        if self.count < 31:
            for offset in range(1, self.players + 1):
                seat = (last + offset) % self.players
                if self.playable(seat):
                    self.turn = seat
                    return
                if self._held[seat] and seat not in self._gone and seat != last:
                    self._gone.add(seat)
                    events.append(GoSaid(seat))
            self._peg(events, last, 1, "one for the go", ())
        self.count_cards = []
        self._gone = set()
        self._count_round += 1
        leader = next(
            (last + offset) % self.players
            for offset in range(1, self.players + 1)
            if self._held[(last + offset) % self.players]
        )
        self.turn = leader
        events.append(CountReset(leader))

    def _begin_show(self, events: list[Event]) -> None:
        self.phase = Phase.SHOW
        self.count_cards = []
        order = [(self.dealer + offset) % self.players for offset in range(1, self.players + 1)]
        self._show_order = [(seat, False) for seat in order] + [(self.dealer, True)]
        self.turn = self._show_order[0][0]
        events.append(CountReset(None))

    def check_invariants(self) -> None:
        """Raise AssertionError if the state is impossible (self-play checks every action)."""
        if self.phase in (Phase.CUT_FOR_DEAL, Phase.DEAL) and self.hand_number == 0:
            return
        held = [card for hand in self._held for card in hand]
        played = [play.card for play in self.plays]
        in_view = held + played + list(self._crib) + list(self._stock)
        if self.starter is not None:
            in_view.append(self.starter)
        if self.phase not in (Phase.SHOW, Phase.DEAL, Phase.OVER):
            assert len(in_view) == len(set(in_view)) == len(FULL_DECK), "cards lost or doubled"
        assert self.count <= 31, "count past 31"
        assert all(score >= 0 for score in self.scores)
        if self.phase is not Phase.OVER:
            assert all(score < WINNING_SCORE for score in self.scores), "121 reached, game not over"
        if self.phase is Phase.PLAY:
            assert self.turn is not None and self.playable(self.turn), "turn at a blocked player"


def _cards_given(cards: object, need: int) -> list[Card]:
    """The cards of a discard, checked to be cards; raises IllegalActionError."""
    plural = "s" if need > 1 else ""
    if isinstance(cards, Card | str | bytes) or not isinstance(cards, Iterable):
        raise IllegalActionError(f"Throw {need} different card{plural} to the crib.")
    thrown = list(cards)
    if not all(isinstance(card, Card) for card in thrown):
        raise IllegalActionError(f"Throw {need} of your cards to the crib.")
    return thrown


@functools.cache
def _game_fields() -> tuple[str, ...]:
    """The attributes ``Game.__init__`` sets: a game's whole state."""
    return tuple(vars(Game(2, rng=random.Random(0))))


def _copied(value: object) -> object:
    """A copy of one attribute of a game's state. Cards, plays and events are frozen
    values and are shared; the containers holding them are copied (lists of lists to
    their depth), and the generator is copied in its state."""
    if isinstance(value, list):
        return [_copied(item) if isinstance(item, list | set) else item for item in value]
    if isinstance(value, set):
        return set(value)
    if isinstance(value, random.Random):
        twin = random.Random()
        twin.setstate(value.getstate())
        return twin
    return value
