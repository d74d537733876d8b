"""The door must start without the test extras: no production module imports one."""

from __future__ import annotations

import subprocess
import sys

TEST_ONLY = ("pyte", "pytest", "hypothesis")

# A child interpreter in which the test-only packages cannot be imported at all, so an
# import of one anywhere in door/ or engine/ fails loudly instead of passing here
# because the test environment happens to have it.
CHILD = f"""
import importlib, pkgutil, sys
BLOCKED = {TEST_ONLY!r}

class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError("test-only package imported: " + name)
        return None

sys.meta_path.insert(0, Blocker())
import door, engine
for package in (door, engine):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if ".migrations." in module.name:
            continue  # Alembic scripts run inside alembic, not on import
        importlib.import_module(module.name)
print("imported", len(sys.modules))
"""


def test_every_door_and_engine_module_imports_without_test_packages() -> None:
    result = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("imported")
