"""Waking the callers in the lobby when who is on, the chat or the challenges change.

Only a caller in the lobby sees those; one at a table redraws for the table. Each wake is
a redraw of that caller's lobby, about 0.4 ms of the worker's time with 1,200 callers on
it (bench/load.py --think 60: everyone sat in the lobby). Woken all at once, ten times a
second, 1,200 lobbies took 81 % of the worker with almost no key pressed, and each
round of wakes stood the loop still for half a second, so the keys of the callers who
were playing waited behind it (p99 440 ms). So:

- the first change after a quiet spell wakes the lobby at once, as before;
- a round wakes the lobby's callers a few at a time, a batch a turn of the loop, so that
  keys arriving meanwhile are answered between the batches;
- the changes that follow are gathered until the next round may start, which is later
  the more callers sit in the lobby: about a fifth of the worker for the lobby's redraws
  however many there are (every tenth of a second up to 50 callers; every 2.4 seconds
  with 1,200);
- nothing is lost: a change made during a round or the wait after it starts another.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Final, Generic, TypeVar

LOBBY_REDRAW_INTERVAL: Final = 0.1
"""Least seconds between the starts of two rounds of wakes, however few are in the lobby."""
SECONDS_A_LOBBY_REDRAW: Final = 0.002
"""The time a round waits for each caller it woke: five times a lobby redraw's cost (about
0.4 ms on a busy worker), so the lobby's redraws take a fifth of the worker at most."""
WAKES_A_TURN: Final = 16
"""Callers woken a turn of the loop: a batch's redraws (a few ms) are all a key waits."""


Caller = TypeVar("Caller")


class LobbyWakes(Generic[Caller]):
    """Paces the lobby's wakes: ``waiting`` gives the callers in the lobby when a round
    starts, and ``wake`` wakes one when its turn comes (if it is still there)."""

    def __init__(
        self, waiting: Callable[[], Iterable[Caller]], wake: Callable[[Caller], None]
    ) -> None:
        self._waiting = waiting
        self._wake = wake
        self._round: list[Caller] = []
        """The callers of the round under way not woken yet."""
        self._next_round: asyncio.TimerHandle | None = None
        """While set, a round is under way or waiting out its interval."""
        self._behind = False
        """Something changed since the round under way started."""
        self.rounds = 0
        """Rounds started (for tests and the curious)."""

    def changed(self) -> None:
        """Something a caller in the lobby sees has changed."""
        if self._next_round is not None or self._round:
            self._behind = True  # a round is under way or was too recent: the next takes it
            return
        self._start()

    def _start(self) -> None:
        self._behind = False
        self.rounds += 1
        callers = list(self._waiting())
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            for caller in callers:  # no event loop (a test calling by hand): all at once
                self._wake(caller)
            return
        interval = max(LOBBY_REDRAW_INTERVAL, len(callers) * SECONDS_A_LOBBY_REDRAW)
        self._next_round = loop.call_later(interval, self._interval_over)
        callers.reverse()  # taken from the end of the list: the first in the lobby first
        self._round = callers
        self._wake_a_batch()

    def _wake_a_batch(self) -> None:
        batch = self._round[-WAKES_A_TURN:]
        del self._round[-WAKES_A_TURN:]
        for caller in reversed(batch):
            self._wake(caller)
        if self._round:
            asyncio.get_running_loop().call_soon(self._wake_a_batch)
        elif self._behind and self._next_round is None:
            self._start()  # the round outlasted its interval (a loop this busy)

    def _interval_over(self) -> None:
        self._next_round = None
        if self._behind and not self._round:
            self._start()
