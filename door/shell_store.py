"""What the sysop's shell commands on the database share (``db``, ``user``, ``audit``,
``ban``): their ``--config``/``--data-dir``, the configuration ``serve`` would use, the
store opened and closed around their work, the one line they fail with and its exit
status, and who acts for the audit.

Exit statuses: 0 done; 1 the database, a file or the work said no; 2 a bad command line
or configuration; 130 interrupted (Ctrl-C), as a shell reports SIGINT.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from door.config import Config, ConfigError, load_config, with_overrides

if TYPE_CHECKING:
    from door.storage.store import LoginPolicy, Store


PROGRAM: Final = "cribbage-door"

DONE_EXIT: Final = 0
FAILED_EXIT: Final = 1
BAD_USAGE_EXIT: Final = 2
INTERRUPTED_EXIT: Final = 130


class CommandFailed(Exception):
    """The one line a command ends with, and its exit code."""

    def __init__(self, message: str, code: int = FAILED_EXIT) -> None:
        super().__init__(message)
        self.code = code


def exit_status(name: str, work: Callable[[], int | None]) -> int:
    """Run a command's ``work``; its exit status (the one ``work`` returns, else 0). A bad
    configuration, a CommandFailed or Ctrl-C ends it as one line on standard error,
    ``cribbage-door NAME: ...``."""
    try:
        status = work()
    except ConfigError as error:
        return _failed(name, str(error), BAD_USAGE_EXIT)
    except CommandFailed as error:
        return _failed(name, str(error), error.code)
    except KeyboardInterrupt:
        # One wording for every command: not all of them can promise that nothing was
        # kept (a ban is added, then audited), so it says no more than what happened.
        return _failed(name, "interrupted before it finished", INTERRUPTED_EXIT)
    return DONE_EXIT if status is None else status


def _failed(name: str, message: str, code: int) -> int:
    print(f"{PROGRAM} {name}: {message}", file=sys.stderr)
    return code


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
