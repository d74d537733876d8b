"""The computer answers the table's questions for a seat, and where its player fails or
answers what cannot be played, a legal stand-in keeps the game going."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence

import pytest

from door.metrics.tally import TALLY
from door.table.computer import ComputerSeat, Thoughts
from door.table.question import Count, Cut, Discard, Play, PlayAgain, Question
from engine.computer.player import ComputerPlayer
from engine.rules.cards import Card
from engine.rules.game import Game, Phase


class WrongPlayer(ComputerPlayer):
    """A player whose every answer is wrong: cards not in the hand, a cut off the deck,
    a claim that is no number."""

    def discard(self, game: Game, seat: int) -> Sequence[Card]:
        return [Card.parse("AS"), Card.parse("AS")]

    def cut(self, game: Game, seat: int) -> int:
        return 99

    def play(self, game: Game, seat: int) -> Card:
        others = [card for card in game.hand(1 - seat)]
        return others[0]

    def claim(self, game: Game, seat: int) -> int:
        return "lots"  # type: ignore[return-value]


class FailingPlayer(ComputerPlayer):
    """A player that raises at every decision (a bug in it)."""

    def discard(self, game: Game, seat: int) -> Sequence[Card]:
        raise RuntimeError("discard")

    def cut(self, game: Game, seat: int) -> int:
        raise RuntimeError("cut")

    def play(self, game: Game, seat: int) -> Card:
        raise RuntimeError("play")

    def claim(self, game: Game, seat: int) -> int:
        raise RuntimeError("claim")


def game_at(phase: Phase) -> Game:
    game = Game(2, counting="manual", rng=random.Random(5))
    game.cut_for_deal()
    game.deal()
    if phase is Phase.DISCARD:
        return game
    for seat in (0, 1):
        game.discard(seat, game.hand(seat)[:2])
    if phase is Phase.CUT:
        return game
    game.cut(10)
    assert game.phase is Phase.PLAY
    return game


def answer(player: ComputerPlayer, question: Question[object], game: Game, seat: int) -> object:
    async def ask() -> object:
        return await ComputerSeat(player, seat, Thoughts(), random.Random(1)).answer(question, game)

    return asyncio.run(ask())


@pytest.mark.parametrize("player", [WrongPlayer("easy"), FailingPlayer("easy")])
def test_a_wrong_or_failing_computer_still_answers_legally(player: ComputerPlayer) -> None:
    game = game_at(Phase.DISCARD)
    thrown = answer(player, Discard(tuple(game.hand(1)), 2, "your crib"), game, 1)
    assert isinstance(thrown, list) and len(set(thrown)) == 2 and set(thrown) <= set(game.hand(1))

    game = game_at(Phase.CUT)
    position = answer(player, Cut(game.stock_size), game, game.cutter)
    assert isinstance(position, int) and 1 <= position <= game.stock_size

    game = game_at(Phase.PLAY)
    assert game.turn is not None
    turn = game.turn
    playable = game.playable(turn)
    card = answer(player, Play(tuple(game.hand(turn)), frozenset(playable), game.count), game, turn)
    assert card in playable

    assert answer(player, Count("Your hand", False), game, 0) == 0


def test_the_computer_says_no_to_another_game_for_a_caller_who_is_gone() -> None:
    game = game_at(Phase.DISCARD)
    assert answer(ComputerPlayer("easy"), PlayAgain("Play again?", None, False), game, 0) is False  # type: ignore[arg-type]


def test_the_computer_answers_what_a_good_player_would() -> None:
    """Not a stand-in: the player's own legal answer is the one given."""
    game = game_at(Phase.PLAY)
    assert game.turn is not None
    turn = game.turn
    player = ComputerPlayer("easy", random.Random(2))
    expected = ComputerPlayer("easy", random.Random(2)).play(game.snapshot(), turn)
    question = Play(tuple(game.hand(turn)), frozenset(game.playable(turn)), game.count)
    assert answer(player, question, game, turn) == expected


class SlowNormalPlayer(ComputerPlayer):
    """A quick level's player (decided on the loop, not on a thread) taking its time."""

    def discard(self, game: Game, seat: int) -> Sequence[Card]:
        deadline = time.perf_counter() + 0.02
        while time.perf_counter() < deadline:
            pass
        return super().discard(game, seat)


def test_the_computers_quick_decisions_are_counted_with_their_time() -> None:
    """The door's metrics (and bench/load.py) count every decision the callers wait for,
    those made at once on the loop too: before, only those sent to a thread."""
    game = game_at(Phase.DISCARD)
    decisions, seconds = TALLY.computer_decisions, TALLY.computer_seconds
    question = Discard(tuple(game.hand(1)), 2, "your crib")
    thrown = answer(SlowNormalPlayer("normal", random.Random(2)), question, game, 1)
    assert len(thrown) == 2  # type: ignore[arg-type]
    assert TALLY.computer_decisions == decisions + 1
    assert TALLY.computer_seconds - seconds >= 0.02
