"""Every test runs with its own empty user folders, so no test reads the developer's
~/.config/cribbage-door or writes into ~/.local/share/cribbage-door."""

from __future__ import annotations

import os
import tempfile

import pytest

from door.paths import CONFIG_ENV

_HOME = tempfile.TemporaryDirectory(prefix="cribbage-test-home-")


def pytest_configure(config: pytest.Config) -> None:
    # Environment, not monkeypatch: the servers some tests start as child processes
    # must see the same folders.
    os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME.name, "config")
    os.environ["XDG_DATA_HOME"] = os.path.join(_HOME.name, "data")
    os.environ.pop(CONFIG_ENV, None)
