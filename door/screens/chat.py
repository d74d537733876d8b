"""The game log with chat, and the line the caller is typing into.

Game events and chat share one scrolling window, as a BBS door's chat window does: the
caller reads what the computer just did and what was said in the same place.
"""

from __future__ import annotations

import functools
import random
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Final

from door.screens import theme
from door.screens.layout import (
    ENTRY_ROW,
    LOG_ROWS,
    LOG_RULE_ROW,
    LOG_TOP,
    SCREEN_COLS,
    TEXT_WIDTH,
)
from door.screens.wrap import wrapped
from door.term.ansi import sanitize
from door.term.canvas import STYLES, Canvas, Style, style_number
from door.ui.line_editor import LineEditor

MAX_CHAT_LENGTH: Final = 60
KEPT_LINES: Final = 100
LOG_PAGE: Final = LOG_ROWS - 1
"""How far PgUp, PgDn and a notch of the wheel scroll the log, and how many lines stay
in view scrolled back (the last row then says how many are newer)."""

# What the computer says back: short, and never pretending to read the caller's words.
CANNED_REPLIES: Final = (
    "Good luck!",
    "Let's see what the cards say.",
    "Fifteen two and the rest is luck.",
    "I'll be watching that crib.",
    "Nice to have company at the board.",
    "Shuffle up and deal.",
    "May your starter be a five.",
)


FlatLine = str
"""A log line as kept: one string, each segment its text after ``_SEGMENT`` and the
character whose code is its style's number (door/term/canvas.py ``style_number``)."""

_SEGMENT: Final = "\x1f"
"""Opens a segment of a kept line (the unit separator: no text the log shows has one)."""


def flat_line(segments: Iterable[tuple[str, Style]]) -> FlatLine:
    return "".join(
        f"{_SEGMENT}{chr(style_number(style))}{text.replace(_SEGMENT, '')}"
        for text, style in segments
    )


def _segments(flat: FlatLine) -> Iterator[tuple[str, Style]]:
    start = flat.find(_SEGMENT)
    while start >= 0:
        style = STYLES[ord(flat[start + 1])]
        end = flat.find(_SEGMENT, start + 2)
        yield flat[start + 2 : end if end >= 0 else len(flat)], style
        start = end


@functools.lru_cache(maxsize=1024)
def _laid_line(flat: FlatLine) -> tuple[str, str]:
    """A kept line's text and styles (a style's character a cell), to lay in one put: a
    line is drawn again on each of the four rows it scrolls through, and in every
    watcher's log (cached by the string, whose hash Python keeps)."""
    texts, styles = [], []
    start = flat.find(_SEGMENT)
    while start >= 0:
        style = flat[start + 1]  # the style's number as its character: what a row keeps
        end = flat.find(_SEGMENT, start + 2)
        text = flat[start + 2 : end if end >= 0 else len(flat)]
        texts.append(text)
        styles.append(style * len(text))
        start = end
    return "".join(texts), "".join(styles)


class LogLine:
    """One screen line of the log, in segments of differently styled text.

    Kept as one string of texts and style numbers (``flat_line``): every session keeps a
    hundred lines, and a full log of such strings is 15 KB, where a tuple of texts and
    numbers a line made it 23. As a dataclass of tuples of styles, four tracked objects a
    line, the logs were half of what a full collection walked."""

    __slots__ = ("_flat",)

    def __init__(self, segments: Iterable[tuple[str, Style]]) -> None:
        self._flat = flat_line(segments)

    @classmethod
    def of(cls, flat: FlatLine) -> LogLine:
        """The line kept as ``flat`` (``flat_line``)."""
        line = cls.__new__(cls)
        line._flat = flat
        return line

    @property
    def segments(self) -> tuple[tuple[str, Style], ...]:
        return tuple(self.pieces())

    def pieces(self) -> Iterator[tuple[str, Style]]:
        """Each segment's text and style, in order, made as they are asked for."""
        return _segments(self._flat)

    @property
    def text(self) -> str:
        return "".join(text for text, _ in _segments(self._flat))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LogLine) and other._flat == self._flat

    def __hash__(self) -> int:
        return hash(self._flat)

    def __repr__(self) -> str:
        return f"LogLine({self.segments!r})"


class PaneLog:
    """The last lines of play and chat, wrapped to the screen: the log pane under the
    board (and beside it, on a wide terminal). Not the replay text of a whole game,
    which is engine/rules/gamelog.py's.

    Kept as flat strings (``flat_line``), not ``LogLine`` objects: a session keeps a
    hundred lines, and a string is not even one object for the garbage collector to
    walk."""

    def __init__(self, width: int = TEXT_WIDTH) -> None:
        self.width = width
        self._kept: list[FlatLine] = []
        self.back = 0
        """How many of the newest lines the caller has scrolled back past (PgUp, the
        wheel); 0 shows the newest. Lines added meanwhile leave the view where it is."""

    @property
    def lines(self) -> list[LogLine]:
        return lines_of(self._kept)

    def add(self, text: str, style: Style = theme.TEXT) -> None:
        lines = wrap_log_text(text, self.width)
        for line in lines:
            self._kept.append(flat_line(((line, style),)))
        self._trim(len(lines))

    def chat(self, speaker: str, text: str, speaker_style: Style) -> None:
        """A chat line: the speaker's name in their colour, then what they said."""
        prefix = f"{speaker}: "
        wrapped = textwrap.wrap(
            text, self.width, initial_indent=prefix, subsequent_indent="  "
        ) or [prefix]
        first = wrapped[0][len(prefix) :]
        self._kept.append(flat_line(((prefix, speaker_style), (first, theme.BRIGHT))))
        for line in wrapped[1:]:
            self._kept.append(flat_line(((line, theme.BRIGHT),)))
        self._trim(len(wrapped))

    def _trim(self, added: int) -> None:
        del self._kept[:-KEPT_LINES]
        if self.back:
            self.back = min(self.back + added, len(self._kept) - 1)

    def scroll(self, lines: int, shown: int) -> None:
        """Back (``lines`` > 0) or on towards the newest by ``lines``, ``shown`` lines
        staying in view at the oldest."""
        self.back = min(max(0, self.back + lines), max(0, len(self._kept) - shown))

    def kept(self, count: int = KEPT_LINES) -> tuple[FlatLine, ...]:
        """The ``count`` lines as kept that end where the caller scrolled to (the
        newest, unless scrolled back): values, for a layer's key."""
        end = len(self._kept) - self.back
        return tuple(self._kept[max(0, end - count) : end])


def wrap_log_text(text: str, width: int) -> tuple[str, ...]:
    """``text`` wrapped to ``width`` as the log shows it: later lines indented two."""
    return wrapped(text, width, "  ") or ("",)


def lines_of(kept: Iterable[FlatLine]) -> list[LogLine]:
    """The lines kept as ``kept`` (``PaneLog.kept``), to draw."""
    return [LogLine.of(flat) for flat in kept]


def draw_kept_log(canvas: Canvas, kept: Sequence[FlatLine], back: int = 0) -> None:
    """The log's lines as ``PaneLog.kept`` gives them, without the rule over them
    (``draw_log_rule``: a line added to the log need not lay the rule's row again).
    Drawn from the kept strings themselves: no line object made to draw each. Scrolled
    ``back``, the last row says how many newer lines there are instead."""
    shown = kept[-LOG_PAGE:] if back else kept
    put_styled = canvas.put_styled
    for row, flat in enumerate(shown, start=LOG_TOP):
        put_styled(row, 1, *_laid_line(flat))
    if back:
        newer = f"{back} newer line{'s' if back > 1 else ''} below: PgDn or the wheel"
        canvas.put(LOG_TOP + len(shown), 1, f"({newer})", theme.DIM)


def clean_chat(text: str) -> str:
    """What a caller typed, safe to show to anyone."""
    return sanitize(text, MAX_CHAT_LENGTH).strip()


def canned_reply(rng: random.Random, last: str = "") -> str:
    """A reply from the computer, never the one it gave ``last``."""
    return rng.choice([reply for reply in CANNED_REPLIES if reply != last])


def draw_log_rule(canvas: Canvas) -> None:
    """The rule over the log (a layer of its own: it never changes)."""
    canvas.fill(LOG_RULE_ROW, 0, SCREEN_COLS, "─", theme.DIM)


class Entry:
    """A line the caller is typing below a prompt (chat, a card number, a count, a
    choice from a list): the prompt and the shared line editor."""

    def __init__(
        self,
        prompt: str,
        limit: int = 60,
        *,
        allowed: Callable[[str], bool] | None = None,
        allowed_hint: str = "That character cannot be typed here.",
        masked: bool = False,
        initial: str = "",
    ) -> None:
        self.prompt = prompt
        self.editor = LineEditor(
            limit, initial, masked=masked, allowed=allowed, allowed_hint=allowed_hint
        )

    @property
    def text(self) -> str:
        return self.editor.text

    @text.setter
    def text(self, text: str) -> None:
        self.editor.set(text)

    @property
    def limit(self) -> int:
        return self.editor.limit


def draw_entry(canvas: Canvas, entry: Entry) -> tuple[int, int]:
    """The line being typed; returns where the cursor stands."""
    col = canvas.put(ENTRY_ROW, 1, entry.prompt, theme.LABEL)
    width = max(1, min(entry.limit, SCREEN_COLS - 2 - col))
    shown, column = entry.editor.shown(width)
    end = canvas.put(ENTRY_ROW, col, shown, theme.BRIGHT)
    if end < col + width:
        canvas.fill(ENTRY_ROW, end, col + width - end, "_", theme.DIM)
    return ENTRY_ROW, col + column
