"""The process's open-file limit, raised at start to what ``max_sessions`` needs.

Every caller holds a socket, and the store, the logs and the listeners hold a few more
files; a process whose soft limit is the common default of 1,024 would refuse callers
("Too many open files") long before ``max_sessions``. The soft limit may be raised up
to the hard one without privileges; above that only the sysop can (``ulimit -n`` or
systemd's ``LimitNOFILE``), so the door says what to set.
"""

from __future__ import annotations

import logging
from typing import Final

logger = logging.getLogger(__name__)

FILES_PER_SESSION: Final = 2
"""A socket, and room for what a session may open beside it."""
FILES_BESIDE_SESSIONS: Final = 100
"""Listeners, the database, logs, the event loop's own."""


def files_needed(max_sessions: int) -> int:
    return max_sessions * FILES_PER_SESSION + FILES_BESIDE_SESSIONS


def raise_open_file_limit(max_sessions: int) -> int:
    """Raise the soft limit toward what ``max_sessions`` needs; the limit now in force.

    Logs a warning, with the figure to set, when the hard limit is too low for it."""
    try:
        import resource
    except ImportError:  # not on this system (Windows): nothing to raise
        return files_needed(max_sessions)
    needed = files_needed(max_sessions)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    unlimited = hard == resource.RLIM_INFINITY
    target = needed if unlimited else min(needed, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as error:
            logger.warning("could not raise the open-file limit to %d: %s", target, error)
    if soft != resource.RLIM_INFINITY and soft < needed:
        logger.warning(
            "the open-file limit is %d, but max_sessions = %d needs %d: set `ulimit -n %d` "
            "(LimitNOFILE=%d under systemd) or lower max_sessions",
            soft,
            max_sessions,
            needed,
            needed,
            needed,
        )
    return int(soft)
