"""A frame kept from one to the next (door/term/layers.py) is sent as exactly what
changed, though the renderer keeps no copy of its own of it: the caller's screen is
right after overlays, frames that could not be sent at once, and frames never sent."""

from __future__ import annotations

import asyncio

from door.term.canvas import Canvas
from door.term.layers import Layer, Layers
from door.ui.renderer import Renderer
from tests.door.fake_terminal import FakeTerminal
from tests.door.waiting import until

COLS, ROWS = 20, 4


def word(name: str, row: int, text: str) -> Layer:
    return name, text, lambda canvas: canvas.put(row, 0, text)


def frame(layers: Layers, top: str, bottom: str) -> Canvas:
    canvas, _ = layers.frame(COLS, ROWS, [word("top", 0, top), word("bottom", 2, bottom)])
    return canvas


def rows(*texts: str) -> list[str]:
    return [text.ljust(COLS) for text in texts]


class StuckTerminal(FakeTerminal):
    """A caller who, while ``stuck``, reads nothing of what is sent."""

    stuck = False

    @property
    def backlogged(self) -> bool:
        return self.stuck


def test_each_kept_frame_sends_only_the_cells_that_changed() -> None:
    terminal = FakeTerminal(COLS, ROWS)
    renderer, layers = Renderer(terminal), Layers()
    renderer.render(frame(layers, "north", "south"))
    assert terminal.display == rows("north", "", "south", "")
    before = len(terminal.output)
    renderer.render(frame(layers, "north", "mouth"))
    assert terminal.display == rows("north", "", "mouth", "")
    sent = terminal.output[before:].decode()
    assert "m" in sent and "north" not in sent and "outh" not in sent
    before = len(terminal.output)
    renderer.render(frame(layers, "north", "mouth"))  # nothing changed: nothing sent
    assert terminal.output[before:].replace(b"\x1b[?25l", b"") == b""


def test_an_overlay_over_a_kept_frame_leaves_nothing_behind() -> None:
    terminal = FakeTerminal(COLS, ROWS)
    renderer, layers = Renderer(terminal), Layers()
    renderer.render(frame(layers, "north", "south"))
    covered = frame(layers, "east", "south").copy()
    covered.put(1, 2, "HELP PAGE")
    covered.put(2, 2, "MORE")
    renderer.render(covered)
    assert terminal.display == rows("east", "  HELP PAGE", "soMORE", "")
    renderer.render(frame(layers, "east", "west"))
    assert terminal.display == rows("east", "", "west", "")
    renderer.render(frame(layers, "west", "west"))
    assert terminal.display == rows("west", "", "west", "")


def test_kept_frames_that_wait_for_a_slow_reader_are_all_caught_up() -> None:
    async def scenario() -> tuple[list[str], bytes]:
        terminal = StuckTerminal(COLS, ROWS)
        renderer, layers = Renderer(terminal), Layers()
        renderer.render(frame(layers, "north", "south"))
        sent = len(terminal.output)
        terminal.stuck = True
        renderer.render(frame(layers, "east", "south"))  # waits: only the top changed
        renderer.render(frame(layers, "east", "west"))  # waits: only the bottom changed
        assert terminal.display == rows("north", "", "south", "")
        terminal.stuck = False
        await until(
            lambda: terminal.display == rows("east", "", "west", ""),
            what=lambda: f"the newest frame caught up: {terminal.display}",
        )
        renderer.render(frame(layers, "east", "west"))
        renderer.close()
        return terminal.display, terminal.output[sent:]

    display, caught_up = asyncio.run(scenario())
    assert display == rows("east", "", "west", "")
    assert b"\x1b[2J" not in caught_up  # the two changed rows, not the whole screen


def test_a_kept_frame_that_moved_on_unsent_is_painted_whole() -> None:
    terminal = FakeTerminal(COLS, ROWS)
    renderer, layers = Renderer(terminal), Layers()
    renderer.render(frame(layers, "north", "south"))
    frame(layers, "east", "south")  # drawn, never sent
    renderer.render(frame(layers, "east", "west"))
    assert terminal.display == rows("east", "", "west", "")


def test_another_screen_after_a_kept_frame_is_compared_with_what_shows() -> None:
    terminal = FakeTerminal(COLS, ROWS)
    renderer, layers = Renderer(terminal), Layers()
    renderer.render(frame(layers, "north", "south"))
    other = Canvas(COLS, ROWS)
    other.put(0, 0, "north")
    other.put(3, 0, "menu")
    before = len(terminal.output)
    renderer.render(other)
    assert terminal.display == rows("north", "", "", "menu")
    assert "north" not in terminal.output[before:].decode()  # it showed already
    renderer.render(frame(layers, "north", "south"))
    assert terminal.display == rows("north", "", "south", "")
