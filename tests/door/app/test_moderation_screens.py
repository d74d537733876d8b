"""The sysop's bans and recent-chat screens (door/app/moderation_screens.py) at 80x24: the
sysop bans an address with a reason and an end, sees it listed, lifts it; a ban of the
sysop's own address is refused on the screen; from the recent chat the sysop mutes a
line's speaker, who is told. Every action is in the audit under the sysop's name."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from door.app.moderation_screens import bans_screen, recent_chat_screen
from door.app.presence import Member, Presence
from door.screens.moderation import RecentChatView
from door.screens.tool_speech import recent_chat_said
from door.storage.store import Store
from door.term.keys import Key
from door.ui.session import Session
from tests.door.app.test_chat_moderation import ModeratedLobby
from tests.door.app.test_lobby import in_lobby, until
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.storage.conftest import FAST_HASHER


@dataclass(frozen=True)
class Place:
    session: Session
    presence: Presence
    sysop: Member
    bbs_name: str = "Cribbage Door"


def flat(terminal: KeyboardTerminal) -> str:
    return " ".join(" ".join(line.split()) for line in terminal.display)


@run_async
async def test_the_sysop_bans_an_address_sees_it_listed_and_lifts_it(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'door.sqlite3'}", hasher=FAST_HASHER)
    lobby = ModeratedLobby(store)
    terminal = KeyboardTerminal()
    session = Session(terminal)
    sysop = lobby.presence.join("Sysop", session, sysop=True)
    screen = asyncio.ensure_future(bans_screen(Place(session, lobby.presence, sysop)))
    try:
        await until(lambda: "Nobody is banned." in flat(terminal))
        assert "A add R remove N next P previous Esc back" in flat(terminal)
        terminal.press("a", "127.0.0.0/8", Key.ENTER)  # refused before the reason is asked
        await until(
            lambda: (
                "Not banned: 127.0.0.0/8 covers 127.0.0.1, one of the sysop's own addresses."
                in flat(terminal)
            )
        )
        assert "Nobody is banned." in flat(terminal)
        terminal.press("a", "203.0.113.0/24", Key.ENTER, "spam in the lobby", Key.ENTER)
        terminal.press("2", Key.ENTER)
        await until(lambda: "Ban #1: 203.0.113.0/24 until" in flat(terminal))
        assert (
            "203.0.113.0/24" in terminal.display[3] and "spam in the lobby" in terminal.display[3]
        )
        assert lobby.moderation.bans.refusal("203.0.113.9") is not None  # in force at once
        terminal.press("a", "1.2.3.4", Key.ENTER, "x", Key.ENTER, "soon", Key.ENTER)
        await until(lambda: "'soon' is not a number of hours" in flat(terminal))
        terminal.press("r", "9", Key.ENTER)
        await until(lambda: "there is no ban in force numbered 9" in flat(terminal))
        terminal.press("r", "1", Key.ENTER)
        await until(lambda: "Ban #1 on 203.0.113.0/24 lifted." in flat(terminal))
        assert "Nobody is banned." in flat(terminal)
        assert lobby.moderation.bans.refusal("203.0.113.9") is None
        terminal.press(Key.ESCAPE)
        await asyncio.wait_for(screen, 5)
        actions = [(e.actor, e.action, e.target) for e in await store.recorded_actions()]
        assert actions == [
            ("Sysop", "ban.remove", "203.0.113.0/24"),
            ("Sysop", "ban.add", "203.0.113.0/24"),
        ]
    finally:
        screen.cancel()
        await lobby.close()
        await store.close()


@run_async
async def test_the_sysop_mutes_a_speaker_from_the_recent_chat(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'door.sqlite3'}", hasher=FAST_HASHER)
    lobby = ModeratedLobby(store, masked=("darn",))
    await lobby.moderation.refresh()  # as the door does before it opens
    eve = lobby.call("Eve")
    await in_lobby(eve)
    eve.press("c", "darn spam spam", Key.ENTER)
    await until(lambda: len(lobby.moderation.recent) == 1)
    terminal = KeyboardTerminal()
    session = Session(terminal)
    sysop = lobby.presence.join("Sysop", session, sysop=True)
    screen = asyncio.ensure_future(recent_chat_screen(Place(session, lobby.presence, sysop)))
    try:
        await until(lambda: "**** spam spam" in flat(terminal))
        row = next(line for line in terminal.display if "spam spam" in line)
        assert row.split()[:5] == ["1", row.split()[1], "Eve", "2001:db8:1234:567~", "****"]
        terminal.press("m", "1", Key.ENTER, "15", Key.ENTER, "spamming", Key.ENTER)
        await until(lambda: "Eve is muted until" in flat(terminal))
        await until(lambda: "Eve*" in flat(terminal))
        await until(lambda: "The sysop has muted you in chat" in flat(eve))
        terminal.press("m", "7", Key.ENTER)
        await until(lambda: "There is no line 7 in the list." in flat(terminal))
        terminal.press("u", "eve", Key.ENTER)
        await until(lambda: "Eve may chat again." in flat(terminal))
        terminal.press(Key.ESCAPE)
        await asyncio.wait_for(screen, 5)
        actions = [(e.actor, e.action, e.target) for e in await store.recorded_actions()]
        assert actions == [("Sysop", "chat.unmute", "Eve"), ("Sysop", "chat.mute", "Eve")]
    finally:
        screen.cancel()
        await lobby.close()
        await store.close()


@run_async
async def test_banning_a_linked_bbss_caller_from_the_recent_chat_bans_them_not_the_bbs(
    tmp_path: Path,
) -> None:
    # Zed calls through NODES (RLogin): their address is NODES's, 198.51.100.4, which
    # every caller of NODES shares. The old screen had no ban key: the sysop typed the
    # address the From column showed into the bans screen, barring all of NODES.
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'door.sqlite3'}", hasher=FAST_HASHER)
    lobby = ModeratedLobby(store)
    await lobby.moderation.refresh()
    zed, eve = lobby.call("Zed"), lobby.call("Eve")
    await in_lobby(zed)
    await in_lobby(eve)
    zed.press("c", "buy gold", Key.ENTER)
    await until(lambda: len(lobby.moderation.recent) == 1)
    eve.press("c", "spam spam", Key.ENTER)
    await until(lambda: len(lobby.moderation.recent) == 2)
    terminal = KeyboardTerminal()
    session = Session(terminal)
    sysop = lobby.presence.join("Sysop", session, sysop=True)
    screen = asyncio.ensure_future(recent_chat_screen(Place(session, lobby.presence, sysop)))
    try:
        await until(lambda: "buy gold" in flat(terminal))
        assert "M mute U unmute B ban N next P previous Esc back" in flat(terminal)
        zeds = next(line for line in terminal.display if "buy gold" in line)
        assert zeds.split()[2:5] == ["Zed", "via", "NODES"]  # not NODES's 198.51.100.4
        spoken = recent_chat_said(RecentChatView("Recent chat", lines=[lobby.moderation.recent[0]]))
        assert ", Zed, through NODES (198.51.100.4), in the lobby: buy gold" in " ".join(
            spoken.sentences
        )
        terminal.press("b", "2", Key.ENTER)  # newest first: Zed's line is the second
        await until(lambda: "Press Y or N." in flat(terminal))
        assert (
            "Ban Zed by name (handle:Zed)? Only Zed: other callers of NODES stay welcome."
            in flat(terminal)
        )
        terminal.press("y", "selling gold", Key.ENTER, Key.ENTER)
        await until(lambda: "Ban #1: handle:Zed for good." in flat(terminal))
        assert lobby.moderation.bans.naming("Zed") is not None
        assert lobby.moderation.bans.refusal("198.51.100.4") is None  # NODES still calls
        terminal.press("b", "1", Key.ENTER)  # Eve called straight in: her address
        await until(lambda: "Press Y or N." in flat(terminal))
        assert (
            "Ban the address 2001:db8:1234:5678::9, Eve's? Every caller from it is barred."
            in flat(terminal)
        )
        terminal.press("n")
        await until(lambda: "Not banned." in flat(terminal))
        terminal.press(Key.ESCAPE)
        await asyncio.wait_for(screen, 5)
        actions = [(e.actor, e.action, e.target) for e in await store.recorded_actions()]
        assert actions == [("Sysop", "ban.add", "handle:Zed")]
    finally:
        screen.cancel()
        await lobby.close()
        await store.close()


@run_async
async def test_a_linked_bbss_address_is_barred_only_when_the_sysop_says_every_caller(
    tmp_path: Path,
) -> None:
    # The old screen banned 198.51.100.4, NODES's address, at once, as any address.
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'door.sqlite3'}", hasher=FAST_HASHER)
    lobby = ModeratedLobby(store)
    terminal = KeyboardTerminal()
    session = Session(terminal)
    sysop = lobby.presence.join("Sysop", session, sysop=True)
    screen = asyncio.ensure_future(bans_screen(Place(session, lobby.presence, sysop)))
    try:
        await until(lambda: "Nobody is banned." in flat(terminal))
        terminal.press("a", "198.51.100.0/24", Key.ENTER)
        await until(
            lambda: (
                "198.51.100.0/24 is a linked BBS's address: bar every caller of NODES? Press Y"
                in flat(terminal)
            )
        )
        terminal.press("n")
        await until(
            lambda: (
                "Not banned. handle:NAME bans one caller, not every caller of NODES."
                in flat(terminal)
            )
        )
        assert lobby.moderation.bans.refusal("198.51.100.4") is None
        terminal.press("a", "198.51.100.4", Key.ENTER, "y", "a flood", Key.ENTER, Key.ENTER)
        await until(lambda: "Ban #1: 198.51.100.4 for good." in flat(terminal))
        assert lobby.moderation.bans.refusal("198.51.100.4") is not None
        # A linked BBS on the sysop's own address: refused at once, not asked about.
        lobby.moderation.linked = {"127.0.0.1": "LOCAL"}
        terminal.press("a", "127.0.0.1", Key.ENTER)
        await until(
            lambda: (
                "Not banned: 127.0.0.1 covers 127.0.0.1, one of the sysop's own addresses."
                in flat(terminal)
            )
        )
        assert "LOCAL" not in flat(terminal)
        terminal.press(Key.ESCAPE)
        await asyncio.wait_for(screen, 5)
        entries = await store.recorded_actions()
        assert [(e.action, e.target) for e in entries] == [("ban.add", "198.51.100.4")]
        assert "every caller of NODES" in str(entries[0].detail)
    finally:
        screen.cancel()
        await lobby.close()
        await store.close()
