"""A caller who calls back while the computer is choosing their discard (it took their
seat when the wait for them ran out) is told which cards it threw for them: the log
leaves out a seat's own throw (the table tells it), so without a word they saw their
hand shrink by two cards and never learned which went to the crib."""

from __future__ import annotations

import re

from door.table.words import faces
from engine.rules.game import Phase
from tests.door.app.test_lobby import Callers, game_with_a_drop, log_text
from tests.door.caller import play_together, run_async
from tests.door.waiting import until


@run_async
async def test_back_while_the_computer_throws_for_them_the_caller_hears_which_cards() -> None:
    door = Callers(reconnect_wait_seconds=2)
    alice, _, table = await game_with_a_drop(door)
    await play_together([alice], stop=lambda: table.seats[1].computer_plays)
    taken_in_hand = table.game.hand_number
    # Into the next discard, Alice not yet thrown: the computer thinks for Bob's seat.
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
    await until(lambda: table.game.has_discarded(1), timeout=20)
    await until(lambda: "for you" in log_text(bob))
    told = log_text(bob)  # Bob's terminal is the call back's: all of it is after it
    said = re.search(r"The computer threw (\S+ \S+) to (your|Alice's) crib for you", told)
    assert said, told
    # His win bar and coach know the two cards, as if he had thrown them himself.
    back = table.seats[1].person
    assert back is not None and len(back.thrown) == 2
    assert faces(back.thrown) == said.group(1) and set(back.thrown) <= set(table.game.crib)
    await door.close()
