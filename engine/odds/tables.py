"""The shipped win-probability arrays (``engine/data/winprob.npz``) and what they hold.

``bench/gen_winprob_tables.py`` writes the file: for 2, 3 and 4 players the per-deal
distributions measured in self-play (the play jointly or by role, each hand, the crib,
and the play still to come by the cards each side holds) and the start-of-deal table
solved from them (``engine.odds.model``); and, for 2 players, a linear fit of what a
kept hand pegs, which the master's discard uses.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Final

import numpy as np

from engine.odds.kept import read_only
from engine.odds.model import DealModel, FloatArray, Stage, deal_stages, sides_for
from engine.rules.cards import PIPS

DATA: Final = "data/winprob.npz"
KEEP_FEATURES: Final = 17


def _normalised(counts: FloatArray) -> FloatArray:
    total = counts.sum()
    result: FloatArray = counts / total if total else np.ones_like(counts) / counts.size
    return result


def show_order(players: int) -> tuple[tuple[int, int], ...]:
    """(seat role, side role) of each hand in counting order; the dealer (and crib) last."""
    sides = sides_for(players)
    return tuple((seat, seat % sides) for seat in (*range(1, players), 0))


def model_from_parts(
    players: int, pegging: FloatArray, hands: FloatArray, crib: FloatArray
) -> DealModel:
    """A DealModel from counts (or probabilities) by source: see bench/winprob_measure.py's
    ``DealCounts``."""
    if sides_for(players) == 2:
        peg = _normalised(np.asarray(pegging, dtype=np.float64))
    else:
        peg = np.array([_normalised(np.asarray(row, dtype=np.float64)) for row in pegging])
    shows = []
    for seat, side in show_order(players):
        dist = _normalised(np.asarray(hands[seat], dtype=np.float64))
        if seat == 0:
            dist = np.convolve(dist, _normalised(np.asarray(crib, dtype=np.float64)))
        shows.append((side, dist))
    return DealModel(players, peg, tuple(shows))


def keep_features(ranks: tuple[int, ...]) -> FloatArray:
    """Features of a kept hand (four ranks 1..13) for the pegging fit: a constant, how
    many of each rank, pairs, two-card fifteens and neighbouring ranks."""
    out = np.zeros(KEEP_FEATURES)
    out[0] = 1.0
    for rank in ranks:
        out[rank] += 1.0
    for i, a in enumerate(ranks):
        for b in ranks[i + 1 :]:
            out[14] += a == b
            out[15] += PIPS[a] + PIPS[b] == 15
            out[16] += abs(a - b) == 1
    return out


@dataclass(frozen=True)
class WinTables:
    """Everything in winprob.npz, ready to use. ``start[players]`` is
    ``[score by role..., role]``: each role's chance to win at the start of a deal."""

    start: dict[int, FloatArray]
    models: dict[int, DealModel]
    hands: dict[int, FloatArray]  # [seat role, points], probabilities
    crib: dict[int, FloatArray]
    rest: dict[int, FloatArray]  # counts, see bench/winprob_measure.py's DealCounts.rest
    keep_coef: FloatArray  # [role, feature], 2 players
    source: str
    _stages: dict[object, Any] = field(default_factory=dict, compare=False, repr=False)
    """Stages and rows asked for before, the same objects each time (their trimmed
    forms are kept by engine.odds.model)."""

    def rest_stages(self, players: int, left: tuple[int, ...]) -> list[Stage]:
        """The play still to come when each side (two) or role (three) holds ``left``
        cards: a joint table or one distribution per role, as deal stages."""
        key = (players, left)
        known = self._stages.get(key)
        if known is None:
            known = self._stages[key] = tuple(self._rest_stages(players, left))
        return list(known)

    def _rest_stages(self, players: int, left: tuple[int, ...]) -> list[Stage]:
        rest = self.rest[players]
        if sides_for(players) == 2:
            counts = rest[left[0], left[1]]
            if not counts.sum():
                counts = _nearest_rest(rest, left)
            return [("joint", -1, read_only(_normalised(counts)))]
        counts3 = rest[left[0], left[1], left[2]]
        stages: list[Stage] = []
        for role in (1, 2, 0):
            row = counts3[role]
            if not row.sum():
                row = np.zeros(rest.shape[-1])
                row[0] = 1.0 if left[role] == 0 else 0.0
                if left[role]:
                    row[1] = 1.0
            stages.append(("add", role, read_only(_normalised(row))))
        return stages

    def deal_stages(self, players: int) -> list[Stage]:
        known = self._stages.get(players)
        if known is None:
            known = self._stages[players] = tuple(deal_stages(self.models[players]))
        return list(known)

    def hand_average(self, players: int, role: int) -> FloatArray:
        """What the hand of the seat ``role`` places after the dealer scores, on average."""
        key = ("hand", players, role)
        known = self._stages.get(key)
        if known is None:
            known = self._stages[key] = self.hands[players][role]
        row: FloatArray = known
        return row

    def keep_pegging(self, ranks: tuple[int, ...], dealer: bool) -> float:
        """Expected (own pegging - the other's) for a kept hand, 2 players."""
        return float(keep_features(ranks) @ self.keep_coef[0 if dealer else 1])


def _nearest_rest(rest: FloatArray, left: tuple[int, ...]) -> FloatArray:
    """The counts for the nearest measured holding (a rare one, such as 0 against 3)."""
    best: FloatArray | None = None
    distance = 1 << 30
    for a in range(rest.shape[0]):
        for b in range(rest.shape[1]):
            if rest[a, b].sum() and abs(a - left[0]) + abs(b - left[1]) < distance:
                distance = abs(a - left[0]) + abs(b - left[1])
                best = rest[a, b]
    assert best is not None
    return best


def parse_win_tables(data: bytes) -> WinTables:
    """Read winprob.npz; raises ValueError if it is not one."""
    try:
        arrays = np.load(io.BytesIO(data), allow_pickle=False)
        start: dict[int, FloatArray] = {}
        for players in (2, 4):
            chance = np.asarray(arrays[f"start{players}"], dtype=np.float64)
            start[players] = np.stack([chance, 1.0 - chance], axis=-1)
        fixed = arrays["start3"].astype(np.float32) / np.float32(65535)
        third = np.clip(1.0 - fixed.sum(axis=-1, keepdims=True), 0.0, 1.0)
        start[3] = np.concatenate([fixed, third], axis=-1)
        models = {
            players: model_from_parts(
                players,
                arrays[f"pegging{players}"],
                arrays[f"hands{players}"],
                arrays[f"crib{players}"],
            )
            for players in (2, 3, 4)
        }
        hands = {
            p: arrays[f"hands{p}"] / arrays[f"hands{p}"].sum(axis=1, keepdims=True)
            for p in (2, 3, 4)
        }
        crib = {p: _normalised(arrays[f"crib{p}"]) for p in (2, 3, 4)}
        rest = {p: np.asarray(arrays[f"rest{p}"], dtype=np.float64) for p in (2, 3, 4)}
        keep_coef = np.asarray(arrays["keep_coef2"], dtype=np.float64)
        source = str(arrays["source"])
    except (KeyError, OSError, ValueError) as error:
        raise ValueError(f"winprob.npz: missing or malformed: {error}") from None
    for array in (*start.values(), *hands.values(), *crib.values(), *rest.values()):
        read_only(array)
    for model in models.values():
        read_only(model.pegging)
        for _, dist in model.shows:
            read_only(dist)
    return WinTables(start, models, hands, crib, rest, keep_coef, source)


@cache
def load_win_tables() -> WinTables:
    """The shipped arrays, read once (a few tenths of a second)."""
    data = resources.files("engine").joinpath(DATA).read_bytes()
    return parse_win_tables(data)
