"""The sysop's tools in the door, on the real server over loopback: the sysop (over SSH)
opens the tools from the lobby, searches the members, opens one, makes a reset code,
locks a member who is online (they are told why and hung up on, and refused when they
call back), reads the audit; nobody else reaches the tools. A member given a code uses it
as their SSH password and chooses a new one."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import asyncssh
import pytest
from sqlalchemy.exc import OperationalError

from door.app.sysop import hash_password
from door.config import Config, config_from_mapping
from door.storage.settings import SQLITE_FILE_NAME
from door.storage.store import Store
from tests.door.app.test_accounts_server import running
from tests.door.caller import run_async
from tests.door.netclients import SSHCaller, TelnetCaller, free_port
from tests.door.storage.conftest import FAST_HASHER

PASSWORD = "correct horse"


def door_config(data_dir: Path) -> Config:
    return config_from_mapping(
        {
            "server": {
                "telnet_port": free_port(),
                "ssh_port": free_port(),
                "data_dir": str(data_dir),
            },
            "game": {"computer_pause_seconds": 0},
            "sysop": {
                "name": "Boss",
                "password_hash": hash_password("letmein!", prefer_argon2=False),
            },
        }
    )


async def member_online(port: int, handle: str) -> TelnetCaller:
    caller = TelnetCaller()
    await caller.connect(port)
    await caller.sign_up(handle, PASSWORD)
    await caller.wait_for(f"Welcome, {handle}!")
    return caller


async def sysop_at_members(port: int) -> SSHCaller:
    """The sysop, over SSH, on the tools' list of members."""
    sysop = SSHCaller()
    await sysop.connect(port, "Boss", password="letmein!")
    await sysop.wait_for("X tools")
    await sysop.send("x")
    await sysop.wait_for("Sysop's tools")
    await sysop.wait_for("Members: list, search")
    await sysop.send("m")
    await sysop.wait_for("Handle")
    return sysop


def test_the_sysop_finds_a_member_makes_a_code_locks_them_and_reads_the_audit(
    tmp_path: Path,
) -> None:
    @run_async
    async def scenario() -> None:
        async with running(door_config(tmp_path)) as listening:
            assert listening.telnet and listening.ssh
            telnet = listening.telnet[1]
            ada = await member_online(telnet, "Ada")
            bob = await member_online(telnet, "Bob")
            assert "X tools" not in ada.text
            await ada.send("x")
            await ada.wait_for("The 'x' key does nothing here")

            sysop = await sysop_at_members(listening.ssh[1])
            await sysop.wait_for("Bob")
            await sysop.send("/ad\r")
            await sysop.wait_for("Members whose handle holds 'ad'")
            assert "Bob" not in sysop.text
            await sysop.send("1\r")
            await sysop.wait_for("Addresses seen lately")
            await sysop.wait_for("127.0.0.1")

            await sysop.send("c")
            await sysop.wait_for("Make a one-time reset code for Ada?")
            await sysop.send("y")
            await sysop.wait_for("Reset code for Ada:")
            code = re.search(r"Reset code for Ada: (\S{4}-\S{4}-\S{4})", sysop.text)
            assert code is not None

            await sysop.send("l")
            await sysop.wait_for("Why (the member is told):")
            await sysop.send("spam in chat\r")
            await sysop.wait_for("For how many hours")
            await sysop.send("2\r")
            await sysop.wait_for("Ada is locked until")
            await sysop.wait_for("They were online: hung up.")
            await ada.wait_for("The sysop has locked Ada until")
            await ada.wait_for_close()
            assert "Reason: spam in chat" in ada.words

            again = TelnetCaller()
            await again.connect(telnet)
            await again.log_in("Ada", PASSWORD)
            await again.wait_for("Reason: spam in chat")

            await sysop.send("\x1b")
            await sysop.wait_for("Members whose handle holds")
            await sysop.send("\x1b")
            await sysop.wait_for("Sysop's tools")
            await sysop.send("a")
            await sysop.wait_for("Audit: what the sysop did")
            await sysop.wait_for("user.lock")
            assert "user.reset-password" in sysop.text
            assert code.group(1) not in sysop.text  # the audit never holds the code
            bob.hang_up()
            sysop.hang_up()

    scenario()


def test_a_member_uses_the_reset_code_as_their_ssh_password_and_chooses_a_new_one(
    tmp_path: Path,
) -> None:
    @run_async
    async def scenario() -> None:
        async with running(door_config(tmp_path)) as listening:
            assert listening.telnet and listening.ssh
            (await member_online(listening.telnet[1], "Ada")).hang_up()
            store = await Store.open(
                f"sqlite+aiosqlite:///{tmp_path / SQLITE_FILE_NAME}", hasher=FAST_HASHER
            )
            try:
                _, code, _ = await store.make_reset_code("Ada")
            finally:
                await store.close()
            ada = SSHCaller()
            await ada.connect(listening.ssh[1], "Ada", password=code)
            await ada.wait_for("Your reset code is right. Choose a new password")
            await ada.send("a brand new secret\r")
            await ada.wait_for("Password again:")
            await ada.send("a brand new secret\r")
            await ada.wait_for("Your new password is set, Ada")
            await ada.send("\r")
            await ada.wait_for("Welcome, Ada!")
            ada.hang_up()
            for password in (PASSWORD, code):
                with pytest.raises(asyncssh.PermissionDenied):
                    await SSHCaller().connect(listening.ssh[1], "Ada", password=password)
            again = SSHCaller()
            await again.connect(listening.ssh[1], "Ada", password="a brand new secret")
            await again.wait_for("Welcome, Ada!")
            again.hang_up()

    scenario()


def test_a_member_renamed_while_online_is_told_the_new_handle_and_hung_up_on(
    tmp_path: Path,
) -> None:
    @run_async
    async def scenario() -> None:
        async with running(door_config(tmp_path)) as listening:
            assert listening.telnet and listening.ssh
            telnet = listening.telnet[1]
            bob = await member_online(telnet, "Bob")
            sysop = await sysop_at_members(listening.ssh[1])
            await sysop.wait_for("Bob")
            await sysop.send("/bob\r")
            await sysop.wait_for("Members whose handle holds 'bob'")
            await sysop.send("1\r")
            await sysop.wait_for("Addresses seen lately")
            await sysop.send("r")
            await sysop.wait_for("New handle:")
            await sysop.send("Robert\r")
            await sysop.wait_for("Bob is now Robert")
            await sysop.wait_for("They were online: hung up.")
            await bob.wait_for_close()
            assert "The sysop renamed your account to Robert: call again and log in as" in (
                bob.words
            )
            again = TelnetCaller()
            await again.connect(telnet)
            await again.log_in("Robert", PASSWORD)
            await again.wait_for("Welcome, Robert!")
            again.hang_up()
            sysop.hang_up()

    scenario()


def test_a_lock_the_database_cannot_take_says_so_in_the_sysops_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk: the sysop's line once read the advice a caller gets at log-in,
    "Accounts, statistics and saved games are not available right now (the disk is
    full). You can still play as a guest.", cut off at the screen's edge."""

    async def disk_full(self: Store, *args: object) -> None:
        async with self.transaction():  # the database's own error, as SQLite gives it
            raise OperationalError(
                "UPDATE", {}, sqlite3.OperationalError("database or disk is full")
            )

    @run_async
    async def scenario() -> None:
        async with running(door_config(tmp_path)) as listening:
            assert listening.telnet and listening.ssh
            (await member_online(listening.telnet[1], "Ada")).hang_up()
            sysop = await sysop_at_members(listening.ssh[1])
            await sysop.wait_for("Ada")
            await sysop.send("1\r")
            await sysop.wait_for("Addresses seen lately")
            monkeypatch.setattr(Store, "lock_member", disk_full)
            await sysop.send("l")
            await sysop.wait_for("Why (the member is told):")
            await sysop.send("spam in chat\r")
            await sysop.wait_for("For how many hours")
            await sysop.send("2\r")
            await sysop.wait_for("The database cannot be used now: the disk is full.")
            assert "play as a guest" not in sysop.words
            sysop.hang_up()

    scenario()
