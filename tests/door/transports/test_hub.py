"""Door nodes meet the hub's callers: a door caller (stdio under a pty, relayed over RLogin)
and a telnet caller of the hub see each other, chat, and play a whole game together."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from door.app.door import Door
from door.config import config_from_mapping
from door.serve import Listening, run_server
from tests.door.netclients import TelnetCaller, free_port
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
