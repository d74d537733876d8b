"""The real server on loopback: both transports, config errors, clean shutdown."""

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from door.serve import Listening, run_server
from tests.door.netclients import SSHCaller, TelnetCaller, server_config


def test_telnet_and_ssh_callers_reach_the_menu_and_are_told_of_shutdown(tmp_path: Path) -> None:
    config = server_config(tmp_path / "data")

    async def scenario() -> tuple[str, str]:
        stop = asyncio.Event()
        ready: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(run_server(config, stop=stop, on_ready=ready.set_result))
        listening = await asyncio.wait_for(ready, 10)
        assert listening.telnet and listening.ssh
        telnet, ssh = TelnetCaller(), SSHCaller()
        await telnet.connect(listening.telnet[1])
        await ssh.connect(listening.ssh[1], username="guest")
        await telnet.come_as_guest("Dave")
        await telnet.wait_for("Welcome, Dave!")
        await ssh.give_name("Carol")  # SSH user "guest" comes in without a password
        await ssh.wait_for("Welcome, Carol!")
        for caller in (telnet, ssh):
            await caller.wait_for("P Play the computer")  # the lobby's menu
        stop.set()
        await asyncio.wait_for(server, 10)
        # The door hangs up: what a caller's screen shows then is all they were sent.
        await telnet.wait_for_close()
        await ssh.wait_for_close()
        return telnet.text, ssh.text

    for told in asyncio.run(scenario()):
        assert "The sysop is shutting the door down. Goodbye!" in told
    assert (tmp_path / "data" / "ssh_host_ed25519_key").exists()


def test_the_host_key_is_kept_across_restarts(tmp_path: Path) -> None:
    from door.transports.ssh import load_host_keys

    first = [key.export_public_key() for key in load_host_keys(tmp_path)]
    second = [key.export_public_key() for key in load_host_keys(tmp_path)]
    assert first == second and len(first) == 2


def test_a_bad_config_value_exits_2_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "door.toml"
    bad.write_text("[server]\ntelnet_port = 'twenty'\n")
    result = subprocess.run(
        [sys.executable, "-m", "door.cli", "--config", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "server.telnet_port" in lines[0] and str(bad) in lines[0]


def test_a_port_in_use_names_the_key(tmp_path: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "door.cli",
                "--telnet-port",
                str(port),
                "--ssh-port",
                "0",
                "--data-dir",
                str(tmp_path),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2
    assert "server.telnet_port" in result.stderr


def test_the_goodbye_stands_alone_on_the_screen_it_is_written_over() -> None:
    """Seen in tmux: the goodbye came out on the table's last rows, over the key line,
    and the key line's end stayed beside it ("Goodbye! ***e keys  ? help")."""
    import pyte

    from door.app.door import SHUTDOWN_MESSAGE

    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    for row in range(24):
        stream.feed(f"\x1b[{row + 1};1H" + f"table row {row} ".ljust(80, "x"))
    stream.feed("\x1b[21;10H")  # the cursor in the chat line, as a table leaves it
    stream.feed(SHUTDOWN_MESSAGE)
    said = [line.rstrip() for line in screen.display]
    goodbye = next(line for line in said if "Goodbye" in line)
    assert goodbye == "*** The sysop is shutting the door down. Goodbye! ***"
    below = said[said.index(goodbye) + 1 :]
    assert all(line == "" for line in below)


@pytest.mark.parametrize(
    "message_name",
    [
        "door.app.sysop_keys:KICK_MESSAGE",
        "door.app.call:TAKE_OVER_MESSAGE",
        "door.app.call:LOGIN_TIMEOUT_MESSAGE",
    ],
)
def test_every_line_closing_message_stands_alone_on_the_screen(message_name: str) -> None:
    """Seen in tmux: the sysop's K left "*** The sysop has disconnected you. Goodbye! ***
    the bar on it, RETURN." on the caller's screen, the table's prompt beside it."""
    import importlib

    import pyte

    module, name = message_name.split(":")
    message = getattr(importlib.import_module(module), name)
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    for row in range(24):
        stream.feed(f"\x1b[{row + 1};1H" + f"table row {row} ".ljust(80, "x"))
    stream.feed("\x1b[21;10H")  # the cursor in the chat line, as a table leaves it
    stream.feed(message)
    said = [line.rstrip() for line in screen.display]
    last = next(line for line in said if "***" in line)
    assert last.startswith("***") and last.endswith("***"), last
    assert all(line == "" for line in said[said.index(last) + 1 :])
