"""Door mode with a fake BBS: it writes the drop file, hands the caller over (a telnet
socket it accepted, or a pty on stdio) and starts ``cribbage-door door``; the caller plays
a whole game through it."""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import re
import signal
import socket
import struct
import subprocess
import sys
import termios
from pathlib import Path
from typing import Any

import pyte
import pytest

from door.transports.door_mode import EXIT_CONNECTION, EXIT_DROP_FILE, EXIT_OK
from tests.door.netclients import Caller, KeepsEveryByte, TelnetCaller
from tests.door.test_end_to_end import play_one_game

FAST_GAMES = "[game]\ncomputer_pause_seconds = 0\n"


def door32(comm: int, handle: int, minutes: int = 60, emulation: int = 1) -> str:
    return (
        f"{comm}\r\n{handle}\r\n38400\r\nFakeBBS 1.0\r\n12\r\nAda Lovelace\r\nAda\r\n"
        f"50\r\n{minutes}\r\n{emulation}\r\n3\r\n"
    )


def door_args(tmp_path: Path, drop: str, *extra: str) -> list[str]:
    (tmp_path / "DOOR32.SYS").write_text(drop)
    config = tmp_path / "door.toml"
    config.write_text(FAST_GAMES)
    return [
        sys.executable,
        "-m",
        "door.cli",
        "door",
        str(tmp_path / "DOOR32.SYS"),
        "--config",
        str(config),
        "--data-dir",
        str(tmp_path / "data"),
        *extra,
    ]


class Cp437Caller(Caller):
    """A caller whose terminal reads CP437, as BBS terminals do."""

    def __init__(self) -> None:
        super().__init__()
        self.text_stream = pyte.Stream(self.screen)
        self.raw = bytearray()

    def feed(self, data: bytes) -> None:
        self.received += len(data)
        self.raw += data
        self.text_stream.feed(data.decode("cp437"))


class Cp437TelnetCaller(Cp437Caller, TelnetCaller):
    pass


class PtyCaller(Caller):
    """The door on stdio, through a pty 80x24 as the BBS would give it."""

    async def start(self, args: list[str]) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = {**os.environ, "TERM": "xterm"}
        self.process = await asyncio.create_subprocess_exec(
            *args, stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=env
        )
        os.close(slave)
        asyncio.get_running_loop().add_reader(self.master, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except OSError:
            data = b""
        if not data:
            self.closed = True
            asyncio.get_running_loop().remove_reader(self.master)
            return
        self.feed(data)

    async def send(self, data: bytes | str) -> None:
        os.write(self.master, data.encode() if isinstance(data, str) else data)


def test_a_whole_game_on_stdio_under_a_pty(tmp_path: Path) -> None:
    async def scenario() -> tuple[str, int]:
        caller = PtyCaller()
        await caller.start(door_args(tmp_path, door32(0, 0), "--utf8"))
        await caller.wait_for("Welcome, Ada!", timeout=30)
        screen = await asyncio.wait_for(play_one_game(caller), 600)
        code = await asyncio.wait_for(caller.process.wait(), 10)
        return screen, code

    screen, code = asyncio.run(scenario())
    assert re.search(r"(You|Computer) wins?, 121 to \d+", screen), screen
    assert code == EXIT_OK
    # The game is in the caller's record, kept under (FakeBBS 1.0, user 12).
    stats = asyncio.run(stats_of(tmp_path / "data", "Ada"))
    assert stats is not None and stats.total.games == 1


async def stats_of(data_dir: Path, handle: str) -> Any:
    from door.storage.store import Store

    store = await Store.open(f"sqlite+aiosqlite:///{data_dir / 'cribbage.sqlite3'}")
    try:
        return await store.stats_for(handle)
    finally:
        await store.close()


class FakeBbs:
    """Accepts the caller's telnet connection, then runs the door on that socket."""

    async def accept_caller(self) -> Cp437TelnetCaller:
        self.listener = socket.create_server(("127.0.0.1", 0))
        port = self.listener.getsockname()[1]
        caller = Cp437TelnetCaller()
        connecting = asyncio.create_task(caller.connect(port))
        self.listener.setblocking(False)
        self.line, _ = await asyncio.get_running_loop().sock_accept(self.listener)
        await connecting
        return caller

    async def run_door(self, tmp_path: Path, minutes: int = 60) -> asyncio.subprocess.Process:
        handle = self.line.fileno()
        return await asyncio.create_subprocess_exec(
            *door_args(tmp_path, door32(2, handle, minutes)),
            pass_fds=(handle,),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )


def test_a_whole_game_on_a_handed_over_telnet_socket_and_the_bbs_keeps_the_line(
    tmp_path: Path,
) -> None:
    async def scenario() -> tuple[str, int, str]:
        bbs = FakeBbs()
        caller = await bbs.accept_caller()
        door = await bbs.run_door(tmp_path)
        await caller.wait_for("Welcome, Ada!", timeout=30)
        screen = await asyncio.wait_for(play_one_game(caller), 600)
        code = await asyncio.wait_for(door.wait(), 10)
        # Back at the BBS: its end of the line still works.
        await asyncio.get_running_loop().sock_sendall(bbs.line, b"\r\nBack at FakeBBS\r\n")
        await caller.wait_for("Back at FakeBBS")
        return screen, code, bytes(caller.raw)

    screen, code, raw = asyncio.run(scenario())
    assert re.search(r"(You|Computer) wins?, 121 to \d+", screen), screen
    assert code == EXIT_OK
    # Emulation 1 (ANSI) without --utf8: the screen is in CP437 bytes, as BBS terminals read.
    assert "─".encode("cp437") in raw and "─".encode() not in raw


def test_time_up_tells_the_caller_and_gives_the_line_back(tmp_path: Path) -> None:
    async def scenario() -> int:
        bbs = FakeBbs()
        caller = await bbs.accept_caller()
        door = await bbs.run_door(tmp_path, minutes=0)
        await caller.wait_for("Your time on the BBS is up", timeout=30)
        return await asyncio.wait_for(door.wait(), 10)

    assert asyncio.run(scenario()) == EXIT_OK


def test_a_hang_up_ends_the_door_within_five_seconds(tmp_path: Path) -> None:
    async def scenario() -> tuple[int, float]:
        bbs = FakeBbs()
        caller = await bbs.accept_caller()
        door = await bbs.run_door(tmp_path)
        await caller.wait_for("Welcome, Ada!", timeout=30)
        caller.hang_up()
        bbs.line.close()  # the BBS notices the carrier loss too
        started = asyncio.get_running_loop().time()
        code = await asyncio.wait_for(door.wait(), 10)
        return code, asyncio.get_running_loop().time() - started

    code, seconds = asyncio.run(scenario())
    assert code == EXIT_OK and seconds < 5


def test_a_hang_up_on_stdio_under_a_pty_is_a_caller_leaving_not_a_failure(tmp_path: Path) -> None:
    """The terminal gone (the BBS closed the pty, or tmux's window was killed): the raw
    mode cannot be put back on it, and that is no failure of the door's."""

    async def scenario() -> tuple[int, bytes]:
        caller = PtyCaller()
        await caller.start(door_args(tmp_path, door32(0, 0), "--utf8"))
        await caller.wait_for("Welcome, Ada!", timeout=30)
        asyncio.get_running_loop().remove_reader(caller.master)
        os.close(caller.master)  # the hang-up
        code = await asyncio.wait_for(caller.process.wait(), 10)
        assert caller.process.stderr is not None
        return code, await caller.process.stderr.read()

    code, errors = asyncio.run(scenario())
    assert code == EXIT_OK, errors
    assert b"failed" not in errors
    assert "Traceback" not in (tmp_path / "data" / "door.log").read_text()


def run_door_once(tmp_path: Path, drop: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        door_args(tmp_path, drop),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def test_a_bad_drop_file_is_one_line_and_exit_3(tmp_path: Path) -> None:
    result = run_door_once(tmp_path, "2\r\n7\r\n")
    assert result.returncode == EXIT_DROP_FILE
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "DOOR32.SYS" in lines[0] and "2 lines" in lines[0]


def test_a_handle_that_is_no_socket_is_one_line_and_exit_4(tmp_path: Path) -> None:
    result = run_door_once(tmp_path, door32(2, 987))
    assert result.returncode == EXIT_CONNECTION
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "comm handle 987" in lines[0]


def test_the_emulation_sets_the_screen() -> None:
    from door.term.ansi import ColorMode
    from door.term.charset import Charset
    from door.term.display import Display
    from door.transports.door_mode import screen_for
    from door.transports.dropfile import Emulation

    assert screen_for(Emulation.ASCII, utf8=True) == (
        Charset.ASCII,
        ColorMode.NONE,
        Display.LINES,
    )
    assert screen_for(Emulation.ANSI, utf8=False) == (
        Charset.CP437,
        ColorMode.ANSI,
        Display.SCREEN,
    )
    assert screen_for(Emulation.AVATAR, utf8=True) == (Charset.UTF8, ColorMode.ANSI, Display.SCREEN)


def test_the_sysops_screen_reader_setting_makes_every_caller_a_screen_readers() -> None:
    from door.term.ansi import ColorMode
    from door.term.charset import Charset
    from door.term.display import Display
    from door.transports.door_mode import screen_for
    from door.transports.dropfile import Emulation

    speech = {"screen_reader": True}
    assert screen_for(Emulation.ASCII, utf8=True, **speech) == (
        Charset.ASCII,
        ColorMode.NONE,
        Display.SPEECH,
    )
    assert screen_for(Emulation.ANSI, utf8=False, **speech) == (
        Charset.CP437,
        ColorMode.NONE,
        Display.SPEECH,
    )


def test_door_sys_runs_the_door_on_stdio_under_its_alias(tmp_path: Path) -> None:
    from tests.door.transports.test_dropfile import door_sys

    (tmp_path / "DOOR.SYS").write_text(door_sys(alias="Stud", port="COM0:"))

    async def scenario() -> tuple[str, int]:
        caller = PtyCaller()
        args = door_args(tmp_path, door32(0, 0), "--utf8")
        args[args.index(str(tmp_path / "DOOR32.SYS"))] = str(tmp_path / "DOOR.SYS")
        await caller.start(args)
        await caller.wait_for("Welcome, Stud!", timeout=30)
        await caller.send("q")
        await caller.wait_for("Leave the door?")
        await caller.send("y")
        code = await asyncio.wait_for(caller.process.wait(), 10)
        return caller.text, code

    text, code = asyncio.run(scenario())
    assert code == EXIT_OK and "Thanks for playing, Stud" in text


HOSTILE_DROP_FILES = [
    pytest.param(
        door32(2, 5).replace("\r\n60\r\n", "\r\n" + "9" * 60_000 + "\r\n"), id="60,000 digits"
    ),
    pytest.param(door32(2, 5).replace("\r\n60\r\n", "\r\n" + "9" * 400 + "\r\n"), id="400 digits"),
    pytest.param(door32(2, 99999999999999999999), id="20-digit comm handle"),
]


@pytest.mark.parametrize("drop", HOSTILE_DROP_FILES)
def test_hostile_numbers_are_one_short_line_and_exit_3(tmp_path: Path, drop: str) -> None:
    result = run_door_once(tmp_path, drop)
    assert result.returncode == EXIT_DROP_FILE
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and len(lines[0]) < 300, result.stderr[:500]
    log = (tmp_path / "data" / "door.log").read_text()
    assert "Traceback" not in log and max(map(len, log.splitlines())) < 400


def test_a_fifo_as_the_drop_file_or_in_the_node_folder_is_refused_at_once(tmp_path: Path) -> None:
    args = door_args(tmp_path, door32(0, 0))
    fifo_file = tmp_path / "DOOR32.SYS"
    fifo_file.unlink()
    os.mkfifo(fifo_file)
    for target in (fifo_file, tmp_path):  # the file named, and the folder searched
        args[4] = str(target)
        result = subprocess.run(
            args, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL
        )
        assert result.returncode == EXIT_DROP_FILE
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "not a regular file" in lines[0]


def test_a_caller_arriving_with_one_minute_left_is_told(tmp_path: Path) -> None:
    async def scenario() -> str:
        bbs = FakeBbs()
        caller = await bbs.accept_caller()
        door = await bbs.run_door(tmp_path, minutes=1)
        await caller.wait_for("1 minute of BBS time left", timeout=30)
        text = caller.text
        caller.hang_up()
        bbs.line.close()
        await asyncio.wait_for(door.wait(), 10)
        return text

    assert "Your time on the BBS is up" not in asyncio.run(scenario())


def test_the_clock_warns_at_once_under_five_minutes_and_at_each_mark_after() -> None:
    from door.transports.bbs_line import keep_time

    async def told_within(seconds_left: float, wait: float) -> list[str]:
        told: list[str] = []

        async def warn(text: str) -> None:
            told.append(text)

        clock = asyncio.create_task(keep_time(seconds_left, warn))
        await asyncio.sleep(wait)
        clock.cancel()
        return told

    assert asyncio.run(told_within(60.0, 0.2)) == ["1 minute of BBS time left."]
    assert asyncio.run(told_within(200.0, 0.2)) == ["4 minutes of BBS time left."]
    assert asyncio.run(told_within(300.5, 0.2)) == []
    assert asyncio.run(told_within(300.3, 0.5)) == ["5 minutes of BBS time left."]
    assert asyncio.run(told_within(60.3, 0.5)) == [
        "2 minutes of BBS time left.",  # on arrival: more than one minute is left
        "1 minute of BBS time left.",
    ]


def test_a_warning_waits_for_the_caller_to_arrive() -> None:
    from door.transports.door_mode import _warn

    class Member:
        table = None

        def __init__(self) -> None:
            self.told: list[str] = []

        def tell(self, note: str) -> None:
            self.told.append(note)

    class Presence:
        def __init__(self) -> None:
            self.members: dict[str, Member] = {}

        def find(self, name: str) -> Member | None:
            return self.members.get(name)

    class Door:
        presence = Presence()

    async def scenario() -> list[str]:
        ada = Member()
        warning = asyncio.create_task(_warn(Door(), "Ada", "1 minute of BBS time left."))
        await asyncio.sleep(0.3)  # still logging in
        Door.presence.members["Ada"] = ada
        await asyncio.wait_for(warning, 5)
        return ada.told

    assert asyncio.run(scenario()) == ["1 minute of BBS time left."]


def test_the_closing_line_clears_what_the_screen_left_on_it(tmp_path: Path) -> None:
    async def scenario() -> list[str]:
        bbs = FakeBbs()
        caller = await bbs.accept_caller()
        door = await bbs.run_door(tmp_path)
        await caller.wait_for("Welcome, Ada!", timeout=30)
        await caller.send("p")  # at the table: its key line is the bottom row
        await caller.wait_for("RETURN on a blank line", timeout=10)
        await asyncio.sleep(0.5)
        door.send_signal(signal.SIGTERM)  # the BBS closes the door
        await caller.wait_for("The BBS is closing this door", timeout=10)
        await asyncio.wait_for(door.wait(), 10)
        return list(caller.screen.display)

    rows = asyncio.run(scenario())
    closing = [row for row in rows if "The BBS is closing this door" in row]
    assert closing and all(row.rstrip().endswith("Goodbye! ***") for row in closing), closing
    assert all(row.startswith("***") for row in closing), closing


class RawPtyCaller(KeepsEveryByte, PtyCaller):
    """A pty caller keeping every byte the door sent."""


def test_an_ascii_caller_plays_on_plain_lines_without_one_escape(tmp_path: Path) -> None:
    async def scenario() -> tuple[bytes, int]:
        caller = RawPtyCaller()
        await caller.start(door_args(tmp_path, door32(0, 0, emulation=0)))
        await caller.wait_for("Welcome, Ada!", timeout=30)
        await caller.send("p")  # play the computer: the table, the board, the cut
        await caller.wait_for("RETURN on a blank line", timeout=10)
        await caller.send("\r")  # deal
        await caller.wait_for("Your hand", timeout=10)
        for key in "12\r":  # the bar on the second card, and mark it: digits and RETURN
            await caller.send(key)
            await asyncio.sleep(0.3)
        await caller.send("q")  # leave the game ...
        await caller.wait_for("Leave", timeout=10)
        await caller.send("y")
        await caller.wait_for("Game abandoned", timeout=10)
        await caller.send("q")  # ... and the door
        await caller.wait_for("Leave the door?", timeout=10)
        await caller.send("y")
        code = await asyncio.wait_for(caller.process.wait(), 10)
        await caller.wait_for_close()  # every byte the door sent is read
        return bytes(caller.raw), code

    raw, code = asyncio.run(scenario())
    assert code == EXIT_OK
    assert b"\x1b" not in raw and b"\x9b" not in raw  # no escape sequence, ever
    text = raw.decode("ascii")
    assert "\r\n Cribbage Door" in text and "Your hand |" in text  # screens, as lines
    assert "Thanks for playing, Ada. Goodbye!" in text.splitlines()[-1]


def test_time_up_for_an_ascii_caller_has_no_escape(tmp_path: Path) -> None:
    async def scenario() -> bytes:
        caller = RawPtyCaller()
        await caller.start(door_args(tmp_path, door32(0, 0, minutes=0, emulation=0)))
        await caller.wait_for("Your time on the BBS is up", timeout=30)
        await asyncio.wait_for(caller.process.wait(), 10)
        return bytes(caller.raw)

    raw = asyncio.run(scenario())
    assert b"\x1b" not in raw
    assert b"\r\n*** Your time on the BBS is up" in raw
