"""The session's renderer for a terminal that shows lines (``Display.LINES``): a teletype,
or a BBS caller on ASCII emulation. No escape sequence is ever sent: no cursor movement,
no clearing, no colour. What the caller sees is text that scrolls, as on a printing
terminal.

The screens still draw whole frames into a ``Canvas``; this renderer turns a frame into
lines of text ending CR LF, and decides how much of it to print:

- a new screen (the first frame, one where most lines changed, or after ``invalidate``:
  Ctrl-L) is printed whole, after a blank line, without its trailing spaces or runs of
  blank lines;
- a frame where a few lines changed prints only those lines (the count, a played card, a
  chat line); a frame whose text did not change prints nothing (a highlight moved, the
  screen was drawn again for a resize);
- the rows of a log that scrolls (the canvas's ``log_rows``: the table's game log) print
  only the lines not printed before, in a new screen too (a picture of the table after a
  card is played): the caller's paper already has the rest, and a log line printed again
  at each scroll read as the same event happening again; a line added to the log while
  it was not up, printed then by the screen that hid it (a show's "Your hand counts 3
  points."), is not printed again either;
- a pane beside the picture that shows the log again (``pane_cols``: the side pane from
  110 columns) is left out, its lines being the log's;
- the line the cursor is on (a prompt, a field being typed) is printed last and left open
  up to the cursor, so typing into it echoes just the characters typed, and a backspace
  rubs one out (BS, space, BS), as a teletype's line discipline does.

A screen-reader mode (one line at a time, read out) may replace this renderer later:
the session chooses a renderer by the terminal's ``display`` and nothing else knows.

>>> from tests.door.fake_terminal import FakeTerminal
>>> from door.term.canvas import Canvas
>>> terminal = FakeTerminal(cols=20, rows=4)
>>> renderer = LineRenderer(terminal)
>>> canvas = Canvas(20, 4)
>>> _ = canvas.put(0, 0, "Cribbage Door")
>>> _ = canvas.put(2, 0, "Your name: ")
>>> renderer.render(canvas, (2, 11))
>>> bytes(terminal.output)
b'\\r\\nCribbage Door\\r\\nYour name: '
>>> _ = canvas.put(2, 11, "Ada")
>>> renderer.render(canvas, (2, 14))
>>> bytes(terminal.output)[-3:]
b'Ada'
"""

from __future__ import annotations

from typing import Final

from door.term.canvas import Canvas
from door.term.terminal import Terminal
from door.term.window import MAX_ROWS

NEW_SCREEN_SHARE: Final = 0.5
"""A frame where more than this share of its lines changed is a new screen, printed
whole; fewer, and only the changed lines are printed."""
NEW_SCREEN_MIN_LINES: Final = 4
"""A change of up to this many lines is never taken for a new screen (a short prompt)."""
RUB_OUT: Final = "\b \b"
ASIDE_LINES_KEPT: Final = MAX_ROWS
"""How many of the lines printed while no log was up are remembered, the newest: a log
comes back showing its newest lines, at most a window's rows (MAX_ROWS), and the lines
it could repeat are the ones printed last (a show's counts). Without a bound a caller on
log-less screens (a sysop's tools, say, for hours) grew the record by every line."""

Cursor = tuple[int, int] | None


class LineRenderer:
    """Sends frames to one terminal as lines of plain text (see the module's notes)."""

    def __init__(self, terminal: Terminal) -> None:
        self._terminal = terminal
        self._shown: list[str] | None = None
        """The text of each row of the last frame, as printed (None: print the next
        whole)."""
        self._open: tuple[int, str] | None = None
        """The row left open (no CR LF yet) and the text printed on it."""
        self._log: list[str] = []
        """The lines of the scrolling log as last printed (kept while a frame without
        one is up, a help page say, so the log goes on where it left off after it)."""
        self._printed_aside: dict[str, None] = {}
        """The lines printed while no log was up (a show says "Your hand counts 3
        points." where the log was), oldest first, at most ``ASIDE_LINES_KEPT``: the
        log's lines added meanwhile that say the same are on the caller's paper
        already."""

    def invalidate(self) -> None:
        """Print the next frame whole (Ctrl-L, or after something else wrote)."""
        self._shown = None
        self._log = []
        self._printed_aside = {}

    def close(self) -> None:
        """Nothing to stop: a line renderer never repaints by itself."""

    def render(self, canvas: Canvas, cursor: Cursor = None) -> None:
        pane = canvas.pane_cols  # the log again, beside: printed from the picture's log
        rows = [(row[: pane.start] if pane else row).rstrip() for row in canvas.chars]
        prompt: tuple[int, str] | None = None
        if cursor is not None and 0 <= cursor[0] < len(rows):
            prompt = (cursor[0], canvas.chars[cursor[0]][: cursor[1]])
        out = self._typed(rows, prompt)
        if out is None:
            out = self._lines(rows, prompt, canvas.log_rows)
        self._shown = rows
        if out:
            self._terminal.write(out)

    def _typed(self, rows: list[str], prompt: tuple[int, str] | None) -> str | None:
        """What echoes a change on the open line alone (a key typed or rubbed out); None
        when the change is not that."""
        shown, open_ = self._shown, self._open
        if shown is None or open_ is None or prompt is None or prompt[0] != open_[0]:
            return None
        row = open_[0]
        if rows[:row] != shown[:row] or rows[row + 1 :] != shown[row + 1 :]:
            return None
        before, after = open_[1], prompt[1]
        self._open = prompt
        if after.startswith(before):
            return after[len(before) :]
        if before.startswith(after):
            return RUB_OUT * (len(before) - len(after))
        return None

    def _lines(self, rows: list[str], prompt: tuple[int, str] | None, log_rows: range) -> str:
        """The frame's changed lines, or all of it when it is a new screen."""
        prompt_row = prompt[0] if prompt is not None else -1
        shown = self._shown
        log = _without_blank_runs([rows[index] for index in log_rows if index < len(rows)])
        new_log: list[str] = []
        if log_rows:
            aside = self._printed_aside
            new_log = [line for line in _not_printed(self._log, log) if line.strip() not in aside]
            self._log, self._printed_aside = log, {}
        changed = [
            index
            for index, row in enumerate(rows)
            if (shown is None or index >= len(shown) or row != shown[index])
            and index not in log_rows
        ]
        if new_log:  # the log's new lines, where the log is
            changed = sorted([*changed, log_rows.start])
        printed = [index for index, row in enumerate(rows) if row]
        whole = shown is None or (
            len(changed) > NEW_SCREEN_MIN_LINES
            and len(changed) > NEW_SCREEN_SHARE * max(1, len(printed))
        )
        prompt_changed = prompt is not None and (
            self._open is None or self._open != prompt or prompt_row in changed
        )
        printing = range(len(rows)) if whole else changed
        body: list[str] = []
        for index in printing:
            if log_rows and index == log_rows.start:
                body.extend(new_log)  # the log's new lines stand for all its rows
            elif index != prompt_row and index not in log_rows and (whole or rows[index]):
                body.append(rows[index])
        if whole:
            body = _without_blank_runs(body)
        if not log_rows:
            self._remember_aside(body)
        if not body and not (whole or prompt_changed):
            return ""
        out: list[str] = []
        if self._open is not None:
            out.append("\r\n")  # end the open line first
            self._open = None
        if whole:
            out.append("\r\n")  # a new screen: a blank line before it
        out.extend(line + "\r\n" for line in body)
        if prompt is not None:
            out.append(prompt[1])
            self._open = prompt
        return "".join(out)

    def _remember_aside(self, lines: list[str]) -> None:
        """Keeps ``lines`` as printed while no log is up, forgetting the oldest past the
        bound (a line printed again counts as new)."""
        aside = self._printed_aside
        for line in lines:
            aside.pop(line.strip(), None)
            aside[line.strip()] = None
        while len(aside) > ASIDE_LINES_KEPT:
            del aside[next(iter(aside))]


def _not_printed(printed: list[str], log: list[str]) -> list[str]:
    """The lines of ``log`` not in ``printed``, the log as last printed: the log scrolls
    up, so the longest run that ends ``printed`` and begins ``log`` is printed already.
    (A line added that repeats the one scrolled off last is taken for it: a log line
    names who did what, so two in a row alike are rare, and the cost is one line.)

    >>> _not_printed(["a", "b", "c", "d"], ["c", "d", "e", "f"])
    ['e', 'f']
    >>> _not_printed(["a", "b"], ["a", "b", "c"])
    ['c']
    >>> _not_printed(["a", "b"], ["x", "y"])
    ['x', 'y']
    """
    for overlap in range(min(len(printed), len(log)), 0, -1):
        if printed[-overlap:] == log[:overlap]:
            return log[overlap:]
    return log


def _without_blank_runs(rows: list[str]) -> list[str]:
    """The rows with no blank ones at either end, and runs of blank rows as one."""
    kept: list[str] = []
    for row in rows:
        if row or (kept and kept[-1]):
            kept.append(row)
    while kept and not kept[-1]:
        kept.pop()
    return kept
