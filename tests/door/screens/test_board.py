"""The board, the card glyphs and the hand, drawn and read back through pyte."""

from __future__ import annotations

import re

import pytest

from door.screens import theme
from door.screens.board import (
    FRONT_PEG,
    GAME_HOLE_MARK,
    HOLE,
    REAR_PEG,
    draw_bare_board,
    draw_board,
    draw_pegs,
    peg_position,
)
from door.screens.cards import card_face, draw_back, draw_card, draw_cards
from door.screens.play_area import (
    HandState,
    card_label,
    current_count_numbers,
    draw_hand,
    draw_hand_labels,
    draw_played,
    played_columns,
)
from door.term.canvas import Canvas, Recorder
from door.ui.renderer import Renderer
from engine.rules.cards import Card, parse_cards
from engine.rules.game import Play
from tests.door.caller import screen_of
from tests.door.fake_terminal import FakeTerminal

TOP = 1
NAMES = ("Alice", "Computer")


def shown(terminal_type: str, draw: object) -> FakeTerminal:
    terminal = FakeTerminal(term_type=terminal_type)
    canvas = Canvas()
    draw(canvas)  # type: ignore[operator]
    Renderer(terminal).render(canvas)
    return terminal


def board(scores: tuple[int, int], previous: tuple[int, int], term: str = "xterm") -> FakeTerminal:
    return shown(term, lambda canvas: draw_board(canvas, TOP, scores, previous, NAMES))


@pytest.mark.parametrize(
    ("side", "score", "where"),
    [
        (0, 0, (2, 2)),  # the start, before the first hole
        (0, 1, (2, 4)),
        (0, 5, (2, 8)),
        (0, 6, (2, 10)),  # a space between groups of five
        (0, 60, (2, 74)),  # the far end of the outer lane
        (0, 61, (3, 74)),  # turned into the inner lane, coming back
        (0, 120, (3, 4)),
        (0, 121, (3, 2)),  # the game hole
        (0, 135, (3, 2)),
        (1, 1, (6, 4)),
        (1, 61, (5, 74)),
        (1, 121, (5, 2)),
    ],
)
def test_each_score_has_its_hole(side: int, score: int, where: tuple[int, int]) -> None:
    assert peg_position(side, score, TOP) == where


def test_121_distinct_holes_a_side_and_none_shared() -> None:
    holes = [{peg_position(side, score, TOP) for score in range(1, 122)} for side in (0, 1)]
    assert [len(side_holes) for side_holes in holes] == [121, 121]
    assert not holes[0] & holes[1]
    terminal = board((0, 0), (0, 0))
    for side_holes in holes:
        for row, col in side_holes:
            assert terminal.display[row][col] in (HOLE, GAME_HOLE_MARK)


def test_front_and_rear_pegs_stand_at_the_score_and_the_one_before() -> None:
    terminal = board((27, 95), (21, 88))
    for side, (front, rear), colour in ((0, (27, 21), "green"), (1, (95, 88), "magenta")):
        row, col = peg_position(side, front, TOP)
        peg = screen_of(terminal).buffer[row][col]
        assert (peg.data, peg.fg, peg.bold) == (FRONT_PEG, colour, True)
        row, col = peg_position(side, rear, TOP)
        peg = screen_of(terminal).buffer[row][col]
        assert (peg.data, peg.fg) == (REAR_PEG, colour)
    pegs = sum(line.count(FRONT_PEG) + line.count(REAR_PEG) for line in terminal.display)
    assert pegs == 4
    assert "Alice 27 (above)" in terminal.display[4]
    assert "Computer 95 (below)" in terminal.display[4]


def test_board_rails_are_numbered_every_five_holes() -> None:
    terminal = board((0, 0), (0, 0))
    for row in (1, 7):
        for hole in (5, 30, 60):
            col = peg_position(0, hole, TOP)[1]
            label = str(hole)
            assert terminal.display[row][col - len(label) + 1 : col + 1] == label


@pytest.mark.parametrize("first", ["Ada", "Qwen", "Bo", "Cornelius"])
def test_three_sides_names_on_the_rail_leave_no_hole_number_cut_or_touching(first: str) -> None:
    names = (first, "Computer", "Computer 2")
    terminal = shown("xterm", lambda c: draw_board(c, TOP, (0, 7, 0), (0, 0, 0), names))
    rail = terminal.display[TOP]
    labels = f"┌─ {first} 0 ─ Computer 7 ─ Computer 2 0 "
    assert rail.startswith(labels)
    # what follows the names is rail with whole hole numbers on it, apart from the names
    rest = rail[len(labels) :]
    assert rest[0] == "─"
    assert set(re.findall(r"\d+", rest)) <= {str(hole) for hole in range(5, 61, 5)}
    for number in re.finditer(r"\d+", rest):
        hole = int(number.group())
        assert peg_position(0, hole, TOP)[1] == len(labels) + number.end() - 1


def test_board_in_cp437_reads_the_same_and_in_ascii_plainly() -> None:
    utf8 = board((33, 70), (30, 62))
    cp437 = board((33, 70), (30, 62), "ansi")
    ascii_board = board((33, 70), (30, 62), "dumb")
    assert cp437.display == utf8.display
    row, col = peg_position(0, 33, TOP)
    assert ascii_board.display[row][col] == "#"
    row, col = peg_position(0, 30, TOP)
    assert ascii_board.display[row][col] == ":"
    assert ascii_board.display[1].startswith("+-------5----10")
    assert all(line.isascii() for line in ascii_board.display)


def test_cards_in_their_suit_colours_and_backs() -> None:
    def draw(canvas: Canvas) -> None:
        for index, text in enumerate(("5H", "TS", "KD", "AC")):
            draw_card(canvas, 0, index * 6, Card.parse(text))
        draw_back(canvas, 0, 24)

    terminal = shown("xterm", draw)
    assert terminal.display[0][:29] == "┌───┐ ┌───┐ ┌───┐ ┌───┐ ┌───┐"
    assert terminal.display[1][:29] == "│5♥ │ │10♠│ │K♦ │ │A♣ │ │▒▒▒│"
    colours = [screen_of(terminal).buffer[1][col].fg for col in (1, 7, 13, 19, 25)]
    assert colours == ["red", "white", "red", "white", "blue"]
    assert card_face(Card.parse("TD")) == "10♦"


def test_marked_cards_are_yellow_and_the_bar_is_cyan() -> None:
    cards = tuple(parse_cards("4D 5D TS QC"))
    hand = HandState(cards, bar=2, marked=frozenset(cards[:1] + cards[2:3]))
    terminal = shown("xterm", lambda canvas: draw_hand(canvas, hand))
    # Hand cards start at column 11, six columns apart; labels on row 12, cards 13-15.
    marked = screen_of(terminal).buffer[14][12]
    assert (marked.data, marked.fg, marked.bold, marked.bg) == ("4", "brown", True, "default")
    # The bar is the label row over the card (">*3*<" on cyan); the card under it keeps
    # its own colours, here the yellow of a marked card.
    bar_label = [screen_of(terminal).buffer[12][col] for col in range(23, 28)]
    assert "".join(cell.data for cell in bar_label) == ">*3*<"
    assert {cell.bg for cell in bar_label} == {"cyan"}
    under_bar = screen_of(terminal).buffer[14][24]
    assert (under_bar.data, under_bar.fg, under_bar.bg) == ("1", "brown", "default")
    plain = screen_of(terminal).buffer[14][18]
    assert (plain.fg, plain.bg) == ("red", "default")
    assert screen_of(terminal).buffer[12][17].bg == "default"  # a label off the bar


def test_the_labels_over_the_hand_are_one_run_that_blanks_only_its_gaps() -> None:
    cards = tuple(parse_cards("4D 5D TS QC"))
    recorder = Recorder()
    draw_hand_labels(recorder, cards, 1, frozenset(cards[3:]))
    assert recorder.runs[:3] == [12, 11, "  1   > 2 <   3    *4* "]
    assert len(recorder.runs) == 4


def test_without_colour_the_bar_and_marks_show_as_text() -> None:
    cards = tuple(parse_cards("4D 5D TS QC"))
    hand = HandState(cards, bar=1, marked=frozenset(cards[::3]))
    terminal = shown("dumb", lambda canvas: draw_hand(canvas, hand))
    assert terminal.display[12][11:34] == " *1*  > 2 <   3    *4* "
    assert terminal.display[14][11:34] == "|4D | |5D | |10S| |QC |"
    assert card_label(3, bar=True, marked=True) == ">*3*<"


def test_played_cards_are_numbered_on_this_count_and_crossed_from_earlier_ones() -> None:
    cards = parse_cards("KH QS JD 5C 9H")
    plays = [
        Play(seat % 2, card, seat + 1, 0 if seat < 3 else 1) for seat, card in enumerate(cards)
    ]
    assert current_count_numbers(plays, cards[3:]) == ["x", "x", "x", "4", "5"]
    assert current_count_numbers(plays, []) == ["x"] * 5


def card_by_card(canvas: Canvas, col: int, cards: list[tuple[Card, bool, bool]], step: int) -> None:
    """A row of cards drawn one ``draw_card`` at a time, each over the one before."""
    for index, (card, marked, dim) in enumerate(cards):
        draw_card(canvas, 9, col + index * step, card, marked=marked, dim=dim)


@pytest.mark.parametrize("step", [6, 3])
def test_a_row_of_cards_in_three_puts_is_the_cards_drawn_one_by_one(step: int) -> None:
    looks = [(False, False), (True, False), (False, True), (False, False), (True, True)]
    cards = [(card, *look) for card, look in zip(parse_cards("5H TS KD AC 9D"), looks, strict=True)]
    one_by_one, in_rows = Canvas(), Canvas()
    card_by_card(one_by_one, 11, cards, step)
    recorder = Recorder()
    draw_cards(recorder, 9, 11, cards, step)
    in_rows.replay(tuple(recorder.runs))
    assert in_rows.cells == one_by_one.cells
    assert len(recorder.runs) == 3 * 4  # one run a row
    faces = {6: "│5♥ │ │10♠│ │K♦ │ │A♣ │ │9♦ │", 3: "│5♥│10│K♦│A♣│9♦ │"}[step]
    assert in_rows.text(10)[11 : 11 + len(faces)] == faces


@pytest.mark.parametrize("step", [7, 6, 5, 4, 3])
@pytest.mark.parametrize("count", [0, 1, 2, 8])
def test_a_row_of_any_number_of_cards_at_any_step_is_the_cards_drawn_one_by_one(
    step: int, count: int
) -> None:
    """Side by side (steps from a card's width up) and overlapping, each card in its
    look, and the last card whole; a step over a card's width leaves blanks between."""
    looks = [(index % 3 == 1, index % 3 == 2) for index in range(count)]
    dealt = parse_cards("5H TS KD AC 9D 2C QH 7S")[:count]
    cards = [(card, *look) for card, look in zip(dealt, looks, strict=True)]
    one_by_one, in_rows = Canvas(), Canvas()
    card_by_card(one_by_one, 11, cards, step)
    recorder = Recorder()
    draw_cards(recorder, 9, 11, cards, step)
    in_rows.replay(tuple(recorder.runs))
    assert in_rows.cells == one_by_one.cells
    assert len(recorder.runs) == (3 * 4 if count else 0)


@pytest.mark.parametrize("marks", [slice(1, None, 2), slice(0, 0), slice(0, 1), slice(4, 6)])
@pytest.mark.parametrize("bar", [None, 0, 3, 5])
def test_the_labels_over_the_hand_are_each_cards_label_in_its_style(
    bar: int | None, marks: slice
) -> None:
    """Every bar and marks (the row is made once for each count, bar and marks, and
    found again for any hand that has them)."""
    cards = tuple(parse_cards("4D 5D TS QC 2H KS"))
    marked = frozenset(cards[marks])
    draw_hand_labels(Recorder(), tuple(parse_cards("AC 2C 3C 4C 5C 6C")), bar, frozenset())
    recorder, labels, one_by_one = Recorder(), Canvas(), Canvas()
    draw_hand_labels(recorder, cards, bar, marked)
    labels.replay(tuple(recorder.runs))
    for index, card in enumerate(cards):
        style = theme.BAR if index == bar else theme.MARKED if card in marked else theme.LABEL
        label = card_label(index + 1, bar=index == bar, marked=card in marked)
        one_by_one.put(12, 11 + index * 6, label, style)
    assert labels.cells == one_by_one.cells


@pytest.mark.parametrize(
    ("scores", "previous"), [((0, 0), (0, 0)), ((45, 117), (38, 109)), ((3, 61, 120), (0, 59, 118))]
)
def test_the_bare_board_is_a_run_a_row_and_the_pegs_and_names_land_where_they_belong(
    scores: tuple[int, ...], previous: tuple[int, ...]
) -> None:
    names = ("Alice", "Computer", "Bob")[: len(scores)]
    bare = Recorder()
    draw_bare_board(bare, TOP, len(scores))
    rows = 8 if len(scores) == 3 else 7  # three sides: a foot under the lanes
    assert bare.runs[::4] == list(range(TOP, TOP + rows))
    assert {len(text) for text in bare.runs[2::4]} == {80}
    pegs = Recorder()
    draw_pegs(pegs, TOP, scores, previous, names)
    board = Canvas()
    board.replay(tuple(bare.runs))
    board.replay(tuple(pegs.runs))
    peg_rows = set()
    for side, (front, rear) in enumerate(zip(scores, previous, strict=True)):
        row, col = peg_position(side, front, TOP, len(scores))
        assert board.text(row)[col] == FRONT_PEG
        peg_rows.add(row)
        row, col = peg_position(side, rear, TOP, len(scores))
        assert board.text(row)[col] == (REAR_PEG if rear != front else FRONT_PEG)
        peg_rows.add(row)
    assert all(
        f"{name} {score}" in "".join(board.text(row) for row in range(8))
        for name, score in zip(names, scores, strict=True)
    )
    # A score redraws the names' row and the rows the pegs stand on, nothing else.
    name_row = TOP if len(scores) == 3 else TOP + 3
    assert set(pegs.runs[::4]) == peg_rows | {name_row}
    # Drawn whole, the board is the bare board with the pegs and names over it.
    whole = Canvas()
    draw_board(whole, TOP, scores, previous, names)
    assert [whole.text(row) for row in range(9)] == [board.text(row) for row in range(9)]


@pytest.mark.parametrize("sides", [2, 3])
@pytest.mark.parametrize("count", [0, 1, 4, 8, 12, 16])
def test_the_played_cards_are_each_number_over_each_card_in_its_look(
    sides: int, count: int
) -> None:
    """Each card played, the current count's in their seat's colour under their play
    number, the earlier counts' dimmed under an x, side by side or overlapping, the
    count beside them; on a canvas and a recorder alike."""
    dealt = parse_cards("5H TS KD AC 9D 2C QH 7S 3D 4C 6H 8S JD AH 2S 3C")[:count]
    plays = tuple(
        Play(index % (sides + 1), card, index + 1, index // 5) for index, card in enumerate(dealt)
    )
    count_cards = tuple(dealt[(count - 1) // 5 * 5 :]) if count else ()
    expected = Canvas()
    expected.put(9, 1, "Count", theme.LABEL)
    expected.put(10, 1, f"{sum(card.pips for card in count_cards):>4}", theme.TITLE)
    first, step = played_columns(count)
    for index, (play, number) in enumerate(
        zip(plays, current_count_numbers(plays, count_cards), strict=True)
    ):
        gone = number == "x"
        style = theme.DIM if gone else theme.PLAYER_STYLES[play.seat % sides]
        offset = (min(step, 5) - len(number)) // 2
        expected.put(8, first + index * step + offset, number, style)
        draw_card(expected, 9, first + index * step, play.card, dim=gone)
    drawn, recorder, replayed = Canvas(), Recorder(), Canvas()
    draw_played(drawn, plays, count_cards, True, sides)
    draw_played(recorder, plays, count_cards, True, sides)
    replayed.replay(tuple(recorder.runs))
    assert drawn.cells == expected.cells
    assert replayed.cells == expected.cells
