"""Typing into an account form (door/screens/account.py's FormView) and the notice a
form ends with: the account screens (door/app/accounts.py, door/app/new_password.py)
share them."""

from __future__ import annotations

import textwrap
from typing import Final

from door.screens import theme
from door.screens.account import FormField, FormView, draw_form, draw_title
from door.screens.frame import draw_status
from door.term.canvas import Canvas
from door.term.keys import Key
from door.ui.line_editor import Edit
from door.ui.session import Frame, Session

NOTICE_WIDTH: Final = 64
NOTICE_LINES: Final = 8

CONTROL_CHARACTER_KEYS: Final = frozenset({Key.TAB, Key.CTRL_C, Key.CTRL_S, Key.CTRL_Q})
"""Keys that are control characters typed, as the decoder reports them by name."""


class Back(Exception):
    """The caller pressed Esc: leave the screen."""


async def type_into(frame: Frame, session: Session, view: FormView) -> None:
    """Let the caller type into the active field until RETURN; Esc raises Back.

    A key the field cannot take is answered on the message line, never dropped without
    a word: a character past the field's limit, or a control key (Tab, Ctrl-C...). The
    key decoder drops other control bytes before any screen sees them."""
    entry = view.fields[view.active]
    what = entry.label.split()[0].rstrip(":").lower()  # "Password again:" -> password
    while True:
        frame.show(*draw_form(view))
        await session.paint()
        key = await session.read_key()
        if entry.selected and key.is_printable:
            entry.editor.clear()  # typing over an offered text replaces it
        entry.selected = False
        edit = entry.editor.feed(key)
        if edit is Edit.DONE:
            return
        if edit is Edit.CANCELLED:
            raise Back
        if edit in (Edit.CHANGED, Edit.MOVED):
            view.message, view.error = "", False
        elif edit is Edit.REFUSED:
            view.message, view.error = refusal(entry, what), True
        elif key in CONTROL_CHARACTER_KEYS:
            view.message = (
                f"A {what} cannot contain control characters ({key.name.value}): "
                "type letters and digits, RETURN when done."
            )
            view.error = True
        else:
            view.message = (
                f"The {key.name.value} key does nothing here: type the {what}, "
                "RETURN when done, Esc to go back."
            )
            view.error = True


def refusal(entry: FormField, what: str) -> str:
    if len(entry.text) >= entry.limit:
        return f"A {what} can be at most {entry.limit} characters long."
    return entry.editor.refusal


async def notice(
    frame: Frame, session: Session, title: str, text: str, *, error: bool = True
) -> None:
    """Show ``text`` (wrapped, mid-screen) until the caller presses a key."""
    canvas = Canvas()
    draw_title(canvas, title)
    style = theme.ERROR if error else theme.MESSAGE
    for row, line in enumerate(textwrap.wrap(text, NOTICE_WIDTH)[:NOTICE_LINES], start=8):
        canvas.put(row, (canvas.cols - NOTICE_WIDTH) // 2, line, style)
    draw_status(canvas, "any key: go on")
    frame.show(canvas)
    await session.paint()
    await session.read_key()
