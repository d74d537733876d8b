"""A telnet caller's keys pass through telnetlib3 as data, never a byte at a time.

telnetlib3 "simulates" special line characters for clients without LINEMODE: it builds
the set of them for every chunk received, scans the chunk for them byte by byte in
Python, and hands each one to callbacks that only log that they are unhandled. The door
reads raw keys itself (door/term/keys.py), so its keys are just data: only IAC begins a
telnet command.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import telnetlib3

from door.term.keys import Key, KeyDecoder
from door.term.terminal import StreamTerminal
from tests.door.netclients import TelnetCaller, running_server, server_config
from tests.door.waiting import until

# Letters, DEL (telnetlib3's erase character), Ctrl-D (its end of file), an arrow, Ctrl-U.
KEYS = b"ab\x7f\x04\x1b[C\x15"


def test_keys_are_data_to_telnetlib3_not_special_line_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    looked_at: list[bytes] = []
    feed_byte = telnetlib3.TelnetWriter.feed_byte

    def counted(self: telnetlib3.TelnetWriter, byte: bytes) -> bool:
        looked_at.append(byte)
        return bool(feed_byte(self, byte))

    accepted: list[Key] = []
    accept = StreamTerminal._accept

    def recorded(self: StreamTerminal, keys: list[Key]) -> None:
        accepted.extend(keys)
        accept(self, keys)

    monkeypatch.setattr(telnetlib3.TelnetWriter, "feed_byte", counted)
    monkeypatch.setattr(StreamTerminal, "_accept", recorded)
    expected = KeyDecoder().feed(KEYS)

    async def scenario() -> None:
        async with running_server(server_config(tmp_path), ready_seconds=10) as listening:
            assert listening.telnet is not None
            caller = TelnetCaller()
            await caller.connect(listening.telnet[1])
            await caller.wait_for("guest")
            # The first byte after a telnet command is looked at alone whatever the
            # setting (telnetlib3 then says whether it is still out of band).
            await caller.send(b"z")
            await until(lambda: bool(accepted), 5.0, what="the first key at the door")
            looked_at.clear()
            accepted.clear()
            await caller.send(KEYS)
            await until(lambda: len(accepted) >= len(expected), 5.0, what="the keys at the door")
            caller.hang_up()
            caller.pump.cancel()

    asyncio.run(scenario())
    assert accepted[: len(expected)] == expected
    assert looked_at == []  # not one byte of them went through telnetlib3's byte parser
