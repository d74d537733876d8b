"""Game.snapshot: the computer decides on a copy that shares nothing with the live game."""

from __future__ import annotations

import random

from engine.computer.player import ComputerPlayer
from engine.rules.game import Game, Phase
from engine.rules.record import RecordedGame


def dealt_game(seed: int = 4) -> Game:
    game = Game(2, rng=random.Random(seed), dealer=0)
    game.deal()
    return game


def test_a_snapshot_stands_where_the_game_stands() -> None:
    game = dealt_game()
    twin = game.snapshot()
    assert type(twin) is Game
    assert twin.phase is Phase.DISCARD
    assert [twin.hand(seat) for seat in (0, 1)] == [game.hand(seat) for seat in (0, 1)]
    assert twin.scores == game.scores and twin.dealer == game.dealer


def test_playing_on_the_snapshot_leaves_the_live_game_untouched() -> None:
    game = dealt_game()
    hands_before = [list(game.hand(seat)) for seat in (0, 1)]
    twin = game.snapshot()
    for seat in (0, 1):
        twin.discard(seat, ComputerPlayer("expert", random.Random(1)).discard(twin, seat))
    twin.cut(10)
    assert twin.phase is Phase.PLAY
    assert game.phase is Phase.DISCARD and game.starter is None
    assert [list(game.hand(seat)) for seat in (0, 1)] == hands_before
    assert len(game.crib) == 0


def test_the_snapshot_shuffles_as_the_game_would_and_separately() -> None:
    game = dealt_game()
    twin = game.snapshot()
    assert twin.rng is not game.rng
    assert [twin.rng.random() for _ in range(3)] == [game.rng.random() for _ in range(3)]


def test_a_recorded_games_snapshot_records_nothing() -> None:
    heard: list[object] = []
    game = RecordedGame(2, seed=7, dealer=0, on_action=lambda *action: heard.append(action))
    game.deal()
    heard.clear()
    twin = game.snapshot()
    twin.discard(0, list(twin.hand(0))[:2])
    assert heard == []
    assert len(game.hand(0)) == 6
