"""Whole games over real sockets: one telnet caller and one SSH caller at once."""

import asyncio
import re
from pathlib import Path

from door.config import config_from_mapping
from door.keys import encode_key
from door.serve import Listening, run_server
from tests.door.caller import answer
from tests.door.netclients import Caller, SSHCaller, TelnetCaller, free_port

QUIET = 0.12  # seconds without output: the door is waiting for a key


async def quiet(caller: Caller) -> None:
    while True:
        before = caller.received
        await asyncio.sleep(QUIET)
        if caller.received == before:
            return


async def play_one_game(caller: Caller) -> str:
    """Answer the status line until the game-over box; returns that screen."""
    await caller.wait_for("Play the computer")
    await caller.send("p")
    for _ in range(3000):
        await quiet(caller)
        status = caller.screen.display[23]
        if "y play again" in status:
            over = caller.text
            await caller.send("n")
            await caller.wait_for("Play the computer")
            await caller.send("q")
            await caller.wait_for("Thanks for playing")
            return over
        for key in answer(status):
            await caller.send(key if isinstance(key, str) else encode_key(key))
    raise AssertionError("the game never ended:\n" + caller.text)


def test_a_telnet_and_an_ssh_caller_each_play_a_whole_game(tmp_path: Path) -> None:
    config = config_from_mapping(
        {
            "server": {
                "telnet_port": free_port(),
                "ssh_port": free_port(),
                "data_dir": str(tmp_path),
            },
            "game": {"computer_pause_seconds": 0, "level": "expert"},
        }
    )

    async def scenario() -> list[str]:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
        listening = await asyncio.wait_for(ready, 10)
        assert listening.telnet and listening.ssh
        telnet, ssh = TelnetCaller(), SSHCaller()
        await telnet.connect(listening.telnet[1])
        await ssh.connect(listening.ssh[1], username="Sam")
        await telnet.wait_for("Your name:")
        await telnet.send("Tess\r")
        screens = await asyncio.wait_for(
            asyncio.gather(play_one_game(telnet), play_one_game(ssh)), 600
        )
        stop.set()
        await asyncio.wait_for(server, 10)
        return screens

    for screen in asyncio.run(scenario()):
        match = re.search(r"(You|Computer) wins?, (\d+) to (\d+)", screen)
        assert match, screen
        winner_score, loser_score = int(match.group(2)), int(match.group(3))
        assert winner_score >= 121 > loser_score
        # the board's rail shows the same two scores
        rail = screen.splitlines()[4]
        shown = sorted(int(n) for n in re.findall(r" (\d+) \((?:above|below)\)", rail))
        assert shown == sorted([winner_score, loser_score]), rail
