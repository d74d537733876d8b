"""What the four cards a seat keeps at four are measured to peg, for the master's discard.

``engine/data/keep_pegging4.json`` (written by ``bench/keep_pegging4.py``) holds, by the
seat's place from the dealer, a least-squares fit of its partnership's pegging and of
the other partnership's on the kept ranks (``engine.odds.tables.keep_features``: how many
of each rank, pairs, two-card fifteens, neighbours), measured in the expert's self-play
at four. The two-player master's discard has had such a fit from the start
(``engine.odds.tables.WinTables.keep_pegging``); without one at four every keep pegged
the deal's average.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources

import numpy as np

from engine.odds.hand_tables import FloatArray
from engine.odds.position import GOAL
from engine.odds.tables import KEEP_FEATURES, keep_features
from engine.odds.winprob import win_chances
from engine.rules.cards import Card
from engine.rules.game import Game

# Points either way over which a point's value is measured (as engine.computer.table_play).
POINT_STEP = 2


@cache
def _coefficients() -> tuple[FloatArray, FloatArray]:
    """(ours, theirs): each [seat role, feature]. Raises ValueError if the file is not one."""
    text = resources.files("engine").joinpath("data/keep_pegging4.json").read_text("utf-8")
    data = json.loads(text)
    ours = np.asarray(data["ours"], dtype=np.float64)
    theirs = np.asarray(data["theirs"], dtype=np.float64)
    if ours.shape != (4, KEEP_FEATURES) or theirs.shape != ours.shape:
        raise ValueError("keep_pegging4.json: a fit of four roles by the keep features")
    return ours, theirs


def keep_pegging(keeps: Sequence[Sequence[Card]], role: int) -> tuple[FloatArray, FloatArray]:
    """For each kept hand of the seat ``role`` places after the dealer at four: the
    points its partnership is measured to peg, and the other partnership's."""
    ours, theirs = _coefficients()
    features = np.array(
        [keep_features(tuple(sorted(int(card.rank) for card in kept))) for kept in keeps]
    )
    mine: FloatArray = features @ ours[role]
    other: FloatArray = features @ theirs[role]
    return mine, other


def point_values(game: Game, side: int) -> tuple[float, float]:
    """What a point to ``side`` and one to the other side are worth to ``side``'s chance
    to win, at the board before this deal (a four-player game)."""
    scores = [min(score, GOAL - 1) for score in game.scores]
    values = []
    for scoring in (side, 1 - side):
        up, down = list(scores), list(scores)
        up[scoring] = min(scores[scoring] + POINT_STEP, GOAL - 1)
        down[scoring] = max(scores[scoring] - POINT_STEP, 0)
        gained = win_chances(up, game.dealer, game.players)[side]
        lost = win_chances(down, game.dealer, game.players)[side]
        values.append((gained - lost) / max(up[scoring] - down[scoring], 1))
    return values[0], values[1]
