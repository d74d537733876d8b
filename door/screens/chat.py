"""The game log with chat, and the line the caller is typing into.

Game events and chat share one scrolling window, as a BBS door's chat window does: the
caller reads what the computer just did and what was said in the same place.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final

from door.screens import theme
from door.screens.layout import (
    ENTRY_ROW,
    LOG_RULE_ROW,
    LOG_TOP,
    SCREEN_COLS,
    TEXT_WIDTH,
)
from door.term.ansi import sanitize
from door.term.canvas import STYLES, Canvas, Style, style_number
from door.ui.line_editor import LineEditor

MAX_CHAT_LENGTH: Final = 60
KEPT_LINES: Final = 100

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


FlatLine = tuple[Any, ...]
"""A log line as kept: text, style number, text, style number, ... (door/term/canvas.py)."""


def flat_line(segments: Iterable[tuple[str, Style]]) -> FlatLine:
    flat: list[str | int] = []
    for text, style in segments:
        flat += (text, style_number(style))
    return tuple(flat)


class LogLine:
    """One screen line of the log, in segments of differently styled text.

    Kept as one flat tuple of texts and style numbers: a tuple of strings and numbers
    only is one the garbage collector stops tracking, and every session keeps a hundred
    lines (as a dataclass of tuples of styles, four tracked objects a line, the logs were
    half of what a full collection walked)."""

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
        flat: tuple[Any, ...] = self._flat
        return zip(flat[::2], map(STYLES.__getitem__, flat[1::2]), strict=True)

    @property
    def text(self) -> str:
        return "".join(str(text) for text in self._flat[::2])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LogLine) and other._flat == self._flat

    def __hash__(self) -> int:
        return hash(self._flat)

    def __repr__(self) -> str:
        return f"LogLine({self.segments!r})"


class GameLog:
    """The last lines of play and chat, wrapped to the screen.

    Kept as flat tuples (``flat_line``), not ``LogLine`` objects: a session keeps a
    hundred lines, and a tuple of strings and numbers is not even one object for the
    garbage collector to walk."""

    def __init__(self, width: int = TEXT_WIDTH) -> None:
        self.width = width
        self._kept: list[FlatLine] = []

    @property
    def lines(self) -> list[LogLine]:
        return lines_of(self._kept)

    def add(self, text: str, style: Style = theme.TEXT) -> None:
        for line in textwrap.wrap(text, self.width, subsequent_indent="  ") or [""]:
            self._kept.append(flat_line(((line, style),)))
        del self._kept[:-KEPT_LINES]

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
        del self._kept[:-KEPT_LINES]

    def kept(self, count: int = KEPT_LINES) -> tuple[FlatLine, ...]:
        """The last ``count`` lines as kept: values, for a layer's key."""
        return tuple(self._kept[-count:])


def lines_of(kept: Iterable[FlatLine]) -> list[LogLine]:
    """The lines kept as ``kept`` (``GameLog.kept``), to draw."""
    return [LogLine.of(flat) for flat in kept]


def draw_kept_log(canvas: Canvas, kept: Sequence[FlatLine]) -> None:
    """``draw_log`` of lines as ``GameLog.kept`` gives them."""
    draw_log(canvas, lines_of(kept))


def clean_chat(text: str) -> str:
    """What a caller typed, safe to show to anyone."""
    return sanitize(text, MAX_CHAT_LENGTH).strip()


def canned_reply(rng: random.Random, last: str = "") -> str:
    """A reply from the computer, never the one it gave ``last``."""
    return rng.choice([reply for reply in CANNED_REPLIES if reply != last])


def draw_log(canvas: Canvas, lines: Sequence[LogLine]) -> None:
    """The rule over the log and the log's last lines (``GameLog.kept(LOG_ROWS)``) under it."""
    canvas.fill(LOG_RULE_ROW, 0, SCREEN_COLS, "─", theme.DIM)
    for offset, line in enumerate(lines):
        col = 1
        for text, style in line.pieces():
            col = canvas.put(LOG_TOP + offset, col, text, style)


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
