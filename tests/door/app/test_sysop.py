"""The sysop's account: the password hash in the config, and logging in over SSH with the
password or a key, on the real server over loopback."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from door.app.door import Door
from door.app.sysop import hash_password, verify_password
from door.config import ConfigError, config_from_mapping
from door.serve import Listening, run_server
from tests.door.netclients import SSHCaller, TelnetCaller, free_port
from tests.door.waiting import until


@pytest.mark.parametrize("prefer_argon2", [False, True])
def test_a_hash_checks_its_own_password_and_no_other(prefer_argon2: bool) -> None:
    stored = hash_password("correct horse", prefer_argon2=prefer_argon2)
    assert "correct horse" not in stored
    assert verify_password(stored, "correct horse")
    assert not verify_password(stored, "correct hors")
    assert hash_password("correct horse", prefer_argon2=prefer_argon2) != stored  # salted


@pytest.mark.parametrize("stored", ["", "scrypt$1$2", "scrypt$x$8$1$AA==$AA==", "$argon2id$junk"])
def test_an_unreadable_hash_lets_nobody_in(stored: str) -> None:
    assert not verify_password(stored, "anything")


@pytest.mark.parametrize(
    ("sysop", "names"),
    [
        ({"password_hash": "hunter2"}, "sysop.password_hash"),  # a password, not a hash
        ({"authorized_keys": "ssh-ed25519 AAAA"}, "sysop.authorized_keys"),
        ({"authorized_keys": ["nokey"]}, "sysop.authorized_keys"),
        ({"name": ""}, "sysop.name"),
    ],
)
def test_a_bad_sysop_setting_names_the_key(sysop: dict[str, Any], names: str) -> None:
    with pytest.raises(ConfigError, match=names.replace(".", r"\.")):
        config_from_mapping({"sysop": sysop}, "door.toml")


def test_the_sysop_section_reads_a_hash_and_keys() -> None:
    stored = hash_password("pw123456", prefer_argon2=False)
    config = config_from_mapping(
        {"sysop": {"name": "Boss", "password_hash": stored, "authorized_keys": ["ssh-ed25519 A c"]}}
    )
    assert config.sysop.name == "Boss" and config.sysop.authorized_keys == ("ssh-ed25519 A c",)


def test_the_sysop_logs_in_over_ssh_with_the_password_or_a_key(tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    config = config_from_mapping(
        {
            "server": {
                "telnet_port": free_port(),
                "ssh_port": free_port(),
                "data_dir": str(tmp_path),
            },
            "sysop": {
                "name": "Boss",
                "password_hash": hash_password("letmein!", prefer_argon2=False),
                "authorized_keys": [key.export_public_key().decode()],
            },
        }
    )

    async def log_in(port: int, **credentials: Any) -> str:
        connection = await asyncssh.connect(
            "127.0.0.1", port, username="Boss", known_hosts=None, **credentials
        )
        process = await connection.create_process(
            term_type="xterm", term_size=(80, 24), encoding=None
        )
        caller = SSHCaller()
        caller.process = process

        async def pump() -> None:
            while data := await process.stdout.read(4096):
                caller.feed(data)

        pumping = asyncio.create_task(pump())
        try:
            await caller.wait_for("Press a key from the menu")
            return caller.text
        finally:
            connection.close()
            pumping.cancel()

    async def scenario() -> None:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        opened: asyncio.Future[Door] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(
            run_server(config, stop=stop, on_ready=ready.set_result, on_door=opened.set_result)
        )
        listening = await asyncio.wait_for(ready, 10)
        door = await opened
        assert listening.ssh and listening.telnet
        port = listening.ssh[1]
        by_password = await log_in(port, password="letmein!", client_keys=None)
        assert "Welcome, Boss!" in by_password and "Sysop: O page into chat" in by_password
        await until(lambda: door.presence.find("Boss") is None, what="the sysop's line gone")
        by_key = await log_in(port, client_keys=[key], password=None)
        assert "Sysop: O page into chat" in by_key
        for credentials in (
            {"password": "wrong", "client_keys": None},
            {"client_keys": [stranger], "password": None},
        ):
            with pytest.raises(asyncssh.PermissionDenied):
                await log_in(port, **credentials)
        # A guest comes in without a password, but not under the sysop's name...
        carol = SSHCaller()
        await carol.connect(port, username="guest")
        await carol.give_name("Boss")
        await carol.wait_for("Please choose another name.")
        await carol.send("Carol\r")
        await carol.wait_for("Welcome, Carol!")
        assert "Sysop: O page" not in carol.text
        # ... nor over telnet, nor as a new account.
        telnet = TelnetCaller()
        await telnet.connect(listening.telnet[1])
        await telnet.come_as_guest("boss")
        await telnet.wait_for("Please choose another name.")
        newcomer = TelnetCaller()
        await newcomer.connect(listening.telnet[1])
        await newcomer.wait_for("G guest")
        await newcomer.send("nBOSS\r")
        await newcomer.wait_for("is kept for the door itself")
        stop.set()
        await asyncio.wait_for(server, 10)

    asyncio.run(scenario())
