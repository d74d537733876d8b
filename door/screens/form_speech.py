"""The sign-in screens in sentences, for a caller with a screen reader: the arrival, the
log-in and sign-up forms, a notice, a yes-or-no question, the saved game's choices and
a guest's name. Pure: values in, a ``Said`` out (door/app/accounts.py and
door/app/form_typing.py show it beside the frame they draw).

A field's prompt is its label ("Handle:", "Password:"), said when the form waits for
it; what is typed into a password is never said nor echoed.

>>> from door.screens.account import FormField, FormView
>>> view = FormView("Log in", [FormField("Handle:", 20), FormField("Password:", 40, secret=True)])
>>> form_said(view).prompt
'Handle:'
>>> view.active = 1
>>> form_said(view).sentences[-1]
'What you type as a password is not echoed.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from door.screens.account import FormView
from door.screens.speech import Said

FORM_KEYS_SAID: Final = "Type each answer and press RETURN; Esc goes back."
SECRET_SAID: Final = "What you type as a password is not echoed."
GO_ON: Final = "Press RETURN to go on."
YES_OR_NO: Final = "Type yes or no, then RETURN."
ARRIVAL_PROMPT: Final = "Type l to log in, n for a new account or g for a guest, then RETURN."
RESUME_PROMPT: Final = (
    "Type resume, abandon (it counts as a loss, as quitting does) or later, then RETURN."
)
NAME_PROMPT: Final = "Your name:"


def joined(lines: Sequence[str]) -> str:
    """Lines the screens wrap to a box's width, said as the sentences they are."""
    return " ".join(" ".join(lines).split())


def form_said(view: FormView) -> Said:
    """A form: its title, its notes as sentences, the keys, then the field it waits for
    as the prompt; a visible field's text typed so far after it."""
    sentences = [f"{view.title}."]
    if view.notes_said or view.notes:
        sentences.append(view.notes_said or joined(view.notes))
    sentences.append(FORM_KEYS_SAID)
    entry = view.fields[view.active]
    if any(field.editor.masked for field in view.fields):
        sentences.append(SECRET_SAID)
    prompt = entry.label
    if entry.selected and not entry.editor.masked:
        prompt = f"{entry.label.rstrip(':')} (RETURN keeps {entry.text}):"
    shown = not entry.editor.masked and not entry.selected
    return Said(
        tuple(sentences),
        message=view.message,
        prompt=prompt,
        typed=entry.text if shown else "",
    )


def notice_said(text: str) -> Said:
    """A notice a form ends with (a welcome, a refusal): its text, then RETURN."""
    return Said((text,), prompt=GO_ON)


def question_said(question: str, message: str = "") -> Said:
    return Said((question,), message=message, prompt=YES_OR_NO)


def arrival_said(bbs_name: str, choices: Sequence[tuple[str, str]], message: str) -> Said:
    """The arrival: the board's name and each choice as "l: Log in with ..."."""
    sentences = [f"Welcome to {bbs_name}."]
    sentences.extend(f"{key.lower()}: {text}." for key, text in choices)
    return Said(tuple(sentences), message=message, prompt=ARRIVAL_PROMPT)


def resume_said(lines: Sequence[str], message: str) -> Said:
    """The saved game's offer: how old it is and the score, then the words to answer."""
    return Said(tuple(lines), message=message, prompt=RESUME_PROMPT)


def name_said(message: str, typed: str) -> Said:
    """A guest's name asked: what for, then ``Your name:``."""
    return Said(
        ("Who is calling? Type the name you will play under.",),
        message=message,
        prompt=NAME_PROMPT,
        typed=typed,
    )
