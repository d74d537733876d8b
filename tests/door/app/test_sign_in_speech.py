"""Signing up and logging in with a screen reader, over a real telnet connection
(issue #50): the arrival, the forms, their refusals and the notices said as sentences,
each with a prompt line saying what is awaited, answered by lines typed as a
line-reading client would; a password never echoed; no escape sequence, box drawing or
suit symbol sent."""

from __future__ import annotations

from pathlib import Path

from door.storage.settings import SQLITE_FILE_NAME
from door.storage.store import Store
from door.term.ansi import SHOW_CURSOR
from door.term.mouse import STOP_REPORTS
from tests.door.app.test_accounts_server import running
from tests.door.app.test_screen_reader_telnet import (
    DRAWING,
    LOBBY_PROMPT,
    ListeningCaller,
    fast_typist_config,
)
from tests.door.caller import run_async
from tests.door.storage.conftest import FAST_HASHER

ARRIVAL_PROMPT = "Type l to log in, n for a new account or g for a guest, then RETURN."
PASSWORD = "correct horse"


async def arrive_with_a_screen_reader(port: int) -> tuple[ListeningCaller, int]:
    """A caller who presses S at the arrival (with RETURN, as a line is typed), and the
    first byte sent after it."""
    caller = ListeningCaller()
    await caller.connect(port)
    await caller.wait_for("S screen reader")
    mark = len(caller.raw)
    await caller.send("s\r")
    await caller.until_sent(ARRIVAL_PROMPT, mark)
    # The door asked this xterm for clicks at the arrival; S first tells it to stop, while
    # escapes still reach it (a click would be noise between typed words), and shows the
    # cursor the screen hid. From then on nothing sent may be an escape.
    stop = (STOP_REPORTS + SHOW_CURSOR).encode()
    assert bytes(caller.raw[mark : mark + len(stop)]) == stop
    return caller, mark + len(stop)


async def answer(caller: ListeningCaller, line: str, *expected: str) -> None:
    """Type ``line`` and RETURN, then wait for each of ``expected`` to be said after it."""
    mark = len(caller.raw)
    await caller.send(line + "\r")
    for text in expected:
        await caller.until_sent(text, mark)


def assert_said_plainly(caller: ListeningCaller, mark: int) -> None:
    sent = caller.since(mark)
    assert "\x1b" not in sent, f"an escape sequence was sent: {sent[sent.index(chr(27)) :][:40]!r}"
    assert DRAWING.search(sent) is None, DRAWING.search(sent)
    assert PASSWORD not in sent and "shortpw" not in sent, "a password was echoed"
    assert "*****" not in sent, "a password was echoed as stars"
    assert "RETURN next" not in sent, "a form was printed as its screen's lines"


@run_async
async def test_a_blind_caller_signs_up_then_comes_back_and_logs_in_by_typed_lines(
    tmp_path: Path,
) -> None:
    async with running(fast_typist_config(tmp_path)) as listening:
        assert listening.telnet
        port = listening.telnet[1]
        caller, mark = await arrive_with_a_screen_reader(port)
        await answer(caller, "new", "New account.", "Password: at least 8 characters", "Handle:")
        assert "letters, digits or spaces, and the marks underscore, hyphen and full stop" in (
            caller.since(mark)
        )
        assert "_ - or ." not in caller.since(mark)  # read out as noise
        # Each refusal is a sentence, then the field asked again.
        await answer(caller, "R", "A handle needs at least 2 characters.\r\nHandle:")
        await answer(caller, "Ray", "Password:")
        await answer(caller, "shortpw", "A password needs at least 8 characters.\r\nPassword:")
        await answer(caller, PASSWORD, "Password again:")
        await answer(caller, PASSWORD, "Welcome, Ray! Your account is ready.", "RETURN")
        await answer(caller, "", LOBBY_PROMPT)
        assert_said_plainly(caller, mark)
        caller.hang_up()

        again, mark = await arrive_with_a_screen_reader(port)
        # The handle is someone's already: said so; Esc goes back to the arrival.
        await answer(again, "n", "Handle:")
        await answer(again, "ray", 'Someone already has the handle "ray"', "Handle:")
        await again.send("\x1b")
        await again.until_sent(ARRIVAL_PROMPT, mark + 1)
        await answer(again, "login", "Log in.", "Handle:")
        await answer(again, "Ray", "Password:")
        await answer(again, "wrong horse", "RETURN keeps the handle", "Handle (RETURN keeps Ray):")
        await answer(again, "", "Password:")
        await answer(again, PASSWORD, "Welcome, Ray!", LOBBY_PROMPT)
        assert_said_plainly(again, mark)
        assert "wrong horse" not in again.since(mark)
        # The refusal answered the password: said once, not again after the handle kept.
        assert again.since(mark).count("Wrong handle or password.") == 1
        again.hang_up()


@run_async
async def test_a_reset_code_and_a_line_already_online_are_said_and_answered_in_words(
    tmp_path: Path,
) -> None:
    async with running(fast_typist_config(tmp_path)) as listening:
        assert listening.telnet
        port = listening.telnet[1]
        first = ListeningCaller()
        await first.connect(port)
        await first.sign_up("Ray", PASSWORD)
        await first.wait_for("Welcome, Ray!")
        store = await Store.open(
            f"sqlite+aiosqlite:///{tmp_path / SQLITE_FILE_NAME}", hasher=FAST_HASHER
        )
        try:
            _, code, _ = await store.make_reset_code("Ray")
        finally:
            await store.close()

        caller, mark = await arrive_with_a_screen_reader(port)
        await answer(caller, "l", "Handle:")
        await answer(caller, "Ray", "Password:")
        await answer(caller, code, "Choose a new password.", "New password:")
        await answer(caller, "new secret 42", "Password again:")
        await answer(caller, "new secret 42", "Your new password is set, Ray", "RETURN")
        await answer(caller, "", "Ray is online on another line already.", "Type yes or no")
        await answer(caller, "maybe", "Type yes or no.\r\nType yes or no, then RETURN.")
        await answer(caller, "yes", LOBBY_PROMPT)
        await first.wait_for_close()
        assert_said_plainly(caller, mark)
        sent = caller.since(mark)
        assert code not in sent and "new secret 42" not in sent
        caller.hang_up()
