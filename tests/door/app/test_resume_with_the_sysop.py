"""A game between the sysop and a caller, stopped with the door, goes on when the caller
calls back, with the sysop seated again though they were in the lobby first."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from door.app.sysop import hash_password
from door.config import config_from_mapping
from door.serve import Listening, run_server
from tests.door.netclients import SSHCaller, TelnetCaller, free_port


def test_the_sysop_in_the_lobby_is_seated_when_the_caller_sets_their_game_again(
    tmp_path: Path,
) -> None:
    # By hand: after a restart the console's sysop is in the lobby before anyone calls.
    # Frank called back and his table said "Sysop's line dropped: waiting up to 60
    # seconds" while the sysop sat in the lobby, told nothing; then the computer took the
    # sysop's seat.
    config = config_from_mapping(
        {
            "server": {
                "telnet_port": free_port(),
                "ssh_port": free_port(),
                "data_dir": str(tmp_path),
            },
            "game": {"computer_pause_seconds": 0},
            "sysop": {"password_hash": hash_password("letmein!", prefer_argon2=False)},
        }
    )

    async def door_running() -> tuple[asyncio.Event, asyncio.Task[None], Listening]:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
        return stop, server, await asyncio.wait_for(ready, 10)

    async def sysop_in(listening: Listening) -> SSHCaller:
        assert listening.ssh is not None
        sysop = SSHCaller()
        await sysop.connect(listening.ssh[1], username="Sysop", password="letmein!")
        await sysop.wait_for("Press a key from the menu", timeout=20)
        return sysop

    async def scenario() -> str:
        stop, server, listening = await door_running()
        assert listening.telnet is not None
        sysop = await sysop_in(listening)
        frank = TelnetCaller()
        await frank.connect(listening.telnet[1])
        await frank.sign_up("Frank", "secret123")
        await sysop.wait_for("Frank ")
        number = re.search(r"(\d)\s+Frank ", sysop.text)
        assert number, sysop.text
        await sysop.send("h" + number.group(1))
        await frank.wait_for("Sysop challenges you")
        await frank.send("y")
        await frank.wait_for("Chat: ")
        await sysop.wait_for("Chat: ")
        for player in (frank, sysop):  # the dealer deals (RETURN on a blank line)
            await player.send("\r")
        await sysop.wait_for("Choose 2 cards")  # the game is under way, and saved
        stop.set()
        await asyncio.wait_for(server, 15)

        stop, server, listening = await door_running()
        assert listening.telnet is not None
        sysop = await sysop_in(listening)  # in the lobby before Frank calls back
        frank = TelnetCaller()
        await frank.connect(listening.telnet[1])
        await frank.log_in("Frank", "secret123")
        await frank.wait_for("goes on where it was saved", timeout=20)
        try:
            await sysop.wait_for("Choose 2 cards", timeout=10)
        finally:
            stop.set()
            await asyncio.wait_for(server, 15)
        return frank.text

    frank_screen = asyncio.run(scenario())
    assert "line dropped" not in frank_screen, frank_screen
