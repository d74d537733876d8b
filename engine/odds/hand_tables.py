"""The computer player's lookup tables: one built at import, one shipped as data.

``RANK_TABLE[r1, r2, r3, r4, r5]`` (ranks 0..12, any order) is the points of
five cards with those ranks for fifteens, pairs and runs: the suit-free part
of a show, the same numbers as ``engine.rules.scoring.RANK_POINTS`` laid out densely
so NumPy can gather thousands of them at once.

``engine/data/ai_tables.json`` holds what self-play measured (see
``bench/gen_ai_tables.py``, which writes it):

* ``throw_weight[role][r1][r2]``: how much more (or less) often a player in
  that role throws a card of rank r1 with one of rank r2 to the crib than a
  player throwing at random would. It weights the opponent's two crib cards
  when the computer values its own discard.
* ``distributions``: points per deal by source (pegging for dealer and pone
  jointly, each hand, the crib, his heels folded into the dealer's pegging),
  from which ``engine.odds.position`` builds its win-probability table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

import numpy as np
import numpy.typing as npt

from engine.rules.scoring import RANK_POINTS

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

RANKS: Final = 13
ROLES: Final = ("pone", "dealer")


def _build_rank_table() -> npt.NDArray[np.int8]:
    keys = np.array(sorted(RANK_POINTS), dtype=np.int64)
    points = np.array([RANK_POINTS[int(key)] for key in keys], dtype=np.int8)
    weight = 5 ** np.arange(RANKS, dtype=np.int64)
    grid = sum(
        weight.reshape([RANKS if axis == place else 1 for axis in range(5)]) for place in range(5)
    )
    flat = np.asarray(grid, dtype=np.int64).ravel()
    where = np.minimum(np.searchsorted(keys, flat), len(keys) - 1)
    # Five cards of one rank cannot be dealt: those cells are never weighted, so 0.
    found = keys[where] == flat
    table = np.where(found, points[where], 0).astype(np.int8)
    return table.reshape((RANKS,) * 5)


RANK_TABLE: Final = _build_rank_table()


@dataclass(frozen=True)
class DealDistributions:
    """Points one deal brings, by source, as probabilities indexed by points."""

    pegging: FloatArray  # [dealer points, pone points], his heels included for the dealer
    pone_hand: FloatArray
    dealer_hand: FloatArray
    crib: FloatArray


@dataclass(frozen=True)
class AiTables:
    throw_weight: dict[str, FloatArray]  # role -> 13 x 13, symmetric, mean 1 under random throws
    distributions: DealDistributions
    source: str


def _probabilities(values: object) -> FloatArray:
    array = np.asarray(values, dtype=np.float64)
    result: FloatArray = array / array.sum()
    return result


def parse_tables(text: str) -> AiTables:
    """Read the JSON written by ``bench/gen_ai_tables.py``; raises ValueError if malformed."""
    data = json.loads(text)
    try:
        weights = {role: np.asarray(data["throw_weight"][role], dtype=np.float64) for role in ROLES}
        dist = data["distributions"]
        distributions = DealDistributions(
            pegging=_probabilities(dist["pegging"]),
            pone_hand=_probabilities(dist["pone_hand"]),
            dealer_hand=_probabilities(dist["dealer_hand"]),
            crib=_probabilities(dist["crib"]),
        )
    except (KeyError, TypeError) as error:
        raise ValueError(f"ai_tables.json: missing or malformed entry {error}") from None
    for role, weight in weights.items():
        if weight.shape != (RANKS, RANKS) or not np.allclose(weight, weight.T):
            raise ValueError(f"ai_tables.json: throw_weight[{role!r}] must be a symmetric 13x13")
        if (weight <= 0).any():
            raise ValueError(f"ai_tables.json: throw_weight[{role!r}] must be positive")
    return AiTables(weights, distributions, str(data.get("source", "")))


@cache
def load_tables() -> AiTables:
    """The shipped tables, read once from the package data."""
    text = resources.files("engine").joinpath("data/ai_tables.json").read_text(encoding="utf-8")
    return parse_tables(text)


UNIFORM_WEIGHT: Final[FloatArray] = np.ones((RANKS, RANKS), dtype=np.float64)
