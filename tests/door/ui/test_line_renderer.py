"""The renderer for terminals that show lines (door/ui/line_renderer.py): plain text that
scrolls, printed when what it says changes, and never an escape sequence."""

from __future__ import annotations

import asyncio
import doctest

import door.ui.line_renderer
from door.term.canvas import Canvas, Color, Style
from door.term.display import Display
from door.term.keys import Key
from door.term.terminal import StreamTerminal
from door.ui.line_renderer import ASIDE_LINES_KEPT, LineRenderer
from door.ui.session import Frame, Session
from tests.door.fake_terminal import FakeTerminal


def test_module_examples_run() -> None:
    assert doctest.testmod(door.ui.line_renderer).failed == 0


class Printer:
    """A terminal as the renderer sees it: what was written, as text."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text

    def take(self) -> str:
        text, self.text = self.text, ""
        return text


def menu(bar: int, *, extra: str = "") -> Canvas:
    canvas = Canvas(80, 24)
    canvas.put(0, 1, "Cribbage Door")
    for row, word in enumerate(("Play", "Watch", "Quit"), start=3):
        highlight = Style(fg=Color.BLACK, bg=Color.WHITE) if row - 3 == bar else Style()
        canvas.put(row, 3, word, highlight)
    if extra:
        canvas.put(10, 1, extra)
    canvas.put(22, 1, "P play  W watch  Q quit")
    return canvas


def test_a_first_frame_is_printed_whole_as_lines_without_trailing_blanks() -> None:
    printer = Printer()
    LineRenderer(printer).render(menu(0))  # type: ignore[arg-type]
    assert printer.take() == (
        "\r\n Cribbage Door\r\n\r\n   Play\r\n   Watch\r\n   Quit\r\n"
        "\r\n P play  W watch  Q quit\r\n"
    )


def test_a_highlight_moving_prints_nothing_and_a_changed_line_prints_itself() -> None:
    printer = Printer()
    renderer = LineRenderer(printer)  # type: ignore[arg-type]
    renderer.render(menu(0))
    printer.take()
    renderer.render(menu(1))  # only the colours moved
    assert printer.take() == ""
    renderer.render(menu(1, extra="Ada has come in."))
    assert printer.take() == " Ada has come in.\r\n"
    renderer.render(menu(1, extra="Ada has come in."))  # the same frame again
    assert printer.take() == ""


def test_a_new_screen_is_printed_whole_after_a_blank_line() -> None:
    printer = Printer()
    renderer = LineRenderer(printer)  # type: ignore[arg-type]
    renderer.render(menu(0))
    printer.take()
    other = Canvas(80, 24)
    for row in range(8):
        other.put(row, 0, f"line {row}")
    renderer.render(other)
    assert printer.take() == "\r\n" + "".join(f"line {row}\r\n" for row in range(8))


def test_typing_on_the_prompt_line_echoes_keys_and_rubs_out() -> None:
    printer = Printer()
    renderer = LineRenderer(printer)  # type: ignore[arg-type]
    canvas = Canvas(80, 24)
    canvas.put(0, 1, "Log in")
    canvas.put(5, 1, "Handle: ")
    renderer.render(canvas, (5, 9))
    assert printer.take() == "\r\n Log in\r\n Handle: "  # the prompt last, left open
    for typed, column in (("A", 10), ("Ad", 11), ("Ada", 12)):
        canvas.put(5, 9, typed)
        renderer.render(canvas, (5, column))
    assert printer.take() == "Ada"
    canvas.put(5, 9, "Ad ")
    renderer.render(canvas, (5, 11))
    assert printer.take() == "\b \b"
    canvas.put(3, 1, "Wrong handle or password.")  # a message: on a new line
    renderer.render(canvas, (5, 11))
    assert printer.take() == "\r\n Wrong handle or password.\r\n Handle: Ad"


def test_a_session_on_a_line_terminal_never_sends_an_escape() -> None:
    async def scenario() -> bytes:
        terminal = FakeTerminal(term_type="dumb")
        terminal.display_mode = Display.LINES
        session = Session(terminal)
        frame = session.push(Frame())
        for bar in (0, 1, 2):
            frame.show(menu(bar), (22, 24))
            await session.paint()
        terminal.push_keys(Key.CTRL_L, "x")
        await session.read_key()  # Ctrl-L: printed whole again
        session.write_text("\x1b[2JA notice\r\n")  # even text written by hand
        await session.say_goodbye("Goodbye!")
        return terminal.output

    output = asyncio.run(scenario())
    assert b"\x1b" not in output
    assert output.count(b" Cribbage Door\r\n") == 2 and b"A notice\r\n" in output
    assert output.endswith(b"\r\nGoodbye!\r\n")


def test_a_screen_terminal_still_gets_its_escapes() -> None:
    terminal = StreamTerminal(None, None)  # type: ignore[arg-type]
    assert terminal.display_mode is Display.SCREEN


def table(log: list[str], *, count: int) -> Canvas:
    """A table's frame: a picture that changes with the count (most of its rows), and a
    game log of four rows under it, its newest line last."""
    canvas = Canvas(80, 24)
    for row in range(12):
        canvas.put(row, 1, f"picture row {row}, count {count}")
    for row, line in enumerate(log[-4:], start=17):
        canvas.put(row, 1, line)
    canvas.put(22, 1, "RETURN play  q quit")
    canvas.log_rows = range(17, 21)
    return canvas


def test_a_scrolling_log_prints_each_of_its_lines_once() -> None:
    # Each line of the log was printed again at every scroll, the picture being
    # printed whole or not: "You throw 3H 8D to Computer's crib." three times a hand.
    printer = Printer()
    renderer = LineRenderer(printer)  # type: ignore[arg-type]
    log = ["You cut KS.", "Hand 1: Computer deals.", "You throw 3H 8D."]
    renderer.render(table(log, count=0))
    transcript = printer.take()
    log.append("Computer throws 2 cards.")  # the log fills: one row changed
    renderer.render(table(log, count=0))
    transcript += printer.text
    assert printer.take() == " Computer throws 2 cards.\r\n"
    log.append("You cut card 20: the starter is 9C.")  # it scrolls: four rows changed
    renderer.render(table(log, count=0))
    transcript += printer.text
    assert printer.take() == " You cut card 20: the starter is 9C.\r\n"
    log.extend(["You play 9H (count 9).", "Computer plays QD (count 19)."])
    renderer.render(table(log, count=19))  # a new picture, and the log scrolls by two
    whole = printer.take()
    transcript += whole
    assert "picture row 0, count 19" in whole and "RETURN play" in whole
    assert whole.endswith(
        "count 19\r\n\r\n You play 9H (count 9).\r\n Computer plays QD (count 19).\r\n"
        "\r\n RETURN play  q quit\r\n"
    )
    assert [transcript.count(line) for line in log] == [1] * len(log), transcript
    renderer.invalidate()  # Ctrl-L: the whole log again
    renderer.render(table(log, count=19))
    again = printer.take()
    assert all(line in again for line in log[-4:])


def test_the_table_says_where_its_game_log_is() -> None:
    import random

    from door.screens.game_screen import TableView, draw_table
    from engine import Game

    game = Game(2, rng=random.Random(8), dealer=1)
    game.deal()
    view = TableView(("Ada", "Computer"), game, viewer=0)
    for number in range(6):
        view.log.add(f"Log line {number}.")
    canvas, _ = draw_table(view)
    logged = [canvas.text(row).strip() for row in canvas.log_rows]
    assert logged == [f"Log line {number}." for number in range(2, 6)]


def test_a_log_line_a_show_printed_is_not_printed_again_after_it() -> None:
    # By hand (DOOR32.SYS emulation 0, one hand): after the show the log printed
    # "Your hand counts 16 points." and the two counts after it a second time.
    printer = Printer()
    renderer = LineRenderer(printer)  # type: ignore[arg-type]
    log = ["You play 9H (count 9).", "Computer says go."]
    renderer.render(table(log, count=9))
    show = Canvas(80, 24)  # a show: drawn where the log was, so no log on it
    show.put(12, 1, "Your hand counts 3 points.")
    show.put(13, 2, "Fifteen two and a pair is three.")
    show.put(22, 1, "RETURN go on")
    renderer.render(show)
    transcript = printer.take()
    log.extend(["Your hand counts 3 points.", "Hand 2: you deal."])
    renderer.render(table(log, count=0))
    after = printer.take()
    assert "Hand 2: you deal." in after
    transcript += after
    assert transcript.count("Your hand counts 3 points.") == 1, transcript
    renderer.invalidate()  # Ctrl-L: the whole log again, that line too
    renderer.render(table(log, count=0))
    assert "Your hand counts 3 points." in printer.take()


def test_the_lobby_chat_prints_each_line_once_as_it_scrolls() -> None:
    # By hand (DOOR32.SYS emulation 0): each chat line said once printed the chat's
    # lines above it again, 'JaneD: chat line 3' five times in seven lines.
    from door.screens.lobby import ChatText, LobbyView, draw_lobby

    printer = Printer()
    renderer = LineRenderer(printer)  # type: ignore[arg-type]
    said = [f"chat line {number}" for number in range(1, 8)]
    for count in range(1, len(said) + 1):
        chat = [ChatText("JaneD", text) for text in said[:count]]
        renderer.render(draw_lobby(LobbyView("Cribbage Door", "JaneD", chat=chat))[0])
    transcript = printer.take()
    assert [transcript.count(f"{text}\r\n") for text in said] == [1] * len(said), transcript


def test_the_lines_printed_while_no_log_is_up_are_remembered_within_a_bound() -> None:
    # The record of lines printed aside was emptied only when a log came back: a caller
    # on log-less screens grew it by every line printed. It keeps the newest lines now.
    printer = Printer()
    renderer = LineRenderer(printer)  # type: ignore[arg-type]
    log = ["You play 9H (count 9).", "Computer says go."]
    renderer.render(table(log, count=9))
    show = Canvas(80, 24)
    show.put(12, 1, "Your hand counts 3 points.")
    renderer.render(show)
    for number in range(ASIDE_LINES_KEPT):  # a screen without a log, its line changing
        page = Canvas(80, 24)
        page.put(5, 1, f"Callers today: {number}")
        renderer.render(page)
    crib = Canvas(80, 24)
    crib.put(12, 1, "Your crib counts 4 points.")
    renderer.render(crib)
    printer.take()
    log.extend(["Your hand counts 3 points.", "Your crib counts 4 points."])
    renderer.render(table(log, count=0))
    after = printer.take()
    assert "Your hand counts 3 points." in after  # forgotten: printed before the bound
    assert "Your crib counts 4 points." not in after  # the newest are still known


def test_a_wide_table_prints_each_log_line_once_beside_its_pane() -> None:
    # From 110 columns the whole log is also in a pane beside the table: every pane row
    # changed at each line added, and the pane's lines were printed again each time.
    import random

    from door.screens.game_screen import TableView, draw_table
    from engine import Game

    game = Game(2, rng=random.Random(8), dealer=1)
    game.deal()
    printer = Printer()
    renderer = LineRenderer(printer)  # type: ignore[arg-type]
    view = TableView(("Ada", "Computer"), game, viewer=0, size=(132, 37))
    said = [f"Log line {number} of the hand." for number in range(9)]
    for line in said:
        view.log.add(line)
        renderer.render(draw_table(view)[0])
    transcript = printer.take()
    assert [transcript.count(line) for line in said] == [1] * len(said), transcript


def test_a_wide_lobby_prints_each_chat_line_once_beside_its_pane() -> None:
    from door.screens.lobby import ChatText, LobbyView, draw_lobby

    printer = Printer()
    renderer = LineRenderer(printer)  # type: ignore[arg-type]
    said = [f"chat line {number}" for number in range(1, 8)]
    for count in range(1, len(said) + 1):
        chat = [ChatText("JaneD", text) for text in said[:count]]
        view = LobbyView("Cribbage Door", "JaneD", chat=chat, size=(132, 37))
        renderer.render(draw_lobby(view)[0])
    transcript = printer.take()
    assert [transcript.count(f"{text}\r\n") for text in said] == [1] * len(said), transcript
