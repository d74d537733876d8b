"""Accounts on the real server over loopback: sign up over telnet, log in over SSH with
the password and then with a key attached on the way, the record and leaderboard
screens, bad input on the forms, and a database the door cannot use."""

from __future__ import annotations

import asyncio
import logging
import os
import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from door.config import Config, config_from_mapping
from door.serve import Listening, run_server
from door.storage.settings import SQLITE_FILE_NAME
from door.storage.store import Store
from tests.door.netclients import SSHCaller, TelnetCaller, free_port
from tests.door.storage.conftest import FAST_HASHER


def door_config(data_dir: Path, **database: Any) -> Config:
    return config_from_mapping(
        {
            "server": {
                "telnet_port": free_port(),
                "ssh_port": free_port(),
                "data_dir": str(data_dir),
            },
            "game": {"computer_pause_seconds": 0},
            "database": database,
        }
    )


@asynccontextmanager
async def running(config: Config) -> AsyncIterator[Listening]:
    stop = asyncio.Event()
    ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
    listening = await asyncio.wait_for(ready, 20)
    try:
        yield listening
    finally:
        stop.set()
        await asyncio.wait_for(server, 20)


def test_sign_up_over_telnet_then_log_in_over_ssh_by_password_and_then_by_key(
    tmp_path: Path,
) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")

    async def scenario() -> None:
        async with running(door_config(tmp_path)) as listening:
            assert listening.telnet and listening.ssh
            telnet = TelnetCaller()
            await telnet.connect(listening.telnet[1])
            await telnet.sign_up("Ada Lovelace", "correct horse")
            await telnet.wait_for("Welcome, Ada Lovelace!")
            await telnet.wait_for("R Record  L Leaderboard")
            await telnet.send("r")
            await telnet.wait_for("Statistics for Ada Lovelace")
            assert "No finished games yet" in telnet.text
            await telnet.send("x")
            await telnet.send("l")
            await telnet.wait_for("Leaderboard: most games won")
            assert "No games have been played yet." in telnet.text
            await telnet.send("x")
            await telnet.wait_for("Press a key from the menu")
            await telnet.send("q")
            await telnet.wait_for("Leave the door?")
            await telnet.send("y")
            await telnet.wait_for("Goodbye")

            # Over SSH the handle is the user name; the key the client offers first logs
            # nobody in yet, so the password does, and the door offers to attach the key.
            ssh = SSHCaller()
            await ssh.connect(
                listening.ssh[1], "Ada Lovelace", password="correct horse", client_keys=[key]
            )
            await ssh.wait_for("Your SSH client offered the key ssh-ed25519 SHA256:")
            await ssh.send("y")
            await ssh.wait_for("now logs you in as Ada Lovelace")
            await ssh.send("\r")
            await ssh.wait_for("Welcome, Ada Lovelace!")
            ssh.hang_up()

            by_key = SSHCaller()
            await by_key.connect(listening.ssh[1], "ada lovelace", client_keys=[key])
            await by_key.wait_for("Welcome, Ada Lovelace!")
            assert "offered the key" not in by_key.text
            by_key.hang_up()

            for password in ("wrong password", "correct horse "):
                with pytest.raises(asyncssh.PermissionDenied):
                    await SSHCaller().connect(listening.ssh[1], "Ada Lovelace", password=password)
            with pytest.raises(asyncssh.PermissionDenied):  # no such account
                await SSHCaller().connect(listening.ssh[1], "Nobody", password="correct horse")

            newcomer = SSHCaller()  # SSH user "new" signs up without a password
            await newcomer.connect(listening.ssh[1], "new")
            await newcomer.wait_for("Password again:")
            await newcomer.send("Bea\rbee's knees\rbee's knees\r")
            await newcomer.wait_for("Welcome, Bea! Your account is ready.")
            await newcomer.send("\r")
            await newcomer.wait_for("R Record")
            newcomer.hang_up()

    asyncio.run(scenario())


def test_bad_input_on_the_forms_gets_a_clear_message_and_the_door_serves_on(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with running(door_config(tmp_path, max_failed_logins=2)) as listening:
            assert listening.telnet
            store = await Store.open(
                f"sqlite+aiosqlite:///{tmp_path / SQLITE_FILE_NAME}", hasher=FAST_HASHER
            )
            await store.create_account("Bob", "battery staple")
            await store.close()
            guest = TelnetCaller()  # someone else, in the lobby all along
            await guest.connect(listening.telnet[1])
            await guest.come_as_guest("Carl")
            await guest.wait_for("Press a key from the menu")

            caller = TelnetCaller()
            await caller.connect(listening.telnet[1])
            await caller.log_in("Bob", "wrong password")
            await caller.wait_for("Wrong handle or password.")
            await caller.wait_for("RETURN next")  # back at the handle, after a pause
            await caller.send("\rwrong again\r")
            await caller.wait_for("Bob is locked for 15 minutes")
            await caller.send("\r")

            await caller.wait_for("G guest")
            await caller.send("n")
            await caller.wait_for("Password again:")
            await caller.send("A" * 25)
            await caller.wait_for("A handle can be at most 20 characters long.")
            await caller.send("\x7f" * 20 + "Ada\t")
            await caller.wait_for("A handle cannot contain control characters (tab)")
            await caller.send("é")
            await caller.wait_for("RETURN next")
            await caller.send("\r")
            await caller.wait_for("A handle may use only letters A-Z")
            await caller.send("\x7f\r")
            await caller.send("short\r")
            await caller.wait_for("A password needs at least 8 characters.")
            await caller.send("correct horse\rcorrect horse\r")
            await caller.wait_for("Welcome, Ada! Your account is ready.")

            await guest.send("chello, all\r")  # the door served Carl all the while
            await guest.wait_for("Carl: hello, all")

    asyncio.run(scenario())


@pytest.mark.parametrize("damage", ["read-only", "damaged"])
def test_a_database_the_door_cannot_use_leaves_it_open_to_guests(
    tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / SQLITE_FILE_NAME
    if damage == "damaged":
        database.write_bytes(b"this is no SQLite database\x00" * 200)
    else:
        asyncio.run(_make_database(database))
        database.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    before = database.read_bytes()

    async def scenario() -> None:
        async with running(door_config(tmp_path)) as listening:
            assert listening.telnet and listening.ssh
            telnet = TelnetCaller()
            await telnet.connect(listening.telnet[1])
            await telnet.wait_for(f"(the database {'is' if damage == 'read-only' else 'file is'}")
            assert "You can still play as a guest." in telnet.words
            await telnet.send("\r")
            await telnet.give_name("Dora")
            await telnet.wait_for("Press a key from the menu")
            assert "Leaderboard" not in telnet.text
            ssh = SSHCaller()  # with accounts off, an SSH user name is a guest's name again
            await ssh.connect(listening.ssh[1], "Sam")
            await ssh.wait_for("Welcome, Sam!")
            ssh.hang_up()

    with caplog.at_level(logging.WARNING):
        asyncio.run(scenario())
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == ["accounts are off until the database can be used: callers play as guests"]
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and str(database) in errors[0] and damage in errors[-1]
    assert database.read_bytes() == before  # the door left the file as it was
    if damage == "read-only":
        os.chmod(database, stat.S_IRUSR | stat.S_IWUSR)


async def _make_database(path: Path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{path}", hasher=FAST_HASHER)
    await store.close()


def test_an_account_found_for_one_ssh_user_name_does_not_log_in_another(tmp_path: Path) -> None:
    """SSH lets a client change user names between attempts, and a key is looked up
    before the client proves it holds it: Ada's public key, shown under "Ada", must not
    make a later "guest" or "Eve" log-in Ada's."""
    from door.config import SysopConfig
    from door.transports.ssh import DoorSSHServer

    ada_key = asyncssh.generate_private_key("ssh-ed25519")

    async def scenario() -> None:
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/door.sqlite3", hasher=FAST_HASHER)
        try:
            ada = await store.create_account("Ada", "correct horse")
            await store.create_account("Eve", "evil genius")
            await store.add_ssh_key(ada.id, ada_key.export_public_key().decode())
            server = DoorSSHServer(SysopConfig(), frozenset(), store)
            assert await server.validate_public_key("Ada", ada_key.convert_to_public())
            assert server.caller("Ada", "").account == ada  # had the signature followed
            guest = server.caller("guest", "")
            assert guest.account is None and guest.arriving_as == "guest"
            assert server.caller("Eve", "").account is None
            # A key nobody has, offered under "Ada", is not offered to Eve to attach.
            stray = asyncssh.generate_private_key("ssh-ed25519").convert_to_public()
            assert not await server.validate_public_key("Ada", stray)
            assert await server.validate_password("Eve", "evil genius")
            assert server.caller("Eve", "").offered_keys == ()
            assert not await server.validate_public_key("Eve", stray)
            assert len(server.caller("Eve", "").offered_keys) == 1
        finally:
            await store.close()

    asyncio.run(scenario())
