"""The shared widgets, alone: the line editor, the card picker, the confirm dialog."""

from __future__ import annotations

import doctest

import pytest

import door.ui.card_picker
import door.ui.confirm
import door.ui.line_editor
from door.screens.dialog import Dialog, draw_dialog
from door.term.canvas import Canvas
from door.term.keys import Key
from door.ui.card_picker import CardPicker, Pick
from door.ui.confirm import Confirm
from door.ui.line_editor import Edit, LineEditor
from engine.rules.cards import Card


@pytest.mark.parametrize("module", [door.ui.line_editor, door.ui.card_picker, door.ui.confirm])
def test_the_examples_in_the_docs_hold(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


def typed(editor: LineEditor, *keys: Key | str) -> list[Edit]:
    edits = []
    for key in keys:
        if isinstance(key, str):
            edits += [editor.feed(Key.printable(char)) for char in key]
        else:
            edits.append(editor.feed(key))
    return edits


@pytest.mark.parametrize(
    ("keys", "text", "cursor"),
    [
        (("abc",), "abc", 3),
        (("abc", Key.BACKSPACE), "ab", 2),
        (("abc", Key.LEFT, Key.LEFT, "X"), "aXbc", 2),
        (("abc", Key.HOME, Key.DELETE), "bc", 0),
        (("abc", Key.DELETE), "ab", 2),  # DEL at the end erases back, as BBS terminals mean
        (("abc", Key.HOME, Key.END, "d"), "abcd", 4),
        (("abc", Key.CTRL_U, "z"), "z", 1),
        (("ab", Key.LEFT, Key.LEFT, Key.LEFT, Key.RIGHT), "ab", 1),
    ],
)
def test_the_editor_inserts_erases_and_moves_at_the_cursor(
    keys: tuple[Key | str, ...], text: str, cursor: int
) -> None:
    editor = LineEditor(limit=10)
    typed(editor, *keys)
    assert (editor.text, editor.cursor) == (text, cursor)


def test_the_editor_refuses_with_a_reason_and_changes_nothing() -> None:
    editor = LineEditor(limit=3)
    assert typed(editor, Key.BACKSPACE) == [Edit.REFUSED]
    assert editor.refusal == "Nothing to erase."
    typed(editor, "abc")
    assert editor.feed(Key.printable("d")) is Edit.REFUSED
    assert editor.refusal == "At most 3 characters." and editor.text == "abc"
    digits = LineEditor(2, allowed=str.isdigit, allowed_hint="Digits only.")
    assert typed(digits, "1x") == [Edit.CHANGED, Edit.REFUSED]
    assert (digits.text, digits.refusal) == ("1", "Digits only.")


def test_keys_that_are_not_editing_are_left_to_the_screen() -> None:
    editor = LineEditor(limit=5, text="hi")
    assert [editor.feed(key) for key in (Key.ENTER, Key.ESCAPE, Key.F1, Key.TAB)] == [
        Edit.DONE,
        Edit.CANCELLED,
        Edit.NOT_EDITING,
        Edit.NOT_EDITING,
    ]
    assert editor.text == "hi"


def test_a_password_is_shown_as_stars_and_long_text_scrolls_to_the_cursor() -> None:
    password = LineEditor(limit=20, masked=True, text="secret")
    assert password.shown(10) == ("******", 6)
    long = LineEditor(limit=40, text="the quick brown fox")
    shown, column = long.shown(10)
    assert len(shown) <= 10 and shown.endswith("fox") and column == len(shown)
    long.feed(Key.HOME)
    assert long.shown(10) == ("the quick ", 0)


def test_the_editor_keeps_escape_sequences_out() -> None:
    editor = LineEditor(limit=20, text="\x1b[2Jhello\x07")
    assert editor.text == "hello"


HAND = [Card.parse(text) for text in ("AH", "5S", "5D", "JC", "QH", "KS")]


def test_the_discard_picker_marks_unmarks_and_chooses_when_complete() -> None:
    picker = CardPicker(HAND, need=2)
    assert picker.feed(Key.ENTER) is Pick.MARKED  # AH
    assert picker.feed(Key.ENTER) is Pick.REFUSED
    assert "marked already" in picker.refusal
    assert picker.feed(Key.printable("4")) is Pick.MOVED and picker.bar == 3
    assert picker.feed(Key.ENTER) is Pick.MARKED  # JC
    assert picker.feed(Key.BACKSPACE) is Pick.UNMARKED and picker.marked == [HAND[0]]
    picker.feed(Key.END)
    picker.feed(Key.ENTER)
    assert picker.feed(Key.ENTER) is Pick.CHOSEN
    assert picker.chosen == [HAND[0], HAND[5]]


def test_the_bar_wraps_and_a_number_past_the_hand_is_refused() -> None:
    picker = CardPicker(HAND, need=2)
    picker.feed(Key.LEFT)
    assert picker.bar == 5
    assert picker.feed(Key.printable("8")) is Pick.REFUSED
    assert picker.refusal == "You hold 6 cards: press 1 to 6."
    assert picker.feed(Key.F1) is Pick.NOT_PICKING


def test_the_play_picker_skips_and_refuses_unplayable_cards() -> None:
    kings = {HAND[5]: "KS would make 34: the count cannot pass 31."}
    picker = CardPicker(HAND, bar=5, unplayable=set(kings), why_not=kings)
    assert picker.bar == 0  # the bar does not start on a card that cannot be played
    picker.feed(Key.END)
    assert picker.feed(Key.ENTER) is Pick.REFUSED and picker.refusal == kings[HAND[5]]
    picker.feed(Key.HOME)
    assert picker.feed(Key.ENTER) is Pick.CHOSEN and picker.chosen == [HAND[0]]


def test_confirm_takes_y_n_and_esc_and_nothing_else() -> None:
    kick = Confirm("Disconnect Alice?")
    assert [kick.answer(Key.printable(c)) for c in "yYnNq"] == [True, True, False, False, None]
    assert kick.answer(Key.ESCAPE) is False and kick.answer(Key.ENTER) is None
    assert kick.not_an_answer(Key.printable("q")) == "The 'q' key is not an answer: press Y or N."


def test_a_long_consequence_is_wrapped_so_the_dialog_fits_80_columns() -> None:
    canvas = Canvas()
    quit_match = Confirm(
        "Quit this game?",
        "Leave now and you forfeit the match to Ada: a loss in your record and your rating.",
    )
    draw_dialog(canvas, Dialog(quit_match.question, quit_match.lines))
    rows = [canvas.text(row) for row in range(canvas.rows)]
    # Whole words, inside the box: nothing cut at the screen's edge.
    assert any("║  Leave now and you forfeit the match to Ada: a loss in your" in r for r in rows)
    assert any("Quit this game?" in row and "╔" in row for row in rows)
