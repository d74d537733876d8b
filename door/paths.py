"""Where the door looks for its config file and keeps its data.

The config file is the first of (see ``find_config``):

1. ``--config PATH``;
2. the file named by the environment variable ``CRIBBAGE_DOOR_CONFIG``;
3. ``./config/door.toml``, in the folder the command is started from;
4. ``door.toml`` in the user's config folder (``~/.config/cribbage-door`` on Linux);
5. none: the packaged defaults.

Data (the SQLite database, SSH host keys, the console's log) lives in ``[server]
data_dir``; by default the user's data folder (``~/.local/share/cribbage-door`` on
Linux), never wherever the command happens to be run. A relative ``data_dir`` in a
config file is taken from the folder that file is in.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import platformdirs

APP_NAME: Final = "cribbage-door"
CONFIG_ENV: Final = "CRIBBAGE_DOOR_CONFIG"
CONFIG_FILE_NAME: Final = "door.toml"
LOCAL_CONFIG: Final = Path("config") / CONFIG_FILE_NAME


def user_config_dir() -> Path:
    """The user's config folder for the door (it need not exist)."""
    return platformdirs.user_config_path(APP_NAME)


def user_data_dir() -> Path:
    """The user's data folder for the door (it need not exist)."""
    return platformdirs.user_data_path(APP_NAME)


@dataclass(frozen=True)
class ConfigLocation:
    """Which config file is in use and why; ``path`` None means the packaged defaults."""

    path: Path | None
    found_by: str

    def describe(self) -> str:
        if self.path is None:
            return f"packaged defaults ({self.found_by})"
        return f"{self.path} ({self.found_by})"


def find_config(
    explicit: Path | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    user_dir: Path | None = None,
) -> ConfigLocation:
    """The config file to read, by the documented search order.

    A file named by ``--config`` or by the environment must exist (reading it reports a
    missing one); the two folders are only looked in."""
    environ = os.environ if environ is None else environ
    if explicit is not None:
        return ConfigLocation(explicit, "--config")
    from_env = environ.get(CONFIG_ENV, "").strip()
    if from_env:
        return ConfigLocation(Path(from_env), CONFIG_ENV)
    local = (cwd or Path.cwd()) / LOCAL_CONFIG
    if local.is_file():
        return ConfigLocation(local, "found in ./config")
    user_file = (user_dir or user_config_dir()) / CONFIG_FILE_NAME
    if user_file.is_file():
        return ConfigLocation(user_file, "found in the user's config folder")
    return ConfigLocation(
        None, f"no {LOCAL_CONFIG} here and no {user_file}; `cribbage-door init` writes one"
    )


class DataDirError(Exception):
    """The data folder cannot be made or written; the message names it and says why."""


def ensure_writable_dir(path: Path) -> Path:
    """Make ``path`` (and its parents) if need be and prove it can be written, by
    creating and removing a file in it. Returns the absolute path."""
    path = path.expanduser().absolute()
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path, prefix=".write-check-"):
            pass
    except OSError as error:
        reason = error.strerror or str(error)
        raise DataDirError(f"server.data_dir: cannot write to {path} ({reason})") from None
    return path
