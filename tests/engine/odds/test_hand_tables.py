"""engine.odds.hand_tables and the shipped engine/data/ai_tables.json.

The shipped throw weights are checked three ways: against what cribbage
players know, against two published discard tables (one measured in real
games, one computed by iterating optimal discards), and against a fresh
measurement by the generator.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from engine.odds.hand_tables import RANK_TABLE, RANKS, load_tables, parse_tables
from engine.odds.hand_values import Unseen, crib_values_pair
from engine.rules.cards import Card, Suit
from engine.rules.scoring import RANK_POINTS

ROOT = Path(__file__).resolve().parents[3]


def test_rank_table_is_rank_points_in_any_order() -> None:
    checked = 0
    for ranks in itertools.combinations_with_replacement(range(RANKS), 5):
        key = sum(5**r for r in ranks)
        if key not in RANK_POINTS:
            continue
        for order in {ranks, ranks[::-1], (ranks[2], ranks[0], ranks[4], ranks[1], ranks[3])}:
            assert RANK_TABLE[order] == RANK_POINTS[key]
        checked += 1
    assert checked == len(RANK_POINTS) == 6175


def test_bad_table_files_are_refused() -> None:
    good = json.loads((ROOT / "engine" / "data" / "ai_tables.json").read_text())
    parse_tables(json.dumps(good))
    missing = dict(good)
    del missing["distributions"]
    with pytest.raises(ValueError, match="distributions"):
        parse_tables(json.dumps(missing))
    lopsided = json.loads(json.dumps(good))
    lopsided["throw_weight"]["pone"][0][1] += 1
    with pytest.raises(ValueError, match="symmetric"):
        parse_tables(json.dumps(lopsided))


# --- what players know --------------------------------------------------------

FIVE, TEN, KING = 4, 9, 12  # rank indices


def test_throw_weights_match_cribbage_lore() -> None:
    weights = load_tables().throw_weight
    pone, dealer = weights["pone"], weights["dealer"]
    # The pone hangs on to fives, and is glad to balk the crib with king-ten.
    assert pone[FIVE].max() < 0.25
    top_pone = sorted(((pone[a, b], (a, b)) for a in range(RANKS) for b in range(a)), reverse=True)
    assert (KING, TEN) in [pair for _, pair in top_pone[:3]]
    # The dealer throws a pair of fives into their own crib far more often.
    assert dealer[FIVE, FIVE] > 10 * pone[FIVE, FIVE]


def test_deal_averages_are_an_experts() -> None:
    """Expert humans average, per deal: dealer pegging 3.5, hand 8.0, crib 4.7;
    pone pegging 2.0, hand 8.1 (figures quoted in issue 3)."""
    dist = load_tables().distributions
    dealer_peg = dist.pegging.sum(axis=1) @ np.arange(dist.pegging.shape[0])
    pone_peg = dist.pegging.sum(axis=0) @ np.arange(dist.pegging.shape[1])

    def mean(values: np.ndarray) -> float:
        return float(values @ np.arange(len(values)))

    assert dealer_peg == pytest.approx(3.5, abs=0.6)
    assert pone_peg == pytest.approx(2.0, abs=0.6)
    assert mean(dist.dealer_hand) == pytest.approx(8.0, abs=0.5)
    assert mean(dist.pone_hand) == pytest.approx(8.1, abs=0.5)
    assert mean(dist.crib) == pytest.approx(4.7, abs=0.5)


# --- published discard tables ---------------------------------------------------

# Dealer's crib by the two cards the dealer throws, A..K: Cribbage Pro's table
# measured from games on its servers (blog.cribbagepro.net, 2012).
CRIBBAGE_PRO_OWN_CRIB = """
5.2 4.4 4.6 5.2 5.2 3.7 3.7 3.7 3.3 3.3 3.5 3.3 3.3
4.4 5.8 6.9 4.6 5.2 3.9 3.9 3.7 3.7 3.6 3.8 3.6 3.6
4.6 6.9 5.9 5.0 5.9 3.8 3.8 3.9 3.7 3.6 3.9 3.7 3.7
5.2 4.6 5.0 5.5 6.3 3.9 3.7 3.9 3.6 3.4 3.7 3.5 3.5
5.2 5.2 5.9 6.3 8.5 6.4 5.8 5.3 5.1 6.3 6.7 6.4 6.3
3.7 3.9 3.8 3.9 6.4 5.6 4.9 4.6 4.9 3.0 3.2 3.0 2.9
3.7 3.9 3.8 3.7 5.8 4.9 5.8 6.4 4.0 3.1 3.3 3.1 3.1
3.7 3.7 3.9 3.9 5.3 4.6 6.4 5.3 4.5 3.7 3.3 3.1 3.0
3.3 3.7 3.7 3.6 5.1 4.9 4.0 4.5 4.9 4.1 3.7 2.8 2.8
3.3 3.6 3.6 3.4 6.3 3.0 3.1 3.7 4.1 4.6 4.3 3.3 2.7
3.5 3.8 3.9 3.7 6.7 3.2 3.3 3.3 3.7 4.3 5.1 4.5 3.8
3.3 3.6 3.7 3.5 6.4 3.0 3.1 3.1 2.8 3.3 4.5 4.5 3.4
3.3 3.6 3.7 3.5 6.3 2.9 3.1 3.0 2.8 2.7 3.8 3.4 4.4
"""

# Dealer's crib by the two cards the pone throws: Craig Hessel's table, computed
# by iterating optimal discards over every six-card hand, crib flushes ignored
# (published at cribbageforum.com, "Discarding to opponent's crib").
HESSEL_OPPONENT_CRIB = """
6.07 5.07 5.17 5.74 6.06 4.93 4.95 4.92 4.66 4.46 4.72 4.41 4.34
5.07 6.43 7.34 5.44 6.17 5.13 5.12 5.03 4.82 4.64 4.91 4.60 4.53
5.17 7.34 6.78 6.10 6.85 4.92 5.16 5.08 4.82 4.70 4.97 4.66 4.59
5.74 5.44 6.10 6.59 7.46 5.47 4.91 5.02 4.75 4.55 4.80 4.49 4.43
6.06 6.17 6.85 7.46 9.39 7.66 7.08 6.36 6.22 7.46 7.75 7.42 7.31
4.93 5.13 4.92 5.47 7.66 7.17 6.64 6.05 6.31 4.41 4.61 4.29 4.25
4.95 5.12 5.16 4.91 7.08 6.64 7.25 7.88 5.46 4.44 4.73 4.44 4.38
4.92 5.03 5.08 5.02 6.36 6.05 7.88 6.76 5.97 5.02 4.65 4.38 4.31
4.66 4.82 4.82 4.75 6.22 6.31 5.46 5.97 6.44 5.52 4.98 4.14 4.13
4.46 4.64 4.70 4.55 7.46 4.41 4.44 5.02 5.52 6.11 5.60 4.65 3.99
4.72 4.91 4.97 4.80 7.75 4.61 4.73 4.65 4.98 5.60 6.56 5.55 4.89
4.41 4.60 4.66 4.49 7.42 4.29 4.44 4.38 4.14 4.65 5.55 5.89 4.56
4.34 4.53 4.59 4.43 7.31 4.25 4.38 4.31 4.13 3.99 4.89 4.56 5.72
"""


def parse_table(text: str) -> np.ndarray:
    return np.array([[float(v) for v in line.split()] for line in text.strip().splitlines()])


def model_crib_table(weight: np.ndarray) -> np.ndarray:
    """The engine's crib average for each thrown pair (two suits, so no flush),
    the other four crib cards drawn from the 50 unseen with the given weights."""
    table = np.zeros((RANKS, RANKS))
    for a, b in itertools.combinations_with_replacement(range(RANKS), 2):
        thrown = (Card(a + 1, Suit.SPADES), Card(b + 1, Suit.HEARTS))
        value = crib_values_pair([thrown], Unseen.excluding(thrown), weight)[0]
        table[a, b] = table[b, a] = value
    return table


def compare(model: np.ndarray, published: np.ndarray) -> tuple[float, float]:
    upper = np.triu_indices(RANKS)
    correlation = float(np.corrcoef(model[upper], published[upper])[0, 1])
    return correlation, float(np.abs(model[upper] - published[upper]).mean())


@pytest.mark.parametrize(
    ("published", "thrower_of_the_rest", "closeness"),
    [(CRIBBAGE_PRO_OWN_CRIB, "pone", 0.25), (HESSEL_OPPONENT_CRIB, "dealer", 0.4)],
    ids=["cribbage-pro-own-crib", "hessel-opponent-crib"],
)
def test_crib_values_agree_with_published_tables(
    published: str, thrower_of_the_rest: str, closeness: float
) -> None:
    table = parse_table(published)
    assert (table == table.T).all()
    weighted = model_crib_table(load_tables().throw_weight[thrower_of_the_rest])
    correlation, distance = compare(weighted, table)
    assert correlation > 0.985
    assert distance < closeness
    # Weighting the other player's throw is what brings the model this close.
    _, random_distance = compare(model_crib_table(np.ones((RANKS, RANKS))), table)
    assert distance < 0.75 * random_distance


# --- a fresh measurement ------------------------------------------------------------


def load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_ai_tables", ROOT / "bench" / "gen_ai_tables.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_random_throwing_gives_weight_one() -> None:
    generator = load_generator()
    deals = 10_000
    expected = generator.random_pair_rates() * deals
    assert generator.random_pair_rates().sum() == pytest.approx(1.0)
    assert generator.throw_weights(expected, deals) == pytest.approx(np.ones((RANKS, RANKS)))


def test_shipped_weights_are_what_the_expert_throws_now() -> None:
    """Re-measure the throws on a few thousand deals: the pairs thrown must follow
    the shipped weights (regenerate the table if the discard code has changed)."""
    generator = load_generator()
    shipped = load_tables().throw_weight
    weights = {role: w.tolist() for role, w in shipped.items()}
    counts = generator._count_throws((12345, 3000, weights))
    random_rates = generator.random_pair_rates()
    for index, role in enumerate(("pone", "dealer")):
        measured = counts[index] / counts[index].sum()
        implied = shipped[role] * random_rates
        implied /= implied.sum()
        # Total variation distance: sampling noise alone gives about 0.07 here.
        distance = 0.5 * np.abs(measured - implied).sum()
        from_random = 0.5 * np.abs(measured - random_rates).sum()
        assert distance < 0.1, role
        assert distance < from_random / 3, role
