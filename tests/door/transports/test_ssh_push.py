"""An SSH caller's key reaches the key queue in the channel's own callback: no task
of the terminal's reads the session (issue #48). Window changes still resize the
screen, a storm of them ends the call, and keys past the rate pause the channel."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from door.transports import ssh
from tests.door.netclients import SSHCaller, running_server, server_config
from tests.door.waiting import until


def _reading_tasks() -> list[asyncio.Task[Any]]:
    return [
        task
        for task in asyncio.all_tasks()
        if getattr(task.get_coro(), "__qualname__", "") == "StreamTerminal._read_input"
    ]


def test_an_ssh_callers_keys_reach_the_terminal_without_a_reading_task(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_server(server_config(tmp_path), ready_seconds=10) as listening:
            assert listening.ssh is not None
            caller = SSHCaller()
            await caller.connect(listening.ssh[1], username="guest")
            await caller.give_name("Dora")
            await caller.wait_for("Welcome, Dora")
            assert _reading_tasks() == []
            caller.screen.resize(30, 100)
            caller.process.change_terminal_size(100, 30)

            def centred_in_30_rows() -> bool:  # a 24-row lobby, three rows down
                return caller.screen.display[3].rstrip().endswith("Welcome, Dora!")

            await until(centred_in_30_rows, 5.0, what="the lobby drawn for 100x30")
            caller.hang_up()
            caller.pump.cancel()

    asyncio.run(scenario())


def test_a_storm_of_window_changes_ends_the_call(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_server(server_config(tmp_path), ready_seconds=10) as listening:
            assert listening.ssh is not None
            caller = SSHCaller()
            await caller.connect(listening.ssh[1], username="guest")
            await caller.give_name("Eve")
            await caller.wait_for("Welcome, Eve")
            for number in range(ssh.RESIZE_BURST + 50):
                caller.process.change_terminal_size(80 + number % 2, 24)
            await until(lambda: caller.closed, 5.0, what="the call ended")

    asyncio.run(scenario())


def test_keys_past_the_rate_pause_the_channel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paused: list[float] = []
    hold = ssh._SSHProcess.hold_input

    def recorded(self: Any, seconds: float) -> None:
        paused.append(seconds)
        hold(self, seconds)

    monkeypatch.setattr(ssh._SSHProcess, "hold_input", recorded)

    async def scenario() -> None:
        async with running_server(server_config(tmp_path), ready_seconds=10) as listening:
            assert listening.ssh is not None
            caller = SSHCaller()
            await caller.connect(listening.ssh[1], username="guest")
            await caller.wait_for("Your name:")
            await caller.send(b"\x15" * 400)  # Ctrl-U: clears the name field
            await until(lambda: bool(paused), 5.0, what="the channel held")
            await caller.give_name("Fay")  # read again once the hold ends
            await caller.wait_for("Welcome, Fay", 10)
            caller.hang_up()
            caller.pump.cancel()

    asyncio.run(scenario())
