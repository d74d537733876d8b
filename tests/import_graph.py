"""Our modules' imports read from their source (``ast``), every one counted: module-level,
inside functions and under ``TYPE_CHECKING``, since each is a dependency a reader follows
and a loop among them is one however late it runs.

``python -m tests.import_graph`` prints the import loops, the private names taken across
modules and the modules over the size limit, for finding them before a test does.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("compiled_parts", "door", "engine")

# Above this a module holds more than one job; the house aims at about 600 (issue #44).
LINE_LIMIT = 700


@dataclasses.dataclass(frozen=True)
class Import:
    """One import statement's target in one of our modules."""

    importer: str
    imported: str
    name: str | None  # the name taken by ``from imported import name``, if not a module
    line: int


def module_files() -> dict[str, Path]:
    """Every module of door/ and engine/ by dotted name (a package by its own name)."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _absolute(importer: str, is_package: bool, level: int, module: str | None) -> str:
    """The dotted name a relative ``from`` import refers to."""
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not is_package:
        base.pop()
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> Iterator[Import]:
    """Each of our modules ``name`` imports, anywhere in its source."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    yield Import(name, alias.name, None, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(name, is_package, node.level, node.module)
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in modules:
                    yield Import(name, submodule, None, node.lineno)
                elif source in modules:
                    yield Import(name, source, alias.name, node.lineno)


def all_imports() -> list[Import]:
    modules = module_files()
    return [found for name, path in modules.items() for found in imports_of(name, path, modules)]


def graph() -> dict[str, set[str]]:
    """Importer -> the modules it imports (itself left out)."""
    edges: dict[str, set[str]] = {name: set() for name in module_files()}
    for found in all_imports():
        if found.imported != found.importer:
            edges[found.importer].add(found.imported)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted: every
    import loop lies inside one of them."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(start: str) -> None:
        # Iterative, so a deep chain of imports cannot reach the recursion limit.
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(edges[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(groups)


def private_imports() -> list[Import]:
    """``from our.module import _name`` in another of our modules."""
    return [
        found
        for found in all_imports()
        if found.name is not None
        and found.name.startswith("_")
        and not found.name.startswith("__")
        and found.imported != found.importer
    ]


def private_attributes_of_imported_modules() -> list[tuple[str, str, int]]:
    """``module._name`` where ``module`` is one of our modules imported by name: a private
    name reached through the module instead of imported from it."""
    modules = module_files()
    found: list[tuple[str, str, int]] = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        bound: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = _absolute(name, is_package, node.level, node.module)
                for alias in node.names:
                    if f"{source}.{alias.name}" in modules:
                        bound[alias.asname or alias.name] = f"{source}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname and alias.name in modules:
                        bound[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                found.append((name, f"{bound[node.value.id]}.{node.attr}", node.lineno))
    return found


def _private_names_defined(tree: ast.AST) -> set[str]:
    """The ``_names`` a module defines: functions, methods, classes, module names and the
    attributes it sets on anything (``self._x = ...``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def private_attributes_of_others() -> list[tuple[str, str, int]]:
    """``thing._name`` (``thing`` not ``self`` or ``cls``) where ``_name`` is defined by
    another of our modules and not by this one: a private member of another module's
    object, such as a store's ``_insert_game`` called by a different store."""
    trees = {
        name: ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for name, path in module_files().items()
    }
    defined = {name: _private_names_defined(tree) for name, tree in trees.items()}
    found: list[tuple[str, str, int]] = []
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and node.attr not in defined[name]
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            ):
                owners = sorted(other for other, names in defined.items() if node.attr in names)
                if owners:
                    found.append((name, f"{'/'.join(owners)}: {node.attr}", node.lineno))
    return found


def oversized() -> dict[str, int]:
    """Modules over ``LINE_LIMIT`` lines, with their length."""
    sizes = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, path in module_files().items()
    }
    return {name: size for name, size in sizes.items() if size > LINE_LIMIT}


if __name__ == "__main__":
    for group in cycles(graph()):
        print("loop:", " ".join(group))
    for found in private_imports():
        print(f"private: {found.importer}:{found.line} takes {found.imported}.{found.name}")
    for importer, target, line in private_attributes_of_imported_modules():
        print(f"private: {importer}:{line} reaches {target}")
    for importer, target, line in private_attributes_of_others():
        print(f"private: {importer}:{line} uses {target}")
    for name, size in oversized().items():
        print(f"oversized: {name} {size} lines")
