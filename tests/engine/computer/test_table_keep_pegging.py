"""The master's discard at four weighs what the cards it keeps peg (engine.computer.
table_keep_pegging): the play is most of a deal's points at four, and near the end it can
be all that decides the game."""

from __future__ import annotations

import random

from engine.computer.player import ComputerPlayer
from engine.computer.table_keep_pegging import keep_pegging
from engine.rules.cards import format_cards, parse_cards
from engine.rules.game import Game
from tests.stacked import StackedRandom


def test_low_cards_peg_more_than_court_cards_at_every_place() -> None:
    # Low cards let a side lay on a high count, for the go and for 31; court cards
    # stop at twenty and give the next seat fifteens. So the measured fit gives a side
    # more of the play with A 2 3 4 kept than with 10 J Q K, whichever seat keeps them.
    low, court = parse_cards("AS 2H 3D 4C"), parse_cards("10S JH QD KC")
    for place in range(4):
        ours, theirs = keep_pegging([low, court], place)
        assert ours[0] - theirs[0] > ours[1] - theirs[1] + 1.0


def test_where_only_the_play_can_win_the_master_keeps_its_ace() -> None:
    # Seat 0 deals, its side on 117 and the other on 119. The other side counts its
    # hands first and needs two: we win only by pegging four in the play, so our hand's
    # and crib's points are worth nothing. Kings and queens stop at twenty; the ace lays
    # on a count of thirty for 31 and two. Without the play's measure every throw had
    # the same chance and the points chose: KK QQ kept (four for the pairs), the ace
    # thrown to the crib.
    game = Game(4, rng=StackedRandom("KS KH QD QC AS"), dealer=0)
    game.deal()
    game.scores = [117, 119]
    thrown = ComputerPlayer("master", random.Random(1)).discard(game, 0)
    assert format_cards(thrown) != "AS"
