"""What every screen of the sysop's tools does the same way (the tools menu, the
members and one member, the audit in door/app/sysop_tools.py; the bans and the recent
chat in door/app/moderation_screens.py): draw its view, read the next key (and read
the screen's data again when none came for a while), read a line at the bottom, ask
yes or no, and say what a click on it means (door/screens/tool_hits.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Final, Protocol

from door.app.lobby_words import LobbyWords, screen_key
from door.app.presence import Member, Presence
from door.screens.speech import SEE_THE_KEYS, Said
from door.screens.tool_hits import ToolView, key_bar_hits
from door.term.canvas import Canvas
from door.term.clicks import HitMap
from door.term.keys import Key
from door.ui.bindings import Bindings
from door.ui.bottom_line import LineView, read_bottom_line
from door.ui.confirm import Confirm
from door.ui.session import Drawn, Session

Drawing = Callable[[], tuple[Canvas, tuple[int, int] | None]]
TOOL_WORDS: Final[dict[str, Key]] = {
    "back": Key.ESCAPE,
    "yes": Key.printable("y"),
    "no": Key.printable("n"),
}
"""Words every tool screen takes from a screen reader's sysop, besides its keys' own."""


def unknown_key(key: Key) -> str:
    """The message for a key that does nothing on a tool screen: it sends the sysop to the
    key bar, and a screen reader's sysop hears the keys instead (``tool_said``)."""
    name = repr(key.char) if key.is_printable else key.name.value
    return f"The {name} key does nothing here: {SEE_THE_KEYS}."


def words_of(keys: Bindings) -> dict[str, Key]:
    """The words a screen reader's sysop may type for ``keys``: each key's label
    ("lock", "reset code"), as on its key bar, stands for the key."""
    words = {
        binding.label.split(":")[0].lower(): Key.printable(binding.key)  # "Members: list..."
        for binding in keys.bindings
    }
    return {word: key for word, key in words.items() if word} | TOOL_WORDS


class ToolWords(LobbyWords):
    """A screen reader's sysop's lines on a tool screen: as in the lobby, but a number
    alone (a member's, to open them) is typed whole with its RETURN, where the lobby
    takes its first digit as a key and the screen would wait for the rest unheard."""

    def stands_for(self, line: str, reading_line: bool) -> str:
        number = line.strip()
        if reading_line or not number.isdigit():
            return super().stands_for(line, reading_line)
        self.keys.extend((Key.printable(digit), False) for digit in number)
        self.keys.append((Key.ENTER, True))
        return ""


class ToolPlace(Protocol):
    """What a sysop's tool works with: the sysop's session and presence, the door's name."""

    @property
    def session(self) -> Session: ...
    @property
    def presence(self) -> Presence: ...
    @property
    def sysop(self) -> Member: ...
    @property
    def bbs_name(self) -> str: ...


class ScreenView(ToolView, LineView, Protocol):
    """A tool screen's view: the line typed, the message, the key bar."""


class ToolScreen:
    """One tool screen over ``view``: ``draw`` draws it, ``hits`` says what a click on
    the frame drawn means (the key bar's offers unless the screen says more: a function
    of the view, door/screens/tool_hits.py), and a screen waiting for a key reads its
    data again every ``refresh_seconds``."""

    def __init__(
        self,
        session: Session,
        view: ScreenView,
        draw: Drawing,
        *,
        refresh_seconds: float,
        hits: Callable[[], HitMap] | None = None,
        said: Callable[[], Said] | None = None,
        keys: Bindings | None = None,
    ) -> None:
        """``said``: the screen in words, for a screen reader's sysop, who types lines:
        a key alone, or the words of one of ``keys`` (door/app/lobby_words.py)."""
        self.session = session
        self.view = view
        self.refresh_seconds = refresh_seconds
        self.words = ToolWords(TOOL_WORDS if keys is None else words_of(keys))
        self._say = said
        self.screen = Drawn(draw, hits=hits or self.hits, said=self.said)

    def hits(self) -> HitMap:
        return key_bar_hits(self.view)

    def spoken(self) -> Said | None:
        """The screen in words (a screen may say itself here instead of by ``said``)."""
        return None if self._say is None else self._say()

    def said(self) -> Said | None:
        spoken = self.spoken()
        return None if spoken is None else dataclasses.replace(spoken, typed=self.words.typed)

    def reading_line(self) -> bool:
        return self.view.entry is not None

    async def next_key(self) -> Key | None:
        """The next key, drawn first (for a screen reader's sysop, the next key a line
        typed stands for); None when the screen should read its data again (none came
        in time, or ^L, which also repaints it whole)."""
        return await screen_key(self.session, self.words, self.reading_line, self.refresh_seconds)

    async def read_line(self, prompt: str, limit: int, initial: str = "") -> str | None:
        """A line typed at the bottom (None: Esc); after it the key bar is given back
        and the typing hint goes (the screen says what came of the line)."""
        status = self.view.status
        try:
            return await read_bottom_line(self.view, self.next_key, prompt, limit, initial=initial)
        finally:
            self.view.status = status
            self.view.message, self.view.error = "", False

    async def confirm(self, question: str) -> bool:
        confirm = Confirm(question)
        status, self.view.status = self.view.status, "Y yes  N no  Esc no"
        self.view.message, self.view.error = confirm.prompt, False
        try:
            while True:
                key = await self.next_key()
                if key is None:
                    continue
                answer = confirm.answer(key)
                if answer is not None:
                    return answer
                self.view.message, self.view.error = confirm.not_an_answer(key), True
        finally:
            self.view.status = status
            self.view.message, self.view.error = "", False
