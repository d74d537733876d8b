"""Lines of text fitted to the screen's width without losing the keys they name.

A notice or a message often ends with what to press ("... a tournament game. Y accept
N decline", "... is over (U shows the standings)."). Cut at the right edge, such a line
hid its keys. Here a line too long is wrapped onto the rows it may use, and the last of
them is shortened before its keys, never through them.

>>> fit_line("Ada challenges you: 2 players, free runs. Y accept  N decline", 40)
'Ada challenges you:… Y accept  N decline'
>>> wrap_lines("Friday Cup: the tournament is over (U shows the standings).", 40, 2)
['Friday Cup: the tournament is over', '(U shows the standings).']
"""

from __future__ import annotations

import re
from typing import Final

from door.screens.wrap import wrapped

ELLIPSIS: Final = "…"

_KEY: Final = re.compile(
    r"(?<![\w'])(?:[A-Z]|[0-9]-[0-9]|Esc|RETURN|BS|DEL|Space|\^[A-Z]|\?)(?= [a-z]|\)|$)"
)
"""A key named in a line: a capital letter alone (``Y accept``, ``(U shows``), a range of
digits (``1-9 choose``), or a named key (``Esc withdraws``, ``RETURN keeps``)."""

_CLAUSE_START: Final = re.compile(r"(?:(?<=[.:;!?] )|(?<= )(?=\())\S")
"""Where a clause begins: after a sentence's or a clause's stop, or at an opening
bracket."""


def keys_tail(text: str) -> str:
    """The end of ``text`` from the clause that names its first key; "" if it names none
    (or names one in its first clause, where there is nothing before to shorten)."""
    first_key = _KEY.search(text)
    if first_key is None:
        return ""
    starts = [match.start() for match in _CLAUSE_START.finditer(text, 0, first_key.start() + 1)]
    return text[starts[-1] :] if starts else ""


def shortened(name: str, width: int) -> str:
    """A name in at most ``width`` cells: whole if it fits, else cut with an ellipsis
    (a name beside a figure gives way, never the figure).

    >>> shortened("(deleted member)", 10)
    '(deleted…'
    """
    return name if len(name) <= width else name[: max(width - 1, 1)].rstrip() + ELLIPSIS


def fit_line(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells: as it is if it fits; otherwise shortened
    before the clause that names its keys (marked with an ellipsis), or cut at the end
    when it names none or its keys alone do not fit."""
    if len(text) <= width:
        return text
    tail = keys_tail(text)
    room = width - len(tail) - 2  # the ellipsis and a space
    if not tail or room < 1:
        return text[: width - 1] + ELLIPSIS
    head = text[: len(text) - len(tail)].rstrip()[:room].rstrip()
    return f"{head}{ELLIPSIS} {tail}"


def wrap_lines(text: str, width: int, rows: int) -> list[str]:
    """``text`` wrapped onto at most ``rows`` lines of ``width`` cells, its keys kept
    together on the last; what does not fit shortens the last line before its keys (see
    ``fit_line``)."""
    tail = keys_tail(text)
    if len(tail) > width:
        tail = ""
    head = text[: len(text) - len(tail)].rstrip()
    lines = list(wrapped(head, width))
    if tail:
        if lines and len(lines[-1]) + 1 + len(tail) <= width:
            lines[-1] += " " + tail
        else:
            lines.append(tail)
    if len(lines) <= rows:
        return lines or [""]
    kept = lines[: rows - 1]
    # Wrapping drops the spaces it broke at: find where the rest really starts.
    position = 0
    for line in kept:
        position = text.index(line, position) + len(line)
    return [*kept, fit_line(text[position:].strip(), width)]
