"""Door nodes meet the hub's callers: a door caller (stdio under a pty, relayed over RLogin)
and a telnet caller of the hub see each other, chat, and play a whole game together."""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from door.app.door import Door
from door.config import config_from_mapping
from door.serve import Listening, run_server
from door.term.ansi import HIDE_CURSOR, SHOW_CURSOR
from door.term.mouse import ASK_FOR_REPORTS, STOP_REPORTS
from door.transports.dropfile import parse_door32
from door.transports.hub_relay import relay_to_hub
from tests.door.netclients import KeepsEveryByte, TelnetCaller, free_port
from tests.door.test_end_to_end import play_until
from tests.door.transports.test_door_mode import PtyCaller, door32, door_args


def test_a_door_caller_and_a_telnet_caller_chat_and_play_through_the_hub(tmp_path: Path) -> None:
    rlogin_port = free_port()
    hub_config = config_from_mapping(
        {
            "server": {
                "telnet_port": free_port(),
                "ssh_port": 0,
                "data_dir": str(tmp_path / "hub"),
            },
            "game": {"computer_pause_seconds": 0},
            "rlogin": {"port": rlogin_port, "systems": {"127.0.0.1": "NODES"}},
        }
    )
    node = tmp_path / "node"
    node.mkdir()

    async def scenario() -> tuple[list[str], tuple[int, ...], object]:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        opened: asyncio.Future[Door] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(
            run_server(hub_config, stop=stop, on_ready=ready.set_result, on_door=opened.set_result)
        )
        listening = await asyncio.wait_for(ready, 10)
        door = await opened
        assert listening.telnet is not None
        tess = TelnetCaller()
        await tess.connect(listening.telnet[1])
        await tess.come_as_guest("Tess")
        await tess.wait_for("Press a key from the menu")

        ada = PtyCaller()
        args = door_args(node, door32(0, 0), "--utf8")
        (node / "door.toml").write_text(
            f'[game]\ncomputer_pause_seconds = 0\n[hub]\naddress = "127.0.0.1:{rlogin_port}"\n'
        )
        await ada.start(args)
        await ada.wait_for("Welcome, Ada!", timeout=30)
        await tess.wait_for("Ada ")  # on Tess's who-is-on list

        await ada.send("c")
        await ada.send("hello from the BBS\r")
        await tess.wait_for("Ada: hello from the BBS")

        number = re.search(r"(\d)\s+Ada ", tess.text)
        assert number, tess.text
        await tess.send("w" + number.group(1))
        await ada.wait_for("Tess challenges you")
        await ada.send("y")
        await tess.wait_for("Chat: ")
        await ada.wait_for("Chat: ")
        table = door.presence.tables[0]
        dealer = tess if table.game.dealer == 0 else ada
        await dealer.send("\r")
        await play_until([tess, ada], lambda: table.over, limit=400)
        await tess.wait_for("Game over")
        await ada.wait_for("Game over")
        screens = [tess.text, ada.text]
        scores = tuple(table.game.scores)
        await ada.send("\r")
        await ada.wait_for("Press a key from the menu")
        await ada.send("q")
        await ada.wait_for("Leave the door?")
        await ada.send("y")
        code = await asyncio.wait_for(ada.process.wait(), 10)
        record = await door.records.store.stats_for("Ada")  # type: ignore[union-attr]
        stop.set()
        await asyncio.wait_for(server, 10)
        assert code == 0
        return screens, scores, record

    screens, scores, record = asyncio.run(scenario())
    assert max(scores) >= 121 > min(scores)
    for screen in screens:
        assert "Game over" in screen
    # The hub keeps Ada's record under its tag for the node's BBS.
    assert record is not None and record.total.games == 1  # type: ignore[attr-defined]


def test_an_ascii_door_caller_relayed_to_the_hub_gets_no_escape(tmp_path: Path) -> None:
    from tests.door.transports.test_door_mode import RawPtyCaller

    rlogin_port = free_port()
    hub_config = config_from_mapping(
        {
            "server": {"telnet_port": free_port(), "ssh_port": 0, "data_dir": str(tmp_path)},
            "rlogin": {"port": rlogin_port, "systems": {"127.0.0.1": "NODES"}},
        }
    )
    node = tmp_path / "node"
    node.mkdir()

    async def scenario() -> tuple[bytes, int]:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(run_server(hub_config, stop=stop, on_ready=ready.set_result))
        await asyncio.wait_for(ready, 10)
        ada = RawPtyCaller()
        args = door_args(node, door32(0, 0, emulation=0))
        (node / "door.toml").write_text(f'[hub]\naddress = "127.0.0.1:{rlogin_port}"\n')
        await ada.start(args)
        await ada.wait_for("Welcome, Ada!", timeout=30)
        await ada.send("q")
        await ada.wait_for("Leave the door?")
        await ada.send("y")
        code = await asyncio.wait_for(ada.process.wait(), 10)
        stop.set()
        await asyncio.wait_for(server, 10)
        return bytes(ada.raw), code

    raw, code = asyncio.run(scenario())
    assert code == 0
    assert b"\x1b" not in raw and b"Thanks for playing, Ada" in raw


def test_a_relayed_caller_with_minutes_left_is_warned_and_stays_in_the_hub(tmp_path: Path) -> None:
    # A caller arriving with under five minutes is told at once how many are left. The
    # relay's warning was a plain function the clock awaited: the clock failed on its first
    # warning, and the caller was sent back to the BBS as if their time were up.
    from tests.door.transports.test_door_mode import RawPtyCaller

    rlogin_port = free_port()
    hub_config = config_from_mapping(
        {
            "server": {"telnet_port": free_port(), "ssh_port": 0, "data_dir": str(tmp_path)},
            "rlogin": {"port": rlogin_port, "systems": {"127.0.0.1": "NODES"}},
        }
    )
    node = tmp_path / "node"
    node.mkdir()

    async def scenario() -> tuple[bytes, int]:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(run_server(hub_config, stop=stop, on_ready=ready.set_result))
        await asyncio.wait_for(ready, 10)
        ada = RawPtyCaller()
        args = door_args(node, door32(0, 0, minutes=3, emulation=0))
        (node / "door.toml").write_text(f'[hub]\naddress = "127.0.0.1:{rlogin_port}"\n')
        await ada.start(args)
        await ada.wait_for("3 minutes of BBS time left.", timeout=30)
        await ada.wait_for("Welcome, Ada!", timeout=30)
        await ada.send("q")
        await ada.wait_for("Leave the door?")
        await ada.send("y")
        code = await asyncio.wait_for(ada.process.wait(), 10)
        stop.set()
        await asyncio.wait_for(server, 10)
        return bytes(ada.raw), code

    raw, code = asyncio.run(scenario())
    assert code == 0
    assert b"Thanks for playing, Ada" in raw
    assert b"time on the BBS is up" not in raw


class _RawTelnetCaller(KeepsEveryByte, TelnetCaller):
    """The caller at the BBS, keeping every byte they were sent."""


def test_time_up_in_the_hub_gives_the_caller_their_terminal_back(tmp_path: Path) -> None:
    # By hand: a door caller relayed to the hub whose time ran out was back at the BBS with
    # the hub's mouse reports still on (every click sent as escape codes), no cursor, and
    # the closing line written over the lobby. The node cuts the hub off, so the hub's own
    # goodbye, which undoes those, never comes.
    async def scenario() -> tuple[str, str, str]:
        async with _hub_and_a_bbs_line(tmp_path) as (rlogin_port, ada, line):
            time_is_up = asyncio.Event()

            async def clock(seconds: float, warn: Callable[[str], Awaitable[None]]) -> None:
                await time_is_up.wait()

            drop = parse_door32(door32(2, line.fileno()))
            relay = asyncio.create_task(
                relay_to_hub(
                    f"127.0.0.1:{rlogin_port}", drop, stdio=False, utf8=True, system=None,
                    clock=clock,
                )
            )  # fmt: skip
            await ada.wait_for("Welcome, Ada!", timeout=30)
            before = ada.since(0)
            mark = len(ada.raw)
            time_is_up.set()
            await asyncio.wait_for(relay, 10)
            await ada.until_sent("time on the BBS is up", mark)
            return before, ada.since(mark), ada.text

    before, after, screen = asyncio.run(scenario())
    assert HIDE_CURSOR in before  # the hub's screen hid the cursor ...
    assert STOP_REPORTS in after  # ... and the caller is back at the BBS with no clicks,
    assert after.rfind(SHOW_CURSOR) > after.rfind(HIDE_CURSOR)  # with a cursor,
    assert "Your time on the BBS is up" in screen and "Who is on" not in screen  # cleared


def test_a_utf8_door_caller_relayed_to_the_hub_is_not_asked_for_mouse_reports(
    tmp_path: Path,
) -> None:
    # By hand (door mode --stdio --utf8 relayed to a hub): the hub sent ESC[?1000h
    # ESC[?1006h, since the node named the terminal "xterm"; door mode never asks, as its
    # drop file cannot say the caller's BBS client knows the modes.
    async def scenario() -> str:
        async with _hub_and_a_bbs_line(tmp_path) as (rlogin_port, ada, line):
            drop = parse_door32(door32(2, line.fileno()))
            relay = asyncio.create_task(
                relay_to_hub(f"127.0.0.1:{rlogin_port}", drop, stdio=False, utf8=True, system=None)
            )
            try:
                await ada.wait_for("Welcome, Ada!", timeout=30)
                return ada.since(0)
            finally:
                relay.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await relay

    sent = asyncio.run(scenario())
    assert ASK_FOR_REPORTS not in sent and "\x1b[?1000h" not in sent
    assert "Who is on" in sent and "\u2500" in sent  # the lobby, drawn in UTF-8 ...
    assert re.search("\x1b\\[0;[0-9;]*3[0-7]m", sent)  # ... and in colour


def test_an_ansi_caller_arriving_with_minutes_left_sees_the_warning_over_the_hubs_screen(
    tmp_path: Path,
) -> None:
    # By hand (a BBS handing its telnet socket to the door, 3 minutes left): the warning
    # was written before the hub's first screen, whose clearing wiped it unseen.
    async def scenario() -> str:
        async with _hub_and_a_bbs_line(tmp_path) as (rlogin_port, ada, line):

            async def clock(seconds: float, warn: Callable[[str], Awaitable[None]]) -> None:
                await warn("3 minutes of BBS time left.")  # on arriving, as keep_time does
                await asyncio.Event().wait()

            drop = parse_door32(door32(2, line.fileno(), minutes=3))
            relay = asyncio.create_task(
                relay_to_hub(
                    f"127.0.0.1:{rlogin_port}", drop, stdio=False, utf8=True, system=None,
                    clock=clock,
                )
            )  # fmt: skip
            try:
                await ada.wait_for("Welcome, Ada!", timeout=30)
                with contextlib.suppress(AssertionError):
                    await ada.wait_for("3 minutes of BBS time left.", timeout=3)
                return ada.text
            finally:
                relay.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await relay

    screen = asyncio.run(scenario())
    assert "3 minutes of BBS time left." in screen and "Who is on" in screen, screen


@contextlib.asynccontextmanager
async def _hub_and_a_bbs_line(
    tmp_path: Path,
) -> AsyncIterator[tuple[int, _RawTelnetCaller, socket.socket]]:
    """A hub serving RLogin for this machine's BBS, and a caller (Ada, over raw telnet)
    on a line of that BBS: the hub's RLogin port, the caller, and the BBS's end of the
    line (the socket a BBS hands a door). All of it closed after."""
    rlogin_port = free_port()
    hub_config = config_from_mapping(
        {
            "server": {"telnet_port": 0, "ssh_port": 0, "data_dir": str(tmp_path)},
            "rlogin": {"port": rlogin_port, "systems": {"127.0.0.1": "NODES"}},
        }
    )
    stop = asyncio.Event()
    ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_server(hub_config, stop=stop, on_ready=ready.set_result))
    await asyncio.wait_for(ready, 10)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    ada = _RawTelnetCaller()
    connecting = asyncio.create_task(ada.connect(listener.getsockname()[1]))
    line, _ = await asyncio.get_running_loop().sock_accept(listener)
    await connecting
    try:
        yield rlogin_port, ada, line
    finally:
        ada.hang_up()
        line.close()
        listener.close()
        stop.set()
        await asyncio.wait_for(server, 10)
