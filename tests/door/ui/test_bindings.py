"""Key bindings (door/ui/bindings.py): a key declared once runs its action and makes the
words that offer it; the lobby's and the sysop's keys are declared so."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from door.app.lobby import Lobby
from door.app.lobby_keys import (
    LOBBY_KEYS,
    LOBBY_MENU,
    LOBBY_STATUS,
    OPTION_KEYS,
    OptionKeys,
    lobby_holds,
)
from door.app.records import Records
from door.app.sysop_keys import SYSOP_KEYS, SYSOP_MENU, SysopKeys
from door.term.keys import Key
from door.ui.bindings import Binding, Bindings

KEYS = Bindings(
    (
        Binding("p", "play", "Play"),
        Binding("?", "help", "Help", also=(Key.F1,), status=True),
        Binding("y", "accept", when="invited"),
        Binding("", "withdraw", also=(Key.ESCAPE,), when="challenging"),
    )
)


@pytest.mark.parametrize(
    ("key", "holding", "action"),
    [
        (Key.printable("p"), set(), "play"),
        (Key.printable("P"), set(), "play"),  # a letter in either case
        (Key.F1, set(), "help"),
        (Key.printable("?"), set(), "help"),
        (Key.printable("y"), {"invited"}, "accept"),
        (Key.printable("y"), set(), None),  # nothing to accept: a key that does nothing
        (Key.ESCAPE, {"challenging"}, "withdraw"),
        (Key.ESCAPE, set(), None),
        (Key.printable("x"), {"invited", "challenging"}, None),
        (Key.ENTER, set(), None),
        (Key.printable("é"), set(), None),
    ],
)
def test_a_key_runs_its_bindings_action_while_its_condition_holds(
    key: Key, holding: set[str], action: str | None
) -> None:
    found = KEYS.find(key, holding.__contains__)
    assert (found.action if found else None) == action


def test_a_line_knows_where_each_keys_words_stand() -> None:
    line = KEYS.status_line("Keys: ")
    assert line.text == "Keys: ? help"
    for start, end, binding in line.places:
        assert line.text[start:end] == binding.offer(capitals=False)
        assert line.at(start) is binding and line.at(end - 1) is binding
    assert line.at(0) is None and line.at(len(line.text)) is None
    menu = KEYS.menu_line()
    assert menu.text == "P Play  ? Help"  # only keys with words; letters in capitals
    assert [menu.text[start] for start, _, _ in menu.places] == ["P", "?"]


@pytest.mark.parametrize(
    "bindings",
    [
        (Binding("p", "play"), Binding("P", "pause")),
        (Binding("", "help", also=(Key.F1,)), Binding("?", "other", also=(Key.F1,))),
        (Binding("y", "accept", when="invited"), Binding("y", "yes")),
    ],
)
def test_a_key_bound_twice_is_refused(bindings: tuple[Binding, ...]) -> None:
    with pytest.raises(ValueError, match="bound twice"):
        Bindings(bindings)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: Binding("pq", "play"), "one printable character"),
        (lambda: Binding("\x1b", "escape"), "one printable character"),
        (lambda: Binding(" ", "space"), "one printable character"),
        (lambda: Binding("", "nothing"), "has no key"),
        (lambda: Binding("c", "chat", status=True), "no words"),
    ],
)
def test_a_binding_that_could_not_be_pressed_or_offered_is_refused(make, words) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=words):
        make()


def test_the_lobbys_lines_are_made_from_its_keys() -> None:
    # What callers have always seen (tests/door/golden/screens/lobby-*.txt).
    assert LOBBY_MENU.text == (
        "P Play the computer  T Self-play  W Challenge  V Watch  C Chat  ? Help  Q Quit"
    )
    assert LOBBY_STATUS.text == "Press a key from the menu  c chat  ? help  q quit"
    assert SYSOP_MENU.text == (
        "Sysop: O page into chat  H host a game  K disconnect  B broadcast  X tools"
    )
    for line in (LOBBY_MENU, LOBBY_STATUS, SYSOP_MENU):
        for start, _, binding in line.places:
            assert line.text[start].lower() == binding.key  # a click there means that key


@pytest.mark.parametrize(
    ("bindings", "actions"),
    [(LOBBY_KEYS, Lobby), (OPTION_KEYS, OptionKeys), (SYSOP_KEYS, SysopKeys)],
)
def test_every_lobby_key_names_an_action_there_is(bindings: Bindings, actions: type) -> None:
    member = SimpleNamespace(invitation=None, challenge=None, sysop=True)
    for binding in bindings.bindings:
        assert callable(getattr(actions, binding.action, None)), binding
        if binding.when:  # a condition the lobby knows (else ValueError)
            lobby_holds(binding.when, member, Records())  # type: ignore[arg-type]
