"""What a click on the lobby means: the hit map of one frame of it.

A key offered on a line of keys (the menu rows, the status line) is pressed by a click
on its words; while the lobby picks people from the list of who is on (whom to
challenge, whose game to watch), a click on a line of the list is that line's number.
While a line is being typed, only the status line is clicked: a click on ``P Play``
must not type a p into a chat line.
"""

from __future__ import annotations

from door.screens.layout import STATUS_ROW
from door.screens.lobby import (
    KEYS_TOP,
    NOTICE_ROW,
    WHO_ROWS,
    WHO_TOP,
    LobbyView,
    key_rows,
    notice_lines,
)
from door.screens.side_pane import canvas_size
from door.term.canvas import SCREEN_COLS, picture_top
from door.term.clicks import Hit, HitMap, key_line_hits
from door.term.keys import Key


def lobby_hits(view: LobbyView, *, picking: bool = False) -> HitMap:
    """The hit map of ``view``'s frame; ``picking``: the lobby is choosing people from
    the list by their numbers."""
    hits = list(key_line_hits(view.status, STATUS_ROW))
    if view.private_with is None:
        if picking:
            listed = min(view.who_count, len(view.who), WHO_ROWS)
            if view.who_count > WHO_ROWS:
                listed = min(listed, WHO_ROWS - 1)  # the last line says how many more
            hits += [
                Hit(WHO_TOP + offset, 1, SCREEN_COLS - 1, (Key.printable(str(offset + 1)),))
                for offset in range(listed)
            ]
        elif view.entry is None:
            for offset, text in enumerate(key_rows(view)):
                hits += key_line_hits(text, KEYS_TOP + offset)
            for offset, line in enumerate(notice_lines(view)):
                hits += key_line_hits(line, NOTICE_ROW + offset, in_sentences=True)
    top = picture_top(canvas_size(view.size)[1])
    return HitMap(tuple(hits)).moved_down(top)
