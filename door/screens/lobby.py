"""The lobby: who is on and where, the lobby chat, the game options and the keys.

::

    0       the door's name, and "Welcome, <name>!"
    1-9     who is on: number, name, where they are, idle time (seven a page)
    10-14   the lobby chat, the latest at the bottom
    15-19   the keys: play, challenge, watch; the game options; the record and the
            leaderboard (when accounts are on); the sysop's keys
    20      a challenge waiting for an answer, or a note for this caller
    21      the line being typed (chat, whom to challenge...)
    22      message line
    23      status line

Also the private chat the sysop pages a caller into, drawn over the same frame.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from door.screens import theme
from door.screens.chat import Entry, LogLine, draw_entry
from door.screens.fit import shortened, wrap_lines
from door.screens.frame import draw_message, draw_status
from door.screens.layout import ENTRY_ROW, SCREEN_COLS
from door.screens.side_pane import canvas_for, draw_side_pane, has_pane
from door.screens.wrap import wrapped
from door.term.canvas import Canvas, Style, picture, picture_top

WHO_TOP: Final = 3
WHO_ROWS: Final = 7
CHAT_RULE: Final = 10
CHAT_TOP: Final = 11
CHAT_ROWS: Final = 4
KEYS_TOP: Final = 16
NOTICE_ROW: Final = 20
PRIVATE_TOP: Final = 2
PRIVATE_ROWS: Final = 18

BROADCAST: Final = theme.ERROR
NOTICE: Final = theme.DIM
YOU: Final = Style(theme.PLAYER_STYLES[0].fg, bold=True)


@dataclass(frozen=True)
class WhoLine:
    name: str
    where: str
    idle_seconds: float
    you: bool = False
    sysop: bool = False
    chosen: bool = False


@dataclass(frozen=True)
class ChatText:
    speaker: str
    text: str
    kind: str = "chat"


@dataclass
class LobbyView:
    title: str
    name: str
    who: Sequence[WhoLine] = ()
    """The first lines of the list of who is on (``WHO_ROWS`` at most: what it shows)."""
    who_count: int = 0
    """How many are on (``who`` is only the first of them)."""
    chat: Sequence[ChatText] = ()
    menu_keys: str = ""
    """The first row of keys (door/app/lobby_keys.py makes it from the lobby's keys)."""
    options: str = ""
    sysop: bool = False
    sysop_keys: str = ""
    """The sysop's row of keys ("" for a caller)."""
    account_keys: str = ""
    competition_keys: str = ""
    size: tuple[int, int] = (SCREEN_COLS, 24)
    """The caller's window (cols, rows): a wide one has the chat beside the lobby."""
    """Members' play-by-mail games and tournaments (a row of their own)."""
    """The keys for statistics and the leaderboard; empty when accounts are off."""
    notice: str = ""
    notice_urgent: bool = False
    entry: Entry | None = None
    message: str = ""
    error: bool = False
    status: str = ""
    private_with: str | None = None
    """Set while the sysop and a caller are in a private chat: the other one's name."""
    private_lines: Sequence[ChatText] = field(default_factory=tuple)


def idle_text(seconds: float) -> str:
    """``0:07``, ``12:30``, ``2h05``: short enough for the idle column."""
    whole = int(seconds)
    if whole >= 3600:
        return f"{whole // 3600}h{whole % 3600 // 60:02d}"
    return f"{whole // 60}:{whole % 60:02d}"


def draw_lobby(view: LobbyView) -> tuple[Canvas, tuple[int, int] | None]:
    frame = canvas_for(view.size)
    # A tall wide window: the lobby in the middle of it, the chat pane full height.
    canvas = picture(frame)
    canvas.put(0, 1, view.title[:40], theme.TITLE)
    welcome = f"Welcome, {view.name}!"
    canvas.put(0, SCREEN_COLS - 1 - len(welcome), welcome, theme.BRIGHT)
    if view.private_with is not None:
        _draw_private(canvas, view)
    else:
        _draw_who(canvas, view.who, view.who_count)
        _draw_chat(canvas, view.chat)
        _draw_keys(canvas, view)
    notice_rows = 0
    if view.notice:
        style = theme.OVERLAY_TITLE if view.notice_urgent else theme.LABEL
        lines = notice_lines(view)
        notice_rows = len(lines)
        for offset, line in enumerate(lines):
            canvas.put(NOTICE_ROW + offset, 1, line, style)
    cursor = None
    if view.entry is not None:
        cursor = draw_entry(canvas, view.entry)
    # The typing row, when nothing is typed and no notice took it, lets a long message
    # (a tournament's result, say) wrap rather than be shortened.
    spare = 1 if view.entry is None and notice_rows < 2 else 0
    draw_message(canvas, view.message, error=view.error, spare=spare)
    draw_status(canvas, view.status)
    if has_pane(frame) and view.private_with is None:
        # A wide window: the chat, every line kept and whole, beside the lobby.
        lines = [LogLine(tuple(_chat_segments(line))) for line in view.chat]
        draw_side_pane(frame, "Lobby chat", lines)
        frame.pane_cols = range(SCREEN_COLS, frame.cols)
    # The chat scrolls up a line at a time: a renderer of plain lines prints each of its
    # lines once, not the ones above again, nor the pane's (door/ui/line_renderer.py).
    private = view.private_with is not None
    top, rows = (PRIVATE_TOP, PRIVATE_ROWS) if private else (CHAT_TOP, CHAT_ROWS)
    top += picture_top(frame.rows)
    frame.log_rows = range(top, top + rows)
    if cursor is not None:
        cursor = (cursor[0] + picture_top(frame.rows), cursor[1])
    return frame, cursor


def notice_lines(view: LobbyView) -> list[str]:
    """The notice as drawn from ``NOTICE_ROW``: a long one (a challenge, say) takes the
    typing row too when nothing is typed."""
    if not view.notice:
        return []
    return wrap_lines(view.notice, SCREEN_COLS - 2, 1 if view.entry is not None else 2)


def _rule(canvas: Canvas, row: int, title: str) -> None:
    canvas.fill(row, 0, SCREEN_COLS, "─", theme.DIM)
    canvas.put(row, 2, f" {title} ", theme.LABEL)


def _draw_who(canvas: Canvas, who: Sequence[WhoLine], count: int) -> None:
    """The first of the ``count`` people on: a page of them, the last line saying how
    many more there are when they do not all fit."""
    _rule(canvas, 1, f"Who is on ({count})")
    canvas.put(2, 1, f"{'#':>2}  {'Name':<24}{'Where':<40}{'Idle':>6}", theme.LABEL)
    shown = list(who[:WHO_ROWS])
    if count > WHO_ROWS:
        shown = shown[: WHO_ROWS - 1]
    for offset, line in enumerate(shown):
        row = WHO_TOP + offset
        name = _who_name(line, 23)
        style = YOU if line.you else theme.TITLE if line.sysop else theme.BRIGHT
        mark = "*" if line.chosen else " "
        number_style = theme.BAR if line.chosen else theme.LABEL
        canvas.put(row, 1, f"{offset + 1:>2}{mark}", number_style)
        canvas.put(row, 5, name, style)
        canvas.put(row, 29, shortened(line.where, 39), theme.TEXT)  # a game's long names
        canvas.put(row, 69, f"{idle_text(line.idle_seconds):>6}", theme.DIM)
    if count > WHO_ROWS:
        canvas.put(WHO_TOP + WHO_ROWS - 1, 5, f"... and {count - len(shown)} more", theme.DIM)


def _who_name(line: WhoLine, width: int) -> str:
    """The name and what marks it ("you", "sysop"), in ``width`` cells: a long name is
    shortened, never the marks; "sysop" is left out when the name says it already."""
    marks = ["you"] if line.you else []
    if line.sysop and line.name.casefold() != "sysop":
        marks.append("sysop")
    tail = f" ({', '.join(marks)})" if marks else ""
    room = width - len(tail)
    name = shortened(line.name, room)
    return name + tail


def _chat_segments(line: ChatText) -> list[tuple[str, Style]]:
    if line.kind == "notice" or not line.speaker:
        return [(line.text, NOTICE)]
    if line.kind == "broadcast":
        return [(f"*** {line.speaker}: ", BROADCAST), (line.text, theme.BRIGHT)]
    return [(f"{line.speaker}: ", theme.PLAYER_STYLES[1]), (line.text, theme.BRIGHT)]


def _chat_rows(lines: Sequence[ChatText], rows: int) -> list[list[tuple[str, Style]]]:
    """The chat's newest lines that fit in ``rows`` rows, whole: a line too long for its
    row goes on over the next rows, a notice (a game's begin or end between long names: a
    title alone may take 90 cells) and a caller's line alike (60 letters after a
    20-letter name is 82 cells); the name keeps its colour on the first row, the rest are
    the words'. An older line with no room for all its rows is left out, not shown from
    its middle: a top row going on from a line out of view has no name and reads as the
    door's (the rows below stay empty until newer lines fill them, as at the start)."""
    drawn: list[list[tuple[str, Style]]] = []
    for line in reversed(list(lines)[-rows:]):
        line_rows = _line_rows(line, SCREEN_COLS - 2)
        if len(drawn) + len(line_rows) > rows:
            # The newest line alone taller than the chat: its start, with its name.
            return drawn or line_rows[:rows]
        drawn[:0] = line_rows
    return drawn


def _line_rows(line: ChatText, width: int) -> list[list[tuple[str, Style]]]:
    """One chat line's rows, each a list of (text, style)."""
    segments = _chat_segments(line)
    if sum(len(text) for text, _ in segments) <= width:
        return [segments]
    *head, (_, style) = segments
    whole = "".join(text for text, _ in segments)
    first, *rest = wrapped(whole, width, "  ") or ("",)  # all blanks: wrapped gives none
    if head:  # "Ada: " or "*** Sysop: ": whole on the first row, the name never broken
        name, name_style = head[0]
        first_row = [(first[: len(name)], name_style), (first[len(name) :], style)]
    else:
        first_row = [(first, style)]
    return [first_row, *([(row, style)] for row in rest)]


def _draw_chat_lines(canvas: Canvas, lines: Sequence[ChatText], top: int, rows: int) -> None:
    for offset, segments in enumerate(_chat_rows(lines, rows)):
        col = 1
        for text, style in segments:
            room = SCREEN_COLS - 1 - col
            if room <= 0:
                break
            col = canvas.put(top + offset, col, text[:room], style)


def _draw_chat(canvas: Canvas, chat: Sequence[ChatText]) -> None:
    _rule(canvas, CHAT_RULE, "Lobby chat")
    _draw_chat_lines(canvas, chat, CHAT_TOP, CHAT_ROWS)


def _draw_keys(canvas: Canvas, view: LobbyView) -> None:
    canvas.fill(KEYS_TOP - 1, 0, SCREEN_COLS, "─", theme.DIM)
    for offset, text in enumerate(key_rows(view)):
        _put_keys(canvas, KEYS_TOP + offset, text)


def key_rows(view: LobbyView) -> list[str]:
    """The lines of keys under the chat, from ``KEYS_TOP`` down."""
    rows = [view.menu_keys, view.options]
    if view.account_keys:
        rows.append(view.account_keys)
    if view.competition_keys:
        if view.sysop and len(rows[-1]) + 2 + len(view.competition_keys) <= SCREEN_COLS - 2:
            # The sysop's own row would push the keys into the notice's row.
            rows[-1] += "  " + view.competition_keys
        else:
            rows.append(view.competition_keys)
    if view.sysop_keys:
        rows.append(view.sysop_keys)
    return rows


_KEY_PAIRS: Final = re.compile(r"( *)(\S+(?: \S+)*)")
"""A keys line's pairs ("K what"), two spaces or more apart, and the gap before each."""


def _put_keys(canvas: Canvas, row: int, text: str) -> None:
    """A line of "K what" pairs, with each key letter picked out in yellow."""
    col = 1
    for gap, word in _KEY_PAIRS.findall(text):
        col += len(gap)
        key, _, rest = word.partition(" ")
        is_key = len(key) <= 3 and (key.isupper() or not key.isalpha())
        col = canvas.put(row, col, key, theme.TITLE if is_key else theme.TEXT)
        if rest:
            col = canvas.put(row, col, " " + rest, theme.TEXT)


def _draw_private(canvas: Canvas, view: LobbyView) -> None:
    _rule(canvas, 1, f"Private chat with {view.private_with}")
    _draw_chat_lines(canvas, view.private_lines, PRIVATE_TOP, PRIVATE_ROWS)
    canvas.fill(ENTRY_ROW - 1, 0, SCREEN_COLS, "─", theme.DIM)
