"""door/table/ holds together without loops: the table asks questions of whoever sits in
a seat and never names who that is, and no module of it outgrows a reader.

Every import counts, those inside functions and under ``TYPE_CHECKING`` too: a loop a
type checker needs is still a loop a reader follows."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import door.table

TABLE = Path(door.table.__file__).parent
MAX_LINES = 600
"""Issue #44: every module of the table under 600 lines."""
THE_TABLE_ITSELF = ("flow.py", "seats.py", "company.py", "question.py", "mail.py")
"""The table's side: it knows a Participant, never the caller's Person."""


def module_name(path: Path) -> str:
    return f"door.table.{path.stem}"


def table_imports(path: Path) -> set[str]:
    """The door.table modules ``path`` imports, wherever in the file."""
    modules = {module_name(other) for other in TABLE.glob("*.py")}
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name in modules} - {module_name(path)}


def a_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import loop in ``graph`` (the modules in order, the first again last), or []."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (loop := visit(nxt)):
                return loop
        state[node] = "done"
        path.pop()
        return []

    for start in sorted(graph):
        if start not in state and (loop := visit(start)):
            return loop
    return []


def test_a_cycle_is_found_where_there_is_one() -> None:
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert a_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_no_import_loop_among_the_table_modules() -> None:
    graph = {module_name(path): table_imports(path) for path in TABLE.glob("*.py")}
    assert a_cycle(graph) == []


@pytest.mark.parametrize("file_name", THE_TABLE_ITSELF)
def test_the_table_never_names_the_person_in_a_seat(file_name: str) -> None:
    path = TABLE / file_name
    assert "door.table.person" not in table_imports(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    named = [
        node.lineno
        for node in ast.walk(tree)
        if (isinstance(node, ast.Name) and node.id == "Person")
        or (isinstance(node, ast.Attribute) and node.attr == "Person")
    ]
    assert named == [], f"{file_name} names Person on lines {named}"


@pytest.mark.parametrize("path", sorted(TABLE.glob("*.py")), ids=lambda path: path.name)
def test_every_table_module_stays_under_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines < MAX_LINES, f"{path.name} has {lines} lines"


def test_a_persons_waiting_is_not_called_idle_like_the_seconds_of_a_session() -> None:
    """``Session.idle`` and ``Terminal.idle`` are seconds; a coroutine of the same name
    on the person read as one of them."""
    from door.table.person import Person

    assert not hasattr(Person, "idle")
