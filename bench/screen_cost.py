"""What the door's screens cost per key, with no network and no transport in the way.

    python bench/screen_cost.py [--callers 40] [--seconds 20] [--charset utf8] [--profile [tottime]]
    python bench/screen_cost.py --layers [--callers 20] [--seconds 6]
    python bench/screen_cost.py --frames [--callers 20] [--seconds 10]
    python bench/screen_cost.py --replay [--callers 20] [--seconds 8]
    python bench/screen_cost.py --moves [--callers 300] [--seconds 10]

Callers play whole games against the computer inside this one process, each through a
terminal in memory: the load bench's bots (bench/load_bot.py) read the door's output
and press what a player would, after a short think. The figures are the door's CPU per
key (the process's CPU less the bots' own parsing, timed apart), frames and bytes per
key, and the bytes of a highlight-bar move. ``--profile`` prints the functions that
took the most time (cProfile; cumulative, or by their own time with ``tottime``).
``--layers`` keeps every table frame's layers as the game drew them, then draws the same
frames again, alone and in the same order, through fresh ``Layers`` (the best of three),
and prints the CPU a frame of ``Layers.frame`` and the time of each layer's draws (each
the best of three): figures that the machine's other load moves far less than the CPU
per key.

``--frames`` times the whole frame as the session makes it in the game (compose, with
the view brought up to the table, the layers and the click map, then the renderer's
difference), and each of those parts, a frame at a time with the thread's CPU clock
around them (the other processes' load does not count; a reading costs about 1 us, so a
line includes some 2 us of timing for each call timed under it): the parts nest, so each
line includes the ones indented under it.

``--moves`` times each ``Person.draw`` that drew a move of the highlight bar alone
(the hand's labels the one layer drawn) with the thread's CPU clock, less the bot's
reading of the bytes sent: the cost of the most common key's frame in the game, the
callers' states as cold as the run has them.

``--replay`` keeps every table moment of a game as the person's view showed it (a copy:
the view, the game, the log), then draws the same frames again from them, in order, as
the session makes them: the table's layers (``draw_table``: their keys, then
``Layers.frame``), the click map (``Person.hits``) and the renderer's difference, each
person with fresh ``Layers`` and a fresh ``Renderer`` (the best of three), and each part
alone. The figures are the CPU of a whole frame on the frames of real games, which the
machine's other load moves far less than the timings in the game; what is left out is
bringing the view up to the table (``Person.compose``: mostly the win bar, measured by
bench/win_bar_cost.py) and sending the bytes.

Callers ask for mouse reports, as the door asks an xterm's (``--no-mouse``: they do not):
a frame's click map is worked out for them.

This is the part of bench/load.py's CPU per key that incremental screens can cut: the
load bench adds telnet and SSH, the event loop's sockets and a separate generator.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import cProfile
import gc
import importlib
import pstats
import random
import statistics
import sys
import time
import types
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_bot import RIGHT, Bot  # noqa: E402

from door import gc_policy  # noqa: E402
from door.screens.game_screen import TableView, draw_table, table_layers  # noqa: E402
from door.screens.side_pane import canvas_size  # noqa: E402
from door.serve import prepare_computer_player  # noqa: E402
from door.table.options import GameOptions  # noqa: E402
from door.table.person import Person  # noqa: E402
from door.table.solo import play_against_computer  # noqa: E402
from door.term import layers  # noqa: E402
from door.term.ansi import ColorMode  # noqa: E402
from door.term.canvas import Recorder  # noqa: E402
from door.term.charset import Charset  # noqa: E402
from door.term.terminal import StreamTerminal  # noqa: E402
from door.ui.renderer import Renderer  # noqa: E402
from door.ui.session import Session  # noqa: E402
from engine.odds.tables import load_win_tables  # noqa: E402

THINK_SECONDS = 0.05
COMPUTER_PAUSE = 0.2


class _Keys:
    """The caller's side of the line: keys the bot sends, read by the terminal."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()

    async def read(self) -> bytes:
        return await self.queue.get()


class _Screen:
    """The door's side of the line: every write goes to the bot, timed apart."""

    def __init__(self, bot: Bot, tally: dict[str, float]) -> None:
        self.bot, self.tally = bot, tally

    def write(self, data: bytes) -> None:
        # perf_counter, not process_time: the latter is a system call, dearer than the feed.
        started = time.perf_counter()
        self.bot.feed(data)
        self.tally["frames"] += 1
        self.tally["bytes"] += len(data)
        self.tally["bot_cpu"] += time.perf_counter() - started

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        return None


async def _caller(
    number: int, charset: Charset, until: float, tally: dict[str, float], mouse: bool
) -> None:
    bot = Bot(f"bench{number}", random.Random(number), THINK_SECONDS)
    bot.measuring = True
    keys = _Keys()
    terminal = StreamTerminal(
        keys, _Screen(bot, tally), term_type="xterm-256color", charset=charset
    )
    terminal.start()

    async def send(data: bytes) -> None:
        keys.queue.put_nowait(data)

    session = Session(terminal)
    session.mouse = mouse
    options = GameOptions(level="normal")
    door = asyncio.ensure_future(
        play_against_computer(
            session, options, bot.name, rng=random.Random(number), pause=COMPUTER_PAUSE
        )
    )
    try:
        await bot.play(send, until)
    finally:
        door.cancel()
        with contextlib.suppress(BaseException):
            await door
    tally["keys"] += len(bot.latencies)
    tally["failures"] += bot.failures
    tally.setdefault("bar_moves", 0)


async def _run(
    callers: int, seconds: float, charset: Charset, mouse: bool = True
) -> dict[str, float]:
    tally = {"frames": 0.0, "bytes": 0.0, "bot_cpu": 0.0, "keys": 0.0, "failures": 0.0}
    until = time.monotonic() + seconds
    # The door's garbage-collection policy, as the server runs it: without it every young
    # collection walks all the games so far, inside whatever frame is being drawn.
    policy = gc_policy.install(asyncio.get_running_loop())
    try:
        await asyncio.gather(*(_caller(n, charset, until, tally, mouse) for n in range(callers)))
    finally:
        gc_policy.uninstall(policy)
    return tally


def bar_move_bytes(charset: Charset) -> list[int]:
    """Bytes the door sends for each move of the highlight bar over the caller's hand."""
    sizes: list[int] = []

    async def measure() -> None:
        bot = Bot("bar", random.Random(1), 0)
        tally = {"frames": 0.0, "bytes": 0.0, "bot_cpu": 0.0}
        keys = _Keys()
        terminal = StreamTerminal(
            keys, _Screen(bot, tally), term_type="xterm-256color", charset=charset
        )
        terminal.start()
        door = asyncio.ensure_future(
            play_against_computer(
                Session(terminal), GameOptions(level="normal"), "bar", rng=random.Random(1), pause=0
            )
        )
        try:
            for _ in range(200):
                if "RETURN mark" in bot.screen.status:
                    break
                if "blank line: deal" in bot.screen.status:
                    keys.queue.put_nowait(b"\r")
                await asyncio.sleep(0.01)
            for _ in range(5):
                before = tally["bytes"]
                keys.queue.put_nowait(RIGHT)
                await asyncio.sleep(0.02)
                sizes.append(int(tally["bytes"] - before))
        finally:
            door.cancel()
            with contextlib.suppress(BaseException):
                await door

    asyncio.run(measure())
    return sizes


Captured = list[tuple[int, int, int, list[layers.Layer]]]


def capture_layers(callers: int, seconds: float, charset: Charset) -> Captured:
    """Every ``Layers.frame`` call of a run: whose layers (by id), the size, the layers."""
    frames: Captured = []
    draw_frame = layers.Layers.frame

    def keeping(self: layers.Layers, cols: int, rows: int, drawn: Any) -> Any:
        drawn = list(drawn)
        frames.append((id(self), cols, rows, drawn))
        return draw_frame(self, cols, rows, drawn)

    layers.Layers.frame = keeping  # type: ignore[method-assign]
    try:
        asyncio.run(_run(callers, seconds, charset))
    finally:
        layers.Layers.frame = draw_frame  # type: ignore[method-assign]
    return frames


def replay_layers(frames: Captured) -> tuple[float, dict[str, tuple[float, int]]]:
    """CPU seconds for all ``frames`` through fresh ``Layers`` (best of three), and for
    each layer name the CPU seconds its draws took and how many times it was drawn."""
    best = float("inf")
    for _ in range(3):
        kept: dict[int, layers.Layers] = {}
        started = time.process_time()
        for owner, cols, rows, drawn in frames:
            mine = kept.get(owner)
            if mine is None:  # (not setdefault: that would make a Layers every frame)
                mine = kept[owner] = layers.Layers()
            mine.frame(cols, rows, drawn)
        best = min(best, time.process_time() - started)
    draws: dict[str, list[float]] = {}
    kept = {}
    for owner, cols, rows, drawn in frames:
        mine = kept.setdefault(owner, layers.Layers())
        for name, key, draw in drawn:
            before = mine.last_key(name)
            if key is not layers.ALWAYS and before == key:
                continue
            fastest = float("inf")
            for _ in range(3):  # the best of three: what the machine's other load adds, less
                recorder = Recorder(cols, rows)
                started = time.perf_counter()
                key[0](recorder, *key[1:]) if draw is None else draw(recorder)  # type: ignore[index]
                fastest = min(fastest, time.perf_counter() - started)
            took = draws.setdefault(name, [0.0, 0])
            took[0] += fastest
            took[1] += 1
        mine.frame(cols, rows, drawn)
    return best, {name: (seconds, int(count)) for name, (seconds, count) in draws.items()}


Moment = tuple[int, TableView, Any, tuple[int, int]]
"""One table frame: whose (the person, by id), the view, what ``Person.hits`` reads
and the caller's window."""


def _kept_view(view: TableView) -> TableView:
    """A copy of ``view`` that the game going on does not change."""
    kept = copy.copy(view)
    kept.game = view.game.snapshot()
    kept.log = copy.copy(view.log)
    kept.log._kept = list(view.log._kept)  # noqa: SLF001  (the lines as they stood)
    kept.entry = copy.deepcopy(view.entry)
    return kept


def capture_moments(callers: int, seconds: float, charset: Charset) -> list[Moment]:
    """Every table frame of a run, as the person drew it."""
    moments: list[Moment] = []
    draw_frame = Person.frame

    def keeping(self: Person) -> Any:
        drawn = draw_frame(self)
        view = _kept_view(self.view)
        clicked = types.SimpleNamespace(
            nesting=self.nesting,
            own_hand=self.own_hand,
            own_panel=self.own_panel,
            view=view,
            seat=self.seat,
            wants_win_bar=self.wants_win_bar,
        )
        moments.append((id(self), view, clicked, self.session.size))
        return drawn

    Person.frame = keeping  # type: ignore[method-assign]
    try:
        asyncio.run(_run(callers, seconds, charset))
    finally:
        Person.frame = draw_frame  # type: ignore[method-assign]
    return moments


class _Sink:
    """A caller's terminal as the renderer sees it: the bytes written are counted."""

    backlogged = False
    color_mode = ColorMode.ANSI

    def __init__(self, size: tuple[int, int], charset: Charset) -> None:
        self.size, self.charset, self.written = size, charset, 0

    def on_resize(self, listener: Any) -> Any:
        return lambda: None

    def write(self, text: str) -> None:
        self.written += len(text)


def _best_of_three(run: Any) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def replay_moments(moments: list[Moment], charset: Charset) -> dict[str, float]:
    """CPU seconds of the whole frames of ``moments`` drawn again (best of three), and of
    each part alone."""
    frames: list[tuple[int, Any, Any]] = []

    def whole() -> None:
        frames.clear()
        kept: dict[int, tuple[layers.Layers, Renderer]] = {}
        for owner, view, clicked, size in moments:
            if owner not in kept:
                kept[owner] = (layers.Layers(), Renderer(_Sink(size, charset)))  # type: ignore[arg-type]
            mine, renderer = kept[owner]
            canvas, cursor = draw_table(view, mine)
            Person.hits(clicked)
            renderer.render(canvas, cursor)
            frames.append((owner, canvas, cursor))

    def keys() -> None:
        for _, view, _, _ in moments:
            table_layers(view, canvas_size(view.size)[0])

    def hits() -> None:
        for _, _, clicked, _ in moments:
            Person.hits(clicked)

    def renderer_alone() -> None:
        kept: dict[int, Renderer] = {}
        for (owner, canvas, cursor), (_, _, _, size) in zip(frames, moments, strict=True):
            if owner not in kept:
                kept[owner] = Renderer(_Sink(size, charset))  # type: ignore[arg-type]
            kept[owner].render(canvas, cursor)

    took = {"whole frame": _best_of_three(whole)}
    took["  the layers' keys (table_layers)"] = _best_of_three(keys)
    took["  the click map (Person.hits)"] = _best_of_three(hits)
    took["  the renderer"] = _best_of_three(renderer_alone)
    took["  the layers (Layers.frame and draw_table)"] = 2 * took["whole frame"] - sum(
        took.values()
    )
    return took


def print_replay(callers: int, seconds: float, charset: Charset) -> None:
    moments = capture_moments(callers, seconds, charset)
    gc.freeze()  # what was kept is not the door's garbage: no collection walks it
    took = replay_moments(moments, charset)
    count = max(len(moments), 1)
    print(f"{len(moments)} table frames of {callers} callers, drawn again from their moments:")
    for name, seconds_in in took.items():
        print(f"{name:44s} {1e6 * seconds_in / count:6.1f} us a frame")


def print_layers(callers: int, seconds: float, charset: Charset) -> None:
    frames = capture_layers(callers, seconds, charset)
    gc.freeze()  # what was kept is not the door's garbage: no collection walks it
    total, draws = replay_layers(frames)
    count = max(len(frames), 1)
    print(f"{len(frames)} table frames of {callers} callers, drawn again alone:")
    print(f"Layers.frame       {1e6 * total / count:6.1f} us a frame")
    drawing = sum(seconds for seconds, _ in draws.values())
    print(f"  its draws        {1e6 * drawing / count:6.1f} us a frame (each the best of three)")
    for name, (took, drawn) in sorted(draws.items(), key=lambda item: -item[1][0]):
        print(
            f"    {name:14s} {1e6 * took / count:5.1f} us a frame: drawn in "
            f"{drawn / count:4.0%} of frames, {1e6 * took / max(drawn, 1):5.1f} us each"
        )


FRAME_PARTS: Final = (
    # (the part's line, its depth, where the function lives, its name there)
    ("Session.compose", 0, "door.ui.session:Session", "compose"),
    ("Person.compose", 1, "door.table.person:Person", "compose"),
    ("Person.win_bar_shown", 2, "door.table.person:Person", "win_bar_shown"),
    ("draw_table", 1, "door.table.person", "draw_table"),
    ("table_layers", 2, "door.screens.game_screen", "table_layers"),
    ("Layers.frame", 2, "door.term.layers:Layers", "frame"),
    ("hits_of", 1, "door.ui.session", "hits_of"),
    ("Renderer._paint", 0, "door.ui.renderer:Renderer", "_paint"),
)
"""What ``--frames`` times: the session's compose and the renderer's paint are the whole
frame; the lines under each are parts of it."""


def _owner(place: str) -> Any:
    module, _, name = place.partition(":")
    owner = importlib.import_module(module)
    return getattr(owner, name) if name else owner


def time_frames(
    callers: int, seconds: float, charset: Charset, mouse: bool
) -> tuple[dict[str, list[float]], dict[str, float]]:
    """CPU seconds and calls of each of ``FRAME_PARTS`` in a run, and the run's tally."""
    took: dict[str, list[float]] = {name: [0.0, 0] for name, *_ in FRAME_PARTS}
    originals = []
    for name, _, place, attribute in FRAME_PARTS:
        owner = _owner(place)
        original = getattr(owner, attribute)
        originals.append((owner, attribute, original))

        def timed(*args: Any, _original: Any = original, _took: list[float] = took[name]) -> Any:
            started = time.thread_time()
            try:
                return _original(*args)
            finally:
                _took[0] += time.thread_time() - started
                _took[1] += 1

        setattr(owner, attribute, timed)
    try:
        tally = asyncio.run(_run(callers, seconds, charset, mouse))
    finally:
        for owner, attribute, original in originals:
            setattr(owner, attribute, original)
    return took, tally


def print_frames(callers: int, seconds: float, charset: Charset, mouse: bool) -> None:
    took, tally = time_frames(callers, seconds, charset, mouse)
    frames = max(took["Session.compose"][1], 1)
    whole = took["Session.compose"][0] + took["Renderer._paint"][0]
    print(
        f"{frames} frames of {callers} callers ({tally['keys']:.0f} keys), clicks "
        f"{'on' if mouse else 'off'}:"
    )
    print(f"the whole frame            {1e6 * whole / frames:6.1f} us a frame")
    for name, depth, *_ in FRAME_PARTS:
        seconds_in, calls = took[name]
        print(
            f"  {'  ' * depth}{name:{24 - 2 * depth}s} {1e6 * seconds_in / frames:6.1f} us a frame"
            f" ({calls / frames:.2f} calls a frame)"
        )


def time_bar_moves(
    callers: int, seconds: float, charset: Charset, mouse: bool
) -> tuple[list[float], dict[str, float]]:
    """The processor time of each ``Person.draw`` in a run that drew a move of the
    highlight bar alone (the hand's labels the one layer drawn, their key changed), the
    bot's reading of the bytes left out, and the run's tally."""
    draw, write = Person.draw, _Screen.write
    moves: list[float] = []
    reading = [0.0]  # the bots' processor time, reading what the door sent

    def timed_write(screen: _Screen, data: bytes) -> None:
        started = time.thread_time()
        write(screen, data)
        reading[0] += time.thread_time() - started

    async def timed(person: Person) -> None:
        labels = person.layers.last_key("hand labels")
        read_before = reading[0]
        started = time.thread_time()
        await draw(person)
        took = time.thread_time() - started - (reading[0] - read_before)
        if person.layers.drawn == 1 and person.layers.last_key("hand labels") != labels:
            moves.append(took)

    Person.draw = timed  # type: ignore[method-assign]
    _Screen.write = timed_write  # type: ignore[method-assign]
    try:
        tally = asyncio.run(_run(callers, seconds, charset, mouse))
    finally:
        Person.draw = draw  # type: ignore[method-assign]
        _Screen.write = write  # type: ignore[method-assign]
    return moves, tally


def print_bar_moves(callers: int, seconds: float, charset: Charset, mouse: bool) -> None:
    moves, tally = time_bar_moves(callers, seconds, charset, mouse)
    keys = max(tally["keys"], 1)
    print(
        f"{len(moves)} bar moves of {callers} callers ({len(moves) / keys:.0%} of "
        f"{keys:.0f} keys), Person.draw:"
    )
    if moves:
        quartiles = statistics.quantiles(moves, n=4)
        print(
            f"median {1e6 * statistics.median(moves):.1f} us, quartiles "
            f"{1e6 * quartiles[0]:.1f}-{1e6 * quartiles[2]:.1f}, mean "
            f"{1e6 * statistics.fmean(moves):.1f} us of processor time a move"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--callers", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--charset", choices=[c.name.lower() for c in Charset], default="utf8")
    parser.add_argument(
        "--profile", nargs="?", const="cumulative", choices=["cumulative", "tottime"]
    )
    parser.add_argument(
        "--layers", action="store_true", help="time Layers.frame and each layer's draws alone"
    )
    parser.add_argument(
        "--frames", action="store_true", help="time the whole frame and its parts in the game"
    )
    parser.add_argument(
        "--replay", action="store_true", help="time whole table frames drawn again alone"
    )
    parser.add_argument(
        "--moves", action="store_true", help="time the draws of the highlight bar's moves"
    )
    parser.add_argument(
        "--no-mouse", dest="mouse", action="store_false", help="callers ask for no clicks"
    )
    args = parser.parse_args()
    charset = Charset[args.charset.upper()]
    # The tables read and the garbage collector set as the door's start-up does.
    load_win_tables()
    prepare_computer_player()
    if args.layers:
        print_layers(args.callers, args.seconds, charset)
        return 0
    if args.replay:
        print_replay(args.callers, args.seconds, charset)
        return 0
    if args.frames:
        print_frames(args.callers, args.seconds, charset, args.mouse)
        return 0
    if args.moves:
        print_bar_moves(args.callers, args.seconds, charset, args.mouse)
        return 0
    profiler = cProfile.Profile() if args.profile else None
    started = time.process_time()
    if profiler is not None:
        profiler.enable()
    tally = asyncio.run(_run(args.callers, args.seconds, charset, args.mouse))
    if profiler is not None:
        profiler.disable()
    cpu = time.process_time() - started - tally["bot_cpu"]
    keys = max(tally["keys"], 1)
    print(f"{args.callers} callers, {args.seconds:.0f} s, {args.charset}: {keys:.0f} keys")
    print(f"door CPU per key   {1000 * cpu / keys:.3f} ms (bots' parsing left out)")
    print(f"frames per key     {tally['frames'] / keys:.2f}")
    print(f"bytes per key      {tally['bytes'] / keys:.0f}")
    print(f"unanswered keys    {tally['failures']:.0f}")
    for name in ("utf8", "cp437", "ascii"):
        moves = bar_move_bytes(Charset[name.upper()])
        print(f"bar move bytes {name:5s} {statistics.median(moves):.0f} (each: {moves})")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats(args.profile).print_stats(40)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
