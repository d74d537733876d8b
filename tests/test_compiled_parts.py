"""compiled_parts: the one list of the compiled parts, which of them run in C, and the
switch the tests use to run the callers over either twin."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys

import pytest

import compiled_parts
from compiled_parts import PARTS, PURE_PYTHON, Twin


def test_the_docstring_examples_hold() -> None:
    result = doctest.testmod(compiled_parts)
    assert result.attempted and not result.failed


def test_every_part_is_declared_by_the_module_its_list_names() -> None:
    assert set(compiled_parts.built()) == set(PARTS)


def test_a_part_not_in_the_list_or_declared_again_is_refused() -> None:
    with pytest.raises(ValueError, match="not one of the compiled parts"):
        Twin("engine.odds._nothing", python=len, compiled=lambda module: len)
    compiled_parts.in_c()  # every part declared
    with pytest.raises(ValueError, match="declared twice"):
        Twin("engine.odds._crib", python=len, compiled=lambda module: len)


@pytest.mark.skipif(not all(compiled_parts.built().values()), reason="C parts not built")
def test_choosing_switches_every_part_and_puts_them_back() -> None:
    before = compiled_parts.in_c()
    forgotten: list[str] = []
    compiled_parts.forget_on_switch(lambda: forgotten.append("forgot"))
    with compiled_parts.choose(False):
        assert not any(compiled_parts.in_c().values())
        with compiled_parts.choose(True):
            assert all(compiled_parts.in_c().values())
        assert not any(compiled_parts.in_c().values())
    assert compiled_parts.in_c() == before
    assert forgotten == ["forgot"] * 4  # into Python, into C, back, back


def run_module(environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "compiled_parts"],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
        check=False,
    )


def test_the_environment_can_ask_for_the_python_and_the_module_says_so() -> None:
    environment = {**os.environ, PURE_PYTHON: "1"}
    done = run_module(environment)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert len(lines) == len(PARTS)
    assert all(line.split()[1] == "Python" for line in lines)
    # the second column starts at the same place on every line, however long a name
    assert len({line.index(" Python ") for line in lines}) == 1


@pytest.mark.skipif(not all(compiled_parts.built().values()), reason="C parts not built")
def test_where_every_part_was_built_the_module_says_all_run_in_c() -> None:
    environment = {key: value for key, value in os.environ.items() if key != PURE_PYTHON}
    done = run_module(environment)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [line.split()[:2] for line in done.stdout.splitlines()] == [
        [name, "C"] for name in PARTS
    ]


@pytest.mark.both_twins
def test_a_test_marked_for_both_twins_runs_over_each(compiled_twin: str) -> None:
    assert compiled_parts.in_c() == {name: compiled_twin == "c" for name in PARTS}
