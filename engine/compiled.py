"""Finding a compiled part: a module built from C beside the Python it stands in for.

Every compiled part is optional (setup.py): where it could not be built (no C compiler
where the door was installed) or the environment asks for the Python, the caller uses
the Python beside it, which does the same work.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Final

PURE_PYTHON: Final = "CRIBBAGE_DOOR_PURE_PYTHON"
"""Set (to anything) in the environment, every compiled part is passed over."""


def compiled_part(name: str) -> ModuleType | None:
    """The compiled module ``name`` (engine/_forward.c, _crib.c, door/term/_lay.c, _record.c,
    door/ui/_paint.c), or None where it was not built or the environment asks for the
    Python (``PURE_PYTHON``)."""
    if os.environ.get(PURE_PYTHON):
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
