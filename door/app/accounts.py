"""The account screens as coroutines, each taking the caller's Session and the Store:
choosing how to come in (log in, sign up, guest), logging in, signing up, the offer to
resume a saved game, a statistics screen and the leaderboard (the new password a reset
code leads to is door/app/new_password.py). Plus the checks the SSH server makes before
a session, and whether a guest's name is someone's handle.

Every store failure is shown to the caller and ends the screen, never the call:
``StorageUnavailableError`` leaves the caller a guest (``None`` where an account would
be), and any other ``StoreError`` is a refusal the form shows before asking again.
``door.term.terminal.Disconnected`` is not caught: the session ends the call.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import logging
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from door.app.account_checks import PendingReset, key_fingerprint
from door.app.form_typing import (
    NOTICE_LINES,
    NOTICE_WIDTH,
    Back,
    notice,
    type_into,
    typed_line,
)
from door.app.lobby_words import typed_key
from door.app.new_password import ask_new_password, new_password_form
from door.defence.logins import TOO_MANY_TRIES, LoginAttempts, TooManyTries
from door.screens import theme
from door.screens.account import (
    FORM_KEYS,
    FormField,
    FormView,
    draw_form,
    draw_leaderboard,
    draw_rating_board,
    draw_stats,
    draw_title,
    rating_line,
)
from door.screens.account_speech import leaderboard_said, rating_board_said, stats_said
from door.screens.form_hits import form_hits
from door.screens.form_speech import arrival_said, form_said, question_said, resume_said
from door.screens.frame import draw_message, draw_status
from door.storage.errors import (
    AccountLockedError,
    LoginError,
    PasswordResetRequired,
    SshKeyError,
    StorageUnavailableError,
    StoreError,
)
from door.storage.ratings import RatingStore
from door.storage.rules import (
    MAX_HANDLE_LENGTH,
    MAX_PASSWORD_LENGTH,
    MIN_HANDLE_LENGTH,
    MIN_PASSWORD_LENGTH,
)
from door.storage.store import Account, GameSummary, SavedGame, Store
from door.term.canvas import Canvas
from door.term.keys import Key
from door.ui.confirm import STATUS as CONFIRM_STATUS
from door.ui.confirm import Confirm
from door.ui.session import Frame, Session

logger = logging.getLogger(__name__)

LOGIN_ATTEMPTS: Final = 3
"""Wrong passwords allowed on one visit to the log-in screen before it closes."""
WRONG_PASSWORD_DELAY: Final = 1.0
"""Seconds a wrong password waits before the next try: slows guessing down."""
LEADERBOARD_SIZE: Final = 10
RECORD_GAMES: Final = 8
"""The latest games a member's record lists (the rows an 80x24 record has left)."""
DEFAULT_MIN_GAMES: Final = 10

HANDLE_NOTES: Final = (
    f"Handle: {MIN_HANDLE_LENGTH} to {MAX_HANDLE_LENGTH} letters, digits, spaces, _ - or .",
    "starting with a letter (ADA and ada are the same handle).",
    f"Password: at least {MIN_PASSWORD_LENGTH} characters, typed twice.",
)
HANDLE_NOTES_SAID: Final = (
    f"Handle: {MIN_HANDLE_LENGTH} to {MAX_HANDLE_LENGTH} letters, digits or spaces, and the "
    "marks underscore, hyphen and full stop, starting with a letter; capitals do not "
    f"count (ADA and ada are the same handle). Password: at least {MIN_PASSWORD_LENGTH} "
    "characters, typed twice."
)
"""HANDLE_NOTES for a screen reader, which reads "_ - or ." as noise."""


@dataclass(frozen=True)
class Arrival:
    """How a caller came in: with an account, or as a guest (``account`` None)."""

    account: Account | None

    @property
    def guest(self) -> bool:
        return self.account is None


# --- the first screen -------------------------------------------------------------------


async def choose_arrival(
    session: Session,
    store: Store | None,
    bbs_name: str,
    *,
    unavailable: str = "Accounts are off today: you play as a guest.",
    attempts: LoginAttempts | None = None,
) -> Arrival:
    """Ask a telnet caller (or an SSH caller without an account) how they come in:
    L log in, N new account, G guest. Without a store (accounts are off) it says so
    once, in the words of ``unavailable``, and the caller comes in as a guest."""
    frame = session.push(Frame())
    message, error = "", False
    try:
        if store is None:
            await notice(frame, session, bbs_name, unavailable)
            return Arrival(None)
        while True:
            canvas = _draw_arrival(
                bbs_name, message, error, click=session.click_word if session.mouse else None
            )
            said = arrival_said(bbs_name, _ARRIVAL_CHOICES[:3], message)
            frame.show(canvas, hits=form_hits(canvas, choices=True), said=said)
            await session.paint()
            key = await _arrival_key(session)
            if key is None:
                message, error = "", False
                continue  # a blank line (the RETURN after S): the prompt is said again
            char = key.char.lower() if key.is_printable else ""
            message, error = "", False
            if key == Key.CTRL_L:
                session.redraw_all()
            elif char == "l" or key == Key.ENTER:
                account = await log_in(session, store, attempts=attempts)
                if account is not None:
                    return Arrival(account)
                session.redraw_all()  # the sub-screen drew over everything
            elif char == "n":
                account = await sign_up(session, store)
                if account is not None:
                    return Arrival(account)
                session.redraw_all()
            elif char == "g":
                return Arrival(None)
            elif char == "s":
                session.use_speech()  # which tells the terminal to stop its clicks
                message = "Screen reader mode: plain text, one line at a time."
                session.redraw_all()
            elif session.speech:
                # Only the refusal and the prompt: the menu said again would bury them
                # (README: a line that answers nothing is told why in one sentence).
                message, error = "That is not one of the choices.", True
            else:
                message, error = "Press L to log in, N for a new account or G for a guest.", True
    finally:
        session.pop(frame)


_ARRIVAL_WORDS: Final = {"login": "l", "log in": "l", "new": "n", "sign up": "n", "guest": "g"}
"""What a screen reader's caller may type at the arrival, besides a choice's letter."""


async def _arrival_key(session: Session) -> Key | None:
    """The arrival's next key; for a screen reader's caller, the letter a line they
    typed stands for (None for a blank line: the RETURN after S, say)."""
    if not session.speech:
        return await session.read_key()
    line = await typed_line(session)
    word = " ".join((line or "").lower().split())
    if not word:
        return None
    return Key.printable(_ARRIVAL_WORDS.get(word, word if len(word) == 1 else "?"))


_ARRIVAL_CHOICES: Final = (
    ("L", "Log in with your handle and password"),
    ("N", "New here? Make an account: your record and saved games are kept"),
    ("G", "Play as a guest (nothing is kept)"),
    ("S", "Screen reader: plain text, one line at a time"),
)


def _draw_arrival(bbs_name: str, message: str, error: bool, *, click: str | None) -> Canvas:
    """The arrival's choices; ``click`` is what a click is called where clicks work."""
    canvas = Canvas()
    draw_title(canvas, f"Welcome to {bbs_name}")
    for number, (key, text) in enumerate(_ARRIVAL_CHOICES):
        canvas.put(6 + 2 * number, 8, f"{key:>2}", theme.TITLE)
        canvas.put(6 + 2 * number, 12, text)
    if click:
        said = f"{click.capitalize()} a line, or press its key."
        canvas.put(7 + 2 * len(_ARRIVAL_CHOICES), 12, said, theme.TEXT)
    draw_message(canvas, message, error=error)
    draw_status(canvas, "L log in  N new account  G guest  S screen reader")
    return canvas


# --- log in -----------------------------------------------------------------------------


async def log_in(
    session: Session,
    store: Store,
    *,
    handle: str = "",
    wrong_password_delay: float = WRONG_PASSWORD_DELAY,
    attempts: LoginAttempts | None = None,
) -> Account | None:
    """Handle and password (shown as stars); the account, or None if the caller gave up
    (Esc), got the password wrong too often, is locked out, or the store failed.

    ``attempts`` counts this connection's tries against the door's LoginGuard (delays
    per account and address); once they are used up the caller is told, and
    TooManyTries ends the call."""
    handle_field = FormField("Handle:", MAX_HANDLE_LENGTH, initial=handle)
    password_field = FormField("Password:", MAX_PASSWORD_LENGTH, secret=True)
    view = FormView("Log in", [handle_field, password_field], notes=LOGIN_NOTES, status=FORM_KEYS)
    frame = session.push(Frame())
    try:
        view.active = 1 if handle_field.text else 0
        for _ in range(LOGIN_ATTEMPTS):
            try:
                if view.active == 0:
                    await type_into(frame, session, view)
                    if not handle_field.text.strip():
                        view.message, view.error = "Type your handle.", True
                        continue
                    view.active = 1
                await type_into(frame, session, view)
            except Back:
                return None
            handle_text, password_text = handle_field.text, password_field.text
            try:
                if attempts is None:
                    account = await store.verify_login(handle_text, password_text)
                else:
                    account = await attempts.verify(
                        handle_text,
                        functools.partial(store.verify_login, handle_text, password_text),
                    )
            except TooManyTries as spent:
                await notice(frame, session, view.title, str(spent))
                raise
            except AccountLockedError as locked:
                await notice(frame, session, view.title, str(locked))
                return None
            except PasswordResetRequired as reset:
                pending = PendingReset(reset.account_id, reset.handle, password_text)
                return await new_password_form(frame, session, store, pending)
            except LoginError as wrong:
                # Back to the handle, in case that was the typo: offered whole, so that
                # RETURN keeps it and typing it again replaces it (not "AdaAda").
                password_field.text = ""
                view.active = 0
                handle_field.selected = True
                view.message = f"{wrong} RETURN keeps the handle; typing replaces it."
                view.error = True
                if wrong_password_delay:
                    said = form_said(view) if session.speech else None
                    frame.show(*draw_form(view), said=said)
                    await session.paint()
                    await asyncio.sleep(wrong_password_delay)
                if attempts is not None and attempts.exhausted:
                    await notice(frame, session, view.title, TOO_MANY_TRIES)
                    raise TooManyTries(TOO_MANY_TRIES) from None
                continue
            except StorageUnavailableError as failure:
                await notice(frame, session, view.title, str(failure))
                return None
            logger.info("%r logged in", account.handle)
            return account
        await notice(frame, session, view.title, "Too many wrong passwords for now.")
        return None
    finally:
        session.pop(frame)


LOGIN_NOTES: Final = (
    "Forgot your password? Ask the sysop for a reset code",
    "and type the code here as your password.",
)


# --- sign up ------------------------------------------------------------------------------


async def sign_up(session: Session, store: Store, *, handle: str = "") -> Account | None:
    """A new account: a handle (checked as it is entered), a password typed twice. The
    account, or None if the caller went back (Esc) or the store failed."""
    handle_field = FormField("Handle:", MAX_HANDLE_LENGTH, initial=handle)
    password_field = FormField("Password:", MAX_PASSWORD_LENGTH, secret=True)
    again_field = FormField("Password again:", MAX_PASSWORD_LENGTH, secret=True)
    view = FormView(
        "New account",
        [handle_field, password_field, again_field],
        notes=HANDLE_NOTES,
        notes_said=HANDLE_NOTES_SAID,
        status=FORM_KEYS,
    )
    frame = session.push(Frame())
    try:
        while True:
            try:
                kept = await _ask_new_handle(frame, session, store, view)
                await ask_new_password(frame, session, view, kept)
            except Back:
                return None
            except StorageUnavailableError as failure:
                await notice(frame, session, view.title, str(failure))
                return None
            try:
                account = await store.create_account(kept, password_field.text)
            except StorageUnavailableError as failure:
                await notice(frame, session, view.title, str(failure))
                return None
            except StoreError as refused:  # someone took the handle a moment ago
                view.message, view.error = str(refused), True
                view.active = 0
                continue
            await notice(
                frame,
                session,
                view.title,
                f"Welcome, {account.handle}! Your account is ready.",
                error=False,
            )
            return account
    finally:
        session.pop(frame)


async def _ask_new_handle(frame: Frame, session: Session, store: Store, view: FormView) -> str:
    handle_field = view.fields[0]
    view.active = 0
    while True:
        await type_into(frame, session, view)
        try:
            kept = await store.check_new_handle(handle_field.text)
        except StorageUnavailableError:
            raise
        except StoreError as refused:
            view.message, view.error = str(refused), True
            continue
        handle_field.text = kept
        view.message, view.error = "", False
        return kept


# --- a saved game ------------------------------------------------------------------------

ResumeChoice = Literal["resume", "abandon", "later"]
_RESUME_KEYS: Final[dict[str, ResumeChoice]] = {"r": "resume", "a": "abandon", "l": "later"}
_RESUME_WORDS: Final[dict[str, ResumeChoice]] = {
    **_RESUME_KEYS,
    "resume": "resume",
    "abandon": "abandon",
    "later": "later",
}


def how_long_ago(then: dt.datetime, now: dt.datetime) -> str:
    """ "just now", "5 minutes ago", "3 hours ago", "2 days ago": how old a saved position is."""
    seconds = max(0, int((now - then).total_seconds()))
    for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60)):
        if seconds >= size:
            count = seconds // size
            return f"{count} {unit}{'s' if count > 1 else ''} ago"
    return "just now"


async def offer_resume(session: Session, saved: SavedGame) -> ResumeChoice:
    """Tell a caller who logs in about their unfinished game and ask what to do:
    R resume it, A abandon it (a loss, as quitting would be), L leave it for later."""
    game = saved.resume()
    names = [seat.name for seat in saved.seats]
    sides = [
        " & ".join(names[seat] for seat in range(game.players) if game.side_of(seat) == side)
        for side in range(game.sides)
    ]
    score = ", ".join(f"{side} {points}" for side, points in zip(sides, game.scores, strict=True))
    when = saved.updated_at.strftime("%Y-%m-%d %H:%M UTC")
    age = how_long_ago(saved.updated_at, dt.datetime.now(dt.UTC))
    lines = (
        f"You have a game in progress, saved {age} ({when}).",
        f"Hand {max(game.hand_number, 1)}, the score: {score}.",
        "",
        "R  resume it where it stopped",
        "A  abandon it (it counts as a loss, as quitting does)",
        "L  leave it for later",
    )
    frame = session.push(Frame())
    message = ""
    try:
        while True:
            canvas = Canvas()
            draw_title(canvas, "Your saved game")
            for row, line in enumerate(lines, start=5):
                canvas.put(row, 8, line, theme.TEXT)
            draw_message(canvas, message, error=bool(message))
            draw_status(canvas, "R resume  A abandon  L later")
            said = resume_said([line.replace(" & ", " and ") for line in lines[:2]], message)
            frame.show(canvas, hits=form_hits(canvas, choices=True), said=said)
            await session.paint()
            if session.speech:
                word = (await typed_line(session) or "").strip().lower()
                if word in _RESUME_WORDS:
                    return _RESUME_WORDS[word]
                message = "Type resume, abandon or later." if word else ""
                continue
            key = await session.read_key()
            char = key.char.lower() if key.is_printable else ""
            choice = _RESUME_KEYS.get(char)
            if choice is not None:
                return choice
            if key == Key.CTRL_L:
                session.redraw_all()
            else:
                message = "Press R to resume, A to abandon or L for later."
    finally:
        session.pop(frame)


# --- statistics and the leaderboard -------------------------------------------------------


async def show_stats(session: Session, store: Store, handle: str) -> None:
    """A caller's statistics, per mode and in all; any key goes back."""
    frame = session.push(Frame())
    try:
        try:
            stats = await store.stats_for(handle)
        except StoreError as failure:
            await notice(frame, session, "Statistics", str(failure))
            return
        if stats is None:
            await notice(frame, session, "Statistics", f"Nobody has the handle {handle}.")
            return
        rated = ""
        games: Sequence[GameSummary] = ()
        with contextlib.suppress(StoreError):  # the statistics stand without the list
            games = await store.recent_games(account_id=stats.account.id, limit=RECORD_GAMES)
        try:
            rating = await RatingStore(store).rating(stats.account.id)
            history = await RatingStore(store).rating_history(stats.account.id, limit=6)
            rated = rating_line(rating, history)
        except StoreError:
            pass  # the statistics stand without the rating
        while True:
            canvas = draw_stats(stats, rating_line=rated, games=games)
            frame.show(canvas, hits=form_hits(canvas), said=stats_said(stats, rated, games))
            await session.paint()
            if await typed_key(session) == Key.CTRL_L:
                session.redraw_all()
                continue
            return
    finally:
        session.pop(frame)


async def show_leaderboard(
    session: Session, store: Store, *, min_games: int = DEFAULT_MIN_GAMES
) -> None:
    """The top ten by games won; R switches to win rate (among those with ``min_games``
    games or more), A to rating, W back; any other key leaves."""
    frame = session.push(Frame())
    order = "wins"
    try:
        while True:
            try:
                if order == "rating":
                    rated = await RatingStore(store).rating_leaderboard(LEADERBOARD_SIZE)
                    canvas = draw_rating_board(rated)
                    said = rating_board_said(rated)
                else:
                    entries = await store.leaderboard(
                        "wins" if order == "wins" else "win_rate",
                        limit=LEADERBOARD_SIZE,
                        min_games=min_games,
                    )
                    canvas = draw_leaderboard(entries, order, min_games)
                    said = leaderboard_said(entries, order, min_games)
                frame.show(canvas, hits=form_hits(canvas), said=said)
            except StoreError as failure:
                await notice(frame, session, "Leaderboard", str(failure))
                return
            await session.paint()
            key = await typed_key(session)
            char = key.char.lower() if key.is_printable else ""
            if key == Key.CTRL_L:
                session.redraw_all()
            elif char == "r":
                order = "win_rate"
            elif char == "w":
                order = "wins"
            elif char == "a":
                order = "rating"
            else:
                return
    finally:
        session.pop(frame)


# --- questions ---------------------------------------------------------------------------


async def show_notice(session: Session, title: str, text: str) -> None:
    """Tell the caller ``text`` (wrapped, mid-screen) until they press a key."""
    frame = session.push(Frame())
    try:
        await notice(frame, session, title, text)
    finally:
        session.pop(frame)


async def yes_or_no(session: Session, title: str, question: str) -> bool:
    """Ask ``question`` (wrapped, mid-screen); True for Y, False for N or Esc."""
    frame = session.push(Frame())
    confirm = Confirm(question)
    message = ""
    try:
        while True:
            canvas = Canvas()
            draw_title(canvas, title)
            lines = textwrap.wrap(question, NOTICE_WIDTH)[:NOTICE_LINES]
            for row, line in enumerate(lines, start=8):
                canvas.put(row, (canvas.cols - NOTICE_WIDTH) // 2, line, theme.TEXT)
            draw_message(canvas, message, error=bool(message))
            draw_status(canvas, CONFIRM_STATUS)
            said = question_said(question, message)
            frame.show(canvas, hits=form_hits(canvas), said=said)
            await session.paint()
            if session.speech:
                line = await typed_line(session)
                word = "no" if line is None else line.strip().lower()
                if word in ("yes", "y", "no", "n"):
                    return word.startswith("y")
                message = "Type yes or no." if word else ""
                continue
            key = await session.read_key()
            answer = confirm.answer(key)
            if answer is not None:
                return answer
            message = confirm.not_an_answer(key)
    finally:
        session.pop(frame)


# --- guests and SSH ---------------------------------------------------------------------


async def offer_ssh_key(session: Session, store: Store, account: Account, public_key: str) -> None:
    """After an SSH log-in by password: offer to attach the key the caller's SSH client
    offered, so that the next log-in needs no password. A refusal or a store failure is
    shown and the caller goes on."""
    try:
        fingerprint = key_fingerprint(public_key)
    except SshKeyError:
        return  # a key type the door does not keep
    question = (
        f"Your SSH client offered the key {fingerprint}. Attach it to {account.handle}, "
        "so that next time you log in with the key and no password?"
    )
    if not await yes_or_no(session, "Log in with a key", question):
        return
    frame = session.push(Frame())
    try:
        try:
            await store.add_ssh_key(account.id, public_key)
        except StoreError as refused:
            await notice(frame, session, "Log in with a key", str(refused))
            return
        logger.info("%r attached an SSH key (%s)", account.handle, fingerprint)
        done = f"Done: the key {fingerprint} now logs you in as {account.handle}."
        await notice(frame, session, "Log in with a key", done, error=False)
    finally:
        session.pop(frame)
