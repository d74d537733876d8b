"""The full search of a play at three or four over sampled hands
(engine/computer/table_full_play.py and its C twin engine/computer/_table_peg.c;
engine/computer/table_sampled.py): the C's sums are the Python's to the bit on random
positions, and both are a plain search over every line played through the rules engine
itself; the draws never deal a card seen or ruled out by a go; the master searches so at
the table as shipped, and a game replays from its seeds; malformed arguments are refused."""

from __future__ import annotations

import copy
import doctest
import random
from collections.abc import Iterator

import pytest

import compiled_parts
import engine.computer.table_full_play
import engine.computer.table_play
import engine.computer.table_sampled
from engine.computer import table_play
from engine.computer.levels import (
    MASTER_TABLE_SAMPLED_FROM,
    MASTER_TABLE_SAMPLED_FROM_IN_PYTHON,
)
from engine.computer.player import ComputerPlayer
from engine.computer.selfplay import next_action, play_game
from engine.computer.table_full_play import (
    FAR,
    TABLE_FULL_PLAY,
    TableScore,
    table_full_play_values,
)
from engine.computer.table_sampled import (
    SAMPLES,
    least_pips,
    said_go,
    sample_table_hands,
    table_draws,
)
from engine.rules.cards import PIPS
from engine.rules.errors import IllegalActionError
from engine.rules.events import Pegged
from engine.rules.game import Game, Phase
from tests.engine.computer.positions import deal_a_count

needs_c = pytest.mark.skipif(TABLE_FULL_PLAY.compiled is None, reason="_table_peg.c not built")


@pytest.fixture(params=["python", "c"])
def twin(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "c" and TABLE_FULL_PLAY.compiled is None:
        pytest.skip("engine/computer/_table_peg.c was not built")
    with compiled_parts.choose(request.param == "c"):
        yield request.param


def random_score(rng: random.Random, seats: int, near_the_end: bool) -> TableScore:
    """Sides as at a real table (three for three seats, partnerships at four), every worth
    different; ``near_the_end``: each side a few points from 121."""
    side_of = (0, 1, 2) if seats == 3 else (0, 1, 0, 1)
    sides = len(set(side_of))
    return TableScore(
        side_of,
        tuple(rng.random() for _ in range(sides)),
        tuple(tuple(rng.uniform(-0.02, 0.02) for _ in range(sides)) for _ in range(sides)),
        tuple(rng.randint(1, 10) if near_the_end else FAR for _ in range(sides)),
    )


def random_position(
    rng: random.Random, seats: int
) -> tuple[list[int], list[tuple[tuple[int, ...], ...]], list[int], int]:
    """Our hand (1-3), a count that fits, 1-3 samples of the other hands (0-3 cards a
    seat), and a seat or none out of the count."""
    seq, rest = deal_a_count(rng)
    mine = rest[: rng.randint(1, 3)]
    rest = rest[len(mine) :]
    held = [rng.randint(0, 3) for _ in range(seats - 1)]
    samples = []
    for _ in range(rng.randint(1, 3)):
        rng.shuffle(rest)
        dealt, start = [], 0
        for cards in held:
            dealt.append(tuple(rest[start : start + cards]))
            start += cards
        samples.append(tuple(dealt))
    out = 1 << rng.randint(1, seats - 1) if rng.random() < 0.25 else 0
    return mine, samples, seq, out


@needs_c
@pytest.mark.parametrize("seats", [3, 4])
def test_the_c_sums_are_the_pythons_to_the_bit(seats: int) -> None:
    """Both run rules, sides near 121 or not, a seat out of the count or none; the cut-offs
    at four change no card's value (the Python searching every line agrees too)."""
    rng = random.Random(51 + seats)
    assert TABLE_FULL_PLAY.compiled is not None
    differ = 0
    for trial in range(700):
        mine, samples, seq, out = random_position(rng, seats)
        score = random_score(rng, seats, trial % 3 == 0)
        args = (tuple(mine), tuple(samples), tuple(seq))
        exact = trial % 5 == 0
        python = TABLE_FULL_PLAY.python(*args, out, exact, score)
        every_line = TABLE_FULL_PLAY.python(*args, out, exact, score, cut=False)
        c = TABLE_FULL_PLAY.compiled(*args, out, exact, score)
        assert list(c) == list(python) and all(c[r] == python[r] for r in python), args
        assert every_line == python, args
        differ += len(set(python.values())) > 1
    assert differ > 150  # positions where the card chosen matters


def dealt_table(seed: int, players: int, laid: int) -> Game:
    """A real deal of ``players`` seats at the play, ``laid`` cards laid at random."""
    rng = random.Random(seed)
    game = Game(players, rng=random.Random(rng.getrandbits(64)), dealer=seed % players)
    game.deal()
    for seat in range(players):
        game.discard(seat, game.hand(seat)[: len(game.hand(seat)) - 4])
    game.cut(rng.randint(1, game.stock_size))
    for _ in range(laid):
        seat = game.turn
        assert seat is not None
        game.play(seat, rng.choice(game.playable(seat)))
    return game


def plain_search(game: Game, root: int, score: TableScore) -> dict[int, tuple[float, ...]]:
    """Every line played on copies of the game itself (its own rules for the go, 31 and
    the last card), each seat taking the card best for its side as the search's docstring
    says: the value of each rank ``root`` may lay now."""
    players = game.players
    sides = len(score.need)

    def side(seat: int) -> int:
        return score.side_of[(seat - root) % players]

    def value(points: list[int]) -> tuple[float, ...]:
        values = []
        for mine in range(sides):
            total = score.base[mine]
            for other in range(sides):
                total += score.worth[mine][other] * points[other]
            values.append(total)
        return tuple(values)

    def after(game: Game, seat: int, card: object, points: list[int]) -> tuple[float, ...]:
        game = copy.deepcopy(game)
        points = list(points)
        for event in game.play(seat, card):  # type: ignore[arg-type]
            if isinstance(event, Pegged):
                points[side(event.seat)] += event.points
        if game.phase is not Phase.PLAY:
            return value(points)
        mover = game.turn
        assert mover is not None
        best: tuple[float, ...] | None = None
        for option in distinct(game, mover):
            got = after(game, mover, option, points)
            mine = side(mover)
            if best is None:
                best = got
            elif mine == 0:
                best = got if got[0] > best[0] else best
            elif sides == 2:
                best = got if got[0] < best[0] else best
            elif got[mine] > best[mine] or (got[mine] == best[mine] and got[0] < best[0]):
                best = got
        assert best is not None
        return best

    start = [0] * sides
    return {int(card.rank): after(game, root, card, start) for card in distinct(game, root)}


def distinct(game: Game, seat: int) -> list[object]:
    """One card of each rank ``seat`` may lay, ranks upwards (as the search tries them)."""
    by_rank = {int(card.rank): card for card in game.playable(seat)}
    return [by_rank[rank] for rank in sorted(by_rank)]


@pytest.mark.parametrize("players", [3, 4])
def test_both_twins_are_a_plain_search_through_the_rules_engine(twin: str, players: int) -> None:
    """With the real hands as the one sample, each card's value is what every line played
    through the rules engine gives: go, 31, one for last, pairs, runs and fifteens as the
    game pegs them, the turn passing as the game passes it."""
    checked = 0
    for seed in range(30 if twin == "c" else 12):
        game = dealt_table(seed, players, laid=players * 4 - 7 + seed % 3)
        root = game.turn
        assert root is not None
        absolute = [(root + offset) % players for offset in range(players)]
        rng = random.Random(seed)
        score = random_score(rng, players, near_the_end=False)
        hands = [tuple(int(card.rank) for card in game.hand(other)) for other in absolute[1:]]
        current = game.plays[len(game.plays) - len(game.count_cards) :]
        out = said_go(game, root)
        got = table_full_play_values(
            [int(card.rank) for card in game.hand(root)],
            [tuple(hands)],
            [int(card.rank) for card in game.count_cards],
            out,
            exact=game.runs == "exact",
            score=score,
        )
        expected = plain_search(game, root, score)
        assert got == {rank: values[0] for rank, values in expected.items()}, (seed, current)
        checked += len(got) > 1
    assert checked >= 5


def test_reaching_121_wins_at_once(twin: str) -> None:
    """A side needing two wins on its fifteen, whatever its worths say; at four a partner's
    fifteen wins for us too."""
    three = TableScore((0, 1, 2), (0.3, 0.3, 0.3), ((0.0,) * 3,) * 3, (FAR, 2, FAR))
    values = table_full_play_values((5, 2), [((10,), (9,))], (), 0, exact=False, score=three)
    assert values[5] == 0.0  # seat 1 makes fifteen with its ten and wins
    four = TableScore((0, 1, 0, 1), (0.5, 0.5), ((0.0, 0.0),) * 2, (2, FAR))
    values = table_full_play_values((5,), [((), (10,), ())], (), 0, exact=False, score=four)
    assert values == {5: 1.0}


@pytest.mark.parametrize(
    ("mine", "hands", "seq", "message"),
    [
        ((0,), [((1,), (2,))], (), "ranks are"),
        ((14,), [((1,), (2,))], (), "ranks are"),
        ((5,), [], (), "samples are searched"),
        ((5,), [((1,), (2,)), ((1, 2), (3,))], (), "as many cards"),
        ((5,), [((1,),)], (), "as many cards"),
        ((5, 5, 5), [((5,), (5,))], (), "more than four"),
        ((5,), [((1,), (2,))], (10, 10, 10, 10), "cannot pass 31"),
        ((1,) * 7, [((2,), (3,))], (), "at most"),
    ],
)
def test_bad_positions_are_refused(
    twin: str,
    mine: tuple[int, ...],
    hands: list[tuple[tuple[int, ...], ...]],
    seq: tuple[int, ...],
    message: str,
) -> None:
    score = TableScore((0, 1, 2), (0.3,) * 3, ((0.01, -0.01, -0.01),) * 3, (FAR,) * 3)
    with pytest.raises(IllegalActionError, match=message):
        table_full_play_values(mine, hands, seq, 0, exact=False, score=score)


@pytest.mark.parametrize(
    ("side_of", "base", "worth", "need"),
    [
        ((0, 1), (0.5, 0.5), ((0.0, 0.0),) * 2, (1, 1)),  # two seats
        ((1, 0, 1, 0), (0.5, 0.5), ((0.0, 0.0),) * 2, (1, 1)),  # ours not first
        ((0, 1, 2), (0.5, 0.5), ((0.0, 0.0, 0.0),) * 3, (1, 1, 1)),  # a base short
        ((0, 1, 2), (0.5,) * 3, ((0.0, 0.0),) * 3, (1, 1, 1)),  # a worth short
        ((0, 1, 2), (0.5,) * 3, ((0.0,) * 3,) * 3, (0, 1, 1)),  # a side needing nothing
    ],
)
def test_a_table_the_search_does_not_cover_is_refused(
    side_of: tuple[int, ...],
    base: tuple[float, ...],
    worth: tuple[tuple[float, ...], ...],
    need: tuple[int, ...],
) -> None:
    with pytest.raises(IllegalActionError):
        TableScore(side_of, base, worth, need)


# search_sums's arguments in order, a call the C accepts (three seats, one card each).
GOOD_CALL: dict[str, object] = {
    "mine": b"\x05",
    "hands": b"\x01\x02",
    "held": b"\x01\x01",
    "samples": 1,
    "seq": b"",
    "out": 0,
    "exact": False,
    "side_of": b"\0\1\2",
    "base": (0.0,) * 3,
    "worth": (0.0,) * 9,
    "need": (9,) * 3,
}


@needs_c
def test_the_c_takes_the_good_call() -> None:
    peg = TABLE_FULL_PLAY.c_module
    assert peg is not None
    assert peg.search_sums(*GOOD_CALL.values())[5] == 0.0


@needs_c
@pytest.mark.parametrize(
    "bad",
    [
        {"hands": b"\x0e\x01"},  # a rank past 13
        {"hands": b"\x05\x05\x05\x05", "held": b"\x02\x02"},  # five fives in play
        {"hands": b"\x01\x02\x03"},  # not the hands held
        {"samples": 0},
        {"seq": b"\x0a" * 4},  # 40 on the count
        {"out": 1},  # ours out
        {"out": 8},  # a fourth seat's bit at three
        {"held": b"\x01", "hands": b"\x01", "side_of": b"\0\1"},  # two seats
        {"side_of": b"\1\0\1", "base": (0.0,) * 2, "worth": (0.0,) * 4},  # ours not 0
        {"base": (0.0,) * 2},  # a base short
        {"base": (0, 0, 0)},  # not floats
        {"need": (0, 9, 9)},  # a side needing nothing
        {"held": b"\x07\x01"},  # seven cards held
        {"mine": "5"},  # not bytes
        {"mine": b"\x05" * 7},  # seven of ours
    ],
)
def test_the_c_refuses_what_no_caller_would_give(bad: dict[str, object]) -> None:
    peg = TABLE_FULL_PLAY.c_module
    assert peg is not None
    with pytest.raises((ValueError, TypeError)):
        peg.search_sums(*{**GOOD_CALL, **bad}.values())


def test_draws_keep_to_the_pool_and_to_what_goes_rule_out() -> None:
    """Never more of a rank than is unseen, no seat a rank below its fewest pips; a pool
    that cannot fill the seats' goes draws nothing."""
    rng = random.Random(7)
    for _ in range(300):
        pool = [0] + [rng.randint(0, 4) for _ in range(13)]
        held = tuple(rng.randint(0, 4) for _ in range(rng.choice((2, 3))))
        least = tuple(rng.choice((1, 1, 4, 7, 10)) for _ in held)
        deals = sample_table_hands(pool, held, least, 20, random.Random(rng.getrandbits(32)))
        for deal in deals:
            dealt = [rank for hand in deal for rank in hand]
            assert all(dealt.count(rank) <= pool[rank] for rank in set(dealt))
            for hand, cards, fewest in zip(deal, held, least, strict=True):
                assert len(hand) == cards and all(PIPS[rank] >= fewest for rank in hand)
        # A deal exists unless, for some pips, the seats held to that many or more hold
        # more cards than the pool has of them: only then is nothing drawn.
        exists = all(
            sum(cards for cards, fewest in zip(held, least, strict=True) if fewest >= pips)
            <= sum(n for rank, n in enumerate(pool) if rank and PIPS[rank] >= pips)
            for pips in range(1, 11)
        )
        assert bool(deals) == exists
    pool = [0] * 14
    pool[2], pool[13] = 4, 1
    assert sample_table_hands(pool, (2, 1), (10, 1), 5, random.Random(1)) == []


def expert_turns(players: int, count: int) -> Iterator[tuple[Game, int]]:
    """Each turn in the play of ``count`` games of experts, as (game, seat to play)."""
    for number in range(count):
        game = Game(players, rng=random.Random(number), dealer=0)
        seats = [ComputerPlayer("expert", random.Random(seat + number)) for seat in range(players)]
        while game.phase is not Phase.OVER:
            if game.phase is Phase.PLAY and game.turn is not None:
                yield game, game.turn
            next_action(game, seats)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [3, 4])
def test_the_draws_never_deal_a_card_seen_and_the_real_hands_fit_the_goes(players: int) -> None:
    """At every turn of real games: each draw holds only cards the seat has not seen (its
    own, its throw, the starter, the cards laid), as many as each seat holds, none its goes
    rule out; the seats' real hands fit the goes (so the truth is never left out), and the
    goes often tell something."""
    told = 0
    for turn, (game, seat) in enumerate(expert_turns(players, 3)):
        absolute = [(seat + offset) % players for offset in range(players)]
        least = least_pips(game, absolute)
        for relative, other in enumerate(absolute):
            assert all(card.pips >= least[relative] for card in game.hand(other))
        told += sum(pips > 1 for pips in least[1:])
        if turn % 4:
            continue
        thrown = game.crib[:1]  # a card told the seat as its throw: never dealt either
        seen = [*game.hand(seat), *thrown, *(play.card for play in game.plays), game.starter]
        unseen = [4] * 14
        for card in seen:
            assert card is not None
            unseen[int(card.rank)] -= 1
        _, _, deals = table_draws(game, seat, thrown, 0, samples=8)
        assert deals
        for deal in deals:
            assert [len(hand) for hand in deal] == [len(game.hand(o)) for o in absolute[1:]]
            dealt = [rank for hand in deal for rank in hand]
            assert all(dealt.count(rank) <= unseen[rank] for rank in set(dealt))
            for hand, fewest in zip(deal, least[1:], strict=True):
                assert all(PIPS[rank] >= fewest for rank in hand)
    assert told > 50


def master_plays(players: int, seed: int, sampled_from: int | None) -> list[tuple[int, str]]:
    """Every card seat 0 (the master, against experts) lays in a game, with the cards all
    hands held when it chose; ``sampled_from`` None as shipped, else in its place."""
    shipped = dict(MASTER_TABLE_SAMPLED_FROM)
    if sampled_from is not None:
        table_play.MASTER_TABLE_SAMPLED_FROM = {players: sampled_from}
    try:
        rng = random.Random(seed)
        seats = [
            ComputerPlayer("master" if seat == 0 else "expert", random.Random(rng.getrandbits(64)))
            for seat in range(players)
        ]
        game = Game(players, rng=random.Random(rng.getrandbits(64)), dealer=seed % players)
        laid = []
        while game.phase is not Phase.OVER:
            if game.phase is Phase.PLAY and game.turn == 0:
                held = sum(len(game.hand(seat)) for seat in range(players))
                card = seats[0].play(game, 0)
                laid.append((held, str(card)))
                game.play(0, card)
                continue
            next_action(game, seats)  # type: ignore[arg-type]
        return laid
    finally:
        table_play.MASTER_TABLE_SAMPLED_FROM = shipped


@needs_c
@pytest.mark.parametrize("players", [3, 4])
def test_the_master_searches_the_table_over_sampled_hands(players: int) -> None:
    """As shipped the master at three and four lays other cards than with its table search
    alone, the first of them at a turn within the shipped number of cards, and a game
    replays card for card from the same seeds."""
    most = MASTER_TABLE_SAMPLED_FROM[players]
    changed = 0
    with compiled_parts.choose(True):
        for seed in range(2):
            usual, shipped = master_plays(players, seed, 0), master_plays(players, seed, None)
            assert shipped == master_plays(players, seed, None)
            for (held, card), (held2, card2) in zip(usual, shipped, strict=False):
                if (held, card) != (held2, card2):
                    assert held == held2 and held <= most, seed
                    changed += 1
                    break
    assert changed >= 1


@needs_c
def test_at_three_the_lead_is_searched_over_half_the_draws() -> None:
    """At three with every hand full (the lead, twelve cards) the master searches over half
    the draws, and over all of them from eleven cards down."""
    draws_by_cards: dict[int, set[int]] = {}
    searched = engine.computer.table_play.table_sampled_values

    def counted(
        game: Game, seat: int, thrown: object, out: int, draws: int = SAMPLES, **how: bool
    ) -> object:
        held = sum(len(game.hand(other)) for other in range(3))
        draws_by_cards.setdefault(held, set()).add(draws)
        return searched(game, seat, thrown, out, draws, **how)  # type: ignore[arg-type]

    seats = [ComputerPlayer("master", random.Random(seat)) for seat in range(3)]
    engine.computer.table_play.table_sampled_values = counted  # type: ignore[assignment]
    try:
        with compiled_parts.choose(True):
            play_game(Game(3, rng=random.Random(5), dealer=0), seats)
    finally:
        engine.computer.table_play.table_sampled_values = searched
    assert draws_by_cards[12] == {SAMPLES // 2}
    assert draws_by_cards[11] == {SAMPLES}
    assert max(draws_by_cards) == MASTER_TABLE_SAMPLED_FROM[3] == 12


@pytest.mark.parametrize("players", [3, 4])
def test_without_the_c_the_master_searches_fewer_cards_and_replays(players: int) -> None:
    """Where only the Python twin runs, the master still searches the last cards over
    sampled hands (fewer of them: MASTER_TABLE_SAMPLED_FROM_IN_PYTHON), plays legal games
    (play_game checks every action) and replays a game from its seeds."""

    def game_with(seed: int) -> tuple[object, ...]:
        seats = [ComputerPlayer("master", random.Random(seed + seat)) for seat in range(players)]
        record = play_game(Game(players, rng=random.Random(seed), dealer=1), seats)
        return record.scores, record.actions

    calls: list[int] = []
    searched = engine.computer.table_play.table_sampled_values

    def counted(game: Game, *args: object, **how: bool) -> dict[int, float] | None:
        calls.append(sum(len(game.hand(seat)) for seat in range(players)))
        return searched(game, *args, **how)  # type: ignore[arg-type]

    with compiled_parts.choose(False):
        engine.computer.table_play.table_sampled_values = counted  # type: ignore[assignment]
        try:
            first = game_with(3)
        finally:
            engine.computer.table_play.table_sampled_values = searched
        assert game_with(3) == first
    assert calls and max(calls) == MASTER_TABLE_SAMPLED_FROM_IN_PYTHON[players]


def test_the_docstring_examples_hold() -> None:
    for module in (engine.computer.table_full_play, engine.computer.table_sampled):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__
