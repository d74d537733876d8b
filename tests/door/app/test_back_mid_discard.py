"""A caller who calls back while the computer has their seat (it took it when the wait
for them ran out) and its throw for them has not landed yet throws for themselves: the
six cards they see are theirs to choose from. It was the computer's throw that landed, a
moment later, and the caller who had called back to play watched their hand shrink."""

from __future__ import annotations

import asyncio
import re

from door.table.words import faces
from engine.rules.game import Phase
from tests.door.app.test_lobby import Callers, game_with_a_drop, log_text
from tests.door.caller import play_together, run_async
from tests.door.waiting import until


@run_async
async def test_back_before_the_computers_throw_lands_the_caller_throws_for_themselves() -> None:
    door = Callers(reconnect_wait_seconds=2)
    alice, _, table = await game_with_a_drop(door)
    await play_together([alice], stop=lambda: table.seats[1].computer_plays)
    taken_in_hand = table.game.hand_number
    # Into the next discard, Alice not yet thrown: the computer thinks for Bob's seat,
    # and its throw lands once the callers' have.
    await play_together(
        [alice],
        stop=lambda: (
            table.game.hand_number > taken_in_hand
            and table.game.phase is Phase.DISCARD
            and not table.game.has_discarded(0)
        ),
    )
    alice.hang_up()  # the discard now waits for Alice, with Bob's throw still to come
    bob, _ = door.call("Bob")
    await until(lambda: "You are back at the table" in log_text(bob))
    # Alice's wait runs out and the computer throws for her: no caller's throw is left
    # to come, yet Bob's seat waits for Bob.
    await until(lambda: table.game.has_discarded(0), timeout=20)
    await asyncio.sleep(0.3)
    back = table.seats[1].person
    assert back is not None and back.deciding
    assert not table.game.has_discarded(1)
    await play_together([bob], stop=lambda: table.game.has_discarded(1))
    told = log_text(bob)  # Bob's terminal is the call back's: all of it is after it
    said = re.search(r"You throw (\S+ \S+) to (your|Alice's) crib", told)
    assert said, told
    assert "for you" not in told
    assert faces(back.thrown) == said.group(1) and set(back.thrown) <= set(table.game.crib)
    await door.close()
