"""engine.odds.winbar: the chance to win at every moment of real games."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import numpy as np
import pytest

from engine.computer.player import ComputerPlayer
from engine.computer.selfplay import next_action
from engine.odds import winbar
from engine.odds.hand_tables import load_tables
from engine.odds.winbar import win_bar
from engine.odds.winprob import win_chances
from engine.rules.cards import FULL_DECK, Card, parse_cards
from engine.rules.errors import IllegalActionError
from engine.rules.game import Game, Phase
from engine.rules.scoring import score_show
from tests.stacked import StackedRandom

pytestmark = pytest.mark.both_twins  # the bar's crib and two-sided run are in C and Python


def play_through(players: int, seed: int):  # type: ignore[no-untyped-def]
    """Each state of a whole game between normal players, after every action."""
    game = Game(players, rng=random.Random(seed), dealer=0)
    seats = [ComputerPlayer("normal", random.Random(seed + seat)) for seat in range(players)]
    while game.phase is not Phase.OVER:
        next_action(game, seats)
        yield game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_moment_of_a_game_gives_chances_that_sum_to_one(players: int) -> None:
    seen_phases = set()
    for game in play_through(players, seed=players):
        views = [None, *range(players)]
        for seat in views:
            bar = win_bar(game, seat)
            assert len(bar) == game.sides
            assert sum(bar) == pytest.approx(1.0)
            assert all(0.0 <= chance <= 1.0 for chance in bar)
        seen_phases.add(game.phase)
    assert {Phase.DISCARD, Phase.PLAY, Phase.SHOW, Phase.OVER} <= seen_phases
    assert max(win_bar(game)) == 1.0  # the game is over: the winner's chance is 1


def test_before_a_deal_the_bar_is_the_table() -> None:
    game = Game(2, rng=random.Random(3), dealer=1)
    game.scores = [91, 100]
    assert win_bar(game, 0) == pytest.approx(win_chances((91, 100), dealer=1))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_until_a_seat_throws_it_knows_no_more_than_the_table(players: int) -> None:
    """In the discard a seat that has not thrown sees its six (or five) cards, but its
    chances are worked out from the deal's averages until it keeps four: the start-of-
    deal table's figure, looked up, not worked out again (to 1.5e-5, at 40-460 us)."""
    game = Game(players, rng=random.Random(8), dealer=1)
    game.scores = [61, 77, 70][: game.sides]
    game.deal()
    table = win_chances(game.scores, dealer=1, players=players)
    assert [win_bar(game, seat) for seat in range(players)] == [table] * players
    assert win_bar(game) == table  # a spectator, before anyone throws
    game.discard(0, game.hand(0)[: game.discard_count])
    assert win_bar(game) != table  # the spectator knows seat 0's four cards now
    assert win_bar(game, 0, thrown=game.crib) != table
    assert [win_bar(game, seat) for seat in range(1, players)] == [table] * (players - 1)
    with pytest.raises(IllegalActionError):
        win_bar(game, players)  # still no such seat


def stacked_deal(scores: list[int]) -> Game:
    """Dealer (seat 0) holds little; the pone keeps 5 5 5 J, 15 points with the 6C cut."""
    rng = StackedRandom("KH QD 9C 8S 7H 4D 5H 5D 5S JC 2H 3D 6C")
    game = Game(2, rng=rng, dealer=0)
    game.deal()
    game.scores = scores
    game.discard(0, parse_cards("7H 4D"))
    game.discard(1, parse_cards("2H 3D"))
    return game


def test_a_seat_that_sees_a_winning_hand_knows_it_wins() -> None:
    game = stacked_deal([100, 110])
    game.cut(1)
    # The pone counts first and its 15 take it from 110 to 121: only 21 pegged by the
    # dealer could stop it. The pone and the spectator know; the dealer does not.
    assert win_bar(game)[1] > 0.99
    assert win_bar(game, 1)[1] > 0.99
    assert win_bar(game, 0)[1] < 0.95


def test_a_seat_rates_its_own_big_hand_above_the_table() -> None:
    game = stacked_deal([60, 60])
    table = win_chances((60, 60), dealer=0)
    assert win_bar(game, 1)[1] > table[1] + 0.03
    # The dealer does not see it, only its own poor hand (K Q 9 8): below the table.
    dealer_view = win_bar(game, 0)
    assert table[0] - 0.3 < dealer_view[0] < table[0] - 0.03
    assert dealer_view[1] < win_bar(game, 1)[1]


def test_a_seat_that_does_not_exist_is_refused() -> None:
    game = Game(2, rng=random.Random(1), dealer=0)
    game.deal()
    with pytest.raises(IllegalActionError):
        win_bar(game, 2)


def test_a_seat_sees_its_hand_its_throw_the_plays_and_the_starter() -> None:
    game = Game(2, rng=random.Random(4), dealer=0)
    game.deal()
    thrown = game.hand(1)[:2]
    game.discard(0, game.hand(0)[:2])
    game.discard(1, thrown)
    game.cut(20)
    game.play(1, game.hand(1)[0])
    view = winbar.view_of(game, 1, (card for card in thrown))  # any iterable of cards
    seen = {*game.hand(1), *thrown, game.plays[0].card, game.starter}
    assert view.thrown == tuple(thrown) and view.seen == seen
    assert view.seen_bits == sum(card.bit for card in seen)
    assert winbar.view_of(game, None).seen == {*game.hand(0), *seen, *game.crib}
    with pytest.raises(IllegalActionError):
        winbar.view_of(game, 1, [game.hand(0)[0], thrown[0]])  # not in the crib
    with pytest.raises(IllegalActionError):
        winbar.view_of(game, 1, "AH")  # not cards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_points_in_hand_raise_the_bar_mid_hand(players: int) -> None:
    for game in play_through(players, seed=10 + players):
        if game.phase is Phase.PLAY and len(game.plays) == 3 and max(game.scores) < 100:
            break
    before = win_bar(game, None)
    game.scores[0] += 6
    after = win_bar(game, None)
    assert after[0] > before[0]
    assert all(after[side] < before[side] for side in range(1, game.sides))


def test_a_server_reads_the_win_tables_before_its_first_caller() -> None:
    # In a process of its own: preparing freezes the garbage collector's objects.
    script = """
import random
from door.serve import prepare_computer_player
from engine.rules.game import Game, Phase
from engine.rules.scoring import score_show
from engine.odds import model as winprob_model
from engine.odds import winbar
from engine.odds.winbar import win_bar
from engine.odds.tables import load_win_tables
prepare_computer_player()
read = load_win_tables.cache_info().misses
game = Game(2, rng=random.Random(3), dealer=0)
game.deal()
game.discard(0, game.hand(0)[:2])
game.discard(1, game.hand(1)[:2])
game.cut(10)
assert game.phase is Phase.PLAY, game.phase
win_bar(game, 0)
print(read, load_win_tables.cache_info().misses)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["1", "1"]  # read once, at start, not in the bar


def moments_with_throws(players: int, seed: int):  # type: ignore[no-untyped-def]
    """Each state of a whole game between normal players, after every action, with the
    cards each seat threw to the crib this deal (what the door passes for its view)."""
    game = Game(players, rng=random.Random(seed), dealer=0)
    seats = [ComputerPlayer("normal", random.Random(seed + seat)) for seat in range(players)]
    thrown: dict[int, tuple[Card, ...]] = {}
    while game.phase is not Phase.OVER:
        held = {seat: set(game.hand(seat)) for seat in range(players)}
        next_action(game, seats)
        for seat in range(players):
            gone = held[seat] - set(game.hand(seat))
            if game.phase in (Phase.DISCARD, Phase.CUT) and gone:
                thrown[seat] = tuple(card for card in FULL_DECK if card in gone)
        yield (
            game,
            {seat: tuple(c for c in cards if c in game.crib) for seat, cards in thrown.items()},
        )


def crib_by_every_pair(thrown: tuple[Card, ...], starter: Card, seen: set[Card], role: str):  # type: ignore[no-untyped-def]
    """The crib counted pair by pair over the other side's possible throws (any two
    unseen cards, in deck order), each weighted as players in ``role`` throw them."""
    weight = load_tables().throw_weight[role]
    dist = np.zeros(30)
    unseen = [card for card in FULL_DECK if card not in seen]
    for x, y in itertools.combinations(unseen, 2):
        dist[score_show((*thrown, x, y), starter, crib=True).total] += weight[
            x.index // 4, y.index // 4
        ]
    return dist / dist.sum()


def test_the_crib_after_the_cut_is_the_count_over_every_pair_to_the_bit() -> None:
    """At every moment after the cut, a seat's crib is the weighted count over every
    pair of cards it has not seen, bin by bin in the same order: the same floats."""
    winbar.forget()
    checked = 0
    for game, thrown in moments_with_throws(2, seed=21):
        if game.starter is None or game.phase is not Phase.PLAY:
            continue
        for seat in range(2):
            view = winbar.view_of(game, seat, thrown[seat])
            seen = {*game.kept(seat), *thrown[seat], game.starter}
            seen |= {play.card for play in game.plays}
            role = "pone" if seat == game.dealer else "dealer"
            expected = crib_by_every_pair(thrown[seat], game.starter, seen, role)
            got = winbar.crib_distribution(game, view)
            assert got.tobytes() == expected.tobytes()
            checked += 1
    assert checked > 100


def show_by_every_starter(cards: list[Card], seen: set[Card], crib: bool):  # type: ignore[no-untyped-def]
    """What ``cards`` score with each starter not in ``seen``, starter by starter."""
    dist = np.zeros(30)
    for starter in FULL_DECK:
        if starter not in seen:
            dist[score_show(cards, starter, crib=crib).total] += 1.0
    return dist / dist.sum()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hands_and_crib_before_the_cut_are_the_count_over_every_starter(players: int) -> None:
    """Before the cut, a hand or crib whose four cards a view knows is scored with every
    starter it has not seen: the same floats as a count starter by starter."""
    checked = 0
    for game, thrown in moments_with_throws(players, seed=30 + players):
        if game.phase not in (Phase.DISCARD, Phase.CUT):
            continue
        for seat in (None, *range(players)):
            if seat is None:  # a watcher sees every hand and the crib
                view = winbar.view_of(game, None)
                seen = {card for other in range(players) for card in game.hand(other)}
                seen |= set(game.crib)
            else:
                view = winbar.view_of(game, seat, thrown.get(seat, ()))
                seen = set(game.hand(seat)) | set(view.thrown)
            for owner in range(players):
                kept = game.kept(owner)
                if len(kept) == 4 and seat in (None, owner):
                    expected = show_by_every_starter(kept, seen, crib=False)
                    got = winbar.hand_distribution(game, view, owner)
                    assert got.tobytes() == expected.tobytes()
                    checked += 1
            if seat is None and game.phase is Phase.CUT:
                expected = show_by_every_starter(game.crib, seen, crib=True)
                assert winbar.crib_distribution(game, view).tobytes() == expected.tobytes()
                checked += 1
    assert checked > 40


def bars_of_a_game(
    seed: int, *, afresh: bool, kept: winbar.DealKept | None = None
) -> list[tuple[float, ...]]:
    """Each seat's bar, remembering its throw, after every action of a 2-player game;
    ``afresh``: with nothing kept from the bars before each one; ``kept``: the table's
    own store given to every bar."""
    game = Game(2, rng=random.Random(seed), dealer=0)
    seats = [ComputerPlayer("normal", random.Random(seed + seat)) for seat in range(2)]
    thrown: dict[int, tuple[Card, ...]] = {}
    bars = []
    while game.phase is not Phase.OVER:
        held = {seat: set(game.hand(seat)) for seat in range(2)}
        next_action(game, seats)
        for seat in range(2):
            if len(held[seat]) == 6 and len(game.hand(seat)) == 4:  # this seat just threw
                thrown[seat] = tuple(card for card in held[seat] if card in game.crib)
            if afresh:
                winbar.forget()
            bars.append(
                win_bar(
                    game,
                    seat,
                    thrown=[c for c in thrown.get(seat, ()) if c in game.crib],
                    kept=kept,
                )
            )
    return bars


def test_work_kept_between_bars_never_changes_one() -> None:
    """The crib worked out after the cut is kept for the moments after it (only the
    other side's plays change it), the chances after the play for the deal (worked out
    from the scores of its first moment, later ones read from them), and the odds of
    passing 121 for every shipped table: the bars of a whole game that reuse them are
    the bars worked out afresh, to the bit."""
    winbar.forget()
    kept = bars_of_a_game(11, afresh=False)
    assert 0 < len(winbar._SHARED.cribs) < len(kept) // 2
    assert 0 < len(winbar._SHARED.after_play) < len(kept) // 2
    assert bars_of_a_game(11, afresh=True) == kept


def test_a_tables_own_store_gives_the_same_bars_and_holds_only_its_present_deal() -> None:
    # A thousand tables' deals over and done, kept in one store, were 22 KiB a caller.
    winbar.forget()
    afresh = bars_of_a_game(12, afresh=True)
    store = winbar.DealKept()
    assert bars_of_a_game(12, afresh=False, kept=store) == afresh
    assert len(winbar._SHARED.cribs) == len(winbar._SHARED.after_play) == 0
    # The game's last deal alone, and only the newest of each for each seat.
    assert 0 < len(store.after_play) <= 2 and 0 < len(store.cribs) <= 2


def moments_of_two_seats(seed: int):  # type: ignore[no-untyped-def]
    """Each moment of a 2-player game after an action, with each seat and its throw."""
    game = Game(2, rng=random.Random(seed), dealer=seed % 2)
    seats = [ComputerPlayer("normal", random.Random(seed + seat)) for seat in range(2)]
    thrown: dict[int, tuple[Card, ...]] = {}
    while game.phase is not Phase.OVER:
        held = {seat: set(game.hand(seat)) for seat in range(2)}
        next_action(game, seats)
        for seat in range(2):
            if len(held[seat]) == 6 and len(game.hand(seat)) == 4:
                thrown[seat] = tuple(card for card in held[seat] if card in game.crib)
            yield game, seat, tuple(c for c in thrown.get(seat, ()) if c in game.crib)


def test_a_seat_of_two_s_shows_looked_up_give_the_bar_worked_out_afresh() -> None:
    """Once the starter is cut, a seat of two's crib is looked up by what it has seen,
    and the chances after the play are kept for the deal; before it, they are made from
    a table of the other's average hand: every bar of the cut, the play and the show is
    the one its stages worked out afresh through the forward run give, with its throw
    remembered or not, within the rounding of other sums (engine.odds.after_play)."""
    checked = 0
    for seed in (3, 4, 5):
        winbar.forget()
        for game, seat, thrown in moments_of_two_seats(seed):
            if game.phase not in (Phase.CUT, Phase.PLAY, Phase.SHOW):
                continue
            for throw in (thrown, ()):
                view = winbar.view_of(game, seat, throw)
                afresh = winbar.chances_with(game, winbar.hand_stages(game, view))
                assert win_bar(game, seat, thrown=throw) == pytest.approx(afresh, abs=1e-14)
                checked += 1
    assert checked > 300


def test_a_seat_s_own_plays_leave_its_shows_as_they_were(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only what a seat sees of the other hand changes its shows: at a moment after its
    own play, nothing of them is worked out again (every moment of the play built each
    hand's and the crib's distribution again)."""
    built: list[int] = []
    crib_distribution = winbar.crib_distribution

    def counted(game: Game, view: winbar.View) -> np.ndarray:
        built.append(len(game.plays))
        return crib_distribution(game, view)

    monkeypatch.setattr(winbar, "crib_distribution", counted)
    winbar.forget()
    own_plays = 0
    for game, seat, thrown in moments_of_two_seats(6):
        if seat != 0 or game.phase is not Phase.PLAY or not game.plays:
            continue
        built.clear()
        win_bar(game, seat, thrown=thrown)
        if game.plays[-1].seat == seat and len(game.plays) > 1:
            own_plays += 1
            assert built == [], f"the crib worked out again after seat {seat}'s own play"
    assert own_plays > 10
