"""``cribbage-door serve`` stopped by SIGTERM (``systemctl stop``) or SIGINT (Ctrl-C): the
callers are told, their games saved, and the door exits 0 within seconds."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.door.app.test_crash_restart import Server, resume_as_ada, what_the_caller_sees
from tests.door.netclients import TelnetCaller
from tests.door.transports.test_console import STOP_WITHIN_SECONDS, into_the_play


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_serve_within_seconds_and_the_game_is_kept(
    tmp_path: Path, signum: signal.Signals
) -> None:
    config = tmp_path / "door.toml"
    config.write_text('[game]\ncomputer_pause_seconds = 0\nlevel = "easy"\n')
    server = Server(config, tmp_path / "data")

    async def scenario() -> tuple[int | None, float, dict[str, str], dict[str, str]]:
        port = await server.start()
        try:
            caller = TelnetCaller()
            await caller.connect(port)
            await caller.sign_up("Ada", "correct horse")
            await caller.wait_for("Press a key from the menu")
            await into_the_play(caller)
            before = what_the_caller_sees(caller)
            loop = asyncio.get_running_loop()
            signalled = loop.time()
            server.process.send_signal(signum)
            await asyncio.wait_for(server.process.wait(), STOP_WITHIN_SECONDS + 10)
            took, code = loop.time() - signalled, server.process.returncode
            await caller.wait_for("shutting the door down")
        finally:
            await server.stop()

        after, _ = await resume_as_ada(server)
        return code, took, before, after

    code, took, before, after = asyncio.run(scenario())
    assert code == 0 and took < STOP_WITHIN_SECONDS, (code, took)
    assert after == before
