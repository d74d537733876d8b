"""Company.log: each person at a table reads what an action did in their own words, and
the words are put together once a way of seeing the game, not once a person."""

from __future__ import annotations

import random

import pytest

from door.screens import narration
from door.table import company
from door.table.flow import Table
from door.table.options import GameOptions
from door.table.person import Person
from door.ui.session import Session
from tests.door.caller import run_async
from tests.door.fake_terminal import FakeTerminal


def last_line(person: Person) -> str:
    """The last thing told, its wrapped rows joined again."""
    return " ".join(line.text for line in person.view.log.lines[-2:])


@run_async
async def test_watchers_share_one_narration_and_each_seat_reads_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = Table(GameOptions(level="easy"), ["Ann", None], rng=random.Random(3), admit=Person)
    ann = table.sit(0, Session(FakeTerminal()))
    watchers = [table.watch(f"W{n}", Session(FakeTerminal())) for n in range(4)]
    game = table.game
    game.cut_for_deal()
    game.deal()
    for seat in (0, 1):
        game.discard(seat, list(game.hand(seat)[:2]))
    game.cut(10)
    if game.turn != 0:
        game.play(1, game.playable(1)[0])
    assert game.turn == 0
    events = game.play(0, game.playable(0)[0])  # "You play" to Ann, "Ann plays" to others
    narrated: list[int | None] = []

    def counted(events: object, names: object, viewer: int | None = 0) -> str:
        narrated.append(viewer)
        return narration.narrate(events, names, viewer)  # type: ignore[arg-type]

    monkeypatch.setattr(company, "narrate", counted)
    for person in (ann, *watchers):
        person.view.log.add("-")  # the line before: what the table tells comes after
    table.log(events)
    assert sorted(narrated, key=str) == [0, None]
    assert last_line(ann) == "- " + narration.narrate(events, table.names, 0)
    for watcher in watchers:
        assert last_line(watcher) == "- " + narration.narrate(events, table.names, None)
    assert last_line(ann) != last_line(watchers[0])  # "you" for Ann, names for watchers
