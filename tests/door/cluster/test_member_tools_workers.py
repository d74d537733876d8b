"""The sysop's tools for members on ``cribbage-door serve --workers 2`` with Redis, as a
sysop runs them: a member made over telnet forgets their password, ``user
reset-password`` runs beside the door, the member logs in with the code at whichever
worker takes the call and chooses a new password, the old one no longer works; members
locked from the shell are hung up on at both workers within seconds; ``audit`` names
every action."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
from pathlib import Path

from door.app.member_watch import WATCH_SECONDS
from tests.door.cluster.test_workers import ROOT, Workers
from tests.door.netclients import TelnetCaller

PASSWORD = "correct horse"
NEW_PASSWORD = "a brand new secret"
MEMBER = re.compile(r"(worker-\d) telnet caller (M\d+)")


def shell(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """A command as the sysop runs it beside the door, on its data folder."""
    return subprocess.run(
        [sys.executable, "-m", "door.cli", *args, "--config", str(tmp_path / "door.toml"),
         "--data-dir", str(tmp_path / "data")],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_a_reset_code_and_a_lock_work_across_two_workers(tmp_path: Path, redis_url: str) -> None:
    asyncio.run(_scenario(tmp_path, redis_url))


async def _scenario(tmp_path: Path, redis_url: str) -> None:
    server = Workers(tmp_path, redis_url)
    online: dict[str, TelnetCaller] = {}
    try:
        await server.wait_for(r"worker-\d ready in", 2)
        # Members sign up until each worker holds one (the kernel spreads the calls).
        where: dict[str, str] = {}
        for number in range(30):
            handle = f"M{number}"
            caller = TelnetCaller()
            await caller.connect(server.port)
            await caller.sign_up(handle, PASSWORD)
            await caller.wait_for(f"Welcome, {handle}!")
            online[handle] = caller
            log = await server.wait_for(rf"telnet caller {handle}\b")
            where = {member: worker for worker, member in MEMBER.findall(log)}
            if len(set(where.values())) == 2:
                break
        assert set(where.values()) == {"worker-1", "worker-2"}, where
        forgetful = "Forgetful"
        caller = TelnetCaller()
        await caller.connect(server.port)
        await caller.sign_up(forgetful, PASSWORD)
        await caller.wait_for(f"Welcome, {forgetful}!")
        caller.hang_up()

        made = await asyncio.to_thread(shell, tmp_path, "user", "reset-password", forgetful)
        assert made.returncode == 0, made.stderr
        found = re.search(r"reset code for Forgetful: (\S{4}-\S{4}-\S{4})", made.stdout)
        assert found, made.stdout
        code = found.group(1)
        caller = TelnetCaller()
        await caller.connect(server.port)
        await caller.log_in(forgetful, code)
        await caller.wait_for("Choose a new password")
        await caller.send(f"{NEW_PASSWORD}\r{NEW_PASSWORD}\r")
        await caller.wait_for("Your new password is set")
        caller.hang_up()
        for password, answer in (
            (PASSWORD, "Wrong handle or password."),
            (NEW_PASSWORD, "Welcome"),
        ):
            for _ in range(2):  # twice: the kernel may hand each call to either worker
                caller = TelnetCaller()
                await caller.connect(server.port)
                await caller.log_in(forgetful, password)
                await caller.wait_for(answer)
                caller.hang_up()

        # One member online at each worker, locked from the shell: both are told.
        locked = [next(m for m, w in where.items() if w == worker and m in online)
                  for worker in ("worker-1", "worker-2")]  # fmt: skip
        for handle in locked:
            done = await asyncio.to_thread(
                shell, tmp_path, "user", "lock", handle, "--reason", "testing the lock"
            )
            assert done.returncode == 0, done.stderr
        for handle in locked:
            member = online.pop(handle)
            await member.wait_for(f"The sysop has locked {handle}", timeout=WATCH_SECONDS + 5)
            await member.wait_for_close()

        audit = await asyncio.to_thread(shell, tmp_path, "audit")
        assert audit.returncode == 0, audit.stderr
        actions = [line.split("  ")[2:4] for line in audit.stdout.splitlines()]
        assert actions == [
            ["user.lock", locked[1]],
            ["user.lock", locked[0]],
            ["user.reset-password", forgetful],
        ], audit.stdout
        assert code not in audit.stdout and code not in server.log()
    finally:
        for caller in online.values():
            caller.hang_up()
        server.process.send_signal(signal.SIGTERM)
        try:
            assert server.process.wait(30) == 0, server.log()[-3000:]
        finally:
            if server.process.poll() is None:
                server.process.kill()
