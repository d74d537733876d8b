"""Each side's chance to win at any moment of a game: the win bar.

``win_bar(game, seat)`` sees what ``seat`` may see (its own cards, the starter once cut,
the cards played, how many each player holds, and its own crib cards if given);
``win_bar(game)`` is the spectator's, who sees every hand (watch mode and replays).

What is still to come in this deal is laid out as stages in counting order (the rest
of the play, each hand, the crib) with the known hands' exact points or the
distribution of what they may score, and run forward from the scores
(``engine.odds.model.chances_through``); the next deals come from the start-of-deal
table. A few milliseconds, so it can follow every play and count.

>>> from engine.rules.game import Game
>>> import random
>>> game = Game(2, rng=random.Random(5), dealer=0)
>>> bar = win_bar(game)
>>> round(sum(bar), 9), bar[0] > bar[1]
(1.0, True)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cache, lru_cache
from itertools import repeat
from typing import Final, NamedTuple, TypeVar

import numpy as np

import compiled_parts
from engine.odds.after_play import (
    AfterPlay,
    after_play_values,
    before_cut_values,
    chance_through_crib,
)
from engine.odds.before_cut import crib_before_cut, hand_over_starters
from engine.odds.crib import crib_given_seen
from engine.odds.hand_tables import load_tables
from engine.odds.kept import read_only
from engine.odds.model import (
    FloatArray,
    Stage,
    chances_through,
    clear_kept,
    first_role_chance,
    first_role_table,
    prepare_start_table,
    trimmed_distribution,
    trimmed_stages,
)
from engine.odds.tables import load_win_tables
from engine.odds.winprob import role_sides, win_chances
from engine.rules.cards import FULL_DECK, Card
from engine.rules.checks import card_list
from engine.rules.errors import IllegalActionError
from engine.rules.game import Game, Phase
from engine.rules.scoring import score_show

SHOW_POINTS = 30


class View(NamedTuple):
    """What one seat (or a spectator, ``seat`` None) knows of the hand in play."""

    seat: int | None
    thrown: tuple[Card, ...]
    seen_bits: int
    """The cards seen as one number, a bit by card index (a small key, quick to hash)."""

    @property
    def seen(self) -> frozenset[Card]:
        return frozenset(card for card in FULL_DECK if self.seen_bits & card.bit)


def view_of(game: Game, seat: int | None, thrown: Sequence[Card] = ()) -> View:
    """The cards ``seat`` has seen; a spectator sees all. Raises IllegalActionError for
    a seat that does not exist or thrown cards that are not in the crib."""
    thrown = _checked_throw(game, seat, thrown)
    crib = game.crib
    # Gathered as bits, not a set of cards: a bar asks for a view at every moment.
    seen = 0 if game.starter is None else game.starter.bit
    for play in game.plays:
        seen |= play.card.bit
    if seat is None:
        for s in range(game.players):
            for card in game.hand(s):
                seen |= card.bit
        for card in crib:
            seen |= card.bit
    else:
        for card in game.hand(seat):
            seen |= card.bit
        for card in thrown:
            seen |= card.bit
    return View(seat, thrown, seen)


def _checked_throw(game: Game, seat: int | None, thrown: Sequence[Card]) -> tuple[Card, ...]:
    """``thrown`` as a tuple; raises IllegalActionError for a seat that does not exist or
    thrown cards that are not in the crib."""
    # A tuple of cards, as the door gives it, is taken as it is (the check in C): a bar
    # checks its view at every moment.
    if type(thrown) is not tuple or not all(map(isinstance, thrown, repeat(Card))):
        thrown = tuple(
            card_list(
                thrown if isinstance(thrown, list | tuple) else list(thrown), "the thrown cards"
            )
        )
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < game.players):
        raise IllegalActionError(f"There is no seat {seat!r}.")
    if thrown:
        crib = game.crib
        for card in thrown:
            if card not in crib:  # found by identity, never a call of Card.__eq__
                raise IllegalActionError("the thrown cards must be in the crib")
    return thrown


def win_bar(
    game: Game,
    seat: int | None = None,
    *,
    thrown: Sequence[Card] = (),
    kept: DealKept | None = None,
) -> tuple[float, ...]:
    """Each side's chance to win now, in side order (a partnership is one side).

    ``seat`` is whose view it is (None: a spectator who sees every hand); ``thrown``
    the cards that seat threw to the crib, if it remembers them. ``kept``: where one
    table keeps what its deal's later bars reuse (``DealKept``); without it, a store
    shared by every caller. Raises IllegalActionError for a seat that does not exist.
    """
    sides = game.sides
    if seat is not None and game.players == 2:
        if game.phase in _AFTER_THE_CUT:
            return _seat_of_two_after_cut(game, seat, thrown, kept)
        if game.phase is Phase.CUT:
            return _seat_of_two_before_cut(game, seat, thrown)
    if game.phase is Phase.OVER:
        outcome = game.outcome()
        winner = outcome.winner_side if outcome is not None else 0
        return tuple(1.0 if side == winner else 0.0 for side in range(sides))
    if game.phase is Phase.CUT_FOR_DEAL:
        return tuple(1.0 / sides for _ in range(sides))
    if game.phase is Phase.DEAL:
        return win_chances(game.scores, game.dealer, game.players)
    view = view_of(game, seat, thrown)
    if _knows_no_hand(game, view):
        return win_chances(game.scores, game.dealer, game.players)
    return chances_with(game, hand_stages(game, view))


def _knows_no_hand(game: Game, view: View) -> bool:
    """Whether ``view`` knows nothing of this deal's hands: in the discard, before its
    seat has thrown (a spectator's, before anyone has). Every hand and the crib are
    then the deal's averages, the stages those the start-of-deal table was solved
    through, and the bar is that table's (as at the deal), within the tolerance it was
    solved to and the tails the forward run trims (bench/win_bar_cost.py's games: 2.5e-8
    at most with two players, 1.5e-5 with three and four), where working it out took
    42 us with two players, 410-460 with three (a third of their bars' time)."""
    if game.phase is not Phase.DISCARD:
        return False
    if view.seat is None:
        return not any(game.has_discarded(seat) for seat in range(game.players))
    return not game.has_discarded(view.seat)


def prepare() -> None:
    """Read the tables and turn the two-sided start tables now, rather than in the
    first bar a server draws: reading them takes a few tenths of a second, and every
    caller would wait through it."""
    tables = load_win_tables()
    for players in (2, 4):
        prepare_start_table(tables.start[players])


def forget() -> None:
    """Drop the work kept between bars (the crib after the cut, trimmed distributions
    and their tails): the tests compare bars worked out afresh, the bench starts each
    pass as the first."""
    _crib_after_cut.cache_clear()
    _shown.cache_clear()
    _SHARED.clear()
    _rest_trimmed.cache_clear()
    _whole_play_trimmed.cache_clear()
    clear_kept()


compiled_parts.forget_on_switch(forget)  # the cribs kept are the twin's that made them


def chances_with(game: Game, stages: Sequence[Stage]) -> tuple[float, ...]:
    """Each side's chance when the rest of this deal is ``stages`` (by role)."""
    order = role_sides(game.players, game.dealer)
    scores = game.scores
    start = load_win_tables().start[game.players]
    if len(order) == 2:
        dealers, pones = order
        first = first_role_chance((scores[dealers], scores[pones]), stages, start)
        return (first, 1.0 - first) if dealers == 0 else (1.0 - first, first)
    by_role = [scores[side] for side in order]
    chances = chances_through(by_role, stages, start)
    result = [0.0] * game.sides
    for role, side in enumerate(order):
        result[side] = float(chances[role])
    total = sum(result)
    return tuple(chance / total for chance in result)


def seat_role(game: Game, seat: int) -> int:
    return (seat - game.dealer) % game.players


def side_role(game: Game, seat: int) -> int:
    return seat_role(game, seat) % game.sides


def pegging_stages(game: Game) -> list[Stage]:
    """The play still to come, as stages: all of it before the cut, the rest by the
    cards each side holds during it, none in the show."""
    tables = load_win_tables()
    if game.phase in (Phase.DISCARD, Phase.CUT):
        return tables.deal_stages(game.players)[: 1 if game.sides == 2 else 3]
    if game.phase is not Phase.PLAY:
        return []
    left = [0] * game.sides
    for seat in range(game.players):
        left[side_role(game, seat)] += len(game.hand(seat))
    return tables.rest_stages(game.players, tuple(left))


def hand_stages(game: Game, view: View) -> list[Stage]:
    """The rest of this deal as stages: the play to come, then each show not yet counted."""
    return pegging_stages(game) + show_stages(game, view)


def show_stages(game: Game, view: View) -> list[Stage]:
    """Each show not yet counted, as stages."""
    stages: list[Stage] = []
    done = len(game.shows) if game.phase is Phase.SHOW else 0
    for role, is_crib in _show_order(game.players)[done:]:
        seat = (game.dealer + role) % game.players
        dist = crib_distribution(game, view) if is_crib else hand_distribution(game, view, seat)
        stages.append(("add", role % game.sides, dist))
    return stages


_AFTER_THE_CUT: Final = frozenset((Phase.PLAY, Phase.SHOW))


def _seat_of_two_after_cut(
    game: Game, seat: int, thrown: Sequence[Card], kept: DealKept | None
) -> tuple[float, ...]:
    """``win_bar`` for a seat of two once the starter is cut (the play and the show),
    with what the rest of the deal brings looked up rather than worked out: it depends
    only on what the seat has seen of the other hand, so it stays the same while the
    seat itself plays, and every moment of a deal built it again (its view, each hand's
    and the crib's distribution, their trimmed forms and sum: most of a play's bar)."""
    thrown = _checked_throw(game, seat, thrown)
    starter = game.starter
    assert starter is not None
    dealer = game.dealer
    kept_bits = 0
    for card in game.kept(seat):
        kept_bits |= card.bit
    other = 0
    for play in game.plays:
        if play.seat != seat:
            other |= play.card.bit
    throw = 0  # the thrown cards in their order (the crib's lookup is by its order)
    seen = starter.bit | kept_bits | other
    for card in thrown:
        throw = throw << 6 | card.index + 1
        seen |= card.bit
    view = View(seat, thrown, seen)
    store = _SHARED if kept is None else kept.of_deal(game)
    first = _through_the_play(
        game, view, (seat == dealer, starter.index, kept_bits, other, throw), store
    )
    return (first, 1.0 - first) if dealer == 0 else (1.0 - first, first)


def _through_the_play(
    game: Game, view: View, key: tuple[bool, int, int, int, int], store: DealKept
) -> float:
    """The dealer's chance in the play or the show as a seat of two sees it, ``key``
    saying all that its view depends on: the chances once the play is over without the
    crib (``engine.odds.after_play``; in the show, without the hands counted) are kept by
    what the two hands' distributions depend on for the deal's later moments (worked
    out again when one needs scores they do not hold), and the crib by the whole key
    (the other's plays change it). Each is kept once for the seat's view of the deal,
    the newest: what they depend on only grows as the deal goes (the other's cards
    played, the hands counted), so an older one is never asked for again."""
    dealer = game.dealer
    deals, starter, kept, other, throw = key
    crib_known = store.cribs.get((deals, starter, kept, throw))
    if crib_known is not None and crib_known[0] == other:
        crib = crib_known[1]
    else:
        crib = crib_distribution(game, view)  # trimmed as it is read
        store.cribs.keep((deals, starter, kept, throw), (other, crib))
    counted = 0
    if game.phase is Phase.PLAY:
        table = _rest_trimmed((len(game.hand(dealer)), len(game.hand(1 - dealer))))[0][2]
    else:
        table, counted = _NOTHING_PEGGED, len(game.shows)
    first_score, second_score = game.scores[dealer], game.scores[1 - dealer]
    hands = (other if other.bit_count() == 4 else 0, counted)
    known = store.after_play.get((deals, starter, kept))
    if known is not None and known[0] == hands:
        chance = chance_through_crib(known[1], first_score, second_score, crib, table)
        if chance is not None:
            return chance
        pone, dealer_hand = known[2], known[3]
    else:  # a hand counted brings nothing more
        pone = (
            _NOTHING
            if counted > 0
            else trimmed_distribution(hand_distribution(game, view, 1 - dealer))
        )
        dealer_hand = (
            _NOTHING if counted > 1 else trimmed_distribution(hand_distribution(game, view, dealer))
        )
    rows, cols = table.shape
    after = after_play_values(
        first_role_table(load_win_tables().start[2]),
        first_score,
        second_score,
        rows + SHOW_POINTS - 1 + AFTER_PLAY_SLACK,
        cols + AFTER_PLAY_SLACK,
        pone,
        dealer_hand,
    )
    store.after_play.keep((deals, starter, kept), (hands, after, pone, dealer_hand))
    chance = chance_through_crib(after, first_score, second_score, crib, table)
    assert chance is not None  # the values were worked out from these scores
    return chance


def _seat_of_two_before_cut(game: Game, seat: int, thrown: Sequence[Card]) -> tuple[float, ...]:
    """``win_bar`` for a seat of two once both have thrown, before the cut: the other's
    hand is then the shipped average, whose part of the chances after the play is a
    table made once (``engine.odds.after_play.before_cut_values``), and the crib and the
    whole play go through them as a moment of the play does (the forward run took the
    whole deal from the next deal's table: a tenth of the bar's time at load, one bar a
    hand)."""
    view = view_of(game, seat, thrown)
    dealer = game.dealer
    own = trimmed_distribution(hand_distribution(game, view, seat))
    average = trimmed_distribution(hand_distribution(game, view, 1 - seat))
    table = _whole_play_trimmed()
    rows, cols = table.shape
    first_score, second_score = game.scores[dealer], game.scores[1 - dealer]
    after = before_cut_values(
        first_role_table(load_win_tables().start[2]),
        first_score,
        second_score,
        rows + SHOW_POINTS - 1,
        cols,
        own,
        average,
        seat == dealer,
    )
    chance = chance_through_crib(
        after, first_score, second_score, crib_distribution(game, view), table
    )
    assert chance is not None  # the values were worked out from these scores
    return (chance, 1.0 - chance) if dealer == 0 else (1.0 - chance, chance)


@cache
def _whole_play_trimmed() -> FloatArray:
    """Two sides' whole play, trimmed, as the forward run takes it before the cut."""
    return trimmed_stages(load_win_tables().deal_stages(2)[:1])[0][2]


_NOTHING_PEGGED: Final = read_only(np.ones((1, 1)))
"""The play over: no points more for either side."""
_NOTHING: Final = read_only(np.ones(1))
"""A hand counted: no points more for it."""

AFTER_PLAY_SLACK: Final = 4
"""Scores more than the play still to come may bring, each way, over which the chances
after the play are worked out: the deal's later moments, each side having pegged some
and holding fewer cards, then find them there."""

V = TypeVar("V")


class _Kept(dict[Hashable, V]):
    """Values kept by a key, the oldest quarter forgotten when full (a key kept again is
    the newest)."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def keep(self, key: Hashable, value: V) -> V:
        if self.pop(key, None) is None and len(self) >= self.most:
            for old in list(self)[: max(1, self.most // 4)]:
                del self[old]
        self[key] = value
        return value


class DealKept:
    """What a seat of two's bars keep for the deal's later moments (``_through_the_play``),
    the newest of each for each seat's view of the deal (whether the seat deals, the
    starter, its kept cards; the crib's, its throw too): ``cribs``, the crib once the
    starter is cut; ``after_play``, the chances once the play is over
    (``engine.odds.after_play``, about 6 kB each) with the pone's and the dealer's hands
    they were worked out from.

    A table's own (door/table/win_bars.py) holds its present deal only, forgotten when
    the next is dealt: kept in one store for every table, by every moment's key, a
    thousand tables' deals over and done took 26 MB at 1,200 callers (22 KiB a session,
    bench/load.py)."""

    __slots__ = ("_deal", "cribs", "after_play")

    def __init__(self, views: int = 8) -> None:
        self._deal: tuple[int, int] | None = None
        self.cribs = _Kept[tuple[int, FloatArray]](views)
        """By the seat's view of the deal: the other's cards played (bits), the crib."""
        self.after_play = _Kept[tuple[tuple[int, int], AfterPlay, FloatArray, FloatArray]](views)
        """By the seat's view of the deal: the other's hand if seen whole (bits) and the
        hands counted, the chances, the pone's and the dealer's hands."""

    def of_deal(self, game: Game) -> DealKept:
        """This store, emptied if ``game`` has moved to another deal since it was used
        (the keys say all the values depend on: emptying saves memory, nothing else)."""
        deal = (id(game), game.hand_number)
        if deal != self._deal:
            self._deal = deal
            self.clear()
        return self

    def clear(self) -> None:
        self.cribs.clear()
        self.after_play.clear()


_SHARED: Final = DealKept(views=4096)
"""For callers of ``win_bar`` without a store of their own (benches, scripts): a table
asks again a second or two later (its seat's next play), when a thousand other tables
have put in a few each."""


@cache
def _rest_trimmed(left: tuple[int, int]) -> tuple[Stage, ...]:
    """Two sides' play still to come, trimmed, when they hold ``left`` cards (by role)."""
    return tuple(trimmed_stages(load_win_tables().rest_stages(2, left)))


@cache
def _show_order(players: int) -> tuple[tuple[int, bool], ...]:
    """The shows by role in counting order, the crib (True) last."""
    return (*((role, False) for role in (*range(1, players), 0)), (0, True))


@cache
def _point(points: int) -> FloatArray:
    """Exactly ``points`` (one shared, read-only array per number of points)."""
    dist = np.zeros(SHOW_POINTS)
    dist[points] = 1.0
    return read_only(dist)


@lru_cache(maxsize=4096)
def _shown(cards: tuple[Card, ...], starter: Card, crib: bool) -> FloatArray:
    """Exactly what ``cards`` score with ``starter``: kept, as a hand known and its
    starter are asked for again at every moment of the play and the show that follows
    (score_show was a twentieth of a play's bar)."""
    return _point(score_show(cards, starter, crib=crib).total)


def hand_distribution(game: Game, view: View, seat: int) -> FloatArray:
    """What ``seat``'s hand may score, as ``view`` sees it."""
    tables = load_win_tables()
    kept = game.kept(seat)
    if view.seat is None or view.seat == seat:
        known = list(kept)
    else:
        known = [play.card for play in game.plays if play.seat == seat]
    starter = game.starter
    if len(known) == 4 and kept:
        if starter is not None:
            return _shown(tuple(known), starter, False)
        return hand_over_starters(known, view.seen_bits, crib=False)
    # Part of a hand seen is not enough to go on: completing it with random unseen cards
    # underrates a hand its owner chose to keep (the calibration bench showed the seat's
    # own chances two points too high that way), so until all four are seen it is the
    # measured average for the seat's place at the table. Reading it as the master does
    # (drawn through the expert's discard, with the cards laid, the goes and the first
    # cards read) foretells the hand better but moved the bar too little for its price:
    # bench/winbar_reads.py.
    average: FloatArray = tables.hand_average(game.players, seat_role(game, seat))
    return average


@lru_cache(maxsize=4096)
def _crib_after_cut(role: str, thrown: tuple[Card, ...], starter: Card, seen: int) -> FloatArray:
    """The crib once the starter is cut, for the seat that threw ``thrown`` and has seen
    the cards whose bits ``seen`` holds (kept for the next moments: only the other
    side's plays change it, so half the bars of a deal ask for one worked out already).
    A table asks again a second or two later, when a thousand other tables have each
    put one in: four thousand kept (about 870 bytes each, 3.5 MB) still hold its own."""
    weight = load_tables().throw_weight[role]
    return read_only(crib_given_seen(thrown, starter, seen, weight))


def crib_distribution(game: Game, view: View) -> FloatArray:
    """What the crib may score, as ``view`` sees it."""
    tables = load_win_tables()
    crib = game.crib
    complete = game.phase not in (Phase.DISCARD,) and len(crib) == 4
    if view.seat is None and complete:
        if game.starter is not None:
            return _shown(crib, game.starter, True)
        return hand_over_starters(crib, view.seen_bits, crib=True)
    if game.players == 2 and len(view.thrown) == 2 and view.seat is not None and complete:
        role = "pone" if view.seat == game.dealer else "dealer"
        if game.starter is not None:
            return _crib_after_cut(role, view.thrown, game.starter, view.seen_bits)
        first, second = view.thrown
        return crib_before_cut((first, second), view.seen_bits, load_tables().throw_weight[role])
    average: FloatArray = tables.crib[game.players]
    return average
