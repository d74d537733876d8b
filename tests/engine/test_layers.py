"""The engine's layers: the rules (engine.rules) under the odds (engine.odds) under the
computer player (engine.computer). A layer imports only from its own and the ones below,
no module of the engine takes part in an import loop, and none takes another module's
``_private`` name. Every import counts: at the top, inside a function, or only for the
type checker."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("engine.rules", "engine.odds", "engine.computer")
"""Lowest first: each may import from those before it, never from those after."""


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def engine_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted((ROOT / "engine").rglob("*.py"))}


def imports(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line, module, names taken from it) for every import in the file, wherever it is."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, []
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module, [alias.name for alias in node.names]


def layer_of(module: str) -> int | None:
    for number, layer in enumerate(LAYERS):
        if module == layer or module.startswith(layer + "."):
            return number
    return None


def imported_modules(module: str, names: list[str], known: dict[str, Path]) -> list[str]:
    """The engine modules an import loads: ``from engine.odds import model`` loads
    engine.odds.model as well as the package."""
    found = [module] if module in known else []
    found += [f"{module}.{name}" for name in names if f"{module}.{name}" in known]
    return found


def engine_graph() -> dict[str, set[str]]:
    known = engine_modules()
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        for _, module, names in imports(path):
            graph[name].update(m for m in imported_modules(module, names, known) if m != name)
    return graph


def test_no_layer_of_the_engine_imports_from_a_layer_above_it() -> None:
    upward = []
    for name, path in engine_modules().items():
        mine = layer_of(name)
        if mine is None:
            continue
        for line, module, _ in imports(path):
            theirs = layer_of(module)
            if theirs is not None and theirs > mine:
                upward.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert upward == []


def test_every_module_of_the_engine_is_in_a_layer() -> None:
    loose = [name for name in engine_modules() if name != "engine" and layer_of(name) is None]
    assert loose == []


def test_no_module_of_the_engine_is_in_an_import_loop() -> None:
    graph = engine_graph()
    loops = []
    for start in graph:
        # Depth first from ``start``: a path back to it is a loop.
        stack = [(start, (start,))]
        seen: set[str] = set()
        while stack:
            node, path = stack.pop()
            for after in graph[node]:
                if after == start:
                    loops.append(" -> ".join((*path, start)))
                elif after not in seen:
                    seen.add(after)
                    stack.append((after, (*path, after)))
    assert loops == []


def private_imports(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        for line, module, names in imports(path):
            if module.startswith("engine") and module != module_name(path):
                found += [
                    f"{path.relative_to(ROOT)}:{line} {module}.{n}" for n in names if n[0] == "_"
                ]
    return found


@pytest.mark.parametrize("folder", ["engine", "tests", "bench", "door"])
def test_no_private_name_of_the_engine_is_imported_from_another_module(folder: str) -> None:
    assert private_imports(sorted((ROOT / folder).rglob("*.py"))) == []


def test_the_offline_measuring_of_the_win_tables_is_not_in_the_engine() -> None:
    """The door reads the shipped arrays; playing thousands of deals to make them is the
    work of bench/gen_winprob_tables.py, with the code it needs beside it."""
    measuring = [name for name in engine_modules() if name.endswith("measure")]
    assert measuring == []


@pytest.mark.parametrize("layer", LAYERS[:-1])
def test_a_layer_loaded_alone_loads_nothing_above_it(layer: str) -> None:
    """Every module of the layer imported in a fresh interpreter: no module of a layer
    above it is loaded (the door's win bar and replay load the odds, not the player)."""
    names = [name for name in engine_modules() if layer_of(name) == LAYERS.index(layer)]
    above = LAYERS[LAYERS.index(layer) + 1 :]
    child = f"import sys, {', '.join(names)}; print('\\n'.join(sorted(sys.modules)))"
    loaded = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, timeout=60, check=True
    ).stdout.split()
    assert [name for name in loaded if name.startswith(above)] == []
