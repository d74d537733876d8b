"""Clicks on the sysop's tool screens (the tools menu, the members, one member, the
bans; door/screens/tool_hits.py): a line of the menu is its key, a member's line opens
them, the key bar's offers are their keys (the line being typed's too), the wheel turns
the pages, and a click on anything else does nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from door.app.moderation_screens import bans_screen
from door.app.sysop_tools import ToolPlace, run_tools
from door.storage.store import Store
from door.ui.session import Session
from tests.door.app.test_chat_moderation import ModeratedLobby
from tests.door.app.test_lobby import until
from tests.door.app.test_lobby_clicks import click_on
from tests.door.app.test_moderation_screens import Place, flat
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.storage.conftest import FAST_HASHER

PASSWORD = "correct horse"


def wheel(terminal: KeyboardTerminal, down: bool) -> None:
    """One notch of the wheel over the middle of the screen, as xterm reports it."""
    terminal.pressed += 1
    terminal.push_bytes(f"\x1b[<{65 if down else 64};40;10M")


def click_at(terminal: KeyboardTerminal, row: int, column: int) -> None:
    terminal.pressed += 1
    report = f"\x1b[<0;{column + 1};{row + 1}"
    terminal.push_bytes(f"{report}M{report}m")


async def opened_store(tmp_path: Path) -> Store:
    return await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'door.sqlite3'}", hasher=FAST_HASHER)


@run_async
async def test_the_tools_menu_a_members_line_and_the_key_bars_are_clicked(
    tmp_path: Path,
) -> None:
    store = await opened_store(tmp_path)
    for handle in ("Ada", "Bob", "Cy"):
        await store.create_account(handle, PASSWORD)
    lobby = ModeratedLobby(store)
    terminal = KeyboardTerminal()
    terminal.mouse_reporting = True
    session = Session(terminal)
    sysop = lobby.presence.join("Sysop", session, sysop=True)
    place = ToolPlace(session, lobby.presence, sysop, store, "Cribbage Door")
    tools = asyncio.ensure_future(run_tools(place))
    try:
        await until(lambda: "Members: list, search" in flat(terminal))
        assert "Choose a tool by its key, or click it." in flat(terminal)
        before = list(terminal.display)
        click_at(terminal, 10, 40)  # between two lines of the menu: nothing
        click_at(terminal, 22, 5)  # the message: nothing
        await terminal.until_waiting(tools)
        assert terminal.display == before
        click_on(terminal, "Members: list, search", at=20)  # the line, not only its key
        await until(lambda: "Handle" in flat(terminal) and "Bob" in flat(terminal))
        assert "Open a member by a click on their line or their number" in flat(terminal)
        wheel(terminal, down=True)  # one page holds them all
        await until(lambda: "This is the last page." in flat(terminal))
        click_on(terminal, "Bob", at=1)
        await until(lambda: "Addresses seen lately" in flat(terminal))
        assert "── Bob ──" in terminal.display[1]  # Bob, the second line
        click_on(terminal, "C reset code", at=3)
        await until(lambda: "Make a one-time reset code for Bob?" in flat(terminal))
        click_on(terminal, "N no")
        await until(lambda: "Make a one-time reset code" not in flat(terminal))
        click_on(terminal, "Esc back")
        await until(lambda: "Members" in flat(terminal) and "Ada" in flat(terminal))
        click_on(terminal, "/ search")
        await until(lambda: "Search handles:" in flat(terminal))
        click_on(terminal, "Ada")  # a line of the list while typing: nothing typed
        await terminal.until_waiting(tools)
        assert "Search handles: " in flat(terminal) and "Search handles: 1" not in flat(terminal)
        click_on(terminal, "Esc cancel  BS erase")  # (not the hint above it)
        await until(lambda: "Search handles:" not in flat(terminal))
        # The hint for typing goes with the line: the list's own hint is back.
        assert "Esc cancels" not in flat(terminal)
        assert "Open a member by a click on their line" in flat(terminal)
        click_on(terminal, "Esc back")
        await until(lambda: "Choose a tool by its key, or click it." in flat(terminal))
        click_on(terminal, "Esc back")
        await asyncio.wait_for(tools, 5)
    finally:
        tools.cancel()
        await lobby.close()
        await store.close()


@run_async
async def test_the_bans_key_bar_and_the_wheel_are_clicked_on_the_bans_screen(
    tmp_path: Path,
) -> None:
    store = await opened_store(tmp_path)
    lobby = ModeratedLobby(store)
    terminal = KeyboardTerminal()
    terminal.mouse_reporting = True
    session = Session(terminal)
    sysop = lobby.presence.join("Sysop", session, sysop=True)
    screen = asyncio.ensure_future(bans_screen(Place(session, lobby.presence, sysop)))
    try:
        await until(lambda: "Nobody is banned." in flat(terminal))
        wheel(terminal, down=True)
        await until(lambda: "This is the last page." in flat(terminal))
        click_on(terminal, "A add")
        await until(lambda: "Ban (address, network/bits or handle:NAME):" in flat(terminal))
        click_on(terminal, "Esc cancel  BS erase")  # (not the hint above it)
        await until(lambda: "Ban (address" not in flat(terminal))
        assert "A add R remove N next P previous Esc back" in flat(terminal)
        click_on(terminal, "Esc back")
        await asyncio.wait_for(screen, 5)
    finally:
        screen.cancel()
        await lobby.close()
        await store.close()
