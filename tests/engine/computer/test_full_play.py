"""The full search of the play over sampled hands (engine/computer/full_play.py and its C
twin engine/computer/_peg.c; engine/computer/sampled_play.py): the C's sums are the
Python's to the bit on random small positions, and both a plain minimax's; the values are
the points the rules engine really awards when both sides play the search's cards; hands
are drawn as the goes and weights say; malformed arguments are refused by both."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

import compiled_parts
from engine.computer.full_play import FULL_PLAY, PlayScore, full_play_values
from engine.computer.levels import MASTER_SAMPLED_FROM
from engine.computer.sampled_play import sample_hands, sampled_play_values
from engine.rules.errors import IllegalActionError
from engine.rules.events import Pegged
from engine.rules.game import Game, Phase
from tests.engine.computer.positions import deal_a_count

needs_c = pytest.mark.skipif(FULL_PLAY.compiled is None, reason="_peg.c was not built")
POINTS = PlayScore.points()


@pytest.fixture(params=["python", "c"])
def twin(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "c" and FULL_PLAY.compiled is None:
        pytest.skip("engine/computer/_peg.c was not built")
    with compiled_parts.choose(request.param == "c"):
        yield request.param


def chance_table() -> np.ndarray:
    """A chance to win after the play by [our score][theirs]: rising with our score and
    falling with theirs, every entry different (as the shipped table's nearly are)."""
    ours, theirs = np.meshgrid(np.arange(121.0), np.arange(121.0), indexing="ij")
    return 1 / (1 + np.exp((theirs - ours) / 15 + (ours * 121 + theirs) * 1e-9))


def random_position(rng: random.Random) -> tuple[list[int], list[list[int]], list[int]]:
    """Our hand (1-4), a count that fits, and 1-3 sampled opponent hands (0-4 cards)."""
    seq, rest = deal_a_count(rng)
    mine = rest[: rng.randint(1, 4)]
    rest = rest[len(mine) :]
    held = rng.randint(0, 4)
    hands = [rest[i * held : (i + 1) * held] for i in range(rng.randint(1, 3))]
    return mine, hands, seq


@needs_c
def test_the_c_sums_are_the_pythons_minimax_to_the_bit() -> None:
    """Both scorings, both run rules, with and without a go said; alpha-beta in the C must
    not change any card's value."""
    rng = random.Random(51)
    table = chance_table()
    assert FULL_PLAY.compiled is not None
    differ = 0
    for trial in range(1500):
        mine, hands, seq = random_position(rng)
        score = (
            POINTS
            if trial % 2
            else PlayScore.chance(table, rng.randint(70, 120), rng.randint(70, 120))
        )
        args = (
            tuple(mine),
            tuple(tuple(hand) for hand in hands),
            tuple(seq),
            trial % 3 == 0,
            trial % 5 == 0,
            score,
        )
        python = FULL_PLAY.python(*args)
        c = FULL_PLAY.compiled(*args)
        assert list(c) == list(python) and all(c[r] == python[r] for r in python), args
        differ += len(set(python.values())) > 1
    assert differ > 300  # positions where the card chosen matters


def test_both_twins_are_a_plain_minimax_over_every_line() -> None:
    """The cut-offs change no card's value: the Python with them (the twin in use where the
    C was not built) against itself searching every line."""
    rng = random.Random(52)
    table = chance_table()
    for trial in range(400):
        mine, hands, seq = random_position(rng)
        score = POINTS if trial % 2 else PlayScore.chance(table, rng.randint(70, 120), 100)
        args = (tuple(mine), tuple(map(tuple, hands)), tuple(seq), trial % 3 == 0, False, score)
        assert FULL_PLAY.python(*args) == FULL_PLAY.python(*args, cut=False), args


def play_out(seed: int, twin: str) -> tuple[float, int]:
    """A deal's play where both seats lay the full search's best card knowing each other's
    hand: the leader's value at its first card, and what the rules engine pegged it less
    the other seat in the play."""
    rng = random.Random(seed)
    game = Game(2, rng=random.Random(rng.getrandbits(64)), dealer=seed % 2)
    game.deal()
    for seat in range(2):
        game.discard(seat, game.hand(seat)[:2])
    game.cut(rng.randint(1, game.stock_size))
    leader = game.turn
    assert leader is not None
    pegged = [0, 0]
    first_value = None
    while game.phase is Phase.PLAY:
        seat = game.turn
        assert seat is not None
        current = game.plays[-len(game.count_cards) :] if game.count_cards else []
        values = full_play_values(
            [int(card.rank) for card in game.hand(seat)],
            [[int(card.rank) for card in game.hand(1 - seat)]],
            [int(card.rank) for card in game.count_cards],
            opp_said_go=bool(current) and current[-1].seat == seat,
            exact=game.runs == "exact",
            score=POINTS,
        )
        best = max(values, key=lambda rank: values[rank])
        if first_value is None:
            first_value = values[best]
        card = next(card for card in game.hand(seat) if int(card.rank) == best)
        for event in game.play(seat, card):
            if isinstance(event, Pegged):
                pegged[event.seat] += event.points
    assert first_value is not None
    return first_value, pegged[leader] - pegged[1 - leader]


def test_a_value_is_what_the_rules_engine_pegs_when_both_play_the_search(twin: str) -> None:
    """Go, 31, one for last, pairs, runs and fifteens as the game scores them: with both
    hands known and both sides playing the search's best card, the play ends exactly as the
    first card's value said."""
    for seed in range(60 if twin == "c" else 20):
        value, pegged = play_out(seed, twin)
        assert value == pegged, seed


@pytest.mark.parametrize(
    ("mine", "theirs", "seq", "said_go", "expected"),
    [
        # We lead the five, they make fifteen with the ten and take one for last.
        ((5,), (10,), (), False, {5: -3.0}),
        # The king on 21 is 31 (two), then they lead their ace alone: one for last.
        ((13,), (1,), (10, 11, 1), False, {13: 1.0}),
        # They said go on 27. Our four makes 31 (two), they lead the nine on a new count and
        # our three is the last card (one). Our three first makes 30: the four does not
        # fit, a go (one), then the nine led and our four last (one).
        ((4, 3), (9,), (10, 10, 7), True, {4: 3.0, 3: 2.0}),
        # On a pair of sixes our third six is a pair royal (six), then their six on 18 a
        # double pair royal (twelve) and one for last.
        ((6,), (6,), (6, 6), False, {6: -7.0}),
    ],
)
def test_small_positions_worked_out_by_hand(
    twin: str,
    mine: tuple[int, ...],
    theirs: tuple[int, ...],
    seq: tuple[int, ...],
    said_go: bool,
    expected: dict[int, float],
) -> None:
    got = full_play_values(mine, [theirs], seq, opp_said_go=said_go, exact=False, score=POINTS)
    assert got == expected


def test_near_the_end_reaching_121_wins_at_once(twin: str) -> None:
    """At 119 our fifteen wins, whatever the table says of the scores after the play."""
    table = np.zeros((121, 121))
    values = full_play_values(
        (5, 2), [(9,)], (10,), opp_said_go=False, exact=False, score=PlayScore.chance(table, 119, 0)
    )
    assert values == {5: 1.0, 2: 0.0}


@pytest.mark.parametrize(
    ("mine", "hands", "seq", "message"),
    [
        ((0,), [(1,)], (), "ranks are"),
        ((14,), [(1,)], (), "ranks are"),
        ((5,), [], (), "hands are searched"),
        ((5,), [(1,), (1, 2)], (), "as many cards"),
        ((5, 5, 5), [(5, 5)], (), "more than four"),
        ((5,), [(1,)], (10, 10, 10, 10), "cannot pass 31"),
        ((1,) * 7, [(2,)], (), "at most"),
    ],
)
def test_bad_positions_are_refused(
    twin: str,
    mine: tuple[int, ...],
    hands: list[tuple[int, ...]],
    seq: tuple[int, ...],
    message: str,
) -> None:
    with pytest.raises(IllegalActionError, match=message):
        full_play_values(mine, hands, seq, opp_said_go=False, exact=False, score=POINTS)


@needs_c
@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((b"\x05", b"\x0e", 1, b"", False, False, None, 0, 0), ValueError),
        ((b"\x05", b"\x05\x05\x05\x05", 1, b"", False, False, None, 0, 0), ValueError),
        ((b"\x05", b"\x01\x02\x03", 2, b"", False, False, None, 0, 0), ValueError),
        ((b"\x05", b"\x01", 0, b"", False, False, None, 0, 0), ValueError),
        ((b"\x05", b"\x01", 1, b"\x0a\x0a\x0a\x0a", False, False, None, 0, 0), ValueError),
        ((b"\x05", b"\x01", 1, b"", False, False, np.zeros((121, 120)), 0, 0), TypeError),
        ((b"\x05", b"\x01", 1, b"", False, False, np.zeros((121, 121)), 121, 0), ValueError),
        (
            (b"\x05", b"\x01", 1, b"", False, False, np.zeros((121, 121), np.float32), 0, 0),
            TypeError,
        ),
        (("5", b"\x01", 1, b"", False, False, None, 0, 0), TypeError),
        ((b"\x05" * 7, b"\x01", 1, b"", False, False, None, 0, 0), ValueError),
    ],
)
def test_the_c_refuses_what_no_caller_would_give(args: tuple[object, ...], error: type) -> None:
    peg = FULL_PLAY.c_module
    assert peg is not None
    with pytest.raises(error):
        peg.search_sums(*args)


def test_sampled_hands_keep_to_the_pool_and_the_weights() -> None:
    """Never more of a rank than is unseen, nothing of a rank weighed 0, and a rank weighed
    four times as much drawn about four times as often."""
    pool = [0] + [4] * 13
    pool[7] = 1
    weight = [0.0] + [1.0] * 13
    weight[3] = 0.0
    weight[12] = 4.0
    hands = sample_hands(pool, weight, 4, 3000, random.Random(5))
    assert all(len(hand) == 4 and hand.count(7) <= 1 and 3 not in hand for hand in hands)
    assert all(hand.count(rank) <= 4 for hand in hands for rank in hand)
    queens = sum(hand.count(12) for hand in hands)
    fours = sum(hand.count(4) for hand in hands)
    assert 3.0 < queens / fours < 5.0  # drawn without replacement: a little under 4
    assert sample_hands(pool, weight, 50, 1, random.Random(5)) == []


def test_a_go_leaves_out_every_rank_that_would_have_fitted(twin: str) -> None:
    """They said go on 25 and the unseen cards are aces and two kings: every hand drawn is
    the two kings, so the values are the search's against that hand, the same each time;
    with only aces unseen no hand fits the go and the caller is told so (None)."""
    pool = [0] * 14
    pool[1], pool[13] = 4, 2
    weight = [0.0] + [1.0] * 13
    seq = (10, 10, 5)
    values = sampled_play_values(
        (6, 2), seq, pool, weight, 2, opp_said_go=True, exact=False, score=POINTS
    )
    kings = full_play_values((6, 2), [(13, 13)], seq, opp_said_go=True, exact=False, score=POINTS)
    assert values == kings
    pool[13] = 0
    assert (
        sampled_play_values(
            (6, 2), seq, pool, weight, 2, opp_said_go=True, exact=False, score=POINTS
        )
        is None
    )


def master_plays(sampled_from: int, seed: int) -> list[tuple[int, str]]:
    """Every card the master (seat 0, ``sampled_from`` as given) lays in a game against the
    expert, with the number of cards the two hands held when it chose."""
    from engine.computer.player import ComputerPlayer
    from engine.computer.selfplay import next_action

    rng = random.Random(seed)
    seats = [
        ComputerPlayer("master", random.Random(rng.getrandbits(64)), sampled_from=sampled_from),
        ComputerPlayer("expert", random.Random(rng.getrandbits(64))),
    ]
    game = Game(2, rng=random.Random(rng.getrandbits(64)), dealer=seed % 2)
    laid = []
    while game.phase is not Phase.OVER:
        if game.phase is Phase.PLAY and game.turn == 0:
            held = len(game.hand(0)) + len(game.hand(1))
            card = seats[0].play(game, 0)
            laid.append((held, str(card)))
            game.play(0, card)
            continue
        next_action(game, seats)  # type: ignore[arg-type]
    return laid


@needs_c
def test_the_master_searches_the_last_six_cards_over_sampled_hands() -> None:
    """As shipped the master lays other cards than with its usual search
    (``sampled_from=0``), only once the hands hold ``MASTER_SAMPLED_FROM`` cards or fewer,
    and a game replays card for card from the same seeds."""
    changed = 0
    for seed in range(3):
        usual, shipped = master_plays(0, seed), master_plays(MASTER_SAMPLED_FROM, seed)
        assert shipped == master_plays(MASTER_SAMPLED_FROM, seed)
        for (held, card), (held2, card2) in zip(usual, shipped, strict=False):
            if (held, card) != (held2, card2):
                # The first difference: a choice made once the full search is used.
                assert held == held2 and held <= MASTER_SAMPLED_FROM, seed
                changed += 1
                break
    assert changed >= 1


@needs_c
def test_the_master_searches_to_the_end_from_seven_cards() -> None:
    """As shipped the full search starts at seven cards (one card laid): over a few games
    the master lays some card otherwise than when it starts at six, the first such card
    chosen with seven cards in the two hands."""
    first_differences = []
    for seed in range(6):
        six, shipped = master_plays(6, seed), master_plays(MASTER_SAMPLED_FROM, seed)
        for (held, card), (held2, card2) in zip(six, shipped, strict=False):
            if (held, card) != (held2, card2):
                first_differences.append(held)
                break
    assert first_differences and set(first_differences) == {7}
