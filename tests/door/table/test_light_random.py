"""A light stream draws repeatably and fairly, and keeps no generator between draws."""

from __future__ import annotations

import collections
import doctest
import gc
import random

import pytest

import door.table.light_random
from door.table.light_random import light_random
from engine.computer.player import ComputerPlayer
from engine.rules.game import Game


def test_the_examples() -> None:
    assert doctest.testmod(door.table.light_random).failed == 0


def test_the_parent_moves_on_by_one_seed() -> None:
    light_parent, plain_parent = random.Random(11), random.Random(11)
    light_random(light_parent)
    plain_parent.getrandbits(64)
    assert light_parent.random() == plain_parent.random()


def _throws_and_picks(seed: int) -> tuple[list[object], list[object]]:
    rng = light_random(random.Random(seed))
    computer = ComputerPlayer("easy", rng)  # the level that draws most
    thrown, picks = [], []
    for number in range(8):
        game = Game(2, rng=random.Random(number), dealer=number % 2)
        game.deal()
        thrown.append(tuple(computer.discard(game, 0)))
        picks.append(rng.sample(range(52), 3) + [rng.choice("abc")])
    return thrown, picks


def test_a_computer_on_a_light_stream_plays_the_same_from_the_same_seed() -> None:
    assert _throws_and_picks(5) == _throws_and_picks(5)
    assert _throws_and_picks(5) != _throws_and_picks(6)


def test_each_draw_is_fresh_and_fair() -> None:
    rng = light_random(random.Random(3))
    faces = collections.Counter(rng.randint(1, 6) for _ in range(6000))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(900 <= count <= 1100 for count in faces.values())  # about 8 sigma apart
    pairs = collections.Counter(
        (rng.randint(1, 2), rng.randint(1, 2)) for _ in range(4000)
    )  # one draw says nothing of the next
    assert all(850 <= count <= 1150 for count in pairs.values())


def test_it_keeps_no_generator_between_draws() -> None:
    rng = light_random(random.Random(3))
    rng.shuffle(list(range(10)))
    assert not any(isinstance(held, random.Random) for held in gc.get_referents(rng))


def test_a_name_a_generator_lacks_is_an_error() -> None:
    with pytest.raises(AttributeError):
        getattr(light_random(random.Random(3)), "roll_dice")  # noqa: B009
