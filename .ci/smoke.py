"""CI's proof of README's first command: an installed ``cribbage-door``, started on its
defaults from an empty folder with an empty HOME, serves telnet and SSH guests the art,
the lobby and the help, and logs no traceback.

    python .ci/smoke.py /path/to/venv/bin/cribbage-door

Run from the checkout with the test extras installed (it drives the door with the tests'
own scripted callers); the door itself runs from wherever it was installed.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.door.netclients import Caller, SSHCaller, TelnetCaller  # noqa: E402

TELNET_PORT, SSH_PORT = 2323, 2222  # the defaults README promises
ART = "C  R  I  B  B  A  G  E"
LOBBY = "Play the computer"
HELP = "CRIBBAGE DOOR HELP"


def wait_for_log(log: Path, text: str, process: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while text not in log.read_text(errors="replace"):
        if process.poll() is not None:
            raise SystemExit(f"smoke: the door exited ({process.returncode}):\n{log.read_text()}")
        if time.monotonic() > deadline:
            raise SystemExit(f"smoke: no {text!r} in the log after {timeout} s:\n{log.read_text()}")
        time.sleep(0.05)


async def visit(caller: Caller, name: str) -> None:
    """From the first screen to the lobby and its help, as a guest."""
    if isinstance(caller, TelnetCaller):
        await caller.wait_for("G guest", timeout=30)
        await caller.send("g")
    await caller.wait_for("Your name:", timeout=30)
    await caller.wait_for(ART)
    await caller.send(f"{name}\r")
    await caller.wait_for(LOBBY, timeout=30)
    await caller.send("?")
    await caller.wait_for(HELP)


async def callers() -> None:
    telnet, ssh = TelnetCaller(), SSHCaller()
    await telnet.connect(TELNET_PORT)
    await ssh.connect(SSH_PORT, username="guest")
    await asyncio.gather(visit(telnet, "Tess"), visit(ssh, "Sam"))
    print("smoke: telnet and SSH guests saw the art, the lobby and the help")
    telnet.hang_up()
    ssh.hang_up()
    await asyncio.sleep(0.3)


def main() -> int:
    command = Path(sys.argv[1]).absolute()
    with tempfile.TemporaryDirectory(prefix="cribbage-smoke-") as scratch:
        here, home = Path(scratch, "empty"), Path(scratch, "home")
        here.mkdir()
        home.mkdir()
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("XDG_", "CRIBBAGE_", "PYTHON", "VIRTUAL_ENV"))
        }
        env["HOME"] = str(home)
        env["PATH"] = f"{command.parent}{os.pathsep}{env.get('PATH', '')}"
        log = Path(scratch, "door.log")
        started = time.monotonic()
        with log.open("wb") as log_file:
            door = subprocess.Popen(
                [str(command)], cwd=here, env=env, stdout=log_file, stderr=subprocess.STDOUT
            )
        try:
            wait_for_log(log, "ssh: listening", door, timeout=60)
            print(f"smoke: start to listening {time.monotonic() - started:.2f} s", flush=True)
            asyncio.run(asyncio.wait_for(callers(), 90))
        finally:
            door.send_signal(signal.SIGTERM)
            try:
                door.wait(15)
            except subprocess.TimeoutExpired:
                door.kill()
                raise SystemExit("smoke: the door did not stop within 15 s of SIGTERM") from None
        text = log.read_text(errors="replace")
        print("smoke: the door's log:")
        print("".join(f"    {line}\n" for line in text.splitlines()), end="")
        if "Traceback" in text:
            raise SystemExit("smoke: the log has a traceback")
        if door.returncode != 0:
            raise SystemExit(f"smoke: the door exited {door.returncode}")
        data = home / ".local" / "share" / "cribbage-door"
        if not (data / "cribbage.sqlite3").exists():
            raise SystemExit(f"smoke: no database in the user's data folder {data}")
        if any(here.iterdir()):
            raise SystemExit(
                f"smoke: the door wrote into the folder it was started from: "
                f"{sorted(p.name for p in here.iterdir())}"
            )
    print("smoke: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
