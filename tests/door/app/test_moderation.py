"""Bans in a running door (door/app/moderation.py): ``cribbage-door ban add`` from the shell
turns that address away within seconds, connected or calling again, while others still
get in; the audit names the ban; a handle ban refuses the name."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import telnetlib3

from door.serve import Listening, run_server
from door.storage.settings import database_url
from door.storage.store import Store
from tests.door.caller import run_async
from tests.door.netclients import TelnetCaller, server_config

ROOT = Path(__file__).resolve().parents[3]
TOLD = "Your address is banned from this door: spamming the lobby (for good)."


class TelnetCallerFrom(TelnetCaller):
    """A telnet caller from a loopback address of its own (127.0.0.x): another caller,
    as far as the door can tell."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    async def connect(self, port: int) -> None:
        self.reader, self.writer = await telnetlib3.open_connection(
            "127.0.0.1",
            port,
            local_addr=(self.source, 0),
            encoding=False,
            term="xterm-256color",
            cols=80,
            rows=24,
            connect_minwait=0.05,
        )
        self.pump = asyncio.create_task(self._pump())


@asynccontextmanager
async def door_serving(data_dir: Path) -> AsyncIterator[Listening]:
    config = server_config(data_dir, ssh_port=0)
    stop = asyncio.Event()
    ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
    try:
        yield await asyncio.wait_for(ready, 30)
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)


async def cribbage_door(*args: str) -> tuple[int, str]:
    """The command in a process of its own, as a sysop runs it beside the door."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "door.cli",
        *args,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, output.decode()


async def in_lobby(source: str, port: int, name: str) -> TelnetCallerFrom:
    caller = TelnetCallerFrom(source)
    await caller.connect(port)
    await caller.come_as_guest(name)
    await caller.wait_for(f"Welcome, {name}!")
    return caller


@run_async
async def test_ban_add_turns_the_address_away_from_the_running_door_within_10_s(
    tmp_path: Path,
) -> None:
    async with door_serving(tmp_path) as listening:
        assert listening.telnet
        port = listening.telnet[1]
        spammer = await in_lobby("127.0.0.2", port, "Spammer")
        other = await in_lobby("127.0.0.3", port, "Bystander")

        status, output = await cribbage_door(
            "ban", "add", "127.0.0.2", "--reason", "spamming the lobby", "--data-dir", str(tmp_path)
        )
        assert status == 0, output
        assert "ban #1: 127.0.0.2 for good (spamming the lobby)" in output
        banned_at = asyncio.get_running_loop().time()
        await spammer.wait_for(TOLD, timeout=10)
        await spammer.wait_for_close(timeout=10)
        assert asyncio.get_running_loop().time() - banned_at < 10

        again = TelnetCallerFrom("127.0.0.2")
        await again.connect(port)
        await again.wait_for_close(timeout=5)
        assert TOLD in again.words and "guest" not in again.text  # no arrival screen

        assert not other.closed  # the others stay on, and new ones get in
        newcomer = TelnetCallerFrom("127.0.0.3")
        await newcomer.connect(port)
        await newcomer.wait_for("G guest")
        other.hang_up()
        newcomer.hang_up()

    store = await Store.open(database_url(server_config(tmp_path).database, tmp_path))
    try:
        [entry] = await store.recorded_actions()
    finally:
        await store.close()
    assert (entry.action, entry.target, entry.reason) == (
        "ban.add",
        "127.0.0.2",
        "spamming the lobby",
    )
    assert entry.actor.startswith("shell:") and entry.detail == "ban #1, for good"


@run_async
async def test_a_lifted_ban_lets_the_address_in_again(tmp_path: Path) -> None:
    async with door_serving(tmp_path) as listening:
        assert listening.telnet
        port = listening.telnet[1]
        place = ("--data-dir", str(tmp_path))
        assert (
            await cribbage_door("ban", "add", "127.0.0.0/24", "--reason", "x", "--force", *place)
        )[0] == 0
        refused = TelnetCallerFrom("127.0.0.4")
        for _ in range(100):  # within the door's refresh
            refused = TelnetCallerFrom("127.0.0.4")
            await refused.connect(port)
            await asyncio.sleep(0.1)
            if "banned" in refused.text:
                break
        await refused.wait_for("Your address is banned from this door: x (for good).")
        status, output = await cribbage_door("ban", "remove", "1", *place)
        assert (status, output.strip()) == (0, "ban #1 on 127.0.0.0/24 lifted")
        for _ in range(100):
            welcome = TelnetCallerFrom("127.0.0.4")
            await welcome.connect(port)
            await asyncio.sleep(0.1)
            if "G guest" in welcome.text:
                break
        await welcome.wait_for("G guest")
        welcome.hang_up()


@run_async
async def test_the_sysops_address_at_the_door_is_kept_and_cannot_be_banned(
    tmp_path: Path,
) -> None:
    from door.app.call import Caller
    from door.app.door import Door
    from door.app.moderation import CoversOwnAddress
    from door.app.records import Records
    from tests.door.caller import KeyboardTerminal

    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'door.sqlite3'}")
    door = Door(server_config(tmp_path), records=Records(store))
    terminal = KeyboardTerminal()
    session = asyncio.ensure_future(
        door.serve_caller(terminal, Caller("Sysop", "ssh", peer="203.0.113.9:4444", sysop=True))
    )
    try:
        for _ in range(200):
            if await store.sysop_addresses("Sysop"):
                break
            await asyncio.sleep(0.02)
        assert await store.sysop_addresses("Sysop") == ["203.0.113.9"]
        try:
            await door.moderation.ban("203.0.113.0/24", "x", None, "Sysop")
            raise AssertionError("the sysop banned their own address")
        except CoversOwnAddress as refused:
            assert "covers 203.0.113.9" in str(refused)
    finally:
        session.cancel()
        await asyncio.gather(session, return_exceptions=True)
        await store.close()
