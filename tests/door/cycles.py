"""What the door leaves in reference cycles: objects only a full collection can free.

The server freezes long-lived objects (door/gc_policy.py), and a frozen cycle is never
freed by anything short of a sweep, so a call or a game that ends must leave none of the
door's or the engine's objects in a cycle. Libraries' own cycles (asyncio, asyncssh,
telnetlib3) are the sweep's to free and are not counted here.
"""

from __future__ import annotations

import collections
import contextlib
import gc
from collections.abc import Iterator

OURS = ("door.", "engine.")


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    """No automatic collection inside the block, so every cycle made in it waits for
    ``ours_in_cycles`` (a collection in between would free it unseen)."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def ours_in_cycles() -> collections.Counter[str]:
    """Collect, and count the door's and the engine's objects that only the cycle
    collector could free, by type."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = collections.Counter(
            f"{type(thing).__module__}.{type(thing).__qualname__}"
            for thing in gc.garbage
            if type(thing).__module__.startswith(OURS)
        )
    finally:
        gc.garbage.clear()
        gc.set_debug(0)
    return found
