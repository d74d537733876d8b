"""Every member's handle in memory, by the key that finds it and by how it looks.

A guest's chosen name must not be a member's handle or look like one (TR39 confusable
skeletons, door/defence/lookalike.py). Asked of the database, that read every handle
and folded each one on every sign-in: under load the check waited for a pooled
connection and a saturated server dropped callers while they signed in. The store keeps
this index instead, loaded with one query and added to as this process makes accounts.
Handles are never renamed or removed, so the index only grows; another process's new
members are picked up when the index is reloaded (``FRESH_SECONDS``).

>>> index = HandleIndex(["Ada", "bob"])
>>> index.member("ADA"), index.lookalike("B0b"), index.lookalike("Cy")
('Ada', 'bob', None)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from door.defence.lookalike import skeleton
from door.storage.rules import handle_key

FRESH_SECONDS: Final = 60.0
"""How long an index is trusted before it is read again: what another door process
(serve --workers) may have added meanwhile."""


class HandleIndex:
    """Handles by key (the same handle in any case) and by confusable skeleton."""

    def __init__(self, handles: Iterable[str] = ()) -> None:
        self._by_key: dict[str, str] = {}
        self._by_skeleton: dict[str, str] = {}
        for handle in handles:
            self.add(handle)

    def __len__(self) -> int:
        return len(self._by_key)

    def add(self, handle: str) -> None:
        self._by_key.setdefault(handle_key(handle), handle)
        self._by_skeleton.setdefault(skeleton(handle), handle)

    def member(self, name: str) -> str | None:
        """The handle ``name`` is, in any case; None if nobody has it."""
        return self._by_key.get(handle_key(name))

    def lookalike(self, name: str) -> str | None:
        """A handle that is ``name`` or looks like it to a reader; None if none does."""
        return self.member(name) or self._by_skeleton.get(skeleton(name))
