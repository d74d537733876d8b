"""Clicks in the lobby: a key on a menu row or the status line is pressed by a click on
its words, a name in the list of who is on is chosen by a click while the lobby picks,
and a click on anything else does nothing."""

from __future__ import annotations

from door.term.keys import Key
from door.term.mouse import ASK_FOR_REPORTS, STOP_REPORTS
from tests.door.app.test_lobby import Callers, in_lobby, screen, settled
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.waiting import until


def click_on(terminal: KeyboardTerminal, words: str, at: int = 0) -> None:
    """A left click (SGR, press and release) on the first ``words`` on the screen."""
    for row, line in enumerate(terminal.display):
        col = line.find(words)
        if col >= 0:
            terminal.pressed += 1
            report = f"\x1b[<0;{col + at + 1};{row + 1}"
            terminal.push_bytes(f"{report}M{report}m")
            return
    raise AssertionError(f"{words!r} is not on the screen:\n" + "\n".join(terminal.display))


@run_async
async def test_a_click_on_challenge_then_on_a_name_challenges_them() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    await in_lobby(alice, bob)
    click_on(alice, "W Challenge", at=4)
    await until(lambda: "1-9 choose" in alice.status)
    click_on(alice, "Bob ", at=1)
    await until(lambda: "Alice challenges you" in screen(bob))
    click_on(bob, "N decline", at=5)  # offered at the end of the notice
    await until(lambda: "Bob declines the challenge." in screen(alice))
    await door.close()


@run_async
async def test_a_click_on_the_status_lines_quit_asks_and_one_on_chat_does_nothing() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    await in_lobby(alice)
    before = alice.display[15:]  # the keys, notice, message and status lines
    click_on(alice, "Alice has come in.")  # the lobby chat is no key
    click_on(alice, "Who is on")
    await settled(alice)
    assert alice.display[15:] == before
    click_on(alice, "q quit", at=2)
    await until(lambda: "Leave the door?" in screen(alice))
    await door.close()


@run_async
async def test_a_name_in_the_list_is_no_key_unless_the_lobby_picks() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    await in_lobby(alice, bob)
    await until(lambda: "Bob " in screen(alice))
    await settled(alice)
    before = alice.display[15:]  # the keys, notice, message and status lines
    click_on(alice, "Bob ")
    await settled(alice)
    assert alice.display[15:] == before
    await door.close()


@run_async
async def test_z_turns_the_mouse_off_and_on_and_the_screens_say_so() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    await in_lobby(alice)
    assert alice.mouse_reporting
    assert "Z mouse" in screen(alice)
    assert "Press a key from the menu or click one" in alice.status
    alice.press("z")
    await until(lambda: "Z no mouse" in screen(alice))
    assert not alice.mouse_reporting
    sent = alice.output
    assert sent.rfind(STOP_REPORTS.encode()) > sent.rfind(ASK_FOR_REPORTS.encode())
    assert "or click one" not in alice.status
    alice.press("?")
    await until(lambda: "CRIBBAGE DOOR HELP" in screen(alice))
    alice.press(Key.END)  # any other key: back to the menu
    await until(lambda: "Z no mouse" in screen(alice))
    alice.press("z")
    await until(lambda: "Z mouse" in screen(alice))
    assert alice.mouse_reporting
    sent = alice.output
    assert sent.rfind(ASK_FOR_REPORTS.encode()) > sent.rfind(STOP_REPORTS.encode())
    await door.close()


@run_async
async def test_the_help_has_a_page_on_the_mouse_while_it_is_on() -> None:
    door = Callers()
    alice, _ = door.call("Alice")
    await in_lobby(alice)
    alice.press("?")
    await until(lambda: "CRIBBAGE DOOR HELP" in screen(alice))
    for _ in range(12):
        if "The mouse" in screen(alice):
            break
        alice.press(Key.PGDN)
        await settled(alice)
    assert "Your terminal reports mouse clicks" in screen(alice)
    click_on(alice, "PgUp back", at=2)  # the help's own key line is clicked too
    await until(lambda: "The mouse" not in screen(alice))
    assert "Help: page" in screen(alice)  # a page back, not closed
    await door.close()
