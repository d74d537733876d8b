"""Typing into an account form (door/screens/account.py's FormView) and the notice a
form ends with: the account screens (door/app/accounts.py, door/app/new_password.py)
share them."""

from __future__ import annotations

import textwrap
from typing import Final

from door.app.lobby_words import EOL, RUB_OUT, LobbyWords
from door.screens import theme
from door.screens.account import FormField, FormView, draw_form, draw_title
from door.screens.form_hits import form_hits
from door.screens.form_speech import form_said, notice_said
from door.screens.frame import draw_status
from door.table.reader import CURSOR_KEYS
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
    key decoder drops other control bytes before any screen sees them.

    To a screen reader's caller the form is said (door/screens/form_speech.py) and what
    they type is echoed as on a line: a password not at all, and the arrows, which
    would move a cursor they cannot see, do nothing."""
    entry = view.fields[view.active]
    what = entry.label.split()[0].rstrip(":").lower()  # "Password again:" -> password
    if session.speech and not entry.selected:
        # Asked again after a refusal: typed whole again, not after the refused text
        # (unseen, "R" then "Ray" was "RRay"); a text offered whole stays offered.
        entry.editor.clear()
    while True:
        canvas, cursor = draw_form(view)
        said = form_said(view) if session.speech else None
        frame.show(canvas, cursor, hits=form_hits(canvas), said=said)
        await session.paint()
        key = await session.read_key()
        if session.speech and key in CURSOR_KEYS:
            continue
        echoed = "" if entry.selected or entry.editor.masked else entry.text
        if entry.selected and key.is_printable:
            entry.editor.clear()  # typing over an offered text replaces it
        entry.selected = False
        edit = entry.editor.feed(key)
        if session.speech:
            await echo(session, echoed, "" if entry.editor.masked else entry.text, edit)
            if edit is Edit.DONE:
                # The message answered the line before: said again after this one, a
                # refusal would be heard as a refusal of this one.
                view.message, view.error = "", False
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


async def echo(session: Session, before: str, after: str, edit: Edit) -> None:
    """Echo a key typed into a form to a screen reader's caller: the characters it
    added or rubbed out (``before`` and ``after``: the field as it was said), the end
    of the line on RETURN, after which the form's message and prompt are said again."""
    if edit is Edit.DONE:
        await session.send_lines(EOL)
        session.speaker.heard_line()
    elif after.startswith(before):
        if after != before:
            await session.send_lines(after[len(before) :])
    elif before.startswith(after):
        await session.send_lines(RUB_OUT * (len(before) - len(after)))


async def typed_line(session: Session) -> str | None:
    """A line a screen reader's caller types, echoed as they type it; None for Esc on
    a blank line (Esc on a line typed so far clears it)."""
    words = LobbyWords()
    while True:
        line = await words.take(session, await session.read_key())
        if words.keys:
            return None  # Esc on a blank line (which echoes nothing)
        if line is not None:
            return line


def refusal(entry: FormField, what: str) -> str:
    if len(entry.text) >= entry.limit:
        return f"A {what} can be at most {entry.limit} characters long."
    return entry.editor.refusal


async def notice(
    frame: Frame, session: Session, title: str, text: str, *, error: bool = True
) -> None:
    """Show ``text`` (wrapped, mid-screen) until the caller presses a key (to a screen
    reader's caller, said until they type a line: a key alone would leave the rest of
    a word they typed to the next screen)."""
    canvas = Canvas()
    draw_title(canvas, title)
    style = theme.ERROR if error else theme.MESSAGE
    for row, line in enumerate(textwrap.wrap(text, NOTICE_WIDTH)[:NOTICE_LINES], start=8):
        canvas.put(row, (canvas.cols - NOTICE_WIDTH) // 2, line, style)
    draw_status(canvas, "any key: go on")
    frame.show(canvas, hits=form_hits(canvas), said=notice_said(text) if session.speech else None)
    await session.paint()
    if session.speech:
        await typed_line(session)
    else:
        await session.read_key()
