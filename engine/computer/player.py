"""The computer player: what to throw to the crib and which card to play.

Three levels:

``easy``
    Legal and simple: a random discard and a random card that fits.
``normal``
    Keeps the four cards with the best expected show (over every starter),
    paying no attention to the crib beyond breaking ties; plays the card that
    pegs most now.
``expert``
    Discards by the exact expected value of the kept hand plus (own crib) or
    minus (the opponent's) the exact expected crib, the opponent's crib cards
    weighted by how often players really throw them; pegs by an expectimax
    search over the cards the opponent may hold. Near 121 both choices
    maximise the chance to win instead of expected points.

``master``
    The expert's search and tables, playing to win the game rather than for points:
    with two players every discard is valued by the chance to win it gives (the hand's
    and the crib's distributions run through the board position, plus what the kept
    cards are measured to peg), and the play is searched for the chance to win from
    the middle of the game on, the last six cards to the end. With three or four
    players it discards as the expert.

Both choices are pure functions of their arguments and the ``rng`` given;
``ComputerPlayer`` adapts them to ``engine.computer.selfplay.Player`` for a ``Game``.

>>> from engine import parse_cards
>>> from engine.rules.cards import format_cards
>>> format_cards(choose_discard(parse_cards("5H 5D JC QS 2H 9C"), dealer=True))
'2H 9C'
>>> format_cards([choose_play(parse_cards("TD 5S 2C"), parse_cards("KH"))])
'5S'
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from engine.compiled import compiled_part
from engine.computer.pegging import PIPS, PegSearch, linear_utility, peg_points, unseen_ranks
from engine.odds.hand_tables import (
    RANK_TABLE,
    RANKS,
    AiTables,
    DealDistributions,
    FloatArray,
    load_tables,
)
from engine.odds.hand_values import (
    Unseen,
    crib_distributions_pair,
    crib_values_pair,
    crib_values_single,
    hand_distributions,
    hand_values,
    splits,
)
from engine.odds.position import GOAL, Position, shipped_position
from engine.odds.tables import load_win_tables
from engine.rules.cards import FULL_DECK, Card, Rank
from engine.rules.checks import card_list, is_whole_number
from engine.rules.errors import IllegalActionError
from engine.rules.scoring import RUNS_RULES, score_peg, score_show

if TYPE_CHECKING:
    from engine.rules.game import Game

LEVELS: Final = ("easy", "normal", "expert", "master")
# From this score on (either side) choices weigh the chance to win, not points.
ENDGAME_FROM: Final = 81
# The master weighs the chance to win in the play from this score on (either side).
MASTER_PLAY_FROM: Final = 61
# Weight units to an average card in the master's weighted pool (see PegSearch.units).
POOL_UNITS: Final = 16
# How likely the opponent is to hold a rank that would have pegged more than the card
# they played, against any other: the expert holds such a card 40 to 80 times less
# often (bench/keep_weights.py --declined); the least weight the pool gives a card (a
# unit in POOL_UNITS) stands for it, leaving room for a player who misses points.
DECLINED: Final = 1 / POOL_UNITS
# An opponent's crib costs less with three players: it feeds one of two rivals.
_OPPONENT_CRIB_SHARE: Final = {2: 1.0, 3: 0.5, 4: 1.0}


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise IllegalActionError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")


def _distinct(cards: Sequence[Card], what: str) -> None:
    if len(set(cards)) != len(cards):
        raise IllegalActionError(f"{what} holds a card twice")


# --- the discard --------------------------------------------------------------


def choose_discard(
    hand: Sequence[Card],
    *,
    dealer: bool,
    players: int = 2,
    level: str = "expert",
    my_score: int = 0,
    opp_score: int = 0,
    rng: random.Random | None = None,
    crib_is_ours: bool | None = None,
) -> tuple[Card, ...]:
    """The cards to throw to the crib: two of six with two players, one of five otherwise.

    ``dealer`` says whether the crib is ours; with four players a partner's
    crib is ours too, which ``crib_is_ours`` can say instead. The cards come
    back in the order they are held. Raises IllegalActionError for a hand of
    the wrong size or with a repeated card, an unknown level or player count.
    """
    _check_level(level)
    if not is_whole_number(players) or players not in (2, 3, 4):
        raise IllegalActionError("cribbage is for 2, 3 or 4 players")
    hand = card_list(hand, "the hand")
    size = 6 if players == 2 else 5
    if len(hand) != size:
        raise IllegalActionError(f"with {players} players a hand to discard from has {size} cards")
    _distinct(hand, "the hand")
    ours = dealer if crib_is_ours is None else crib_is_ours
    throw = 2 if players == 2 else 1
    if level == "easy":
        picked = set((rng or random.Random()).sample(list(hand), throw))
        return tuple(card for card in hand if card in picked)
    options = splits(hand, throw)
    unseen = Unseen.excluding(hand)
    keeps = [kept for kept, _ in options]
    values = hand_values(keeps, unseen)
    if level == "normal":
        # Ties (common with court cards) go to the throw that suits the crib's owner.
        crude = np.array([_crude_crib(thrown) for _, thrown in options])
        best = int(np.argmax(values + 1e-3 * (crude if ours else -crude)))
        return options[best][1]
    if level == "master" and players == 2:
        return options[_master_discard(options, unseen, values, ours, my_score, opp_score)][1]
    return options[_expert_discard(options, unseen, values, ours, players, my_score, opp_score)][1]


def _crude_crib(thrown: Sequence[Card]) -> float:
    """Points the thrown cards make together, with a point for each five."""
    points = sum(1.0 for card in thrown if card.pips == 5)
    for a, b in itertools.combinations(thrown, 2):
        points += 2 * (a.rank == b.rank) + 2 * (a.pips + b.pips == 15)
    return points


def _expert_discard(
    options: Sequence[tuple[tuple[Card, ...], tuple[Card, ...]]],
    unseen: Unseen,
    hand_ev: FloatArray,
    ours: bool,
    players: int,
    my_score: int,
    opp_score: int,
    tables: AiTables | None = None,
    position: Position | None = None,
) -> int:
    """Index of the best option for the expert (see ``choose_discard``)."""
    tables = tables or load_tables()
    throws = [thrown for _, thrown in options]
    if players == 2:
        weight = tables.throw_weight["pone" if ours else "dealer"]
        crib_ev = crib_values_pair(throws, unseen, weight)
        sign = 1.0 if ours else -1.0
    else:
        crib_ev = crib_values_single([thrown[0] for thrown in throws], unseen)
        sign = 1.0 if ours else -_OPPONENT_CRIB_SHARE[players]
    values = hand_ev + sign * crib_ev
    if players == 2 and max(my_score, opp_score) >= ENDGAME_FROM:
        position = position or shipped_position()
        chances = _discard_chances(
            options, unseen, weight, ours, my_score, opp_score, tables, position
        )
        # Points only break ties between equal chances (a sure win or loss).
        values = chances + 1e-7 * values
    return int(np.argmax(values))


def _master_discard(
    options: Sequence[tuple[tuple[Card, ...], tuple[Card, ...]]],
    unseen: Unseen,
    hand_ev: FloatArray,
    ours: bool,
    my_score: int,
    opp_score: int,
) -> int:
    """Index of the option with the best chance to win (see ``discard_values``)."""
    chances, points = discard_values(options, unseen, hand_ev, ours, my_score, opp_score)
    return int(np.argmax(chances + 1e-7 * points))


def discard_values(
    options: Sequence[tuple[tuple[Card, ...], tuple[Card, ...]]],
    unseen: Unseen,
    hand_ev: FloatArray,
    ours: bool,
    my_score: int,
    opp_score: int,
) -> tuple[FloatArray, FloatArray]:
    """For each two-player (kept, thrown) option: the chance to win and the expected
    points (hand, plus or minus the crib, plus what the kept cards peg above the
    other player). The chance runs the hand's and the crib's distributions through the
    board position; the kept cards' pegging moves it by the value of a point there."""
    tables = load_tables()
    weight = tables.throw_weight["pone" if ours else "dealer"]
    crib_ev = crib_values_pair([thrown for _, thrown in options], unseen, weight)
    win_tables = load_win_tables()
    peg = np.array(
        [
            win_tables.keep_pegging(tuple(sorted(int(card.rank) for card in kept)), ours)
            for kept, _ in options
        ]
    )
    points = hand_ev + (1.0 if ours else -1.0) * crib_ev + peg
    position = master_position()
    my_score, opp_score = min(my_score, GOAL - 1), min(opp_score, GOAL - 1)
    chances = _discard_chances(options, unseen, weight, ours, my_score, opp_score, tables, position)
    up = position.win_chance(min(my_score + 1, GOAL), opp_score, ours)
    down = position.win_chance(max(my_score - 1, 0), opp_score, ours)
    point_value = (up - down) / (2 if my_score else 1)
    return chances + point_value * (peg - peg.mean()), points


@cache
def master_position() -> Position:
    """The board position from the win-probability tables' two-player distributions."""
    win_tables = load_win_tables()
    model = win_tables.models[2]
    hands = win_tables.hands[2]
    return Position(DealDistributions(model.pegging, hands[1], hands[0], win_tables.crib[2]))


def _discard_chances(
    options: Sequence[tuple[tuple[Card, ...], tuple[Card, ...]]],
    unseen: Unseen,
    weight: FloatArray,
    ours: bool,
    my_score: int,
    opp_score: int,
    tables: AiTables,
    position: Position,
) -> FloatArray:
    hands = hand_distributions([kept for kept, _ in options], unseen)
    cribs = crib_distributions_pair([thrown for _, thrown in options], unseen, weight)
    dist = tables.distributions
    chances = np.zeros(len(options))
    for row in range(len(options)):
        if ours:
            my_show = np.convolve(hands[row], cribs[row])
            opp_show = dist.pone_hand
        else:
            my_show = hands[row]
            opp_show = np.convolve(dist.dealer_hand, cribs[row])
        chances[row] = position.deal_chance(my_score, opp_score, ours, my_show, opp_show)
    return chances


# --- the play -----------------------------------------------------------------


def choose_play(
    hand: Sequence[Card],
    count_cards: Sequence[Card],
    *,
    played: Sequence[Card] = (),
    starter: Card | None = None,
    runs: str = "free",
    level: str = "expert",
    my_score: int = 0,
    opp_score: int = 0,
    opp_cards_left: int = 4,
    dealer: bool = False,
    rng: random.Random | None = None,
    opp_said_go: bool = False,
    discards: Sequence[Card] = (),
    kept: Sequence[Card] | None = None,
    opp_min_pips: int = 1,
    opp_played: Sequence[Card] | None = None,
    opp_declined: Sequence[int] = (),
) -> Card | None:
    """The card to lay on the count, or None when no card fits (a go).

    ``hand`` is our unplayed cards, ``count_cards`` the current count in play
    order, ``played`` every card laid this hand; ``discards`` (our crib cards)
    and ``kept`` (our four cards for the show) sharpen the expert's view of
    what is unseen and of the end of the game. ``opp_said_go`` says the
    opponent has already passed on this count; ``opp_min_pips`` that every
    card they still hold has at least that many pips (they said go on an
    earlier count at 31 minus one less). ``opp_played``, the cards the (one) opponent
    has laid this hand, lets the master weigh the cards they may still hold by what
    players keep (``opponent_weights``); None leaves every unseen card as likely.
    ``opp_declined`` lists ranks that would have pegged more than a card they laid this
    hand (see ``declined_ranks``): the master takes them as most likely not held.
    Raises IllegalActionError for an unknown level or runs rule, a count past 31, or a
    repeated card.
    """
    _check_level(level)
    if not isinstance(runs, str) or runs not in RUNS_RULES:
        raise IllegalActionError(f"runs must be 'free' or 'exact', not {runs!r}")
    hand = card_list(hand, "the hand")
    count_cards = card_list(count_cards, "the cards on the count")
    _distinct(hand, "the hand")
    count = sum(card.pips for card in count_cards)
    if count > 31:
        raise IllegalActionError(f"the count cannot pass 31 (these cards make {count})")
    legal = [card for card in hand if card.pips + count <= 31]
    if not legal:
        return None
    if level == "easy":
        return (rng or random.Random()).choice(legal)
    exact = runs == "exact"
    seq = tuple(int(card.rank) for card in count_cards)
    if level == "normal":
        # Most points now; among equals keep the low cards for later counts.
        return max(
            legal,
            key=lambda card: (peg_points(seq + (int(card.rank),), count + card.pips, exact), card),
        )
    endgame_from = MASTER_PLAY_FROM if level == "master" else ENDGAME_FROM
    values = play_values(
        hand,
        count_cards,
        played=played,
        starter=starter,
        runs=runs,
        my_score=my_score,
        opp_score=opp_score,
        opp_cards_left=opp_cards_left,
        dealer=dealer,
        opp_said_go=opp_said_go,
        discards=discards,
        kept=kept,
        opp_min_pips=opp_min_pips,
        chance=max(my_score, opp_score) >= endgame_from,
        deep=level == "master",
        opp_played=opp_played if level == "master" else None,
        opp_declined=opp_declined,
    )
    # Equal values: keep the higher card back (low cards play late in a count).
    best_rank = max(values, key=lambda rank: (round(values[rank], 9), -PIPS[rank], -rank))
    return next(card for card in legal if int(card.rank) == best_rank)


def play_values(
    hand: Sequence[Card],
    count_cards: Sequence[Card],
    *,
    played: Sequence[Card],
    starter: Card | None,
    runs: str,
    my_score: int,
    opp_score: int,
    opp_cards_left: int,
    dealer: bool,
    opp_said_go: bool,
    discards: Sequence[Card],
    kept: Sequence[Card] | None,
    opp_min_pips: int,
    chance: bool,
    deep: bool = False,
    opp_played: Sequence[Card] | None = None,
    opp_declined: Sequence[int] = (),
) -> dict[int, float]:
    """The expert's search value of each rank in ``hand`` that fits on the count (the
    arguments as for ``choose_play``): with ``chance`` the chance to win, otherwise the
    points we peg less those the opponent pegs over the next few cards. ``deep`` searches
    the last six cards to the end (the master's depth); ``opp_played`` (see
    ``choose_play``) and ``opp_declined`` weigh the opponent's possible cards."""
    seq = tuple(int(card.rank) for card in count_cards)
    seen = {*hand, *played, *count_cards, *discards}
    if starter is not None:
        seen.add(starter)
    unseen = unseen_ranks([int(card.rank) for card in seen])
    # The search uses the unseen cards only as the pool the opponent's hand
    # comes from, so what their go ruled out leaves the pool.
    unseen = [n if PIPS[rank] >= opp_min_pips else 0 for rank, n in enumerate(unseen)]
    opp_cards = max(0, min(opp_cards_left, sum(unseen)))
    search = _pegging_search(
        runs == "exact",
        my_score,
        opp_score,
        dealer,
        kept,
        starter,
        discards,
        0 if chance else GOAL + 1,
    )
    if opp_played is not None and opp_cards:
        role = "pone" if dealer else "dealer"
        ranks = [int(card.rank) for card in opp_played]
        weight = list(opponent_weights(role, ranks))
        for rank in set(opp_declined):
            weight[rank] *= DECLINED
        unseen = _weigh_pool(search, unseen, weight)
    mine = tuple(sorted(int(card.rank) for card in hand))
    depth = _search_depth(mine, opp_cards, deep)
    return search.choose(mine, seq, unseen, opp_cards, opp_said_go, depth)


@cache
def _keep_weights() -> dict[str, tuple[FloatArray, FloatArray]]:
    """engine/data/keep_weights.json (written by bench/keep_weights.py), by role."""
    text = resources.files("engine").joinpath("data/keep_weights.json").read_text("utf-8")
    data = json.loads(text)
    return {
        role: (np.array(data["keep"][role]), np.array(data["together"][role]))
        for role in ("dealer", "pone")
    }


@lru_cache(maxsize=1024)
def _opponent_weights(role: str, played: tuple[int, ...]) -> tuple[float, ...]:
    keep, together = _keep_weights()[role]
    weight = keep.copy()
    for rank in played:
        weight *= together[rank - 1]
    return (0.0, *weight.tolist())


def opponent_weights(role: str, played: Sequence[int]) -> tuple[float, ...]:
    """How likely a card of each rank (index 1..13) is to be in the hand of a ``role``
    ("dealer" or "pone") player who has played ``played`` (ranks), against an unseen
    card at random: how often players keep that rank, times how often they keep it
    beside each card played (measured from the expert's discards)."""
    return _opponent_weights(role, tuple(sorted(played)))


def _weigh_pool(search: PegSearch, unseen: list[int], weight: Sequence[float]) -> list[int]:
    """``unseen`` (cards by rank) in weight units: a card of rank r counts ``weight[r]``
    times an average one, scaled so that the average card is ``POOL_UNITS`` units."""
    cards = sum(unseen)
    mass = sum(n * weight[rank] for rank, n in enumerate(unseen))
    scale = POOL_UNITS * cards / mass
    units = (0, *(max(1, round(w * scale)) for w in weight[1:]))
    search.units = units
    search.card_units = POOL_UNITS
    return [n * units[rank] for rank, n in enumerate(unseen)]


def _search_depth(mine: tuple[int, ...], opp_cards: int, deep: bool = False) -> int:
    """Plies to look ahead: four (us, them, us, them), six for the last three cards
    (the last six, searched to the end, when ``deep``)."""
    return 6 if len(mine) + opp_cards <= (6 if deep else 3) else 4


def _pegging_search(
    exact: bool,
    my_score: int,
    opp_score: int,
    dealer: bool,
    kept: Sequence[Card] | None,
    starter: Card | None,
    discards: Sequence[Card],
    endgame_from: int = ENDGAME_FROM,
) -> PegSearch:
    if max(my_score, opp_score) < endgame_from:
        return PegSearch(exact, linear_utility)
    my_score, opp_score = min(my_score, GOAL - 1), min(opp_score, GOAL - 1)
    known = kept is not None and len(kept) == 4 and starter is not None
    after = _chances_after_the_play(
        dealer,
        tuple(kept) if known and kept is not None else None,
        starter if known else None,
        tuple(discards) if known and len(discards) == 2 else None,
    )
    # The search stops any line at 121, so the indices stay on the board.
    mine_from = after[my_score:]

    def chance(mine: int, theirs: int) -> float:
        return mine_from[mine][opp_score + theirs]

    return PegSearch(exact, chance, my_score, opp_score, goal_mode=True)


@cache
def _deck_pairs() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Every pair of the deck's cards, the lower index first, in row order: the two
    cards' indices, and for a starter of each suit the pair's ranks as one index into a
    13 x 13 table, plus 169 if one of the two is the jack of that suit (nob)."""
    first, second = np.triu_indices(len(FULL_DECK), 1)
    ranks = (first // 4) * RANKS + second // 4
    jacks = [(Rank.JACK - 1) * 4 + suit for suit in range(4)]
    nob = np.stack([(first == jack) | (second == jack) for jack in jacks])
    return first, second, ranks + RANKS * RANKS * nob


def _crib_given_starter(
    discards: tuple[Card, ...], starter: Card, kept: tuple[Card, ...], weight: FloatArray
) -> FloatArray:
    """Our crib's distribution once the starter is known, over the pone's two
    cards, weighted by how often a pone throws them.

    The pairs of unseen cards are taken from the deck's pairs (``_deck_pairs``) whose
    cards are both unseen, in the order pairs of the unseen cards alone would come in:
    each pair has the same points and weight, and each bin sums them in the same order,
    as in a count over the unseen cards' pairs themselves (the tests compare the two)."""
    first, second, codes = _deck_pairs()
    unseen = np.ones(len(FULL_DECK), dtype=bool)
    unseen[[card.index for card in (*discards, *kept, starter)]] = False
    pair = unseen[first] & unseen[second]
    suit = starter.index % 4
    code = codes[suit][pair]
    d1, d2 = discards
    # Points by code: RANK_TABLE[d1, d2, x, y, starter], one more for nob.
    by_ranks = RANK_TABLE[d1.index // 4, d2.index // 4, :, :, starter.index // 4].ravel()
    points = np.concatenate([by_ranks, by_ranks + 1], dtype=np.intp)[code]
    nob = (Rank.JACK - 1) * 4 + suit  # the index of the jack of the starter's suit
    if nob in (d1.index, d2.index):
        points += 1
    if d1.suit is starter.suit and d2.suit is starter.suit:
        points += 5 * ((first[pair] % 4 == suit) & (second[pair] % 4 == suit))
    flat = weight.ravel()
    crib = np.bincount(points, weights=np.concatenate([flat, flat])[code], minlength=30)[:30]
    result: FloatArray = crib / crib.sum()
    return result


def _crib_given_starter_in_c(
    discards: tuple[Card, ...], starter: Card, kept: tuple[Card, ...], weight: FloatArray
) -> FloatArray:
    """``_crib_given_starter`` in C (engine/_crib.c): one loop over the unseen pairs, in
    the same order, each bin the same sum."""
    assert _CRIB_IN_C is not None
    first, second = discards
    seen = starter.bit
    for card in (*discards, *kept):
        seen |= card.bit
    crib = np.zeros(30)
    _CRIB_IN_C.crib_counts(RANK_TABLE, weight, first.index, second.index, starter.index, seen, crib)
    result: FloatArray = crib / crib.sum()
    return result


_CRIB_IN_C = compiled_part("engine._crib")
crib_given_starter = _crib_given_starter if _CRIB_IN_C is None else _crib_given_starter_in_c
CRIBS_IN_C: Final = _CRIB_IN_C is not None
"""Whether engine/_crib.c was built: the crib once the starter is cut, in C."""


@lru_cache(maxsize=8)
def _chances_after_the_play(
    dealer: bool,
    kept: tuple[Card, ...] | None,
    starter: Card | None,
    discards: tuple[Card, ...] | None,
) -> tuple[tuple[float, ...], ...]:
    """Our chance to win once the play ends, by [our score][their score].

    The same for every play of a deal, so it is worked out once. Tuples, not
    an array: the search reads it thousands of times.
    """
    tables = load_tables()
    dist = tables.distributions
    if kept is None or starter is None:
        my_show = dist.dealer_hand if dealer else dist.pone_hand
    else:
        my_show = np.zeros(30)
        my_show[score_show(kept, starter).total] = 1.0
    if dealer:
        if kept is None or starter is None or discards is None:
            crib = dist.crib
        else:
            crib = crib_given_starter(discards, starter, kept, tables.throw_weight["pone"])
        my_show = np.convolve(my_show, crib)
        opp_show = dist.pone_hand
    else:
        opp_show = np.convolve(dist.dealer_hand, dist.crib)
    after = shipped_position().after_pegging(dealer, my_show, opp_show)
    return tuple(tuple(row) for row in after.tolist())


# --- a seat at a Game ---------------------------------------------------------


class ComputerPlayer:
    """A computer seat for ``engine.rules.game.Game``
    (the ``engine.computer.selfplay.Player`` protocol).

    It sees only what its seat may see: its own cards, the cards played, the
    starter, the scores and how many cards each player holds.
    """

    def __init__(self, level: str = "expert", rng: random.Random | None = None) -> None:
        _check_level(level)
        self.level = level
        self.rng = rng if rng is not None else random.Random()
        self._thrown: dict[tuple[int, int, int], tuple[Card, ...]] = {}

    def __repr__(self) -> str:
        return f"ComputerPlayer({self.level!r})"

    def _scores(self, game: Game, seat: int) -> tuple[int, int]:
        mine = game.score_of(seat)
        theirs = max(score for side, score in enumerate(game.scores) if side != game.side_of(seat))
        return mine, theirs

    def discard(self, game: Game, seat: int) -> Sequence[Card]:
        my_score, opp_score = self._scores(game, seat)
        thrown = choose_discard(
            game.hand(seat),
            dealer=game.dealer == seat,
            players=game.players,
            level=self.level,
            my_score=my_score,
            opp_score=opp_score,
            rng=self.rng,
            crib_is_ours=game.side_of(game.dealer) == game.side_of(seat),
        )
        self._thrown = {(id(game), game.hand_number, seat): thrown}
        return thrown

    def cut(self, game: Game, seat: int) -> int:
        return self.rng.randint(1, game.stock_size)

    def play(self, game: Game, seat: int) -> Card:
        winning = winning_play(game, seat)
        if winning is not None:
            return winning  # a certain win beats any plan for points, at every level
        my_score, opp_score = self._scores(game, seat)
        current = game.plays[-len(game.count_cards) :] if game.count_cards else []
        # We are to play again on a count we played last: everyone else has said go.
        opp_said_go = bool(current) and current[-1].seat == seat
        card = choose_play(
            game.hand(seat),
            game.count_cards,
            played=[play.card for play in game.plays],
            starter=game.starter,
            runs=game.runs,
            level=self.level,
            my_score=my_score,
            opp_score=opp_score,
            opp_cards_left=len(game.hand(game.seat_after(seat))),
            dealer=game.side_of(game.dealer) == game.side_of(seat),
            rng=self.rng,
            opp_said_go=opp_said_go,
            discards=self._thrown.get((id(game), game.hand_number, seat), ()),
            kept=game.kept(seat) or None,
            opp_min_pips=_least_pips_left(game, seat) if game.players == 2 else 1,
            opp_played=[play.card for play in game.plays if play.seat != seat]
            if game.players == 2
            else None,
            opp_declined=declined_ranks(game, seat)
            if game.players == 2 and self.level == "master"
            else (),
        )
        if card is None:  # the game only asks a seat that can play
            raise IllegalActionError("no card of this hand fits on the count")
        return card

    def claim(self, game: Game, seat: int) -> int:
        """The true count of the hand being shown: the computer never miscounts."""
        showing = game.showing
        if showing is None or game.starter is None:
            raise IllegalActionError("there is no hand to count now")
        shown_seat, is_crib = showing
        cards = game.crib if is_crib else game.kept(shown_seat)
        return score_show(cards, game.starter, crib=is_crib).total


def winning_play(game: Game, seat: int) -> Card | None:
    """A card whose play wins the game outright for ``seat``, if there is one.

    Counted are what the card pegs on the count (fifteen, thirty-one, pairs, runs) and,
    when it is the last card anyone holds, one for last: points the game awards the
    moment the card is laid, whatever anyone else holds.
    """
    need = GOAL - game.score_of(seat)
    cards_left = sum(len(game.hand(other)) for other in range(game.players))
    for card in game.playable(seat):
        count = [*game.count_cards, card]
        points = score_peg(count, game.runs)
        if cards_left == 1 and sum(c.pips for c in count) != 31:
            points += 1
        if points >= need:
            return card
    return None


def declined_ranks(game: Game, seat: int) -> list[int]:
    """Ranks the other player(s) could have laid this hand for more points than the card
    they laid (a pair, fifteen, run or 31 passed up): a strong player holding one
    would have taken the points."""
    exact = game.runs == "exact"
    found: set[int] = set()
    seq: tuple[int, ...] = ()
    count = 0
    last_round = None
    for play in game.plays:
        if play.round != last_round:
            seq, count, last_round = (), 0, play.round
        rank = int(play.card.rank)
        if play.seat != seat:
            took = peg_points(seq + (rank,), count + play.card.pips, exact)
            for other in range(1, 14):
                fits = other not in found and count + PIPS[other] <= 31
                if fits and peg_points(seq + (other,), count + PIPS[other], exact) > took:
                    found.add(other)
        seq += (rank,)
        count += play.card.pips
    return sorted(found)


def _least_pips_left(game: Game, seat: int) -> int:
    """What the other player's goes this hand tell of the cards they still hold.

    Two players only. When we played twice running on a count, they had said
    go in between; when a count ended short of 31, neither player could add a
    card. Either way nothing they held fitted, so every card they still hold
    has more pips than was left to 31 then.
    """
    least = 1
    plays = game.plays
    count = 0
    for number, play in enumerate(plays):
        if number and plays[number - 1].round != play.round:
            count = 0
        count += play.card.pips
        later = plays[number + 1] if number + 1 < len(plays) else None
        if later is None:
            if play.seat == seat and game.count_cards and game.turn == seat:
                least = max(least, 32 - count)  # they have just said go on this count
        elif later.round != play.round:
            if count < 31:
                least = max(least, 32 - count)
        elif play.seat == seat and later.seat == seat:
            least = max(least, 32 - count)
    return least
