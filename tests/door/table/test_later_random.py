"""A stream made at its first use draws exactly what one made at once would."""

from __future__ import annotations

import doctest
import random

import door.table.later_random
from door.table.later_random import random_later
from engine.ai import ComputerPlayer
from engine.game import Game


def test_the_examples() -> None:
    assert doctest.testmod(door.table.later_random).failed == 0


def test_the_parent_moves_on_as_if_the_stream_were_made_at_once() -> None:
    lazy_parent, eager_parent = random.Random(11), random.Random(11)
    random_later(lazy_parent)
    random.Random(eager_parent.getrandbits(64))
    assert lazy_parent.random() == eager_parent.random()


def test_a_computer_on_a_later_stream_plays_as_on_a_stream_made_at_once() -> None:
    def game_and_throw(make: str) -> tuple[list[object], list[object]]:
        parent = random.Random(5)
        rng = random_later(parent) if make == "later" else random.Random(parent.getrandbits(64))
        computer = ComputerPlayer("easy", rng)  # the level that draws most
        thrown, picks = [], []
        for number in range(8):
            game = Game(2, rng=random.Random(number), dealer=number % 2)
            game.deal()
            thrown.append(tuple(computer.discard(game, 0)))
            picks.append(rng.sample(range(52), 3) + [rng.choice("abc")])
        return thrown, picks

    assert game_and_throw("later") == game_and_throw("now")
