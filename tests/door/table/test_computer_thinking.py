"""Where the computer's decisions run: quick ones on the event loop, slow ones on a
worker thread (door/table/computer.py)."""

from __future__ import annotations

import asyncio
import random
import threading

from door.table.computer import is_quick, think
from engine.computer.player import ComputerPlayer
from engine.rules.game import Game, Phase


def _dealt() -> Game:
    game = Game(2, rng=random.Random(4), dealer=0)
    game.deal()
    assert game.phase is Phase.DISCARD
    return game


def test_easy_and_normal_decisions_and_every_cut_are_quick() -> None:
    normal, expert = ComputerPlayer("normal"), ComputerPlayer("expert")
    assert is_quick(normal.discard)
    assert is_quick(ComputerPlayer("easy").play)
    assert is_quick(expert.cut)
    assert is_quick(expert.claim)
    assert not is_quick(expert.discard)
    assert not is_quick(ComputerPlayer("master").play)
    assert not is_quick(lambda: None)  # not the computer player's: never assumed quick


def _thread_of(player: ComputerPlayer, game: Game) -> tuple[int, tuple[object, ...]]:
    seen: list[int] = []
    decide = player.discard

    def watched(game: Game, seat: int) -> tuple[object, ...]:
        seen.append(threading.get_ident())
        return tuple(decide(game, seat))

    # Keep the bound method's identity for is_quick while recording the thread.
    watched.__self__ = player  # type: ignore[attr-defined]
    watched.__name__ = "discard"
    thrown = asyncio.run(think(watched, game, 1))
    return seen[0], thrown


def test_a_quick_decision_runs_on_the_event_loop_and_a_slow_one_on_a_worker() -> None:
    game = _dealt()
    here = threading.get_ident()
    quick_thread, quick_throw = _thread_of(ComputerPlayer("normal", random.Random(1)), game)
    slow_thread, slow_throw = _thread_of(ComputerPlayer("expert", random.Random(1)), game)
    assert quick_thread == here
    assert slow_thread != here
    for thrown in (quick_throw, slow_throw):
        assert len(thrown) == 2 and set(thrown) <= set(game.hand(1))


def test_the_table_hands_a_quick_decision_the_live_game_and_a_slow_one_a_snapshot() -> None:
    """A quick decision is made at once, before anything else can move the game, so it
    needs no copy of it; a slow one runs while the game may move on, so it gets one."""
    from door.table.flow import Table
    from door.table.options import GameOptions
    from door.table.person import Person

    async def games_seen() -> list[bool]:
        table = Table(GameOptions(), [None, None], rng=random.Random(3), admit=Person, pause=0)
        live: list[bool] = []
        for level in ("normal", "expert"):
            player = ComputerPlayer(level, random.Random(1))

            def watched(game: Game, seat: int) -> int:
                live.append(game is table.game)
                return seat

            watched.__self__ = player  # type: ignore[attr-defined]
            watched.__name__ = "discard"  # quick for normal, slow for expert
            assert await table.thoughts.decide(watched, table.game, 1) is not None
        return live

    assert asyncio.run(games_seen()) == [True, False]
