"""The mail-games screen drawn from its state: a member's play-by-mail games going, each
with its line ("your move against Ada (2 days left)"), the last few finished, and the
rules. Pure: door/app/mail_screen.py runs it.

::

    0       title bar
    2       the games going, numbered
    ...     the games finished lately
    19-20   the rules
    21      the line being typed (a handle, a game's number)
    22      message line (red for a refusal)
    23      status line: the keys that work now
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from door.app.mail_games import MailLine
from door.screens import theme
from door.screens.account import draw_title
from door.screens.chat import Entry, draw_entry
from door.screens.fit import shortened
from door.screens.frame import draw_message, draw_status
from door.screens.layout import SCREEN_COLS
from door.term.canvas import Canvas

TOP: Final = 2
RULES_ROW: Final = 19
NAME_WIDTH: Final = 21
MIN_NAME_WIDTH: Final = 9
"""The fewest cells a finished game's opponent keeps, however long its ending."""


@dataclass
class MailView:
    title: str
    going: Sequence[MailLine] = ()
    finished: Sequence[MailLine] = ()
    rules: Sequence[str] = ()
    most: int = 20
    entry: Entry | None = None
    message: str = ""
    error: bool = False
    status: str = ""


def _rule(canvas: Canvas, row: int, title: str) -> None:
    canvas.fill(row, 0, SCREEN_COLS, "─", theme.DIM)
    canvas.put(row, 2, f" {title} ", theme.LABEL)


def _finished_row(canvas: Canvas, row: int, line: MailLine) -> None:
    """A finished game's opponent and how it ended: the ending whole, its name column
    giving way to a long one ("You won on time: they did not move in time (121 to 98).")
    and the name shortened with an ellipsis to fit beside it."""
    status_at = max(min(5 + NAME_WIDTH, SCREEN_COLS - 1 - len(line.status)), 5 + MIN_NAME_WIDTH)
    canvas.put(row, 5, shortened(line.opponent, status_at - 6), theme.TEXT)
    canvas.put(row, status_at, line.status[: SCREEN_COLS - 1 - status_at], theme.DIM)


def draw_mail_games(view: MailView) -> tuple[Canvas, tuple[int, int] | None]:
    canvas = Canvas()
    draw_title(canvas, view.title)
    _rule(canvas, TOP - 1, f"Your mail games ({len(view.going)} of {view.most})")
    row = TOP
    finished_rows = min(len(view.finished), 5)
    room = RULES_ROW - TOP - (finished_rows + 2 if finished_rows else 0)
    if not view.going:
        canvas.put(row, 3, "None going: press N to start one against another member.", theme.DIM)
        row += 1
    shown = list(view.going[:room])
    for number, line in enumerate(shown, start=1):
        style = theme.TITLE if line.your_move else theme.TEXT
        canvas.put(row, 1, f"{number:>2}", theme.LABEL)
        canvas.put(row, 5, line.opponent[: NAME_WIDTH - 1], theme.BRIGHT)
        canvas.put(row, 5 + NAME_WIDTH, line.status[: SCREEN_COLS - 6 - NAME_WIDTH], style)
        row += 1
    if len(view.going) > len(shown):
        canvas.put(row - 1, 5, f"... and {len(view.going) - len(shown) + 1} more", theme.DIM)
    if finished_rows:
        row += 1
        _rule(canvas, row, "Finished lately")
        row += 1
        for line in view.finished[:finished_rows]:
            _finished_row(canvas, row, line)
            row += 1
    canvas.fill(RULES_ROW - 1, 0, SCREEN_COLS, "─", theme.DIM)
    for offset, text in enumerate(view.rules[:2]):
        canvas.put(RULES_ROW + offset, 1, text[: SCREEN_COLS - 2], theme.DIM)
    cursor = draw_entry(canvas, view.entry) if view.entry is not None else None
    draw_message(canvas, view.message, error=view.error)
    draw_status(canvas, view.status)
    return canvas, cursor
