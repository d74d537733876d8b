"""Wherever a caller is in the lobby when a game starts for them, they are taken to it
(door/app/called_away.py and the lobby): here, the sysop's private chat."""

from __future__ import annotations

from tests.door.app.test_lobby import Callers, in_lobby, screen
from tests.door.caller import run_async
from tests.door.waiting import until


@run_async
async def test_a_private_chat_gives_way_when_the_sysops_challenge_is_accepted() -> None:
    door = Callers()
    sysop, _ = door.call("Sysop", sysop=True)
    alice, _ = door.call("Alice")
    bob, _ = door.call("Bob")
    await in_lobby(sysop, alice, bob)
    sysop.press("w", "3")  # Bob
    await until(lambda: "challenges you" in screen(bob))
    sysop.press("o", "2")  # Alice, while the challenge is out
    await until(lambda: "Private chat with Sysop" in screen(alice))
    bob.press("y")
    await until(lambda: "Esc table keys" in sysop.status and "Esc table keys" in bob.status)
    await until(lambda: "The chat with Sysop is over (Sysop left it)." in screen(alice))
    await door.close()
