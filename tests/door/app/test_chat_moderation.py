"""Chat moderation in the lobby: a muted caller is told until when and their lines are
refused with a sentence saying so; ``[chat] masked_words`` are starred out (whole words,
any case, lookalike letters); the sysop's recent-chat list keeps who said what, where."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from pathlib import Path

from door.app.call import Caller, run_session
from door.app.moderation import Moderation
from door.app.presence import Presence
from door.app.records import Records
from door.config import config_from_mapping
from door.defence.bans import BansInForce
from door.defence.chat_mask import WordMask
from door.screens.moderation import RecentChatView, draw_recent_chat
from door.storage.store import Store
from door.term.keys import Key
from tests.door.app.test_lobby import challenge, in_lobby, log_text, screen, until
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.storage.conftest import FAST_HASHER


class ModeratedLobby:
    """Sessions on keyboard terminals sharing one Presence, its chat moderated."""

    def __init__(self, store: Store | None, masked: tuple[str, ...] = ()) -> None:
        self.config = config_from_mapping(
            {"game": {"computer_pause_seconds": 0}, "chat": {"masked_words": list(masked)}}
        )
        self.presence = Presence("Sysop", random.Random(1))
        self.moderation = Moderation(
            store, BansInForce(), WordMask(masked), lines=self, linked={"198.51.100.4": "NODES"}
        )
        self.presence.moderation = self.moderation
        self.records = Records(store)
        self.tasks: list[asyncio.Task[None]] = []

    def call(self, name: str) -> KeyboardTerminal:
        terminal = KeyboardTerminal()
        session = run_session(
            terminal, self.config, Caller(name, "test"), random.Random(2), self.presence
        )
        self.tasks.append(asyncio.ensure_future(session))
        return terminal

    # What the Door does for moderation (door/app/door.py), for these sessions.
    def turn_away(self, bans: object) -> None:
        pass

    def peer_of(self, name: str) -> str:
        if name == "Zed":  # a caller of a linked BBS (door/transports/rlogin.py)
            return "NODES (198.51.100.4)"
        return "[2001:db8:1234:5678::9]:4711" if name == "Eve" else "192.0.2.7:4711"

    def tell(self, name: str, note: str) -> None:
        member = self.presence.members.get(name.casefold())
        if member is not None:
            member.tell(note)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


@run_async
async def test_a_muted_caller_is_told_until_when_and_their_lines_are_refused(
    tmp_path: Path,
) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'door.sqlite3'}", hasher=FAST_HASHER)
    lobby = ModeratedLobby(store)
    try:
        await lobby.moderation.refresh()
        eve, bob = lobby.call("Eve"), lobby.call("Bob")
        await in_lobby(eve, bob)
        mute = await lobby.moderation.mute("Eve", "flooding the lobby", 30, "Sysop")
        end = f"{mute.until:%Y-%m-%d %H:%M} UTC"
        assert (
            dt.timedelta(minutes=29)
            < mute.until - dt.datetime.now(dt.UTC)
            <= dt.timedelta(minutes=30)
        )
        await until(lambda: "The sysop has muted you in chat" in _flat(eve))
        assert f"until {end}: flooding the lobby." in _flat(eve)
        eve.press("c", "buy my stuff", Key.ENTER)
        await until(lambda: f"You are muted in chat until {end}: flooding the lobby." in _flat(eve))
        bob.press("c", "hello all", Key.ENTER)
        await until(lambda: "Bob: hello all" in screen(eve))
        assert "buy my stuff" not in screen(bob) and "buy my stuff" not in screen(eve)
        await lobby.moderation.unmute("eve", "Sysop")
        eve.press("c", "sorry", Key.ENTER)
        await until(lambda: "Eve: sorry" in screen(bob))
        actions = [(e.action, e.target) for e in await store.recorded_actions()]
        assert actions == [("chat.unmute", "Eve"), ("chat.mute", "Eve")]
    finally:
        await lobby.close()
        await store.close()


@run_async
async def test_masked_words_are_starred_out_whole_in_any_case_and_lookalike_spelling() -> None:
    lobby = ModeratedLobby(None, masked=("darn", "heck"))
    try:
        ann, bob = lobby.call("Ann"), lobby.call("Bob")
        await in_lobby(ann, bob)
        ann.press("c", "DARN it, what the h\u0435ck, darning socks", Key.ENTER)  # Cyrillic е
        await until(lambda: "Ann: **** it, what the ****, darning socks" in screen(bob))
        [heard] = lobby.moderation.recent
        assert (heard.speaker, heard.where, heard.text, heard.address) == (
            "Ann",
            "lobby",
            "**** it, what the ****, darning socks",
            "192.0.2.7",
        )
    finally:
        await lobby.close()


def _flat(terminal: KeyboardTerminal) -> str:
    return " ".join(" ".join(line.split()) for line in terminal.display)


@run_async
async def test_at_a_table_a_muted_caller_is_refused_and_masked_words_are_starred(
    tmp_path: Path,
) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'door.sqlite3'}", hasher=FAST_HASHER)
    lobby = ModeratedLobby(store, masked=("darn",))
    try:
        await lobby.moderation.refresh()
        bob, eve = lobby.call("Bob"), lobby.call("Eve")
        await in_lobby(bob, eve)
        await challenge(bob, eve)
        await until(lambda: "Chat: " in bob.display[21] and "Chat: " in eve.display[21])
        mute = await lobby.moderation.mute("Eve", "flooding the table", 30, "Sysop")
        end = f"{mute.until:%Y-%m-%d %H:%M} UTC"
        eve.press(*"buy my stuff", Key.ENTER)
        await until(lambda: "You are muted in chat until" in log_text(eve))
        assert f"{end}: flooding the table." in log_text(eve)
        bob.press(*"DARN it, Eve", Key.ENTER)
        await until(lambda: "Bob: **** it, Eve" in log_text(eve))
        assert "Bob: **** it, Eve" in log_text(bob)
        assert "buy my stuff" not in screen(bob) + screen(eve)
        said = [(line.speaker, line.where, line.text) for line in lobby.moderation.recent]
        assert said == [("Bob", "table Bob vs Eve", "**** it, Eve")]
        view = RecentChatView("Recent chat", lines=list(lobby.moderation.recent))
        canvas, _ = draw_recent_chat(view)
        (row,) = [canvas.text(r) for r in range(24) if "Bob" in canvas.text(r)]
        assert row.rstrip().endswith("[table] **** it, Eve")
    finally:
        await lobby.close()
        await store.close()
