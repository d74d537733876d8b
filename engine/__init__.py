"""The cribbage rules engine: pure Python, no I/O.

>>> from engine import parse_cards, score_show, score_peg
>>> hand = parse_cards("5H 5D JS QC")
>>> score = score_show(hand, parse_cards("5S")[0])
>>> score.total
21
>>> score_peg(parse_cards("4S 2H 3D"))
3
"""

from engine.rules.cards import (
    FULL_DECK,
    Card,
    Deck,
    Rank,
    Suit,
    format_cards,
    parse_cards,
    pip_total,
)
from engine.rules.errors import CribbageError, IllegalActionError, InvalidClaimError, NotationError
from engine.rules.game import Game, Phase, Play
from engine.rules.scoring import (
    ScoreItem,
    ShowScore,
    announce,
    peg_items,
    score_peg,
    score_show,
    show_items,
)

__all__ = [
    "FULL_DECK",
    "Card",
    "CribbageError",
    "Deck",
    "Game",
    "IllegalActionError",
    "InvalidClaimError",
    "NotationError",
    "Phase",
    "Play",
    "Rank",
    "ScoreItem",
    "ShowScore",
    "Suit",
    "announce",
    "format_cards",
    "parse_cards",
    "peg_items",
    "pip_total",
    "score_peg",
    "score_show",
    "show_items",
]
