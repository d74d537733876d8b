"""What drawing the table costs a frame, timed on the frames of recorded games.

    python bench/draw_replay.py [--games 3] [--repeats 7] [--charset utf8|cp437|ascii]
                                [--cold MB]

Plays whole games against the easy computer in memory (the tests' scripted caller, no
pauses) and records what each frame was made of: the table's layers as the screen
listed them, and the composed frame the renderer was given. Then it times the two
stages again and again on those same frames, each from a fresh start as a new caller's
would be: ``Layers.frame`` (drawing the layers whose keys changed, laying the rows they
touch) and ``Renderer.render`` (finding what changed since the frame before, encoding
it). It prints the best and the median microseconds a frame of each, and what the
renderer sent (characters, and a checksum of them: a change to drawing that should not
change the output must leave both as they were).

``--cold MB`` writes over a buffer of that many megabytes before every frame, as a
thousand other callers' frames would between two of one caller's: the stage then starts
with its data and code out of the processor's private caches, as it does in a busy
server (the machine's level-2 cache is 2 MiB a core; 8 is enough). The buffer's own
time is not counted.

The other benches time the door whole, bots and network included (bench/screen_cost.py
in one process, bench/load.py over telnet and SSH); on a shared machine their figures
move by a third from one run to the next, which hides a change of ten per cent in one
stage. These frames are the same at every run, and the stages are timed alone.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cold_caches import CacheSweep  # noqa: E402

from door.table.options import GameOptions  # noqa: E402
from door.table.solo import play_against_computer  # noqa: E402
from door.term.ansi import ColorMode  # noqa: E402
from door.term.canvas import Canvas  # noqa: E402
from door.term.charset import Charset  # noqa: E402
from door.term.layers import Layer, Layers  # noqa: E402
from door.ui.renderer import Renderer  # noqa: E402
from door.ui.session import Session  # noqa: E402
from tests.door.caller import KeyboardTerminal, play_through  # noqa: E402

Cursor = tuple[int, int] | None
CHARSETS = {
    "utf8": ("xterm-256color", Charset.UTF8, ColorMode.ANSI),
    "cp437": ("ansi", Charset.CP437, ColorMode.ANSI),
    "ascii": ("dumb", Charset.ASCII, ColorMode.NONE),
}


class Recording:
    """Each caller's layers and frames, in the order they were made."""

    def __init__(self) -> None:
        self.layers: dict[int, list[tuple[int, int, list[Layer]]]] = {}
        self.frames: dict[int, list[tuple[Canvas, Cursor]]] = {}

    def frame_count(self) -> int:
        return sum(len(frames) for frames in self.frames.values())


def record(games: int, term_type: str) -> Recording:
    """Play ``games`` games (seeds 1, 2, ...) and keep what every frame was made of."""
    recording = Recording()
    laying, rendering = Layers.frame, Renderer.render

    def layers_frame(self: Layers, cols: int, rows: int, layers: Any) -> Any:
        layers = list(layers)
        recording.layers.setdefault(id(self), []).append((cols, rows, layers))
        return laying(self, cols, rows, layers)

    def render(self: Renderer, canvas: Canvas, cursor: Cursor = None) -> None:
        # A copy: the screen's own canvas is drawn on again for its next frame.
        recording.frames.setdefault(id(self), []).append((canvas.copy(), cursor))
        rendering(self, canvas, cursor)

    async def game(seed: int) -> None:
        terminal = KeyboardTerminal(term_type=term_type)
        options = GameOptions(level="easy")
        session = Session(terminal)
        task = asyncio.ensure_future(
            play_against_computer(session, options, "Bench", rng=random.Random(seed), pause=0)
        )
        await play_through(terminal, task)
        await task

    Layers.frame, Renderer.render = layers_frame, render  # type: ignore[method-assign]
    try:
        for seed in range(1, games + 1):
            asyncio.run(game(seed))
    finally:
        Layers.frame, Renderer.render = laying, rendering  # type: ignore[method-assign]
    return recording


class _Output:
    """A terminal that keeps nothing of what it is sent but its length and checksum."""

    def __init__(self, charset: Charset, color_mode: ColorMode) -> None:
        self.size = (80, 24)
        self.charset, self.color_mode = charset, color_mode
        self.backlogged = False
        self.characters = 0
        self.digest = hashlib.sha256()

    def write(self, text: str) -> None:
        self.characters += len(text)
        self.digest.update(text.encode("utf-8", "surrogatepass"))

    def on_resize(self, listener: Callable[[int, int], None]) -> Callable[[], None]:
        return lambda: None


def lay_all(recording: Recording, sweep: CacheSweep) -> float:
    """Seconds to make every recorded frame from its layers, each caller's anew."""
    spent = 0.0
    for frames in recording.layers.values():
        layers = Layers()
        for cols, rows, listed in frames:
            sweep()
            started = time.perf_counter()
            layers.frame(cols, rows, listed)
            spent += time.perf_counter() - started
    return spent


def render_all(
    recording: Recording, charset: Charset, color_mode: ColorMode, sweep: CacheSweep
) -> tuple[float, _Output]:
    """Seconds to send every recorded frame, each caller's to a new renderer; and what
    was sent, all callers' in one checksum."""
    sent = _Output(charset, color_mode)
    spent = 0.0
    for frames in recording.frames.values():
        renderer = Renderer(sent)  # type: ignore[arg-type]
        for canvas, cursor in frames:
            sweep()
            started = time.perf_counter()
            renderer.render(canvas, cursor)
            spent += time.perf_counter() - started
    return spent, sent


def _figures(seconds: list[float], frames: int) -> str:
    best, median = min(seconds), statistics.median(seconds)
    return f"best {1e6 * best / frames:6.1f}  median {1e6 * median / frames:6.1f} us a frame"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--charset", choices=sorted(CHARSETS), default="utf8")
    parser.add_argument("--cold", type=int, default=0, metavar="MB", help="sweep between frames")
    args = parser.parse_args()
    term_type, charset, color_mode = CHARSETS[args.charset]
    recording = record(args.games, term_type)
    frames = recording.frame_count()
    sweep = CacheSweep(args.cold)
    laid = [lay_all(recording, sweep) for _ in range(args.repeats)]
    rendered = [render_all(recording, charset, color_mode, sweep) for _ in range(args.repeats)]
    output = rendered[0][1]
    caches = f"caches swept ({args.cold} MB) before each frame" if args.cold else "warm caches"
    print(f"{args.games} games, {frames} frames, {args.charset}, {caches}")
    print(f"(best and median of {args.repeats} passes)")
    print(f"layers    {_figures(laid, frames)}")
    print(f"renderer  {_figures([seconds for seconds, _ in rendered], frames)}")
    print(f"sent      {output.characters} characters, sha256 {output.digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
