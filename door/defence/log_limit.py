"""One log line per source and minute: a flood of refused connections, bad headers or
broken frames from one address must not become a flood of log lines (a sysop's log
filled with one attacker's noise hides everything else, and writing it costs the
server time every other caller waits through).

The first line from a source in a window is written at once; the ones after it in the
same window are counted, and the next line written for that source says how many were
held back. Sources are kept in a bounded table, the least recently heard dropped first,
so a spoofed spread of addresses cannot grow it without end.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Final

from door.logtext import escaped

WINDOW_SECONDS: Final = 60.0
"""One line per source per minute, as the issue of floods in the log asked."""

MAX_SOURCES: Final = 4096
"""Sources remembered at once: far more than the addresses that can hold connections
(`max_sessions` is 1,250), at about 200 bytes each."""


class _Heard:
    __slots__ = ("held_back", "window_start")

    def __init__(self, window_start: float) -> None:
        self.window_start = window_start
        self.held_back = 0


class SourceLog:
    """Writes ``logger``'s lines at most once per ``window`` seconds for each source.

    ``source`` is whatever names the sender (an address, usually); it is escaped before
    it reaches the log, as every caller-supplied text is.
    """

    def __init__(
        self,
        logger: logging.Logger,
        *,
        window: float = WINDOW_SECONDS,
        max_sources: int = MAX_SOURCES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._logger = logger
        self._window = window
        self._max_sources = max_sources
        self._clock = clock
        self._heard: OrderedDict[str, _Heard] = OrderedDict()

    def log(self, level: int, source: object, message: str, *args: object) -> bool:
        """Write ``message % args`` prefixed with the source, unless a line for this
        source was written less than a window ago. Returns whether it was written."""
        if not self._logger.isEnabledFor(level):
            return False
        key = str(source)
        now = self._clock()
        heard = self._heard.get(key)
        if heard is not None and now - heard.window_start < self._window:
            heard.held_back += 1
            self._heard.move_to_end(key)
            return False
        held_back = heard.held_back if heard is not None else 0
        self._remember(key, now)
        text = message % args if args else message
        if held_back:
            text += f" ({held_back} more from there held back in the last minute)"
        self._logger.log(level, "%s: %s", escaped(key), text)
        return True

    def warning(self, source: object, message: str, *args: object) -> bool:
        return self.log(logging.WARNING, source, message, *args)

    def info(self, source: object, message: str, *args: object) -> bool:
        return self.log(logging.INFO, source, message, *args)

    def _remember(self, key: str, now: float) -> None:
        self._heard[key] = _Heard(now)
        self._heard.move_to_end(key)
        while len(self._heard) > self._max_sources:
            self._heard.popitem(last=False)

    def __len__(self) -> int:
        return len(self._heard)
