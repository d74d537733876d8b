"""The picker (door/ui/picker.py): people chosen from a numbered list by number."""

from __future__ import annotations

import pytest

from door.term.keys import Key
from door.ui.picker import Picker

LISTED = ["Ada", "Bob", "Cy", "Dee"]


def refusal(name: str) -> str:
    return {"Ada": "That is you.", "Dee": "Not Dee: playing Bob."}.get(name, "")


def keys(text: str) -> list[Key]:
    named = {"\r": Key.ENTER, "\b": Key.BACKSPACE, "\x1b": Key.ESCAPE}
    return [named.get(char) or Key.printable(char) for char in text]


@pytest.mark.parametrize(
    ("most", "typed", "answer", "chosen", "error"),
    [
        (1, "2", True, ["Bob"], ""),  # one is chosen by their number alone
        (1, "1", None, [], "That is you."),
        (1, "4", None, [], "Not Dee: playing Bob."),
        (1, "7", None, [], "There is no number 7 in the list."),
        (1, "0", None, [], "Press a number from the list, RETURN when done, Esc to cancel."),
        (1, "\x1b", False, [], ""),
        (2, "32\r", True, ["Cy", "Bob"], ""),
        (2, "33", None, [], ""),  # a number again unchooses
        (2, "32\b", None, ["Cy"], ""),
        (1, "\r", None, [], "Choose someone first, or press Esc."),
        (1, "x", None, [], "Press a number from the list, RETURN when done, Esc to cancel."),
    ],
)
def test_keys_choose_unchoose_and_cancel(
    most: int, typed: str, answer: bool | None, chosen: list[str], error: str
) -> None:
    picker = Picker(most, refusal)
    answers = [picker.feed(key, LISTED) for key in keys(typed)]
    assert answers[-1] is answer and all(earlier is None for earlier in answers[:-1])
    assert picker.chosen == chosen
    assert picker.error == error


def test_no_more_than_most_and_only_those_still_listed() -> None:
    picker = Picker(1, refusal)
    picker.chosen = ["Cy"]  # one chosen already (as when several may be)
    assert picker.feed(Key.printable("2"), LISTED) is None
    assert picker.error == "Choose at most 1: BS unchooses."
    picker.keep_listed(["Ada", "Bob"])  # Cy left while the caller was choosing
    assert picker.chosen == [] and picker.numbers(["Ada", "Bob"]) == ""
    two = Picker(2, refusal, chosen=["Cy", "Bob"])
    assert two.numbers(LISTED) == "3 2"
    assert "up to 2" in two.prompt and "RETURN done" in two.status
