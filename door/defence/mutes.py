"""Mutes: a caller the sysop has silenced in chat for a while, and the in-memory list a
chat line is checked against (door/app/moderation.py keeps it as the store has it).

>>> import datetime as dt
>>> end = dt.datetime(2026, 11, 27, 23, 30, tzinfo=dt.UTC)
>>> mutes = MuteList([Mute(1, "Spammer", "flooding the lobby", end)])
>>> now = dt.datetime(2026, 11, 27, 23, 0, tzinfo=dt.UTC)
>>> mutes.of("SPAMMER", now).refusal()
'You are muted in chat until 2026-11-27 23:30 UTC: flooding the lobby.'
>>> mutes.of("Spammer", end) is None
True
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from door.defence.bans import ending
from door.defence.lookalike import skeleton

MAX_MUTE_HOURS: Final = 24 * 30
"""A mute is for a while; for longer, ban the handle."""


@dataclass(frozen=True)
class Mute:
    """``name`` may not chat until ``until``."""

    id: int
    name: str
    reason: str
    until: dt.datetime
    actor: str = ""

    def in_force(self, now: dt.datetime) -> bool:
        return now < self.until

    def refusal(self) -> str:
        """What the muted caller is told instead of their line going out."""
        return f"You are muted in chat {ending(self.until)}: {self.reason}."

    def notice(self) -> str:
        """What the caller is told when the mute begins."""
        return f"The sysop has muted you in chat {ending(self.until)}: {self.reason}."


class MuteList:
    """The mutes in force, by the look of the name (a lookalike of a muted name is
    muted too: door/defence/lookalike.py)."""

    def __init__(self, mutes: Iterable[Mute] = ()) -> None:
        self.mutes: tuple[Mute, ...] = tuple(mutes)
        self._by_look: dict[str, Mute] = {}
        for mute in self.mutes:
            look = skeleton(mute.name)
            held = self._by_look.get(look)
            if held is None or held.until < mute.until:
                self._by_look[look] = mute

    def __len__(self) -> int:
        return len(self.mutes)

    def of(self, name: str, now: dt.datetime | None = None) -> Mute | None:
        """The mute in force on ``name``, or None."""
        if not self._by_look:
            return None
        mute = self._by_look.get(skeleton(name))
        if mute is not None and mute.in_force(now or dt.datetime.now(dt.UTC)):
            return mute
        return None
