"""The canvas and the renderer: what reaches the caller's screen, and how few bytes."""

from __future__ import annotations

import asyncio
import doctest
import random
import re
from functools import partial

import door.term.canvas
from door.term.ansi import CLEAR_SCREEN, Color
from door.term.canvas import (
    DRAWN_GLYPHS,
    PLAIN,
    Canvas,
    Recorder,
    Style,
    _one_cell,
    drawn_once,
    one_cell_text,
    style_char,
)
from door.term.charset import Charset
from door.term.layers import Layers
from door.term.terminal import StreamTerminal
from door.ui.renderer import Renderer
from tests.door.caller import screen_of
from tests.door.fake_terminal import FakeTerminal

SGR = re.compile(rb"\x1b\[[0-9;]*m")
CURSOR_MOVE = re.compile(rb"\x1b\[\d+;\d+H")
PALETTE = [PLAIN, Style(Color.RED), Style(Color.WHITE, Color.BLUE, bold=True), Style(bg=Color.CYAN)]
PYTE_NAMES = {
    None: "default",
    Color.RED: "red",
    Color.WHITE: "white",
    Color.BLUE: "blue",
    Color.CYAN: "cyan",
}


def test_doctests() -> None:
    assert doctest.testmod(door.term.canvas).failed == 0


def test_put_clips_at_the_edges_and_returns_the_next_column() -> None:
    canvas = Canvas(10, 2)
    assert canvas.put(0, 7, "abcdef") == 13
    assert canvas.text(0) == "       abc"
    canvas.put(5, 0, "off the canvas")
    canvas.put(1, -2, "xyz")
    assert canvas.text(1) == "z         "


def test_a_put_wholly_off_the_canvas_is_not_recorded() -> None:
    """A layer's runs mark the rows it touches: text drawn off the edge touches none."""
    recorder = Recorder(10, 2)
    recorder.put(0, 10, "right of it")
    recorder.put(1, -5, "left")
    recorder.put(1, 3, "")
    recorder.put(2, 0, "below")
    assert recorder.runs == []
    recorder.put(1, -2, "xyz")
    assert recorder.runs == [1, 0, "z", style_char(PLAIN)]


def test_put_styled_gives_each_character_its_own_style_and_clips_both() -> None:
    red, blue = Style(Color.RED), Style(bg=Color.BLUE)
    canvas = Canvas(6, 1)
    styles = style_char(red) * 2 + style_char(blue) * 3
    assert canvas.put_styled(0, 3, "ab中de", styles) == 8
    assert canvas.text(0) == "   ab?"
    assert [style for _, style in canvas.cells[0]] == [PLAIN, PLAIN, PLAIN, red, red, blue]
    canvas.put_styled(0, -4, "wxyz12", styles + style_char(red))
    assert canvas.cells[0][:2] == [("1", blue), ("2", red)]


def test_a_recorder_keeps_text_that_carries_on_as_one_run_and_lays_it_as_drawn() -> None:
    red, green = Style(Color.RED), Style(Color.GREEN)

    def draw(canvas: Canvas) -> None:
        col = canvas.put(0, 1, "Alice ", red)
        col = canvas.put(0, col, "42", green)
        canvas.put(0, col + 1, "after a gap")
        canvas.put(1, 0, "next row")
        canvas.put(0, 0, ">")  # before the last run: a run of its own

    recorder, direct = Recorder(20, 2), Canvas(20, 2)
    draw(recorder)
    draw(direct)
    assert recorder.runs[:4] == [0, 1, "Alice 42", style_char(red) * 6 + style_char(green) * 2]
    assert len(recorder.runs) == 4 * 4
    laid = Canvas(20, 2)
    laid.replay(tuple(recorder.runs))
    assert laid.cells == direct.cells


def test_characters_that_are_not_one_cell_wide_become_question_marks() -> None:
    canvas = Canvas(10, 1)
    canvas.put(0, 0, "a中e\u0301\x1b♥")
    assert canvas.text(0) == "a?e??♥    "
    canvas.put_styled(0, 0, "┌中─", style_char(PLAIN) * 3)
    assert canvas.text(0) == "┌?─??♥    "


def test_the_glyphs_the_door_draws_unlooked_at_are_each_one_cell() -> None:
    assert [_one_cell(char) for char in DRAWN_GLYPHS] == list(DRAWN_GLYPHS)
    assert one_cell_text("┌─♥·… plain") == "┌─♥·… plain"


def test_box_draws_a_frame_with_its_title() -> None:
    canvas = Canvas(12, 3)
    canvas.box(0, 0, 3, 12, title="Hi")
    assert [canvas.text(row) for row in range(3)] == [
        "┌─ Hi ─────┐",
        "│          │",
        "└──────────┘",
    ]


def test_first_render_paints_the_screen_with_colours() -> None:
    terminal = FakeTerminal()
    canvas = Canvas()
    canvas.put(3, 10, "5♥", Style(Color.RED, bold=True))
    canvas.put(3, 13, "J♣", Style(Color.WHITE, Color.CYAN))
    Renderer(terminal).render(canvas)
    assert terminal.output.startswith(b"\x1b[0m" + CLEAR_SCREEN.encode())
    assert terminal.display[3][10:15] == "5♥ J♣"
    heart = screen_of(terminal).buffer[3][11]
    assert (heart.fg, heart.bold) == ("red", True)
    club = screen_of(terminal).buffer[3][13]
    assert (club.fg, club.bg, club.bold) == ("white", "cyan", False)


def test_an_unchanged_frame_sends_nothing_and_one_change_sends_a_few_bytes() -> None:
    terminal = FakeTerminal()
    renderer = Renderer(terminal)
    canvas = Canvas()
    canvas.put(0, 0, "Alice 0", Style(Color.GREEN))
    renderer.render(canvas)
    sent = len(terminal.output)
    renderer.render(canvas)
    assert len(terminal.output) == sent
    canvas.put(0, 6, "2", Style(Color.GREEN))
    renderer.render(canvas)
    change = terminal.output[sent:]
    assert change == b"\x1b[1;7H\x1b[0;32m2\x1b[0m"
    assert terminal.display[0].startswith("Alice 2")


def test_a_canvas_drawn_on_after_it_was_sent_is_compared_with_what_was_sent() -> None:
    # A screen may keep one canvas and draw on it for its next frame: the renderer
    # keeps copies of its rows unless the canvas is settled (never drawn on again).
    terminal = FakeTerminal()
    renderer = Renderer(terminal)
    canvas = Canvas()
    canvas.put(0, 0, "before")
    renderer.render(canvas)
    canvas.put(0, 0, "after!")
    renderer.render(canvas)
    assert terminal.display[0].startswith("after!")


def test_the_same_frame_drawn_afresh_sends_nothing() -> None:
    # Rows not the same strings as those sent are compared by value: a frame drawn
    # again on a new canvas is the same frame.
    terminal = FakeTerminal()
    renderer = Renderer(terminal)

    def frame() -> Canvas:
        canvas = Canvas()
        canvas.put(3, 2, "5♥ J♣ Fifteen two", Style(Color.RED, Color.BLUE, bold=True))
        canvas.box(5, 0, 4, 30, Style(Color.CYAN), title="Crib")
        return canvas

    renderer.render(frame())
    sent = len(terminal.output)
    renderer.render(frame())
    assert len(terminal.output) == sent


def test_after_a_flood_of_rare_characters_the_screen_still_shows_the_frame() -> None:
    terminal = FakeTerminal()
    renderer = Renderer(terminal)
    style = Style(Color.YELLOW)
    canvas = Canvas()
    canvas.put(0, 0, "Alice 0", style)
    renderer.render(canvas)
    rare = [chr(code) for code in range(0x100, 0x3000) if _one_cell(chr(code)) != "?"]
    flood = Canvas()
    for char in rare[:5000]:  # more than _one_cell keeps
        flood.put(1, 0, char, style)
    canvas.put(0, 0, "Alice 2", style)
    renderer.render(canvas)
    assert terminal.display[0].startswith("Alice 2")


def test_close_changes_on_a_row_share_one_cursor_move() -> None:
    terminal = FakeTerminal()
    renderer = Renderer(terminal)
    canvas = Canvas()
    renderer.render(canvas)
    sent = len(terminal.output)
    canvas.put(5, 10, "a")
    canvas.put(5, 13, "b")
    canvas.put(5, 40, "c")
    renderer.render(canvas)
    change = terminal.output[sent:]
    assert len(CURSOR_MOVE.findall(change)) == 2
    assert terminal.display[5][10:14] == "a  b" and terminal.display[5][40] == "c"


def test_the_bottom_right_cell_is_never_written() -> None:
    terminal = FakeTerminal(cols=80, rows=24)
    canvas = Canvas(80, 24)
    canvas.fill(23, 0, 80, "#")
    canvas.put(0, 0, "top")
    Renderer(terminal).render(canvas)
    assert terminal.display[23] == "#" * 79 + " "
    assert terminal.display[0].startswith("top")  # nothing scrolled


def test_no_colour_mode_sends_no_colour_codes() -> None:
    terminal = FakeTerminal(term_type="dumb")
    canvas = Canvas()
    canvas.put(2, 2, "7♠", Style(Color.RED, Color.CYAN, bold=True))
    renderer = Renderer(terminal)
    renderer.render(canvas)
    canvas.put(2, 2, "8♠", Style(Color.YELLOW))
    renderer.render(canvas)
    assert not SGR.search(terminal.output)
    assert b"?25" not in terminal.output  # nor cursor hiding a dumb terminal may print
    assert terminal.display[2][2:4] == "8S"


def test_invalidate_repaints_everything() -> None:
    terminal = FakeTerminal()
    renderer = Renderer(terminal)
    canvas = Canvas()
    canvas.put(10, 10, "board")
    renderer.render(canvas)
    screen_of(terminal).reset()  # line noise wiped the caller's screen
    renderer.render(canvas)
    assert terminal.display[10][10:15] == "     "
    renderer.invalidate()
    renderer.render(canvas)
    assert terminal.display[10][10:15] == "board"


def test_resize_and_charset_switch_repaint_by_themselves() -> None:
    terminal = FakeTerminal()
    renderer = Renderer(terminal)
    canvas = Canvas()
    canvas.put(1, 1, "♣ suit")
    renderer.render(canvas)
    sent = len(terminal.output)
    terminal.resize(80, 25)
    assert terminal.output[sent:].count(CLEAR_SCREEN.encode()) == 1
    assert terminal.display[1][1:7] == "♣ suit"
    terminal.charset = Charset.ASCII
    renderer.render(canvas)
    assert terminal.display[1][1:7] == "C suit"
    renderer.close()
    sent = len(terminal.output)
    terminal.resize(80, 24)
    assert len(terminal.output) == sent  # a closed renderer no longer listens


class _MemorySink:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data

    async def drain(self) -> None:
        pass

    def close(self) -> None:
        pass


class _SilentSource:
    async def read(self) -> bytes:
        await asyncio.Event().wait()
        return b""


def test_a_resize_while_the_screen_waits_for_a_key_reaches_the_caller() -> None:
    async def scenario() -> bytes:
        sink = _MemorySink()
        terminal = StreamTerminal(_SilentSource(), sink, term_type="xterm")
        renderer = Renderer(terminal)
        canvas = Canvas()
        canvas.put(0, 0, "board")
        renderer.render(canvas)
        await terminal.flush()
        sent = len(sink.data)
        terminal.resize(100, 30)  # nobody flushes: the screen is in read_key
        for _ in range(3):
            await asyncio.sleep(0)
        terminal.close()
        return bytes(sink.data[sent:])

    repaint = asyncio.run(scenario())
    assert repaint.startswith(b"\x1b[0m" + CLEAR_SCREEN.encode())
    assert b"board" in repaint


def test_cursor_shows_where_the_caller_types_and_hides_otherwise() -> None:
    terminal = FakeTerminal()
    renderer = Renderer(terminal)
    canvas = Canvas()
    renderer.render(canvas, cursor=(21, 7))
    assert (screen_of(terminal).cursor.y, screen_of(terminal).cursor.x) == (21, 7)
    assert not screen_of(terminal).cursor.hidden
    renderer.render(canvas)
    assert screen_of(terminal).cursor.hidden


def _assert_shows(terminal: FakeTerminal, canvas: Canvas) -> None:
    """Every cell of ``canvas`` (but the bottom-right, never written) is on the screen,
    in its colours."""
    for row in range(24):
        for col in range(80):
            if (row, col) == (23, 79):
                continue
            char, style = canvas.cell(row, col)
            shown = screen_of(terminal).buffer[row][col]
            assert shown.data == char, (row, col)
            assert (shown.fg, shown.bg, shown.bold) == (
                PYTE_NAMES[style.fg],
                PYTE_NAMES[style.bg],
                style.bold,
            ), (row, col)


def test_any_sequence_of_frames_leaves_exactly_the_last_frame_on_screen() -> None:
    rng = random.Random(11)
    for charset in (Charset.UTF8, Charset.CP437):
        terminal = FakeTerminal(charset=charset)
        renderer = Renderer(terminal)
        canvas = Canvas()
        for _ in range(60):
            for _ in range(rng.randint(0, 40)):
                row, col = rng.randrange(24), rng.randrange(80)
                text = "".join(rng.choice("ab ♥♠─│█") for _ in range(rng.randint(1, 12)))
                canvas.put(row, col, text, rng.choice(PALETTE))
            renderer.render(canvas)
            _assert_shows(terminal, canvas)


def test_callers_making_the_same_change_from_different_screens_each_see_their_frame() -> None:
    """The renderer keeps what a row's change sends, for every caller: one caller's
    change, sent again to another whose cursor and colour stand elsewhere before that
    row, must still leave exactly that caller's frame on the screen, in as few bytes."""
    rng = random.Random(13)
    before, after = Canvas(), Canvas()
    for row in range(6, 24):
        for _ in range(rng.randint(1, 6)):
            col, style = rng.randrange(80), rng.choice(PALETTE)
            text = "".join(rng.choice("ab ♥─") for _ in range(rng.randint(1, 12)))
            before.put(row, col, text, style)
            after.put(row, rng.randrange(80), text[::-1], rng.choice(PALETTE))
    sent = []
    for caller in range(4):
        terminal = FakeTerminal()
        renderer = Renderer(terminal)
        renderer.render(before)
        # Above the shared rows each caller's frame differs: the cursor and the
        # colour in force come into the shared rows differently.
        own = after.copy()
        for row in range(6):
            own.put(row, rng.randrange(60), "x" * rng.randrange(1, 20), PALETTE[caller])
        start = len(terminal.output)
        renderer.render(own)
        _assert_shows(terminal, own)
        sent.append(bytes(terminal.output[start:]))
    # The shared rows' changes are the same bytes for every caller, less at most
    # the colour the first of them needs (set already, or not).
    shared = [chunk[chunk.index(b"\x1b[7;") :] for chunk in sent]
    assert len({SGR.sub(b"", chunk) for chunk in shared}) == 1


def test_layered_frames_mixed_with_drawn_ones_leave_the_last_frame_on_screen() -> None:
    """Frames from Layers (one canvas brought up to date in place), some with help drawn
    over a copy: the caller always sees the newest, and the renderer never writes into
    the layers' rows."""
    rng = random.Random(12)
    terminal = FakeTerminal()
    renderer = Renderer(terminal)
    layers = Layers()
    for step in range(80):
        texts = [(rng.randrange(24), rng.randrange(-2, 80), rng.choice(["ab", "♥♠─", "█" * 9]))]
        texts += [(rng.randrange(24), 0, "x" * rng.randrange(20)) for _ in range(3)]
        kept, _ = layers.frame(
            80,
            24,
            [
                (f"t{n}", text, partial(Canvas.put, row=r, col=c, text=text))
                for n, (r, c, text) in enumerate(texts)
            ],
        )
        before = [row[:] for row in kept.cells]
        frame = kept
        if step % 3 == 1:  # help over the table: drawn on a copy
            frame = kept.copy()
            frame.put(rng.randrange(24), rng.randrange(80), "help", Style(fg=Color.YELLOW))
        renderer.render(frame)
        assert kept.cells == before
        shown = screen_of(terminal)
        for row in range(24):
            line = "".join(shown.buffer[row][col].data for col in range(79 if row == 23 else 80))
            assert line == frame.text(row)[: len(line)], (step, row)


def test_changed_spans_are_the_changed_cells_with_short_gaps_bridged() -> None:
    """Worked out from the rows as numbers; checked here cell by cell."""
    from door.ui.renderer import _MAX_GAP, _changed_spans

    def by_cell(chars: str, styles: str, was_chars: str, was_styles: str) -> list[tuple[int, int]]:
        changed = [
            x for x in range(len(chars)) if (chars[x], styles[x]) != (was_chars[x], was_styles[x])
        ]
        spans: list[tuple[int, int]] = []
        for x in changed:
            if spans and x - spans[-1][1] <= _MAX_GAP + 1:
                spans[-1] = (spans[-1][0], x)
            else:
                spans.append((x, x))
        return spans

    rng = random.Random(7)
    alphabet = " a♥─█\U0001d400é"  # one, two, three and four bytes in UTF-8
    for _ in range(3000):
        cols = rng.randrange(1, 90)
        chars = "".join(rng.choice(alphabet) for _ in range(cols))
        styles = "".join(chr(rng.choice((0, 1, 7, 255))) for _ in range(cols))
        was_chars, was_styles = list(chars), list(styles)
        for _ in range(rng.randrange(0, 8)):
            x = rng.randrange(cols)
            if rng.random() < 0.5:
                was_chars[x] = rng.choice(alphabet)
            else:
                was_styles[x] = chr(rng.choice((0, 1, 7, 255)))
        old = "".join(was_chars), "".join(was_styles)
        assert _changed_spans(chars, styles, *old) == by_cell(chars, styles, *old)


def test_a_drawing_kept_once_is_laid_again_from_what_it_kept() -> None:
    """``drawn_once``: on a recorder the same arguments draw once, and the runs added
    the next time lay the same cells; another size or other arguments draw again; on a
    canvas it always draws."""
    calls: list[tuple[int, str]] = []

    def status(canvas: Canvas, text: str) -> str:
        calls.append((canvas.cols, text))
        canvas.put(1, 2, text, Style(fg=Color.RED))
        canvas.put(1, 2 + len(text), "!", Style(bold=True))
        return text.upper()

    kept = drawn_once(status, maxsize=4)
    drawn = []
    for cols, text in ((20, "keys"), (20, "keys"), (10, "keys"), (20, "other"), (20, "keys")):
        recorder = Recorder(cols, 3)
        assert kept(recorder, text) == text.upper()
        laid = Canvas(cols, 3)
        laid.replay(tuple(recorder.runs))
        drawn.append(laid.cells)
    assert calls == [(20, "keys"), (10, "keys"), (20, "other")]
    direct = Canvas(20, 3)
    status(direct, "keys")
    assert drawn[0] == drawn[1] == drawn[4] == direct.cells
    assert kept(Canvas(20, 3), "keys") == "KEYS" and calls[-1] == (20, "keys")
    assert len(calls) == 5  # the canvas drew, and the direct draw above
    listed = drawn_once(lambda canvas, words: canvas.put(0, 0, " ".join(words)))
    recorder = Recorder(20, 3)
    listed(recorder, ["not", "hashable"])  # drawn, not kept
    assert recorder.runs[:3] == [0, 0, "not hashable"]
