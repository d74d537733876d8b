"""What a caller reads as the door stops under them, on the real server over loopback:
a member whose game is in the store as it stands is told it is saved (it is offered when
they call again); a guest, whose game nobody keeps, is told only goodbye."""

from __future__ import annotations

import re
from pathlib import Path

from door.storage.settings import SQLITE_FILE_NAME
from door.storage.store import Store
from tests.door.app.test_accounts_server import door_config, running
from tests.door.caller import run_async
from tests.door.netclients import TelnetCaller
from tests.door.storage.conftest import FAST_HASHER

SAVED = "*** The sysop is shutting the door down. Your game is saved. Goodbye! ***"
PLAIN = "*** The sysop is shutting the door down. Goodbye! ***"


@run_async
async def test_a_member_mid_game_is_told_it_is_saved_and_a_guest_is_not(tmp_path: Path) -> None:
    async with running(door_config(tmp_path)) as listening:
        assert listening.telnet
        ada, gus = TelnetCaller(), TelnetCaller()
        await ada.connect(listening.telnet[1])
        await ada.sign_up("Ada", "correct horse")
        await gus.connect(listening.telnet[1])
        await gus.come_as_guest("Gus")
        for caller in (ada, gus):
            await caller.wait_for("P Play the computer")
            await caller.send("p")
            await caller.wait_for("RETURN on a blank line")
            await caller.send("\r")
            await caller.wait_for("Choose 2 cards")
    # The server has stopped: what each screen shows is all they were sent.
    await ada.wait_for_close()
    await gus.wait_for_close()
    assert SAVED in ada.text and PLAIN not in ada.text
    assert PLAIN in gus.text and SAVED not in gus.text
    store = await Store.open(
        f"sqlite+aiosqlite:///{tmp_path / SQLITE_FILE_NAME}", hasher=FAST_HASHER
    )
    try:
        account = await store.account("Ada")
        assert account is not None
        saved = await store.load_unfinished_game(account.id)
    finally:
        await store.close()
    assert saved is not None and saved.resume().hand_number == 1  # what she was told


@run_async
async def test_members_at_a_table_together_read_that_the_door_stopped_it_not_that_it_ended(
    tmp_path: Path,
) -> None:
    # Before, the table closed under them said "The game is over." over the goodbye
    # saying it was saved (seen by hand: a SIGTERM mid-game, telnet).
    async with running(door_config(tmp_path)) as listening:
        assert listening.telnet
        ada, bob = TelnetCaller(), TelnetCaller()
        await ada.connect(listening.telnet[1])
        await ada.sign_up("Ada", "correct horse")
        await bob.connect(listening.telnet[1])
        await bob.sign_up("Bob", "battery staple")
        await ada.wait_for("Bob ")  # on her who-is-on list
        number = re.search(r"(\d)\s+Bob ", ada.text)
        assert number, ada.text
        await ada.send("w" + number.group(1))
        await bob.wait_for("Ada challenges you")
        await bob.send("y")
        for caller in (ada, bob):
            await caller.wait_for("Hand 1:")
    for caller in (ada, bob):
        await caller.wait_for_close()
        assert "The door is closing: the game stops here." in caller.words
        assert "The game is over." not in caller.words
        assert SAVED in caller.text
