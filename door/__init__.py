"""Cribbage Door: the BBS-door server (telnet, SSH) around the pure rules in engine/."""

from __future__ import annotations

import os
from importlib import metadata

# The door is one event loop on one core. NumPy's OpenBLAS would run a large matrix
# product (a three-handed win bar's) on a thread a core, spinning while it waits: on
# two cores that doubled the processor time of such a bar, time every other caller
# waits for. Set before anything imports NumPy; a sysop's own setting stands.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def version() -> str:
    """The installed distribution's version ("unknown" when run from a bare checkout)."""
    try:
        return metadata.version("cribbage-door")
    except metadata.PackageNotFoundError:
        return "unknown"
