"""Which card the computer lays on the count, at each level (see ``engine.computer.player``):
the expert's and the master's search over the cards the opponent may hold, for points or,
near the end, for the chance to win.

>>> from engine import parse_cards
>>> from engine.rules.cards import format_cards
>>> format_cards([choose_play(parse_cards("TD 5S 2C"), parse_cards("KH"))])
'5S'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Final, NamedTuple

import numpy as np

import compiled_parts
from engine.computer.discard_draws import FEWEST_ACCEPTED, hands_through_discard
from engine.computer.full_play import PlayScore, full_play_values
from engine.computer.levels import (
    ENDGAME_FROM,
    MASTER_DRAWS_THROUGH_DISCARD,
    MASTER_PLAY_FROM,
    MASTER_READS_FIRST_PLAY,
    MASTER_READS_SECOND_PLAY,
    MASTER_SAMPLED_FROM,
    check_level,
)
from engine.computer.opponent import DECLINED, POOL_UNITS, opponent_weights
from engine.computer.pegging import PegSearch, linear_utility, peg_points, unseen_ranks
from engine.computer.sampled_play import SAMPLES, drawn_by_weight
from engine.odds.crib import crib_given_starter
from engine.odds.hand_tables import FloatArray, load_tables
from engine.odds.position import GOAL, shipped_position
from engine.rules.cards import PIPS, Card
from engine.rules.checks import card_list, distinct_cards
from engine.rules.errors import IllegalActionError
from engine.rules.scoring import RUNS_RULES, score_peg, score_show

if TYPE_CHECKING:
    from engine.rules.game import Game


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
    sampled_from: int = MASTER_SAMPLED_FROM,
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
    check_level(level)
    if not isinstance(runs, str) or runs not in RUNS_RULES:
        raise IllegalActionError(f"runs must be 'free' or 'exact', not {runs!r}")
    hand = card_list(hand, "the hand")
    count_cards = card_list(count_cards, "the cards on the count")
    distinct_cards(hand, "the hand")
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
    chance = max(my_score, opp_score) >= endgame_from
    if level == "master":
        values = master_play_values(
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
            chances=(chance,),
            opp_played=opp_played,
            opp_declined=opp_declined,
            sampled_from=sampled_from,
        )[0].deciding
    else:
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
            chance=chance,
        )
    best_rank = _best_rank(values)
    return next(card for card in legal if int(card.rank) == best_rank)


def _best_rank(values: Mapping[int, float]) -> int:
    """The rank of highest value; equal values keep the higher card back (low cards play
    late in a count)."""
    return max(values, key=lambda rank: (round(values[rank], 9), -PIPS[rank], -rank))


@dataclass(frozen=True)
class MasterValues:
    """How the master weighs each rank that fits on the count at two players (see
    ``master_play_values``). ``values``: every fitting rank's value. ``tie_break``: where
    the full search cannot tell its best ranks apart, those ranks valued by the deep
    search, which chooses among them; empty otherwise."""

    values: dict[int, float]
    tie_break: dict[int, float]

    @property
    def deciding(self) -> dict[int, float]:
        """The values the master picks its card from: the tie's, else every rank's."""
        return self.tie_break or self.values

    @property
    def best_rank(self) -> int:
        """The rank the master lays."""
        return _best_rank(self.deciding)


def master_play_values(
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
    chances: Sequence[bool],
    opp_played: Sequence[Card] | None,
    opp_declined: Sequence[int],
    sampled_from: int = MASTER_SAMPLED_FROM,
    ties_told_for: Sequence[bool] | None = None,
) -> tuple[MasterValues, ...]:
    """The master's value of each rank in ``hand`` that fits on the count (the arguments
    as for ``choose_play``), one ``MasterValues`` for each of ``chances``: the chance to
    win (True) or points (False), as for ``play_values``. Once the two hands hold
    ``sampled_from`` cards or fewer (and ``opp_played`` is known), the full search over
    hands drawn through the expert's discard (``engine.computer.sampled_play``), drawn
    once for all of ``chances``, its tied best ranks told apart by the deep search;
    otherwise, or where no hand the opponent may hold fits what they did, the deep search
    (``play_values`` with ``deep``). ``ties_told_for`` (one for each of ``chances``; all by
    default): whose ties are told apart; a caller shown only the values leaves that search
    out (the coach's points: up to 35 ms in Python over six cards)."""

    def deep_search(chance: bool) -> dict[int, float]:
        return play_values(
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
            chance=chance,
            deep=True,
            opp_played=opp_played,
            opp_declined=opp_declined,
        )

    draws = None
    if opp_played is not None and sampled_from:
        draws = _full_search_draws(
            hand,
            count_cards,
            played=played,
            starter=starter,
            exact=runs == "exact",
            my_score=my_score,
            opp_score=opp_score,
            opp_cards_left=opp_cards_left,
            dealer=dealer,
            opp_said_go=opp_said_go,
            discards=discards,
            opp_min_pips=opp_min_pips,
            opp_played=opp_played,
            opp_declined=opp_declined,
            most_cards=sampled_from,
        )
    weighed = []
    told = [True] * len(chances) if ties_told_for is None else ties_told_for
    for chance, tell_ties in zip(chances, told, strict=True):
        full = None
        if draws is not None:
            score = _play_score(chance, my_score, opp_score, dealer, kept, starter, discards)
            full = draws.searched(score)
        if full is not None and not tell_ties:
            weighed.append(MasterValues(full, {}))
        else:
            weighed.append(_tie_broken(full, partial(deep_search, chance)))
    return tuple(weighed)


def _tie_broken(
    full: dict[int, float] | None, deep_search: Callable[[], dict[int, float]]
) -> MasterValues:
    """The full search's values (``full``), its best ranks that it cannot tell apart
    valued by the deep search; the deep search's where the full search gave none."""
    if full is None:
        return MasterValues(deep_search(), {})
    top = max(full.values())
    tied = [rank for rank, value in full.items() if value >= top - 1e-9]
    if len(tied) == 1:
        return MasterValues(full, {})
    deep = deep_search()
    return MasterValues(full, {rank: deep[rank] for rank in tied})


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
    unseen, opp_cards = _opponent_pool(
        hand, count_cards, played, discards, starter, opp_min_pips, opp_cards_left
    )
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
        weight = _opponent_weight(dealer, opp_played, opp_declined)
        unseen = _weigh_pool(search, unseen, weight)
    mine = tuple(sorted(int(card.rank) for card in hand))
    depth = _search_depth(mine, opp_cards, deep)
    return search.choose(mine, seq, unseen, opp_cards, opp_said_go, depth)


@dataclass(frozen=True)
class _FullSearchDraws:
    """What the master's full search runs over, the same whatever a line is scored by:
    our ranks (``mine``) and the count's (``seq``), the ``hands`` the opponent may hold,
    whether they said go, and the runs rule."""

    mine: list[int]
    seq: list[int]
    hands: list[tuple[int, ...]]
    opp_said_go: bool
    exact: bool

    def searched(self, score: PlayScore) -> dict[int, float]:
        """Each fitting rank's mean over the hands, a line scored by ``score``."""
        return full_play_values(
            self.mine,
            self.hands,
            self.seq,
            opp_said_go=self.opp_said_go,
            exact=self.exact,
            score=score,
        )


def _full_search_draws(
    hand: Sequence[Card],
    count_cards: Sequence[Card],
    *,
    played: Sequence[Card],
    starter: Card | None,
    exact: bool,
    my_score: int,
    opp_score: int,
    opp_cards_left: int,
    dealer: bool,
    opp_said_go: bool,
    discards: Sequence[Card],
    opp_min_pips: int,
    opp_played: Sequence[Card],
    opp_declined: Sequence[int],
    most_cards: int,
) -> _FullSearchDraws | None:
    """The hands the master's full search runs over (the arguments as for
    ``play_values``), drawn once whatever a line is scored by: through the expert's
    discard, or where too few come through, by the keep model's weights
    (``drawn_by_weight``). None when the two hands hold more than ``most_cards`` together
    or no hand the opponent may hold fits what they did."""
    pool, opp_cards = _opponent_pool(
        hand, count_cards, played, discards, starter, opp_min_pips, opp_cards_left
    )
    if len(hand) + opp_cards > most_cards:
        return None
    mine = [int(card.rank) for card in hand]
    seq = [int(card.rank) for card in count_cards]
    drawn: list[tuple[int, ...]] = []
    if MASTER_DRAWS_THROUGH_DISCARD and opp_cards:
        seen = {*hand, *played, *count_cards, *discards, *([starter] if starter else [])}
        drawn = _drawn_through_discard(
            mine,
            seq,
            seen,
            laid=[int(card.rank) for card in opp_played],
            role="pone" if dealer else "dealer",
            least_pips=opp_min_pips,
            said_go=opp_said_go,
            declined=opp_declined,
            holding=opp_cards_left,
            read=_plays_read(played, dealer, my_score, opp_score),
        )
    hands = drawn or drawn_by_weight(
        mine,
        seq,
        pool,
        _opponent_weight(dealer, opp_played, opp_declined),
        opp_cards,
        opp_said_go=opp_said_go,
    )
    if hands is None:
        return None
    return _FullSearchDraws(mine, seq, hands, opp_said_go, exact)


def _play_score(
    chance: bool,
    my_score: int,
    opp_score: int,
    dealer: bool,
    kept: Sequence[Card] | None,
    starter: Card | None,
    discards: Sequence[Card],
) -> PlayScore:
    """What the full search scores a line by: the chance to win from the board as it
    stands (``chance``), or the points."""
    if not chance:
        return PlayScore.points()
    my, theirs = min(my_score, GOAL - 1), min(opp_score, GOAL - 1)
    table = _chance_table(dealer, *_deal_known(kept, starter, discards))
    return PlayScore.chance(table, my, theirs)


class _PlaysRead(NamedTuple):
    """The opponent's first cards as the draws through the discard read them
    (``hands_through_discard``'s ``first_play`` and ``second_play``): None, not read."""

    first_play: tuple[int, int] | None = None
    second_play: tuple[int, int, int] | None = None


def _drawn_through_discard(
    mine: Sequence[int],
    seq: Sequence[int],
    seen: set[Card],
    *,
    laid: Sequence[int],
    role: str,
    least_pips: int,
    said_go: bool,
    declined: Sequence[int],
    holding: int,
    read: _PlaysRead,
) -> list[tuple[int, ...]]:
    """The hands the opponent may hold drawn through the expert's discard
    (``engine.computer.discard_draws``), seeded by the position: ``mine`` and ``seq`` our
    ranks and the count's, ``seen`` every card we have seen (ours, those laid, the
    starter), ``laid`` the ranks they have laid this hand, ``role`` theirs, ``least_pips``
    and ``said_go`` what their goes say, ``declined`` the ranks they passed up points with,
    ``holding`` how many cards they hold, ``read`` their first cards (``_plays_read``).
    Empty when fewer than ``FEWEST_ACCEPTED`` are accepted or the cards they laid and hold
    are not four: the caller draws as before."""
    if len(laid) + holding != 4:
        return []
    unseen = unseen_ranks([int(card.rank) for card in seen])
    if said_go:  # nothing they hold fits on this count
        least_pips = max(least_pips, 32 - sum(PIPS[rank] for rank in seq))
    laid, declined = sorted(laid), sorted(set(declined))
    seed: tuple[object, ...] = (
        sorted(mine),
        list(seq),
        unseen,
        laid,
        least_pips,
        declined,
        SAMPLES,
        read.first_play,
    )
    if read.second_play is not None:  # the seeds of positions without it stay as they were
        seed += (read.second_play,)
    rng = random.Random(repr(seed))
    hands = hands_through_discard(
        unseen,
        laid,
        role,
        least_pips=least_pips,
        declined=declined,
        samples=SAMPLES,
        rng=rng,
        first_play=read.first_play,
        second_play=read.second_play,
    )
    return hands if len(hands) >= FEWEST_ACCEPTED else []


def _plays_read(played: Sequence[Card], dealer: bool, my_score: int, opp_score: int) -> _PlaysRead:
    """The opponent's first cards (``opponents_first_play``, ``pones_second_play``), none
    where they are not read: the tables are the expert's play for points, which it plays
    until a side reaches ``ENDGAME_FROM``."""
    if max(my_score, opp_score) >= ENDGAME_FROM:
        return _PlaysRead()
    return _PlaysRead(
        opponents_first_play(played, dealer) if MASTER_READS_FIRST_PLAY else None,
        pones_second_play(played, dealer) if MASTER_READS_SECOND_PLAY else None,
    )


def opponents_first_play(played: Sequence[Card], dealer: bool) -> tuple[int, int] | None:
    """The opponent's first card this hand as ``hands_through_discard`` reads it: (the rank
    they answered, 0 for their lead; the rank they laid), from ``played`` (every card laid
    this hand, in order) and whether we deal. The dealer always answers the lead (a lead is
    at most ten, so any card fits on it): the second card laid is the dealer's. None before
    they have laid one."""
    if dealer:
        return (0, int(played[0].rank)) if played else None
    return (int(played[0].rank), int(played[1].rank)) if len(played) >= 2 else None


def pones_second_play(played: Sequence[Card], dealer: bool) -> tuple[int, int, int] | None:
    """The pone's second card this hand as ``hands_through_discard`` reads it: (their lead,
    our answer, the rank they laid on it), from ``played`` and whether we deal; None when
    they deal or before they have laid it. Two cards count at most twenty, so the third
    card laid is always the pone's."""
    if not dealer or len(played) < 3:
        return None
    lead, answer, laid = (int(card.rank) for card in played[:3])
    return lead, answer, laid


def _opponent_pool(
    hand: Sequence[Card],
    count_cards: Sequence[Card],
    played: Sequence[Card],
    discards: Sequence[Card],
    starter: Card | None,
    opp_min_pips: int,
    opp_cards_left: int,
) -> tuple[list[int], int]:
    """The cards the opponent's hand may come from, by rank, and how many they hold of
    them. The pool is the unseen cards less those their go ruled out."""
    seen = {*hand, *played, *count_cards, *discards}
    if starter is not None:
        seen.add(starter)
    unseen = unseen_ranks([int(card.rank) for card in seen])
    pool = [n if PIPS[rank] >= opp_min_pips else 0 for rank, n in enumerate(unseen)]
    return pool, max(0, min(opp_cards_left, sum(pool)))


def _opponent_weight(
    dealer: bool, opp_played: Sequence[Card], opp_declined: Sequence[int]
) -> list[float]:
    """How likely the opponent is to hold each rank (see ``opponent_weights``), the ranks
    they passed up weighed down to ``DECLINED``."""
    role = "pone" if dealer else "dealer"
    weight = list(opponent_weights(role, [int(card.rank) for card in opp_played]))
    for rank in set(opp_declined):
        weight[rank] *= DECLINED
    return weight


def _deal_known(
    kept: Sequence[Card] | None, starter: Card | None, discards: Sequence[Card]
) -> tuple[tuple[Card, ...] | None, Card | None, tuple[Card, ...] | None]:
    """What ``_chances_after_the_play`` is told of our deal: our four cards, the starter
    and our two crib cards once all are known, else nothing (the averages)."""
    if kept is None or len(kept) != 4 or starter is None:
        return None, None, None
    return tuple(kept), starter, tuple(discards) if len(discards) == 2 else None


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
    after = _chances_after_the_play(dealer, *_deal_known(kept, starter, discards))
    # The search stops any line at 121, so the indices stay on the board.
    mine_from = after[my_score:]

    def chance(mine: int, theirs: int) -> float:
        return mine_from[mine][opp_score + theirs]

    return PegSearch(exact, chance, my_score, opp_score, goal_mode=True)


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


@lru_cache(maxsize=8)
def _chance_table(
    dealer: bool,
    kept: tuple[Card, ...] | None,
    starter: Card | None,
    discards: tuple[Card, ...] | None,
) -> FloatArray:
    """``_chances_after_the_play`` as one array, for the full search in C."""
    return np.array(_chances_after_the_play(dealer, kept, starter, discards))


# The chances kept hold the crib of the twin that made them (engine.odds.crib).
compiled_parts.forget_on_switch(_chances_after_the_play.cache_clear)
compiled_parts.forget_on_switch(_chance_table.cache_clear)


MOST_ONE_CARD_PEGS: Final = 15
"""The most a card laid can peg: a double pair royal (12) that makes fifteen or 31 (2),
and one for last on 15 (a pair ends any run, and a run with fifteen is 7 + 2 at most)."""


def winning_play(game: Game, seat: int) -> Card | None:
    """A card whose play wins the game outright for ``seat``, if there is one.

    Counted are what the card pegs on the count (fifteen, thirty-one, pairs, runs) and,
    when it is the last card anyone holds, one for last: points the game awards the
    moment the card is laid, whatever anyone else holds.
    """
    need = GOAL - game.score_of(seat)
    if need > MOST_ONE_CARD_PEGS:
        return None  # most of a game: no card can win it, and none need be scored
    cards_left = sum(len(game.hand(other)) for other in range(game.players))
    for card in game.playable(seat):
        count = [*game.count_cards, card]
        points = score_peg(count, game.runs)
        if cards_left == 1 and sum(c.pips for c in count) != 31:
            points += 1
        if points >= need:
            return card
    return None
