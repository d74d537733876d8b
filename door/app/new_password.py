"""The form of a member who came in with the sysop's one-time reset code: a new
password typed twice, which logs them in and retires the old one (door/storage's
``reset_password``). Reached from the log-in screen (door/app/accounts.py) and, over
SSH, straight from the door's check of the password (door/app/call.py)."""

from __future__ import annotations

import logging

from door.app.account_checks import PendingReset
from door.app.form_typing import Back, notice, type_into
from door.screens.account import FORM_KEYS, FormField, FormView
from door.storage.errors import PasswordRuleError, StoreError
from door.storage.rules import (
    MAX_HANDLE_LENGTH,
    MAX_PASSWORD_LENGTH,
    MIN_PASSWORD_LENGTH,
    check_password,
)
from door.storage.store import Account, Store
from door.ui.session import Frame, Session

logger = logging.getLogger(__name__)


async def choose_new_password(
    session: Session, store: Store, reset: PendingReset
) -> Account | None:
    """A new password for a member who came in with the sysop's reset code (over SSH);
    the account, or None if they went back or the code no longer works."""
    frame = session.push(Frame())
    try:
        return await new_password_form(frame, session, store, reset)
    finally:
        session.pop(frame)


async def new_password_form(
    frame: Frame, session: Session, store: Store, reset: PendingReset
) -> Account | None:
    """The member typed the reset code the sysop gave them: a new password, typed twice,
    logs them in and the old one stops working. None if they go back (Esc; the code
    still works until it expires) or the code is no longer valid."""
    view = FormView(
        "Choose a new password",
        [
            FormField("Handle:", MAX_HANDLE_LENGTH, initial=reset.handle),
            FormField("New password:", MAX_PASSWORD_LENGTH, secret=True),
            FormField("Password again:", MAX_PASSWORD_LENGTH, secret=True),
        ],
        notes=(
            "Your reset code is right. Choose a new password:",
            f"at least {MIN_PASSWORD_LENGTH} characters, typed twice.",
        ),
        status=FORM_KEYS,
    )
    try:
        await ask_new_password(frame, session, view, reset.handle)
        account = await store.reset_password(reset.account_id, reset.code, view.fields[1].text)
    except Back:
        await notice(
            frame, session, view.title, "No new password yet: your code works until it expires."
        )
        return None
    except StoreError as refused:
        await notice(frame, session, view.title, str(refused))
        return None
    await notice(
        frame,
        session,
        view.title,
        f"Your new password is set, {account.handle}: the old one no longer works.",
        error=False,
    )
    logger.info("%r logged in with a reset code and chose a new password", account.handle)
    return account


async def ask_new_password(frame: Frame, session: Session, view: FormView, handle: str) -> None:
    _, password_field, again_field = view.fields
    while True:
        view.active = 1
        password_field.text = again_field.text = ""
        await type_into(frame, session, view)
        try:
            check_password(password_field.text, handle)
        except PasswordRuleError as refused:
            view.message, view.error = str(refused), True
            continue
        view.message, view.error = "", False
        view.active = 2
        await type_into(frame, session, view)
        if again_field.text == password_field.text:
            return
        view.message, view.error = "The two passwords differ: type it again.", True
