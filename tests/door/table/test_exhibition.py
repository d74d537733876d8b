"""The computer playing itself for watchers: games one after another, a speed the
watcher sets, and an end when the last watcher leaves."""

from __future__ import annotations

import asyncio
import random

from door.table.company import EXHIBITION_PAUSES
from door.table.flow import Table
from door.table.options import GameOptions
from door.table.person import Person
from door.ui.session import Session
from tests.door.fake_terminal import FakeTerminal
from tests.door.table.heard import Heard
from tests.door.waiting import until


def test_the_computer_plays_itself_until_the_last_watcher_leaves() -> None:
    async def scenario() -> None:
        heard = Heard()
        table = Table(
            GameOptions(level="easy"),
            [None, None],
            rng=random.Random(4),
            admit=Person,
            pause=0,
            listener=heard,
        )
        assert table.exhibition and not table.solo
        watcher = table.watch("Ada", Session(FakeTerminal()))
        ended = heard.results
        table.start()
        await until(
            lambda: len(ended) >= 1 and table.game.hand_number >= 1,
            15,
            what="a game over and the next one dealt",
        )
        assert ended, "no game was finished"
        assert not table.over  # a finished game is followed by the next one
        assert watcher.win_chances() is not None  # a watcher of the computer sees the bar
        table.person_quit(watcher)
        assert table.over and table.abandoned
        assert heard.abandoned_count == 1  # its keeper is told, once

    asyncio.run(scenario())


def test_plus_and_minus_step_through_the_speeds() -> None:
    table = Table(GameOptions(), [None, None], rng=random.Random(1), admit=Person, pause=0.8)
    said = table.change_speed(faster=True)
    assert table.pause_seconds == 0.5 and said.startswith("Speed: 0.5 seconds a move")
    for _ in range(10):
        table.change_speed(faster=True)
    assert table.pause_seconds == EXHIBITION_PAUSES[0] == 0
    for _ in range(10):
        table.change_speed(faster=False)
    assert table.pause_seconds == EXHIBITION_PAUSES[-1]
