"""What every screen of the sysop's tools does the same way (the tools menu, the
members and one member, the audit in door/app/sysop_tools.py; the bans and the recent
chat in door/app/moderation_screens.py): draw its view, read the next key (and read
the screen's data again when none came for a while), read a line at the bottom, ask
yes or no, and say what a click on it means (door/screens/tool_hits.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from door.app.presence import Member, Presence
from door.screens.tool_hits import ToolView, key_bar_hits
from door.term.canvas import Canvas
from door.term.clicks import HitMap
from door.term.keys import Key
from door.ui.bottom_line import LineView, read_bottom_line
from door.ui.confirm import Confirm
from door.ui.session import Drawn, Session

Drawing = Callable[[], tuple[Canvas, tuple[int, int] | None]]


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
    ) -> None:
        self.session = session
        self.view = view
        self.refresh_seconds = refresh_seconds
        self.screen = Drawn(draw, hits=hits or self.hits)

    def hits(self) -> HitMap:
        return key_bar_hits(self.view)

    async def next_key(self) -> Key | None:
        """The next key, drawn first; None when the screen should read its data again
        (none came in time, or ^L, which also repaints it whole)."""
        await self.session.paint()
        key = await self.session.next_key(timeout=self.refresh_seconds)
        if key == Key.CTRL_L:
            self.session.redraw_all()
            return None
        return key

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
