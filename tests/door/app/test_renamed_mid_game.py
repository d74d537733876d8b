"""A member the sysop renames while they play another caller: hung up on (by the member
screen at once, or by the member watch when the shell renamed them), and the game goes
on as for any dropped line, under the new handle: the opponent is told, the seat waits
for the member to call back as the new handle (or the computer takes it), and they
take it back. On SQLite and PostgreSQL, as tests/door/storage."""

from __future__ import annotations

import asyncio
import random

from door.app.member_watch import hang_up_refused
from door.table.flow import Table
from door.table.options import GameOptions
from door.table.person import Person
from door.term.keys import Key
from door.ui.session import Session
from tests.door.app.test_lobby import challenge, in_lobby, log_text
from tests.door.app.test_saved_games import AccountDoor, account_door, flat
from tests.door.caller import KeyboardTerminal, play_together, run_async
from tests.door.fake_terminal import FakeTerminal
from tests.door.storage.conftest import Database
from tests.door.waiting import until


async def playing(
    door: AccountDoor,
) -> tuple[KeyboardTerminal, asyncio.Task[None], KeyboardTerminal, Table]:
    """Ada and Bob, members, play each other into the second hand; Ada's terminal and
    session, Bob's terminal, and the table."""
    ada = await door.store.create_account("Ada", "correct horse")
    bob = await door.store.create_account("Bob", "battery staple")
    ada_terminal, ada_task = door.call(ada)
    bob_terminal, _ = door.call(bob)
    await in_lobby(ada_terminal, bob_terminal)
    await challenge(ada_terminal, bob_terminal)
    await until(lambda: bool(door.presence.tables))
    table = door.presence.tables[0]
    await play_together([ada_terminal, bob_terminal], stop=lambda: table.game.hand_number >= 2)
    return ada_terminal, ada_task, bob_terminal, table


@run_async
async def test_renamed_on_the_member_screen_the_opponent_is_told_and_the_seat_waits_for_them(
    database: Database,
) -> None:
    async with account_door(database) as door:
        ada_terminal, ada_task, bob_terminal, table = await playing(door)
        sysop, _ = door.call(name="Sysop", sysop=True)
        await in_lobby(sysop)
        sysop.press("x")
        await until(lambda: "Members" in flat(sysop))
        sysop.press("m", "/ada", Key.ENTER)
        await until(lambda: "Members whose handle holds 'ada'" in flat(sysop))
        sysop.press("1", Key.ENTER)
        await until(lambda: "Addresses seen lately" in flat(sysop))
        sysop.press("r")
        await until(lambda: "New handle:" in flat(sysop))
        sysop.press("Adele", Key.ENTER)
        await until(ada_task.done)
        # The table hears it from the member screen at once, not from the member watch's
        # next look (none is running here): the line that drops is already Adele's.
        await until(lambda: "Adele's line has dropped." in flat(bob_terminal))
        assert "The sysop renamed Ada to Adele." in flat(bob_terminal)
        assert "Ada's line has dropped" not in flat(bob_terminal)
        assert table.names == ("Adele", "Bob")
        await play_together(
            [bob_terminal], stop=lambda: "p computer plays for Adele" in bob_terminal.status
        )
        assert "Adele's line dropped: waiting up to" in bob_terminal.message
        assert "Adele" in bob_terminal.display[0]  # the board's header names her anew
        scores, hand = tuple(table.game.scores), table.game.hand_number
        adele = await door.store.account("Adele")
        adele_terminal, _ = door.call(adele)
        await until(lambda: "You are back at the table" in log_text(adele_terminal))
        await until(lambda: "Adele is back." in log_text(bob_terminal))
        assert tuple(table.game.scores) == scores and table.game.hand_number == hand
        await play_together([adele_terminal, bob_terminal], stop=lambda: table.over)
        assert not any(seat.computer_plays for seat in table.seats)


@run_async
async def test_renamed_from_the_shell_the_member_watch_hangs_up_and_the_table_is_told(
    database: Database,
) -> None:
    async with account_door(database) as door:
        ada_terminal, ada_task, bob_terminal, table = await playing(door)
        # What `cribbage-door user rename` does in another process: the store alone.
        await door.store.rename_member("Ada", "Adele")
        assert await hang_up_refused(door.store, door.presence) == ["Ada"]
        await until(ada_task.done)
        assert "The sysop renamed your account to Adele: call again and log in as Adele" in (
            flat(ada_terminal)
        )
        await until(lambda: "Adele's line has dropped." in flat(bob_terminal))
        assert "The sysop renamed Ada to Adele." in flat(bob_terminal)
        assert await hang_up_refused(door.store, door.presence) == []  # told once
        assert flat(bob_terminal).count("The sysop renamed") == 1


def test_a_renamed_seat_is_named_anew_in_the_match_and_waits_for_its_account() -> None:
    table = Table(
        GameOptions(best_of=3),
        ["Ada", "Carl"],
        rng=random.Random(1),
        admit=Person,
        account_ids=[1, None],
    )  # nobody has sat down: both seats wait
    table.seat_renamed(table.seats[0], "Adele")
    assert table.names == ("Adele", "Carl") and table.title == "Adele vs Carl"
    assert table.match is not None and table.match.names == ("Adele", "Carl")
    assert table.waits_for("Adele", 1) is table.seats[0]
    assert table.waits_for("Ada", 1) is table.seats[0]  # the account, whatever it is called
    assert table.waits_for("Adele", None) is None  # a guest calling themselves so
    assert table.waits_for("Adele", 2) is None


def test_a_guest_calling_back_in_other_letters_keeps_the_seats_name() -> None:
    table = Table(
        GameOptions(), ["Carl", "Ada"], rng=random.Random(1), admit=Person, account_ids=[None, 1]
    )
    assert table.waits_for("carl", None) is table.seats[0]
    assert table.rejoin("carl", Session(FakeTerminal()), None) is not None
    assert table.names == ("Carl", "Ada")  # no "The sysop renamed Carl to carl"


@run_async
async def test_locked_from_the_shell_mid_game_the_seat_waits_for_no_call_back(
    database: Database,
) -> None:
    # By hand: `cribbage-door user lock Ada --hours 1` while Ada played Bob; Bob read
    # "Ada's line dropped: waiting up to 2 minutes for a call back", a call back the
    # lock refuses, and was kept waiting for nothing.
    async with account_door(database) as door:
        ada_terminal, ada_task, bob_terminal, table = await playing(door)
        await door.store.lock_member("Ada", "spam in chat")
        assert await hang_up_refused(door.store, door.presence) == ["Ada"]
        await until(ada_task.done)
        await until(lambda: "Ada's line has dropped." in flat(bob_terminal))
        await hang_up_refused(door.store, door.presence)  # the next look
        told = "The sysop locked Ada's account: the computer plays for Ada"
        await until(lambda: told in flat(bob_terminal))
        # The game goes on to its end with Bob alone, the computer for Ada.
        await play_together([bob_terminal], stop=lambda: table.over)
        assert table.seats[0].computer_plays
