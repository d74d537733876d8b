"""A telnet caller's input reaches telnetlib3's parser a few KiB at a time: it parses in
Python, and one large read of window-size changes held every other caller meanwhile."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from door.transports import telnet
from tests.door.netclients import TelnetCaller, running_server, server_config
from tests.door.waiting import until

NAWS = bytes([255, 250, 31, 0, 80, 0, 24, 255, 240])  # IAC SB NAWS 80x24 IAC SE


def test_a_flood_of_window_size_changes_is_parsed_a_few_kib_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[int] = []
    parse = telnet.DoorTelnetServer.data_received

    def counted(self: telnet.DoorTelnetServer, data: bytes) -> None:
        reads.append(len(data))
        parse(self, data)

    monkeypatch.setattr(telnet.DoorTelnetServer, "data_received", counted)

    async def scenario() -> None:
        async with running_server(server_config(tmp_path), ready_seconds=10) as listening:
            caller = TelnetCaller()
            await caller.connect(listening.telnet[1])
            await caller.wait_for("guest")
            reads.clear()
            # 180 KB in one write, as commands: the client's writer would escape each
            # IAC and send keys instead (which the key rate holds back: reading stops).
            caller.writer.transport.write(NAWS * 20_000)
            await until(lambda: sum(reads) >= 64 * 1024, 2.0, what="64 KiB of the flood read")
            caller.hang_up()
            caller.pump.cancel()

    asyncio.run(scenario())
    assert sum(reads) >= 64 * 1024  # the flood arrived (up to the rate the door allows)
    assert max(reads) <= telnet.READ_SIZE
