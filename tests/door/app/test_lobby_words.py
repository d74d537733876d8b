"""The lobby's words as a caller and the sysop read them: what choosing someone by number
asks for, the sysop's own keys and name, and where the menu is."""

from __future__ import annotations

import asyncio
import random

from door.app.call import Caller, run_session
from door.app.presence import Presence
from door.app.records import Records
from door.config import config_from_mapping
from door.storage.store import Store
from door.term.keys import Key
from tests.door.app.test_lobby import Callers, flat, in_lobby, screen, settled
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.storage.conftest import (
    FAST_HASHER,
    Database,
    sqlite_database,  # noqa: F401 (a fixture)
)
from tests.door.waiting import until


@run_async
async def test_one_person_is_chosen_by_their_number_alone() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    await in_lobby(alice, bob)
    alice.press("w")
    await settled(alice)
    assert "Press the number of a person in the list." in flat(alice)
    assert "RETURN" not in flat(alice).split("Press the number")[1]
    alice.press("2")  # no RETURN: the number does it
    await until(lambda: "challenges you" in screen(bob))
    await door.close()


@run_async
async def test_several_people_are_chosen_then_return() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    await in_lobby(alice, bob)
    alice.press("g", "w")  # three players: up to two others
    await settled(alice)
    assert "Press the number of each person in the list (up to 2), then RETURN." in flat(alice)
    assert "RETURN done" in alice.status
    await door.close()


@run_async
async def test_the_menu_is_above_the_line_that_points_to_it() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    await in_lobby(alice)
    rows = alice.display
    message_row = next(n for n, row in enumerate(rows) if "Choose from the menu" in row)
    assert "Choose from the menu above." in rows[message_row]
    assert any("P Play the computer" in row for row in rows[:message_row])
    await door.close()


@run_async
async def test_the_sysops_lobby_lists_tournaments_and_names_the_sysop_once(
    sqlite_database: Database,  # noqa: F811
) -> None:
    store = await Store.open(
        sqlite_database.url, connect_args=sqlite_database.connect_args, hasher=FAST_HASHER
    )
    records = Records(store)
    config = config_from_mapping({"game": {"computer_pause_seconds": 0}})
    terminal = KeyboardTerminal()
    caller = Caller("Sysop", "console", sysop=True)
    presence = Presence("Sysop", random.Random(1))
    task = run_session(terminal, config, caller, random.Random(2), presence, records)
    running = asyncio.ensure_future(task)
    try:
        await in_lobby(terminal)
        text = screen(terminal)
        assert any("U Tournaments" in row for row in terminal.display[16:20])  # the keys
        assert "guest" not in text
        assert "Sysop (you)" in text and "(sysop)" not in text
        terminal.press("u")
        await until(lambda: "Tournament" in terminal.display[0])
        terminal.press(Key.ESCAPE)
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        await records.close()


@run_async
async def test_a_guest_is_asked_for_the_name_they_play_under() -> None:
    config = config_from_mapping({"game": {"computer_pause_seconds": 0}})
    terminal = KeyboardTerminal()
    presence = Presence("Sysop", random.Random(1))
    running = asyncio.ensure_future(
        run_session(
            terminal, config, Caller(None, "test", arriving_as="guest"), random.Random(2), presence
        )
    )
    try:
        await until(lambda: "Your name:" in screen(terminal))
        assert "player 1" not in screen(terminal)
        assert "Type the name you will play under." in screen(terminal)
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)


@run_async
async def test_a_long_challenge_shows_its_keys_and_all_its_terms() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    await in_lobby(alice, bob)
    alice.press("g", "g", "2", "a", "m", "w", "2", Key.ENTER)  # 4 players, exact, manual, match
    await until(lambda: "challenges you" in screen(bob))
    await settled(bob)
    assert "Y accept  N decline" in screen(bob)
    assert "manual count, best of 3" in flat(bob)
    await door.close()


@run_async
async def test_a_note_stands_until_the_next_key_only() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    await in_lobby(alice)
    alice.press("p")
    await until(lambda: "Esc " in alice.status)
    alice.press(Key.ESCAPE)  # the quit dialog, or the table's keys (then q asks)
    await until(lambda: "Quit this game?" in flat(alice) or "q quit" in alice.status)
    if "Quit this game?" not in flat(alice):
        alice.press("q")
        await until(lambda: "Quit this game?" in flat(alice))
    alice.press("y")
    await until(lambda: "Game abandoned." in flat(alice))
    await in_lobby(alice)
    alice.press("2")  # exact runs: nothing was abandoned this time
    await settled(alice)
    assert "runs: exact" in flat(alice)
    assert "Game abandoned." not in flat(alice)
    assert "Choose from the menu above." in flat(alice)
    await door.close()


@run_async
async def test_a_name_too_long_from_the_transport_is_asked_again() -> None:
    config = config_from_mapping({"game": {"computer_pause_seconds": 0}})
    terminal = KeyboardTerminal()
    presence = Presence("Sysop", random.Random(1))
    caller = Caller("X" * 200, "ssh")  # an SSH user name, say
    running = asyncio.ensure_future(
        run_session(terminal, config, caller, random.Random(2), presence)
    )
    try:
        await until(lambda: "Your name:" in screen(terminal))
        assert "longer than 20 characters" in screen(terminal)
        assert presence.find("X" * 20) is None
        terminal.press("Xavier", Key.ENTER)
        await in_lobby(terminal)
        assert "Xavier (you)" in screen(terminal)
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)


@run_async
async def test_a_long_note_wraps_whole_onto_the_free_typing_row() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    await in_lobby(alice)
    note = "Tournament game recorded in Friday Cup: the tournament is over (U shows the standings)."
    member = door.presence.find("Alice")
    assert member is not None
    member.tell(note)
    await until(lambda: "standings" in flat(alice))
    assert note in flat(alice)  # every word, the keys on the last row
    assert "(U shows the standings)." in alice.display[22]
    await door.close()
