"""A banned address is turned away before anything else on every transport: told in one
line why and until when, with no arrival screen, while other addresses get in."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from pathlib import Path
from typing import Any

import aiohttp
import asyncssh
import pytest

from door.app.door import Door
from door.config import config_from_mapping
from door.defence.bans import Ban, BanTarget
from door.serve import Listening, quiet_library_loggers, run_server
from tests.door.app.test_moderation import TelnetCallerFrom
from tests.door.caller import run_async
from tests.door.netclients import SSHCaller, free_port
from tests.door.transports.test_rlogin import RloginCaller

UNTIL = dt.datetime(2099, 1, 2, 3, 4, tzinfo=dt.UTC)
TOLD = "Your address is banned from this door: flooding (until 2099-01-02 03:04 UTC)."


def banning_config(data_dir: Path) -> Any:
    return config_from_mapping(
        {
            "server": {
                "host": "127.0.0.1",
                "telnet_port": free_port(),
                "ssh_port": free_port(),
                "data_dir": str(data_dir),
            },
            "web": {"port": free_port()},
            "rlogin": {"port": free_port(), "systems": {"127.0.0.2": "BBS", "127.0.0.1": "OK"}},
        }
    )


async def serving(data_dir: Path) -> tuple[asyncio.Event, asyncio.Task[None], Listening, Door]:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[Listening] = loop.create_future()
    opened: asyncio.Future[Door] = loop.create_future()
    task = asyncio.create_task(
        run_server(
            banning_config(data_dir),
            stop=stop,
            on_ready=ready.set_result,
            on_door=opened.set_result,
        )
    )
    listening = await asyncio.wait_for(ready, 30)
    door = await asyncio.wait_for(opened, 5)
    # As the store would give it (the integration test makes it from the shell).
    door.moderation.apply([Ban(1, BanTarget.parse("127.0.0.2/32"), "flooding", UNTIL)], [])
    return stop, task, listening, door


@run_async
async def test_a_banned_address_is_told_and_closed_on_every_transport(tmp_path: Path) -> None:
    stop, task, listening, _door = await serving(tmp_path)
    try:
        assert listening.telnet and listening.ssh and listening.web and listening.rlogin
        telnet = TelnetCallerFrom("127.0.0.2")
        await telnet.connect(listening.telnet[1])
        await telnet.wait_for_close(timeout=5)
        assert TOLD in telnet.words and "guest" not in telnet.text

        rlogin = RloginCaller()
        await rlogin.connect(listening.rlogin[1], "Mallory", local_address="127.0.0.2")
        await rlogin.wait_for_close(timeout=5)
        assert TOLD in rlogin.words and "Welcome" not in rlogin.text

        banners: list[str] = []

        class Client(asyncssh.SSHClient):
            def auth_banner_received(self, msg: str, lang: str) -> None:
                banners.append(msg)

        try:
            await asyncssh.connect(
                "127.0.0.1",
                listening.ssh[1],
                username="guest",
                known_hosts=None,
                local_addr=("127.0.0.2", 0),
                client_factory=Client,
            )
            raise AssertionError("a banned SSH caller got in")
        except asyncssh.DisconnectError as error:
            reason = error.reason
        assert reason == TOLD
        assert banners == [f"{TOLD}\r\n"]

        connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
        web_page = f"http://127.0.0.1:{listening.web[1]}/"
        async with (
            aiohttp.ClientSession(connector=connector) as http,
            http.get(web_page) as response,
        ):
            page = await response.text()
        assert page.strip() == TOLD and response.status == 403  # not 429: waiting will not help
        # Through a trusted proxy (loopback, by default) the caller it names is banned.
        forwarded = {"X-Forwarded-For": "127.0.0.2"}
        async with (
            aiohttp.ClientSession() as http,
            http.get(web_page, headers=forwarded) as response,
        ):
            assert (response.status, (await response.text()).strip()) == (403, TOLD)

        # Everyone else comes in as before, on each transport.
        welcome = TelnetCallerFrom("127.0.0.3")
        await welcome.connect(listening.telnet[1])
        await welcome.wait_for("G guest")
        welcome.hang_up()
        ssh = SSHCaller()
        await ssh.connect(listening.ssh[1])
        await ssh.wait_for("Your name:")
        ssh.hang_up()
        async with aiohttp.ClientSession() as http, http.get(web_page) as response:
            assert response.status == 200
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)


@run_async
async def test_a_caller_already_on_from_a_newly_banned_address_is_told_and_disconnected(
    tmp_path: Path,
) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[Listening] = loop.create_future()
    opened: asyncio.Future[Door] = loop.create_future()
    task = asyncio.create_task(
        run_server(
            banning_config(tmp_path),
            stop=stop,
            on_ready=ready.set_result,
            on_door=opened.set_result,
        )
    )
    listening = await asyncio.wait_for(ready, 30)
    door = await opened
    try:
        assert listening.telnet
        banned, spared = TelnetCallerFrom("127.0.0.2"), TelnetCallerFrom("127.0.0.5")
        for caller, name in ((banned, "Spammer"), (spared, "Bystander")):
            await caller.connect(listening.telnet[1])
            await caller.come_as_guest(name)
            await caller.wait_for(f"Welcome, {name}!")
        await banned.send("chello from .2\r")
        await spared.wait_for("Spammer: hello from .2")
        [heard] = door.moderation.recent
        assert (heard.speaker, heard.address, heard.text) == (
            "Spammer",
            "127.0.0.2",
            "hello from .2",
        )
        door.moderation.apply([Ban(1, BanTarget.parse("127.0.0.0/30"), "flooding", UNTIL)], [])
        await banned.wait_for(TOLD, timeout=5)
        await banned.wait_for_close(timeout=5)
        await asyncio.sleep(0.2)
        assert not spared.closed and "banned" not in spared.text
        # A handle ban turns away whoever is on under that name (or one like it).
        door.moderation.apply([Ban(2, BanTarget.parse("handle:bystander"), "abuse", None)], [])
        await spared.wait_for("Your name is banned from this door: abuse (for good).", timeout=5)
        await spared.wait_for_close(timeout=5)
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)


@run_async
async def test_a_linked_bbss_callers_already_on_are_turned_away_when_its_address_is_banned(
    tmp_path: Path,
) -> None:
    # Their address was the text "OK (127.0.0.1)", which no ban covers: they stayed on,
    # where the same BBS calling again was refused before its handshake.
    stop, task, listening, door = await serving(tmp_path)
    try:
        assert listening.rlogin and listening.telnet
        linked, spared = RloginCaller(), TelnetCallerFrom("127.0.0.5")
        await linked.connect(listening.rlogin[1], "Zed")
        await linked.wait_for("Welcome, Zed!")
        await spared.connect(listening.telnet[1])
        await spared.come_as_guest("Bystander")
        await spared.wait_for("Welcome, Bystander!")
        door.moderation.apply([Ban(3, BanTarget.parse("127.0.0.1/32"), "flooding", UNTIL)], [])
        await linked.wait_for(TOLD, timeout=5)
        await linked.wait_for_close(timeout=5)
        assert not spared.closed and "banned" not in spared.text
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)


@run_async
async def test_a_banned_name_cannot_be_a_guests_name(tmp_path: Path) -> None:
    stop, task, listening, door = await serving(tmp_path)
    try:
        assert listening.telnet
        door.moderation.apply([Ban(2, BanTarget.parse("handle:Mallory"), "abuse", None)], [])
        guest = TelnetCallerFrom("127.0.0.3")
        await guest.connect(listening.telnet[1])
        await guest.come_as_guest("MALL\u041eRY")  # a Cyrillic O
        await guest.wait_for("Your name is banned from this door: abuse (for good).")
        await guest.wait_for("Your name:")
        await guest.send("Carol\r")
        await guest.wait_for("Welcome, Carol!")
        guest.hang_up()
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)


@run_async
async def test_a_banned_address_calling_again_and_again_is_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    quiet_library_loggers()  # as serve does
    stop, task, listening, _door = await serving(tmp_path)
    try:
        assert listening.telnet
        with caplog.at_level(logging.INFO):
            for _ in range(20):
                telnet = TelnetCallerFrom("127.0.0.2")
                await telnet.connect(listening.telnet[1])
                await telnet.wait_for_close(timeout=5)
                assert TOLD in telnet.words  # every one is told
        # The door's lines (the test's own telnet client logs in this process too).
        served = [r for r in caplog.records if not r.name.startswith("telnetlib3.client")]
        lines = [f"{r.name}: {r.getMessage()}" for r in served]
        assert len(lines) == 1, lines  # before: telnetlib3's two a connection besides
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)


@run_async
async def test_a_member_whose_handle_is_banned_cannot_log_in(tmp_path: Path) -> None:
    stop, task, listening, door = await serving(tmp_path)
    try:
        assert listening.telnet
        member = TelnetCallerFrom("127.0.0.3")
        await member.connect(listening.telnet[1])
        await member.sign_up("Mallory", "correct horse battery")
        await member.wait_for("Welcome, Mallory!")
        member.hang_up()
        door.moderation.apply([Ban(2, BanTarget.parse("handle:mallory"), "abuse", None)], [])
        again = TelnetCallerFrom("127.0.0.3")
        await again.connect(listening.telnet[1])
        await again.log_in("Mallory", "correct horse battery")
        await again.wait_for("Your name is banned from this door: abuse (for good).")
        assert "Welcome, Mallory!" not in again.text
        again.hang_up()
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)


@run_async
async def test_banned_ssh_connections_waiting_for_their_banner_are_held_to_the_limit(
    tmp_path: Path,
) -> None:
    stop, task, listening, door = await serving(tmp_path)
    try:
        assert listening.ssh
        limit = door.guard.max_at_once
        lines = [
            await asyncio.open_connection(
                "127.0.0.1", listening.ssh[1], local_addr=("127.0.0.2", 0)
            )
            for _ in range(limit + 12)
        ]
        await asyncio.sleep(1.0)  # none of them says a word

        async def closed(reader: asyncio.StreamReader) -> bool:
            try:
                while await asyncio.wait_for(reader.read(4096), 0.5):
                    pass
            except TimeoutError:
                return False
            except OSError:
                pass
            return True

        held = [not await closed(reader) for reader, _ in lines]
        assert sum(held) == limit  # the rest closed at once, not held for their banner
        assert door.guard.open_from("127.0.0.2") == limit
        for _, writer in lines:
            writer.close()
        await asyncio.sleep(0.5)
        assert door.guard.open_from("127.0.0.2") == 0
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)
