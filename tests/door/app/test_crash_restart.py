"""The whole server killed mid-game (SIGKILL: no clean-up at all) and started again: the
caller logs back in, is offered the saved game, and finds it as it stood, with the same
cards in hand, the same cards on the count and the same scores on the board."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from pathlib import Path

from door.term.keys import encode_key
from tests.door.caller import answer
from tests.door.netclients import TelnetCaller, free_port
from tests.door.test_end_to_end import quiet

ROOT = Path(__file__).resolve().parents[3]
RAIL_ROW, PLAY_CARDS_ROW, HAND_ROW, MESSAGE_ROW = 4, 10, 14, 22
LISTENING = re.compile(r"telnet: listening on \S+ port (\d+)")


class Server:
    """``cribbage-door serve`` in a process of its own, on a free port."""

    def __init__(self, config: Path, data_dir: Path) -> None:
        self.config = config
        self.data_dir = data_dir
        self.log: list[str] = []

    async def start(self) -> int:
        """Start the server on a free port; returns the port once it listens."""
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "door.cli",
            "serve",
            "--config",
            str(self.config),
            "--telnet-port",
            str(free_port()),
            "--ssh-port",
            "0",
            "--data-dir",
            str(self.data_dir),
            cwd=ROOT,
            stderr=asyncio.subprocess.PIPE,
        )
        port: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.reading = asyncio.create_task(self._read_log(port))
        try:
            return await asyncio.wait_for(port, 60)
        except BaseException:
            await self.stop()  # never leave a server behind
            raise

    async def _read_log(self, port: asyncio.Future[int]) -> None:
        assert self.process.stderr is not None
        while line := await self.process.stderr.readline():
            text = line.decode(errors="replace").rstrip()
            self.log.append(text)
            found = LISTENING.search(text)
            if found and not port.done():
                port.set_result(int(found.group(1)))
        if not port.done():
            port.set_exception(AssertionError("the server ended:\n" + "\n".join(self.log)))

    async def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        assert await self.process.wait() == -signal.SIGKILL
        await self.reading

    async def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.terminate()
        try:
            await asyncio.wait_for(self.process.wait(), 20)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        await self.reading


async def press(caller: TelnetCaller) -> None:
    """What the status line asks for."""
    for key in answer(caller.screen.display[23]):
        await caller.send(key if isinstance(key, str) else encode_key(key))


def what_the_caller_sees(caller: TelnetCaller) -> dict[str, str]:
    rows = caller.screen.display
    return {
        "board": rows[RAIL_ROW],
        "count": rows[PLAY_CARDS_ROW],
        "hand": rows[HAND_ROW],
        "message": rows[MESSAGE_ROW],
    }


async def resume_as_ada(server: Server) -> tuple[dict[str, str], str]:
    """Start ``server`` (on the data folder of a door that stopped mid-game), log Ada in
    and resume her saved game: what she sees then, and the words of the offer."""
    port = await server.start()
    try:
        caller = TelnetCaller()
        await caller.connect(port)
        await caller.log_in("Ada", "correct horse")
        await caller.wait_for("Your saved game")
        offer = caller.words
        await caller.send("r")
        await caller.wait_for("RETURN play")
        await quiet(caller)
        return what_the_caller_sees(caller), offer
    finally:
        await server.stop()


def test_the_server_killed_mid_game_restarts_and_the_game_resumes_as_it_stood(
    tmp_path: Path,
) -> None:
    config = tmp_path / "door.toml"
    config.write_text('[game]\ncomputer_pause_seconds = 0\nlevel = "easy"\n')
    data_dir = tmp_path / "data"

    async def scenario() -> tuple[dict[str, str], dict[str, str], str]:
        server = Server(config, data_dir)
        port = await server.start()
        try:
            caller = TelnetCaller()
            await caller.connect(port)
            await caller.sign_up("Ada", "correct horse")
            await caller.wait_for("Press a key from the menu")
            await caller.send("p")
            # Into the play of a later hand, with cards on the count and Ada to play.
            for _ in range(3000):
                await quiet(caller)
                status = caller.screen.display[23]
                message = caller.screen.display[MESSAGE_ROW]
                in_play = "RETURN play" in status and "the count is 0" not in message
                if in_play and "Hand 1 " not in caller.screen.display[0]:
                    break
                await press(caller)
            else:
                raise AssertionError("never got to the play:\n" + caller.text)
            await asyncio.sleep(0.5)  # each save is written as soon as the action is taken
            before = what_the_caller_sees(caller)
            await server.kill()
            await caller.wait_for_close()
        except BaseException:
            await server.stop()
            raise

        after, offer = await resume_as_ada(server)  # the same data folder: the same database
        return before, after, offer

    before, after, offer = asyncio.run(scenario())
    assert after == before
    ada, computer = (
        int(score)
        for score in re.findall(r"(?:Ada|Computer) (\d+) \((?:above|below)\)", before["board"])
    )
    assert f"the score: Ada {ada}, Computer {computer}." in offer
    assert "Your turn, the count is" in after["message"]
