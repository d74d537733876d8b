"""Layers that never reach up: the domain services (presence, records, account checks,
storage, competition) load nothing of the terminal, the screens' session or the table's
flow, and the engine loads nothing of the door."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

UI_AND_TRANSPORT = (
    "door.term.terminal",
    "door.ui.session",
    "door.ui.renderer",
    "door.table.flow",
    "door.table.company",
    "door.table.person",
    "door.table.steps",
    "door.table.solo",
    "door.transports",
)


def loaded_by(module: str) -> list[str]:
    """Every module importing ``module`` loads, in a fresh interpreter."""
    child = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, timeout=60, check=True
    )
    loaded: list[str] = json.loads(result.stdout)
    return loaded


@pytest.mark.parametrize(
    "service",
    [
        "door.app.presence",
        "door.app.records",
        "door.app.mail_games",
        "door.app.account_checks",
        "door.app.moderation",
        "door.storage.store",
        "door.storage.ratings",
        "door.storage.matches",
        "door.storage.tournaments",
        "door.storage.pbm_games",
        "door.competition.tournament",
        "door.table.options",
    ],
)
def test_a_domain_service_loads_no_terminal_screen_stack_or_table_flow(service: str) -> None:
    loaded = loaded_by(service)
    reached = [name for name in loaded if name.startswith(UI_AND_TRANSPORT)]
    assert reached == [], f"{service} reaches up to {reached}"


def test_the_engine_loads_nothing_of_the_door() -> None:
    assert not [name for name in loaded_by("engine") if name.startswith("door")]
