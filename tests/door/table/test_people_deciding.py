"""Company.people_deciding: whether keys work while a person waits (someone is asked
something, or the table waits for a caller whose line dropped)."""

from __future__ import annotations

import random

from door.table.flow import Table
from door.table.options import GameOptions
from door.table.person import Person
from door.table.question import Cut
from door.ui.session import Session
from tests.door.caller import run_async
from tests.door.fake_terminal import FakeTerminal


def table_of_two_callers() -> tuple[Table[Person], Person, Person]:
    table = Table(GameOptions(level="easy"), ["A", "B"], rng=random.Random(3), admit=Person)
    return table, table.sit(0, Session(FakeTerminal())), table.sit(1, Session(FakeTerminal()))


@run_async
async def test_nobody_asked_and_nobody_waited_for_is_nobody_deciding() -> None:
    table, _, _ = table_of_two_callers()
    assert not table.people_deciding()


@run_async
async def test_a_player_asked_something_is_deciding_until_they_answer() -> None:
    table, _, b = table_of_two_callers()
    asked = b.ask(Cut(40))
    assert table.people_deciding()
    asked.set_result(7)
    assert not table.people_deciding()


@run_async
async def test_a_seat_waited_for_counts_while_its_caller_is_away_not_once_back() -> None:
    table, _, _ = table_of_two_callers()
    table.wait_for(0, "A")
    assert not table.people_deciding()  # waited for, but sitting there
    table.seats[0].person = None  # their line dropped
    assert table.people_deciding()
    table.seats[0].left = True  # gone for good: nobody waits any more
    assert not table.people_deciding()
