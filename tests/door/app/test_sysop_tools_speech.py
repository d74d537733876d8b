"""The sysop's tools in words, for a sysop with a screen reader (issue #50), on the real
server over SSH: the tools menu, the members, one member (a reset code, a lock), the
audit, the bans and the recent chat said as sentences with their words to act, answered
by typed lines; nothing sent that a reader reads as noise."""

from __future__ import annotations

import re
from pathlib import Path

from tests.door.app.test_accounts_server import running
from tests.door.app.test_screen_reader_telnet import DRAWING
from tests.door.app.test_sysop_tools import door_config, member_online
from tests.door.caller import run_async
from tests.door.netclients import KeepsEveryByte, SSHCaller
from tests.door.waiting import until

KEY_PROMPT = "Type a key or its word, then RETURN."


class ListeningSSH(KeepsEveryByte, SSHCaller):
    """An SSH caller that keeps every byte the door sent, as a screen reader gets them."""

    async def answer(self, line: str, *expected: str) -> str:
        """Type ``line`` and RETURN; what was said after it, once each of ``expected`` is."""
        mark = len(self.raw)
        await self.send(line + "\r")
        for text in expected:
            await until(lambda t=text: t in self.since(mark), what=f"{text!r} said")  # type: ignore[misc]
        return self.since(mark)


async def sysop_in_the_tools(port: int) -> tuple[ListeningSSH, int]:
    """The sysop signed in over SSH on ``port``, the screen reader turned on and the
    tools opened (x): the sysop, and the mark in what was sent from which the tools were
    said."""
    sysop = ListeningSSH()
    await sysop.connect(port, "Boss", password="letmein!")
    await sysop.wait_for("J screen reader")
    await sysop.send("j")
    await until(lambda: b"Screen reader on" in sysop.raw, what="the screen reader on")
    mark = len(sysop.raw)
    await sysop.answer("x", "Sysop's tools.", KEY_PROMPT)
    return sysop, mark


@run_async
async def test_a_sysop_with_a_screen_reader_uses_the_tools_by_typed_lines(
    tmp_path: Path,
) -> None:
    async with running(door_config(tmp_path)) as listening:
        assert listening.telnet and listening.ssh
        ada = await member_online(listening.telnet[1], "Ada")
        await ada.send("c")
        await ada.send("hello all\r")
        sysop, mark = await sysop_in_the_tools(listening.ssh[1])
        said = sysop.since(mark)
        assert "m: Members: list, search" in said
        assert "Type a tool's letter or its name (members, bans, recent chat, audit)" in said
        assert "click" not in said
        said = await sysop.answer("members", "1: Ada, 0 games, no rating, active;", KEY_PROMPT)
        assert "Keys: a number or o open, / search, n next, p previous, back to go back." in said
        assert "click" not in said
        said = await sysop.answer("1", "Status: active.", "Seen from 127.0.0.1", KEY_PROMPT)
        assert "Keys: l lock, u unlock, c reset code, e note, r rename, d delete" in said
        await sysop.answer("reset code", "Make a one-time reset code for Ada?", "Type yes or no")
        said = await sysop.answer("yes", "Reset code for Ada:")
        assert re.search(r"Reset code for Ada: \w{4}-\w{4}-\w{4}", said)
        await sysop.answer("lock", "Esc cancels.\r\nWhy (the member is told):")
        await sysop.answer("spam in chat", "For how many hours")
        await sysop.answer("2", "Ada is locked until", "They were online: hung up.")
        await sysop.answer("back", "Members.")
        await sysop.answer("back", "Sysop's tools.")
        await sysop.answer("audit", "did user.lock on Ada; reason: spam in chat;")
        await sysop.answer("back", "Sysop's tools.")
        await sysop.answer("c", "Ada, from 127.0.0.1, in the lobby: hello all", "u unmute")
        await sysop.answer("back", "Sysop's tools.")
        await sysop.answer("bans", "Bans in force: 0.", "a add, r remove")
        await sysop.answer("back", "Sysop's tools.")
        sent = sysop.since(mark)
        assert "\x1b" not in sent, f"an escape was sent: {sent[sent.index(chr(27)) :][:60]!r}"
        assert DRAWING.search(sent) is None, DRAWING.search(sent)
        assert "RETURN done" not in sent and "Esc back" not in sent, "a key bar printed"
        sysop.hang_up()


@run_async
async def test_a_key_that_does_nothing_in_the_tools_is_answered_with_the_keys_in_words(
    tmp_path: Path,
) -> None:
    # By hand (the sysop): a screen reader's sysop heard "see the keys below", and has
    # no key bar below to see.
    async with running(door_config(tmp_path)) as listening:
        assert listening.ssh
        sysop, _ = await sysop_in_the_tools(listening.ssh[1])
        said = " ".join((await sysop.answer("z", "does nothing here", KEY_PROMPT)).split())
        assert "see the keys" not in said, said
        assert "The 'z' key does nothing here. Type a tool's letter or its name (members," in said
        await sysop.answer("members", "Members.", KEY_PROMPT)
        said = " ".join((await sysop.answer("z", "does nothing here", KEY_PROMPT)).split())
        assert "see the keys" not in said, said
        assert "The 'z' key does nothing here. Keys: a number or o open, / search," in said
        sysop.hang_up()


@run_async
async def test_a_key_that_does_nothing_on_the_moderation_screens_is_answered_with_the_keys(
    tmp_path: Path,
) -> None:
    # The bans and the recent chat answered "That key does nothing here." and no more: a
    # screen reader's sysop was not told which keys do something.
    async with running(door_config(tmp_path)) as listening:
        assert listening.ssh
        sysop, _ = await sysop_in_the_tools(listening.ssh[1])
        for screen, keys in (("bans", "Keys: a add, r remove,"), ("c", "Keys: m mute, u unmute,")):
            await sysop.answer(screen, KEY_PROMPT)
            said = " ".join((await sysop.answer("z", "does nothing here", KEY_PROMPT)).split())
            assert f"The 'z' key does nothing here. {keys}" in said, said
            await sysop.answer("back", "Sysop's tools.")
        sysop.hang_up()
