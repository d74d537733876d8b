"""Clicks on the mail-games screen, read from its key bar as drawn (door/ui/session.py's
Drawn with door/screens/form_hits.py): N new game and the typed line's Esc cancel, Esc
back to the lobby; a click on the rules above does nothing."""

from __future__ import annotations

from tests.door.app.test_lobby import in_lobby
from tests.door.app.test_lobby_clicks import click_on
from tests.door.app.test_mail_games import MAIL_STATUS, mail_door, open_mail, waiting, words
from tests.door.caller import run_async
from tests.door.storage.conftest import Database
from tests.door.waiting import until


@run_async
async def test_the_mail_screens_key_bar_is_clicked(database: Database) -> None:
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        terminal, _ = door.call(ada)
        await in_lobby(terminal)
        assert terminal.mouse_reporting  # an xterm caller: asked at the arrival
        await open_mail(terminal)
        before = list(terminal.display)
        click_on(terminal, "Move within")  # the rules: nothing
        await waiting(terminal)
        assert terminal.display == before
        click_on(terminal, "N new game", at=4)
        await until(lambda: "Play whom" in words(terminal))
        click_on(terminal, "Esc cancel  BS erase")  # (not the hint above it)
        await until(lambda: "Play whom" not in words(terminal) and MAIL_STATUS in terminal.status)
        click_on(terminal, "Esc back to the lobby", at=6)
        await until(lambda: "P Play the computer" in words(terminal))


@run_async
async def test_a_click_on_a_mail_games_line_opens_it(database: Database) -> None:
    async with mail_door(database) as door:
        ada = await door.store.create_account("Ada", "correct horse")
        bob = await door.store.create_account("Bob", "correct horse")
        await door.records.mail.start(bob, "Ada", seed=3)
        terminal, _ = door.call(ada)
        await in_lobby(terminal)
        await open_mail(terminal)
        before = list(terminal.display)
        click_on(terminal, "Finished lately" if "Finished lately" in words(terminal) else "Move")
        await waiting(terminal)
        assert terminal.display == before
        click_on(terminal, "Bob", at=2)  # game 1's line, on the opponent's name
        # Ada's move: the table; Bob's: the reason, on the list.
        await until(lambda: "Hand 1" in words(terminal) or "It is Bob's move" in words(terminal))
