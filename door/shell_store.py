"""What the sysop's shell commands on the database share (``db``, ``user``, ``audit``,
``ban``): their ``--config``/``--data-dir``, the configuration ``serve`` would use, the
store opened and closed around their work, the one line they fail with, and who acts
for the audit.
"""

from __future__ import annotations

import argparse
import getpass
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from door.config import Config, load_config, with_overrides

if TYPE_CHECKING:
    from door.storage.store import LoginPolicy, Store


class CommandFailed(Exception):
    """The one line a command ends with, and its exit code."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def add_place_arguments(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS: given before the command (`cribbage-door --config F db check`), the
    # top-level parser's value stands rather than this parser's default.
    parser.add_argument(
        "--config", metavar="FILE", default=argparse.SUPPRESS, help="TOML configuration file"
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        default=argparse.SUPPRESS,
        help="where host keys and data live",
    )


def command_config(args: argparse.Namespace) -> Config:
    """The config ``serve`` would use, with ``--data-dir`` applied."""
    config_file = getattr(args, "config", None)
    config = load_config(Path(config_file) if config_file else None)
    return with_overrides(config, data_dir=getattr(args, "data_dir", None))


def shell_actor() -> str:
    """Who acts from the shell, for the audit: ``shell:<unix user>``."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = f"uid {os.getuid()}"
    return f"shell:{user}"


async def with_store(
    config: Config, work: Callable[[Store], Awaitable[None]], policy: LoginPolicy | None = None
) -> None:
    """Open the database ``serve`` would use, do ``work`` with it, close it. A database
    that is not there, cannot be opened or fails under the work is CommandFailed."""
    from door.storage.errors import StorageUnavailableError, StoreError
    from door.storage.settings import database_url
    from door.storage.store import Store
    from door.storage.transfer import sqlite_path

    url = database_url(config.database, config.server.data_path)
    path = sqlite_path(url)
    if path is not None and not path.is_file():
        raise CommandFailed(f"there is no database at {path} (wrong --data-dir or --config?)")
    reserved = (config.sysop.name,)
    try:
        if policy is None:
            store = await Store.open(url, reserved_handles=reserved)
        else:
            store = await Store.open(url, policy=policy, reserved_handles=reserved)
    except StorageUnavailableError as error:
        raise CommandFailed(error.detail) from None
    try:
        await work(store)
    except StorageUnavailableError as error:
        raise CommandFailed(error.detail) from None
    except StoreError as error:
        raise CommandFailed(str(error)) from None
    finally:
        await store.close()
