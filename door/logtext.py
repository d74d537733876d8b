"""Caller-supplied text made safe for the server log: a terminal type, a user name or a
handle may carry escape sequences that would act on the terminal of whoever reads the
log, or newlines that would forge log lines.

>>> escaped("xterm\\x1b[2J\\nFAKE ERROR")
'xterm\\\\x1b[2J\\\\nFAKE ERROR'
>>> escaped("Zoë")
'Zoë'
>>> len(escaped("a" * 500))
203
"""

from __future__ import annotations

import logging
from typing import Final

MAX_LOGGED_LENGTH: Final = 200


def escaped(text: object, limit: int = MAX_LOGGED_LENGTH) -> str:
    """``text`` with every non-printable character written as a Python escape, cut to
    ``limit`` characters (``...`` marks a cut)."""
    raw = str(text)
    cut = len(raw) > limit
    raw = raw[:limit]
    if raw.isprintable():
        shown = raw
    else:
        shown = "".join(
            char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
            for char in raw
        )
    return shown + ("..." if cut else "")


class EscapingFilter(logging.Filter):
    """Escapes every log line as it is written, the libraries' lines too (telnetlib3 logs
    a caller's terminal type as it was sent). Installed on the door's log handlers."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if not message.isprintable():
            record.msg, record.args = escaped(message, MAX_LOGGED_LINE), None
        return True


MAX_LOGGED_LINE: Final = 2000


def escape_log_lines() -> None:
    """Put an ``EscapingFilter`` on every handler of the root logger."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, EscapingFilter) for f in handler.filters):
            handler.addFilter(EscapingFilter())
