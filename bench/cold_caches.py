"""Cold caches for a bench: a thousand callers' work between two steps of one caller's
leaves that caller's data and code out of the processor's private caches."""

from __future__ import annotations


class CacheSweep:
    """Writes over ``megabytes`` of memory when called, so the next step starts with
    cold caches (the machine's level-2 cache is 2 MiB a core: 8 is enough). Zero
    megabytes: does nothing (warm caches)."""

    def __init__(self, megabytes: int) -> None:
        self._buffer = bytearray(megabytes << 20)
        self._fill = bytes(len(self._buffer))

    def __call__(self) -> None:
        if self._buffer:
            self._buffer[:] = self._fill
