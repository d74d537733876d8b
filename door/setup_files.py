"""The sysop's set-up commands: ``cribbage-door init [DIR]`` writes editable copies of the
config, texts and art; ``cribbage-door systemd-unit`` prints a unit to run the door as a
service."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from door.paths import CONFIG_ENV, CONFIG_FILE_NAME, LOCAL_CONFIG, user_config_dir
from door.texts import DEFAULT_CONFIG_TEXT, TEXT_NAMES, packaged_text


def add_init_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "folder",
        nargs="?",
        metavar="DIR",
        help=f"where to write them (default: {user_config_dir()})",
    )


def init_files(folder: Path) -> list[Path]:
    """Write door.toml and every text into ``folder``; raises FileExistsError naming the
    files already there (and then writes nothing), OSError if it cannot write."""
    names = (DEFAULT_CONFIG_TEXT, *TEXT_NAMES)
    targets = [folder / name for name in names]
    present = [str(path) for path in targets if path.exists()]
    if present:
        raise FileExistsError(", ".join(present))
    for name, target in zip(names, targets, strict=True):
        target.parent.mkdir(parents=True, exist_ok=True)
        # "x": never overwrite, even a file that appeared since the check above.
        with target.open("x", encoding="utf-8") as out:
            out.write(packaged_text(name))
    return targets


def _how_it_is_found(folder: Path) -> str:
    folder = folder.absolute()
    if folder == user_config_dir().absolute():
        return "The door reads it from there on its own (the user's config folder)."
    if folder == (Path.cwd() / LOCAL_CONFIG.parent).absolute():
        return "The door reads it when started from this folder (./config)."
    config = folder / CONFIG_FILE_NAME
    return f"Start the door with --config {config}, or set {CONFIG_ENV}={config}."


def init_command(args: argparse.Namespace) -> int:
    folder = Path(args.folder) if args.folder else user_config_dir()
    try:
        written = init_files(folder)
    except FileExistsError as error:
        print(
            f"cribbage-door init: not overwriting what is there: {error}; move it aside or"
            " name another folder",
            file=sys.stderr,
        )
        return 1
    except OSError as error:
        print(
            f"cribbage-door init: cannot write to {folder}: {error.strerror or error}",
            file=sys.stderr,
        )
        return 1
    for path in written:
        print(f"wrote {path}")
    print(f"Edit them to taste. {_how_it_is_found(folder)}")
    return 0


UNIT_TEMPLATE = """\
# Cribbage Door as a systemd service. Save as /etc/systemd/system/cribbage-door.service,
# then: systemctl daemon-reload && systemctl enable --now cribbage-door
# Its log: journalctl -u cribbage-door
[Unit]
Description=Cribbage Door (telnet and SSH cribbage server)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
ExecStart={executable} serve --config /etc/cribbage-door/door.toml --data-dir /var/lib/cribbage-door
# A user of its own, made by systemd; data in /var/lib/cribbage-door, config (written by
# `cribbage-door init /etc/cribbage-door`) in /etc/cribbage-door.
DynamicUser=yes
StateDirectory=cribbage-door
ConfigurationDirectory=cribbage-door
# Lets the door listen on ports below 1024 (telnet 23, SSH 22 if the machine's own SSH
# is elsewhere) without running as root; remove both lines if you use higher ports.
AmbientCapabilities=CAP_NET_BIND_SERVICE
CapabilityBoundingSet=CAP_NET_BIND_SERVICE
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
# SIGTERM tells callers the door is closing and saves their games.
KillSignal=SIGTERM
TimeoutStopSec=15
Restart=on-failure
RestartSec=2
LimitNOFILE=65536

[Install]
WantedBy=multi-user.target
"""


def systemd_unit_command(args: argparse.Namespace) -> int:
    executable = shutil.which("cribbage-door") or str(Path(sys.argv[0]).absolute())
    sys.stdout.write(UNIT_TEMPLATE.format(executable=executable))
    return 0
