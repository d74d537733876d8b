"""A process killed with SIGKILL in the middle of a game loses at most the action in
flight: the game saved before the kill resumes at the same state.

This kills a process that plays and saves a game through the same GameSaver the door
uses. The whole-server version of this test (a telnet caller, SIGKILL the server,
restart, log back in, resume) is tests/door/app/test_crash_restart.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from engine.computer.selfplay import next_action
from engine.rules.record import RecordedGame
from tests.door.caller import run_async
from tests.door.storage.conftest import Database
from tests.door.storage.crash_child import players
from tests.engine.rules.test_record import snapshot

ROOT = Path(__file__).resolve().parents[3]
KILL_AFTER = 40
SEED = 3


@run_async
async def test_a_game_killed_mid_play_resumes_at_the_state_last_saved(
    database: Database,
) -> None:
    async with database.store() as store:
        ada = await store.create_account("Ada", "correct horse")
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.door.storage.crash_child",
            database.url,
            json.dumps(database.connect_args),
            str(ada.id),
            str(SEED),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        saved_before_kill = 0
        while saved_before_kill < KILL_AFTER:
            line = child.stdout.readline()
            assert line, "the game process ended before it was killed"
            saved_before_kill = int(line)
        os.kill(child.pid, signal.SIGKILL)  # while it goes on playing and saving
    finally:
        child.kill()
        child.wait(10)
    assert child.returncode == -signal.SIGKILL

    async with database.store() as store:  # "the server restarts"
        saved = await store.load_unfinished_game(ada.id)
    assert saved is not None
    actions = len(saved.recording.actions)
    assert actions >= saved_before_kill

    # The same game, played again to the same point without any saving, is identical.
    expected = RecordedGame(seed=SEED)
    seats = players(SEED)
    while expected.actions_taken < actions:
        next_action(expected, seats)
    assert snapshot(saved.resume()) == snapshot(expected)
