"""Layouts for three and four players: every part in view, nothing written over another."""

from __future__ import annotations

import pytest

from door.screens.board import draw_board
from door.screens.layout import (
    BOARD_TOP,
    HAND_CARDS_ROW,
    PLAY_CARDS_ROW,
    PLAY_NUMBERS_ROW,
    RIGHT_PANEL_COL,
    SCREEN_COLS,
)
from door.screens.play_area import draw_played, draw_side_panel
from door.term.canvas import Canvas
from engine.rules.cards import Card
from engine.rules.game import Play

NAMES = ("Alice", "Computer", "Computer 2")


def test_a_three_side_board_has_its_rails_and_names_each_lane() -> None:
    canvas = Canvas()
    draw_board(canvas, BOARD_TOP, (12, 30, 7), (0, 22, 5), NAMES)  # with its foot
    top, foot = canvas.text(BOARD_TOP), canvas.text(BOARD_TOP + 7)
    assert top.startswith("┌") and top.rstrip().endswith("┐")
    assert foot.startswith("└") and foot.rstrip().endswith("┘") and set(foot[1:-1]) == {"─"}
    for name, score in zip(NAMES, (12, 30, 7), strict=True):
        assert f" {name} {score} " in top
    # In the order of their lanes, top to bottom, each in its pegs' colour.
    assert top.index("Alice") < top.index("Computer 0"[:8]) < top.index("Computer 2")
    alice_col = top.index("Alice")
    peg_row = BOARD_TOP + 1
    peg_col = next(col for col in range(SCREEN_COLS) if canvas.cells[peg_row][col][0] == "█")
    assert canvas.cells[BOARD_TOP][alice_col][1] == canvas.cells[peg_row][peg_col][1]


def test_long_names_on_the_rail_are_shortened_not_run_off_the_board() -> None:
    canvas = Canvas()
    names = ("Alexandrina Victoria", "Bartholomew Roberts", "Maximilian Augustus")
    draw_board(canvas, BOARD_TOP, (100, 99, 98), (90, 90, 90), names)
    top = canvas.text(BOARD_TOP)
    assert top.rstrip().endswith("┐") and top.startswith("┌")
    assert top.count("…") >= 1
    for score in (" 100 ", " 99 ", " 98 "):
        assert score in top  # the scores stay whole


def played(count: int) -> list[Play]:
    ranks = "A23456789TJQKA23456"
    return [
        Play(index % 3, Card.parse(f"{ranks[index]}{'SHDC'[index % 4]}"), index + 1, index // 9)
        for index in range(count)
    ]


def test_every_card_played_in_a_hand_is_in_view_even_sixteen_of_them() -> None:
    for count in (4, 8, 13, 16):
        canvas = Canvas()
        plays = played(count)
        live = [play.card for play in plays if play.round == plays[-1].round]
        draw_played(canvas, plays, live, True, sides=3)
        faces = canvas.text(PLAY_CARDS_ROW + 1)
        for play in plays:
            assert str(play.card)[0] in faces.replace("10", "T")
        right_edge = max(col for col in range(SCREEN_COLS) if faces[col] == "│")
        assert right_edge < 61, f"{count} cards run into the starter and crib"
        numbers = canvas.text(PLAY_NUMBERS_ROW)
        assert numbers.count("x") == sum(1 for play in plays if play.round != plays[-1].round)


def test_the_crib_owners_name_is_shown_whole_or_shortened_with_a_mark() -> None:
    for owner, expected in (("Computer 2's", "Computer 2's"), ("Yours", "Yours")):
        canvas = Canvas()
        draw_side_panel(canvas, starter=None, dealt=True, crib_cards=4, crib_owner=owner, others=[])
        assert canvas.text(12).rstrip().endswith(expected)
    canvas = Canvas()
    owner = "Alexandrina Victoria's"
    draw_side_panel(canvas, starter=None, dealt=True, crib_cards=4, crib_owner=owner, others=[])
    label = canvas.text(12).strip()
    assert label.startswith("Alexandrina") and label.endswith("…'s") and len(label) <= 18


def test_a_long_opponents_name_is_shortened_and_what_they_hold_stays_whole() -> None:
    # By hand: a game resumed against a deleted member read "(deleted member) h".
    for name, expected in (
        ("Bert", "Bert holds 3"),
        ("(deleted member)", "(deleted… holds 3"),
        ("Bartholomew Smithers", "Bartholom… holds 3"),
    ):
        canvas = Canvas()
        others = [(name, 3)]
        draw_side_panel(
            canvas, starter=None, dealt=True, crib_cards=4, crib_owner="", others=others
        )
        assert canvas.text(HAND_CARDS_ROW)[RIGHT_PANEL_COL:].rstrip() == expected


def test_the_lobbys_key_lines_fit_and_pick_out_every_key_letter() -> None:
    from door.app.lobby_keys import LOBBY_MENU
    from door.screens import theme
    from door.screens.lobby import LobbyView, draw_lobby

    view = LobbyView("Cribbage Door", "Ada", menu_keys=LOBBY_MENU.text)
    view.options = "1/2 runs: exact  A count: manual  G players: 4  D level: expert  M best of 7"
    view.account_keys = "R Record  L Leaderboard  E unrated  I 120 s a turn  S CP437 (BBS)"
    canvas, _ = draw_lobby(view)
    rows = [canvas.text(row) for row in range(canvas.rows)]
    menu = next(row for row, text in enumerate(rows) if "P Play the computer" in text)
    assert rows[menu].rstrip().endswith("Q Quit")
    for row, letters in ((menu, "PTWVC?Q"), (menu + 1, "AGDM"), (menu + 2, "RLEIS")):
        text = rows[row]
        for letter in letters:
            col = text.index(f"{letter} ") if letter != "?" else text.index("? ")
            assert canvas.cells[row][col][1] == theme.TITLE, (letter, text)
        assert len(text.rstrip()) <= 79


def test_a_long_place_in_the_who_list_is_shortened_with_a_mark() -> None:
    # The list of who is on says the games going ("watching A vs B vs C"): a long one
    # was cut at its column's edge without a mark, three 20-letter names mid-word.
    from door.screens.lobby import LobbyView, WhoLine, draw_lobby

    title = "Bartholomew Smithers vs Maximiliana Feather vs Computer"
    where = f"watching {title}"
    view = LobbyView("Cribbage Door", "Ada", who=(WhoLine("Lou", where, 75),), who_count=1)
    canvas, _ = draw_lobby(view)
    row = next(r for r in range(canvas.rows) if canvas.text(r)[5:8] == "Lou")
    text = canvas.text(row)
    assert text[29:68] == where[:38] + "…"  # its 39 cells, the last one the mark
    assert text[68:].strip() == "1:15"  # the idle time kept


def test_a_notice_too_long_for_the_lobbys_chat_row_goes_on_to_the_next() -> None:
    # A game's end between long names ("Bartholomew Smithers vs Maximiliana Feather:
    # Maximiliana Feather won 121 to 98 (a skunk).") was cut at the 80th column.
    from door.screens.lobby import ChatText, LobbyView, draw_lobby

    title = "Bartholomew Smithers vs Maximiliana Feather"
    ended = f"{title}: Maximiliana Feather won 121 to 88 (a skunk)."
    said = "Lou: " + "x" * 60  # a caller's line, as long as chat allows
    chat = (ChatText("", "Ada has come in."), ChatText("", ended), ChatText("Lou", "x" * 60))
    canvas, _ = draw_lobby(LobbyView("Cribbage Door", "Ada", chat=chat))
    rows = [canvas.text(row).strip() for row in range(canvas.rows)]
    top = rows.index(next(row for row in rows if row.startswith(title)))
    assert " ".join(rows[top : top + 2]) == ended  # whole, over two rows
    assert rows[top - 1] == "Ada has come in." and rows[top + 2] == said


def test_a_callers_line_too_long_for_the_lobbys_chat_row_goes_on_to_the_next() -> None:
    # A 60-letter line after a 20-letter name (82 cells) lost its last word at the 80th
    # column ("ok!" here), where notices went on to the next row.
    from door.screens import theme
    from door.screens.lobby import CHAT_ROWS, CHAT_TOP, ChatText, LobbyView, draw_lobby

    name, text = (
        "Bartholomew Smithers",
        "we played to the end of the night and nobody won a game, ok!",
    )
    assert (len(name), len(text)) == (20, 60)  # the longest a handle and a chat line are
    chat = (
        ChatText("", "Ada has come in."),
        ChatText("", "Bob has come in."),
        ChatText(name, text),
        ChatText("Lou", "hi"),
    )
    canvas, _ = draw_lobby(LobbyView("Cribbage Door", "Ada", chat=chat))
    rows = [canvas.text(row).rstrip() for row in range(CHAT_TOP, CHAT_TOP + CHAT_ROWS)]
    assert rows == [
        " Bob has come in.",  # the newest rows: Ada's arrival has gone up out of view
        " Bartholomew Smithers: we played to the end of the night and nobody won a game,",
        "   ok!",
        " Lou: hi",
    ]
    first, second = canvas.cells[CHAT_TOP + 1], canvas.cells[CHAT_TOP + 2]
    name_style = theme.PLAYER_STYLES[1]
    assert {style for _, style in first[1:22]} == {name_style}  # "Bartholomew Smithers:"
    assert {style for _, style in first[23:79]} == {theme.BRIGHT}
    assert {style for _, style in second[3:6]} == {theme.BRIGHT}  # no name, no name's colour


@pytest.mark.parametrize(
    "oldest",
    [
        ("Bartholomew Smithers", "we played to the end of the night and nobody won a game, ok!"),
        (
            "",
            "Maximiliana Feathers vs Bartholomew Smithers: Maximiliana Feathers won 121 to"
            " 98 (a skunk).",
        ),
    ],
    ids=["a caller's line", "a notice"],
)
def test_a_wrapped_line_scrolling_up_out_of_the_lobbys_chat_leaves_no_row_without_its_start(
    oldest: tuple[str, str],
) -> None:
    # The chat kept its last four rows: the oldest line's second row stayed at the top,
    # "   ok!" (or "   98 (a skunk).") with no name, as if the door had said it.
    from door.screens.lobby import CHAT_ROWS, CHAT_TOP, ChatText, LobbyView, draw_lobby

    chat = (ChatText(*oldest), ChatText("Lou", "hi"), ChatText("Cy", "hey"), ChatText("Di", "yo"))
    canvas, _ = draw_lobby(LobbyView("Cribbage Door", "Ada", chat=chat))
    rows = [canvas.text(row).rstrip() for row in range(CHAT_TOP, CHAT_TOP + CHAT_ROWS)]
    assert rows == [" Lou: hi", " Cy: hey", " Di: yo", ""]
