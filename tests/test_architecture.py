"""The house's rules, read from the source of every module in door/ and engine/ (every
import counted, module-level, inside functions and under TYPE_CHECKING; see
tests/import_graph.py): no import loop, no private name taken from another module, no
module over 700 lines, and each module imports only from its own layer or those below.

The lists of known offenders are the parts of issue #44 still being split by other hands;
each entry says so, and a test fails once an entry is no longer needed, so the lists only
shrink. docs/ARCHITECTURE.md explains the layers.
"""

from __future__ import annotations

from pathlib import Path

from tests import import_graph

SPLIT_IN_PROGRESS = "split in progress (issue #44)"

KNOWN_LOOPS: dict[frozenset[str], str] = {}

KNOWN_PRIVATE_IMPORTS: dict[str, str] = {}

KNOWN_PRIVATE_USES: dict[str, str] = {}

KNOWN_OVERSIZED: dict[str, str] = {}

KNOWN_UPWARD_IMPORTS: dict[str, str] = {}

# Lowest first: a module may import modules of its own layer and of the layers before it,
# never of a later one. A module belongs to the layer of its longest matching prefix
# ("door" and "engine" name only the package modules themselves).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the compiled parts' seam", ("compiled_parts",)),
    ("the rules", ("engine.rules",)),
    ("the odds", ("engine.odds",)),
    ("the computer player", ("engine.computer",)),
    ("the engine's front", ("engine",)),
    (
        "the door's ground: paths, texts, log text, process settings, the metrics tally",
        (
            "door",
            "door.paths",
            "door.data_lock",
            "door.texts",
            "door.logtext",
            "door.resources",
            "door.file_limit",
            "door.gc_policy",
            "door.gc_watch",
            "door.metrics.tally",
        ),
    ),
    (
        "values, stores, defences and the configuration",
        (
            "door.competition",
            "door.storage",
            "door.defence",
            "door.config",
            "door.table.options",
            "door.table.win_bars",
        ),
    ),
    (
        "services over the store (no terminal)",
        (
            "door.app.records",
            "door.app.mail_games",
            "door.app.tournaments",
            "door.app.account_checks",
            "door.app.moderation",
        ),
    ),
    ("the terminal seam", ("door.term",)),
    ("widgets and drawing", ("door.ui", "door.screens")),
    ("the table", ("door.table",)),
    (
        "who is online",
        ("door.app.members", "door.app.lobby_wakes", "door.app.presence", "door.app.called_away"),
    ),
    ("the cluster's link and relay", ("door.cluster",)),
    ("a caller's session: call, lobby, accounts, the door", ("door.app",)),
    ("transports", ("door.transports",)),
    (
        "running the door: listeners, workers, metrics, commands",
        (
            "door.serve",
            "door.cluster.workers",
            "door.metrics",
            "door.scheduled_backup",
            "door.replay",
            "door.db_commands",
            "door.ban_commands",
            "door.member_commands",
            "door.shell_store",
            "door.setup_files",
        ),
    ),
    (
        "door mode and the console, which run a door of their own",
        ("door.transports.console", "door.transports.door_mode", "door.transports.hub_relay"),
    ),
    ("the command line", ("door.cli", "compiled_parts.__main__")),
)


def layer_of(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for number, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            roots = import_graph.PACKAGES
            matches = module == prefix or (prefix not in roots and module.startswith(prefix + "."))
            if matches and (best is None or len(prefix) > best[0]):
                best = (len(prefix), number)
    return None if best is None else best[1]


def upward_imports() -> list[str]:
    return [
        f"{importer} -> {imported}"
        for importer, targets in import_graph.graph().items()
        for imported in sorted(targets)
        if (layer_of(imported) or 0) > (layer_of(importer) or 0)
    ]


def private_imports() -> list[str]:
    return [
        f"{found.importer} takes {found.imported}.{found.name}"
        for found in import_graph.private_imports()
    ]


def private_uses() -> list[str]:
    return [
        f"{importer} uses {target}"
        for importer, target, _ in import_graph.private_attributes_of_others()
    ]


def test_the_graph_counts_imports_in_functions_type_checking_and_relative(tmp_path: Path) -> None:
    # A loop through a function-level or TYPE_CHECKING import is still a loop: the graph
    # must see every kind, or the tests below would pass on a house full of loops.
    source = tmp_path / "here.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from door.b import Thing\n"
        "def later():\n"
        "    import door.c\n"
        "    from . import d\n"
        "    from .e import _hidden\n"
    )
    ours = {name: source for name in ("door.a", "door.b", "door.c", "door.d", "door.e")}
    found = list(import_graph.imports_of("door.a", source, ours))
    assert [(each.imported, each.name) for each in found] == [
        ("door.b", "Thing"),
        ("door.c", None),
        ("door.d", None),
        ("door.e", "_hidden"),
    ]


def test_cycles_finds_a_loop_and_only_the_loop() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"d"}}
    assert import_graph.cycles(edges) == [["a", "b", "c"]]


def test_no_import_loops() -> None:
    loops = import_graph.cycles(import_graph.graph())
    unknown = [loop for loop in loops if not any(set(loop) <= known for known in KNOWN_LOOPS)]
    assert unknown == []


def test_no_private_name_taken_from_another_module() -> None:
    reached = [
        f"{importer} reaches {target}"
        for importer, target, _ in import_graph.private_attributes_of_imported_modules()
    ]
    used = [name for name in private_uses() if name not in KNOWN_PRIVATE_USES]
    assert [name for name in private_imports() if name not in KNOWN_PRIVATE_IMPORTS] == []
    assert reached == []
    assert used == []


def test_no_module_over_the_line_limit() -> None:
    over = import_graph.oversized()
    assert {name: size for name, size in over.items() if name not in KNOWN_OVERSIZED} == {}


def test_every_module_has_a_layer() -> None:
    assert [name for name in import_graph.module_files() if layer_of(name) is None] == []


def test_imports_only_reach_down_the_layers() -> None:
    assert [edge for edge in upward_imports() if edge not in KNOWN_UPWARD_IMPORTS] == []


def test_every_known_offender_still_offends() -> None:
    """Once a split lands its entry goes: the lists only shrink, and never hide a new
    offender behind an old name."""
    loops = import_graph.cycles(import_graph.graph())
    assert [
        known for known in KNOWN_LOOPS if not any(len(known & set(loop)) > 1 for loop in loops)
    ] == []
    assert [name for name in KNOWN_PRIVATE_IMPORTS if name not in private_imports()] == []
    assert [name for name in KNOWN_PRIVATE_USES if name not in private_uses()] == []
    assert [name for name in KNOWN_OVERSIZED if name not in import_graph.oversized()] == []
    assert [edge for edge in KNOWN_UPWARD_IMPORTS if edge not in upward_imports()] == []
