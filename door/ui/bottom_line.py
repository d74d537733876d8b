"""One line typed at the bottom of a screen (a chat line, a handle, a form's answer):
the shared ``LineEditor`` in an ``Entry`` on the view, the hint and the key bar while it
is up, a refusal shown when the editor refuses a key. The lobby, the mail-games screen
and the tournaments screen read their lines this way."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from door.screens.chat import Entry
from door.term.keys import Key
from door.ui.line_editor import Edit

HINT = "Type and press RETURN; Esc cancels."
NOT_EDITING = "Type a line and press RETURN, or Esc to cancel."


class LineView(Protocol):
    """A view with an entry row, a message line and a key bar."""

    entry: Entry | None
    message: str
    error: bool
    status: str


async def read_bottom_line(
    view: LineView,
    next_key: Callable[[], Awaitable[Key | None]],
    prompt: str,
    limit: int,
    *,
    initial: str = "",
    status: str = "RETURN done  Esc cancel  BS erase",
) -> str | None:
    """The line typed, or None if Esc cancels it. ``next_key`` draws and returns the
    next key (None: woken, draw again); whatever it raises passes through."""
    entry = view.entry = Entry(prompt, limit, initial=initial)
    error = ""
    try:
        while True:
            view.message = error or HINT
            view.error = bool(error)
            view.status = status
            key = await next_key()
            error = ""
            if key is None:
                continue
            edit = entry.editor.feed(key)
            if edit is Edit.DONE:
                return entry.text
            if edit is Edit.CANCELLED:
                return None
            if edit is Edit.REFUSED:
                error = entry.editor.refusal
            elif edit is Edit.NOT_EDITING:
                error = NOT_EDITING
    finally:
        view.entry = None
