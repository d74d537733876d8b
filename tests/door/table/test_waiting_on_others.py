"""A player whose table waits on another caller's decision is not hung up for the
other's slowness; their own decision counts against them from the moment it is theirs."""

from __future__ import annotations

import asyncio
import random

import pytest

from door.table.flow import Table
from door.table.options import GameOptions
from door.table.person import Person
from door.table.question import Cut
from door.term.idle import IdleGuardTerminal, IdleTimeout
from door.ui.session import Session
from tests.door.caller import run_async, screen_of
from tests.door.fake_terminal import FakeTerminal
from tests.door.waiting import until

WARN_AFTER = 0.1
HANG_UP_AFTER = 0.2


def warned(terminal: FakeTerminal) -> bool:
    return "Are you there?" in "\n".join(screen_of(terminal).display)


def guarded_table() -> tuple[Table[Person], FakeTerminal, FakeTerminal]:
    """Two callers, each behind an idle guard that warns at 0.1 s and hangs up at 0.2 s."""
    table = Table(GameOptions(level="easy"), ["A", "B"], rng=random.Random(3), admit=Person)
    lines = FakeTerminal(), FakeTerminal()
    for index, line in enumerate(lines):
        table.sit(index, Session(IdleGuardTerminal(line, WARN_AFTER, HANG_UP_AFTER)))
    return table, *lines


@run_async
async def test_a_player_waiting_on_the_other_is_not_hung_up_then_their_own_turn_counts() -> None:
    table, a_line, _ = guarded_table()
    a, b = (seat.person for seat in table.seats)
    assert isinstance(a, Person) and isinstance(b, Person)
    a_attends = asyncio.ensure_future(a.attend())
    b_cuts = asyncio.ensure_future(table.decide(table.seats[1], Cut(40)))
    await asyncio.sleep(HANG_UP_AFTER * 3)  # B thinks three hang-ups long
    assert not a_attends.done() and not warned(a_line)

    request = b.current_request()
    assert request is not None
    request.future.set_result(7)  # B cuts
    assert await b_cuts == 7
    a_cuts = asyncio.ensure_future(table.decide(table.seats[0], Cut(40)))
    loop = asyncio.get_running_loop()
    turn_came = loop.time()
    await until(lambda: warned(a_line), what="A warned on their own turn")
    warned_after = loop.time() - turn_came
    with pytest.raises(IdleTimeout):
        await a_attends
    hung_up_after = loop.time() - turn_came
    a_cuts.cancel()
    # A's own turn counted from when it came, not from A's last key before B's wait.
    assert warned_after >= WARN_AFTER * 0.9
    assert hung_up_after >= HANG_UP_AFTER * 0.9


@run_async
async def test_the_player_everyone_waits_for_is_hung_up_as_before_and_the_other_told_why() -> None:
    table, a_line, b_line = guarded_table()
    a, b = (seat.person for seat in table.seats)
    assert isinstance(a, Person) and isinstance(b, Person)
    a_attends = asyncio.ensure_future(a.attend())
    b_attends = asyncio.ensure_future(b.attend())
    b_cuts = asyncio.ensure_future(table.decide(table.seats[1], Cut(40)))
    with pytest.raises(IdleTimeout):
        await asyncio.wait_for(b_attends, HANG_UP_AFTER * 10)
    assert warned(b_line)
    await until(
        lambda: "B's line was closed: no key pressed" in "\n".join(screen_of(a_line).display),
        what="A told why B's line went",
    )
    assert not a_attends.done() and not warned(a_line)
    a_attends.cancel()
    b_cuts.cancel()


@run_async
async def test_leaving_the_table_while_others_decide_leaves_the_guard_counting() -> None:
    table, a_line, _ = guarded_table()
    a = table.seats[0].person
    assert isinstance(a, Person)
    a_attends = asyncio.ensure_future(a.attend())
    b_cuts = asyncio.ensure_future(table.decide(table.seats[1], Cut(40)))
    await asyncio.sleep(0.02)
    a_attends.cancel()  # A goes (to the lobby, say) while B still decides
    with pytest.raises(asyncio.CancelledError):
        await a_attends
    with pytest.raises(IdleTimeout):  # the lobby's guard counts again
        await asyncio.wait_for(a.session.inbox.next(), HANG_UP_AFTER * 5)
    assert warned(a_line)
    b_cuts.cancel()
