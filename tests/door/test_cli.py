"""The ``cribbage-door`` command line: an option the top level and a command share means
the same before the command and after it (``--config F serve`` is ``serve --config F``),
and an option given before a command that does not take it is refused, not ignored."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from door.cli import build_parser
from tests.door.netclients import free_port

ROOT = Path(__file__).resolve().parents[2]

# Every option of the top level, with a value that is not its default, and what it parses to.
TOP_LEVEL_OPTIONS: dict[str, tuple[str, str, object]] = {
    "--config": ("config", "/etc/elsewhere/door.toml", "/etc/elsewhere/door.toml"),
    "--host": ("host", "0.0.0.0", "0.0.0.0"),
    "--telnet-port": ("telnet_port", "2424", 2424),
    "--ssh-port": ("ssh_port", "2225", 2225),
    "--data-dir": ("data_dir", "/var/lib/elsewhere", "/var/lib/elsewhere"),
    "--web-port": ("web_port", "8081", 8081),
    "--metrics-port": ("metrics_port", "9105", 9105),
    "--workers": ("workers", "3", 3),
}

# Each command that shares options with the top level: its positional arguments, and
# which of the top level's options it takes.
COMMANDS: dict[str, tuple[list[str], set[str]]] = {
    "serve": ([], set(TOP_LEVEL_OPTIONS)),
    "console": ([], set(TOP_LEVEL_OPTIONS) - {"--workers"}),
    "door": (["DOOR32.SYS"], {"--config", "--data-dir"}),
    "replay": (["42"], {"--config", "--data-dir"}),
    "status": ([], {"--config", "--metrics-port"}),
}

SHARED = [(command, option) for command, (_, options) in COMMANDS.items() for option in options]


def test_the_table_names_every_option_of_the_top_level() -> None:
    given = vars(build_parser().parse_args([]))
    assert set(given) - {"command"} == {dest for dest, _, _ in TOP_LEVEL_OPTIONS.values()}


@pytest.mark.parametrize(("command", "option"), SHARED)
def test_a_shared_option_before_the_command_is_kept(command: str, option: str) -> None:
    positionals, _ = COMMANDS[command]
    dest, text, value = TOP_LEVEL_OPTIONS[option]
    args = build_parser().parse_args([option, text, command, *positionals])
    assert args.command == command
    assert getattr(args, dest) == value


@pytest.mark.parametrize(("command", "option"), SHARED)
def test_a_shared_option_after_the_command_is_kept(command: str, option: str) -> None:
    positionals, _ = COMMANDS[command]
    dest, text, value = TOP_LEVEL_OPTIONS[option]
    args = build_parser().parse_args([command, *positionals, option, text])
    assert getattr(args, dest) == value


@pytest.mark.parametrize(("command", "option"), SHARED)
def test_given_on_both_sides_the_later_wins(command: str, option: str) -> None:
    positionals, _ = COMMANDS[command]
    dest, text, value = TOP_LEVEL_OPTIONS[option]
    earlier = "1" if option.endswith(("port", "workers")) else "earlier"
    args = build_parser().parse_args([option, earlier, command, *positionals, option, text])
    assert getattr(args, dest) == value


def test_shared_options_not_given_anywhere_are_left_unset() -> None:
    for command, (positionals, options) in COMMANDS.items():
        args = build_parser().parse_args([command, *positionals])
        for option in options:
            assert getattr(args, TOP_LEVEL_OPTIONS[option][0]) is None, (command, option)


@pytest.mark.parametrize(
    ("option", "command"),
    [
        (["--workers", "2"], ["console"]),
        (["--telnet-port", "2424"], ["door", "DOOR32.SYS"]),
        (["--host", "0.0.0.0"], ["replay", "42"]),
        (["--config", "door.toml"], ["init"]),
        (["--data-dir", "here"], ["selfplay"]),
        (["--web-port", "8081"], ["systemd-unit"]),
    ],
)
def test_an_option_before_a_command_that_does_not_take_it_is_refused(
    option: list[str], command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args([*option, *command])
    assert exit_.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert option[0] in error and command[0] in error, error


LISTENING = re.compile(r"telnet: listening on \S+ port (\d+)")
CONFIG_IN_USE = re.compile(r"config: (.*)")


def start_log(argv: list[str]) -> str:
    """What the door logs when started with ``argv``, up to listening (then stopped)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "door.cli", *argv],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    lines = []
    try:
        assert process.stderr is not None
        for line in process.stderr:
            lines.append(line)
            if LISTENING.search(line) or "ready in" in line:
                break
    finally:
        process.terminate()
        process.wait(20)
    return "".join(lines)


@pytest.mark.parametrize("order", ["before", "after"])
def test_config_before_or_after_serve_gives_the_same_door(tmp_path: Path, order: str) -> None:
    port = free_port()
    config = tmp_path / "mine.toml"
    # A relative data_dir is taken from the config file's folder.
    config.write_text(f'[server]\ntelnet_port = {port}\nssh_port = 0\ndata_dir = "data"\n')
    flag = ["--config", str(config)]
    argv = [*flag, "serve"] if order == "before" else ["serve", *flag]
    log = start_log(argv)
    assert f"config: {config} (--config)" in log, log
    assert f"data directory: {tmp_path / 'data'}" in log, log
    listening = LISTENING.search(log)
    assert listening is not None and int(listening.group(1)) == port, log


def test_a_port_given_on_the_command_line_keeps_the_rest_of_its_section(tmp_path: Path) -> None:
    """``--web-port`` and ``--metrics-port`` change the port alone: a sysop's trusted
    proxies, allowed origins and metrics host in door.toml still hold (the web section
    was rebuilt from the port and origins, and trusted loopback again by default)."""
    from door.serve import config_from_args

    path = tmp_path / "door.toml"
    path.write_text(
        "[web]\nport = 8080\ntrusted_proxies = []\n"
        'allowed_origins = ["https://bbs.example"]\n'
        '[metrics]\nport = 9100\nhost = "0.0.0.0"\n'
    )
    args = build_parser().parse_args(
        ["--config", str(path), "--web-port", "8081", "--metrics-port", "9105", "serve"]
    )
    config = config_from_args(args)
    assert config.web.port == 8081 and config.metrics.port == 9105
    assert config.web.trusted_proxies == ()
    assert config.web.allowed_origins == ("https://bbs.example",)
    assert config.metrics.host == "0.0.0.0"


def test_a_port_out_of_range_on_the_command_line_is_refused_by_name() -> None:
    from door.config import ConfigError
    from door.serve import config_from_args

    args = build_parser().parse_args(["--web-port", "70000", "serve"])
    with pytest.raises(ConfigError, match="port"):
        config_from_args(args)
