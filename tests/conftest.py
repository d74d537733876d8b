"""Every test runs with its own empty user folders, so no test reads the developer's
~/.config/cribbage-door or writes into ~/.local/share/cribbage-door; the tests of what
calls the compiled parts run over the C and over its Python twin (``BOTH_TWINS``)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

import compiled_parts
from door.paths import CONFIG_ENV

_HOME = tempfile.TemporaryDirectory(prefix="cribbage-test-home-")


def pytest_configure(config: pytest.Config) -> None:
    # Environment, not monkeypatch: the servers some tests start as child processes
    # must see the same folders.
    os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME.name, "config")
    os.environ["XDG_DATA_HOME"] = os.path.join(_HOME.name, "data")
    os.environ.pop(CONFIG_ENV, None)
    config.addinivalue_line("markers", "both_twins: run over the C parts and the Python twins")
    config.addinivalue_line("markers", "compares_twins: holds the C and the Python together")


BOTH_TWINS: Final = ("door/term", "door/ui", "door/golden", "door/screens")
"""Under tests/, where every test runs twice: over the compiled parts and over their Python
twins (``compiled_parts``), so the Python a door without a C compiler runs is tested as
much as the C. Elsewhere a module or test marked ``both_twins`` does the same; one marked
``compares_twins`` (it holds the two against each other itself) runs once."""


def runs_over_both_twins(definition: pytest.Function) -> bool:
    if definition.get_closest_marker("compares_twins"):
        return False
    where = Path(str(definition.path)).relative_to(Path(__file__).parent).as_posix()
    return where.startswith(BOTH_TWINS) or bool(definition.get_closest_marker("both_twins"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if runs_over_both_twins(metafunc.definition):
        metafunc.parametrize("compiled_twin", ["c", "python"], indirect=True)


@pytest.fixture(autouse=True)
def compiled_twin(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """For a test that runs over both twins (see ``BOTH_TWINS``): "c", every compiled part
    in C (skipped where they were not built), or "python", every part's Python twin."""
    which = getattr(request, "param", None)
    if which is None:
        yield None
        return
    missing = [name for name, built in compiled_parts.built().items() if not built]
    if which == "c" and missing:
        pytest.skip(f"compiled parts not built: {', '.join(missing)}")
    with compiled_parts.choose(which == "c"):
        yield which
