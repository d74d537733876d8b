"""One caller's flood, stalled output or resize storm stays that caller's problem:
keys past the rate are dropped, an unread screen is kept as one latest frame, resizes
coalesce into one repaint, and a caller who reads nothing is hung up on."""

from __future__ import annotations

import asyncio

from door.term.canvas import Canvas
from door.term.keys import Key
from door.term.terminal import Disconnected, StreamTerminal
from door.term.window import MAX_COLS, MAX_ROWS
from door.ui.renderer import Renderer
from tests.door.waiting import until


class _Source:
    """Input pushed by the test; counts how often the terminal asked for more."""

    def __init__(self) -> None:
        self.chunks: asyncio.Queue[bytes] = asyncio.Queue()
        self.reads = 0

    async def read(self) -> bytes:
        self.reads += 1
        return await self.chunks.get()


class _StuckSink:
    """A transport whose caller reads nothing: bytes pile up and drain never returns
    while ``stuck``."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.stuck = False
        self.closed = False
        self._unstuck = asyncio.Event()

    def write(self, data: bytes) -> None:
        self.data += data

    def buffered(self) -> int:
        return len(self.data) if self.stuck else 0

    async def drain(self) -> None:
        while self.stuck:
            self._unstuck.clear()
            await self._unstuck.wait()

    def release(self) -> None:
        self.stuck = False
        self._unstuck.set()

    def close(self) -> None:
        self.closed = True


def test_keys_past_the_rate_are_dropped_not_queued() -> None:
    async def scenario() -> tuple[list[Key], int, int]:
        source = _Source()
        terminal = StreamTerminal(source, _StuckSink(), key_rate=10, key_burst=5)
        terminal.start()
        source.chunks.put_nowait(b"abcdefghij" * 100)
        got = [await asyncio.wait_for(terminal.read_key(), 1) for _ in range(5)]
        # That reading stays paused has no event: a moment in which a second read, were
        # the terminal still reading, would have come.
        await asyncio.sleep(0.05)
        reads = source.reads
        terminal.close()
        return got, terminal.keys_dropped, reads

    keys, dropped, reads = asyncio.run(scenario())
    assert keys == [Key.printable(c) for c in "abcde"]
    assert dropped == 995
    assert reads == 1  # reading paused: the rest waits in the caller's transport


def test_reading_resumes_when_the_bucket_refills() -> None:
    async def scenario() -> list[Key]:
        source = _Source()
        terminal = StreamTerminal(source, _StuckSink(), key_rate=100, key_burst=2)
        terminal.start()
        source.chunks.put_nowait(b"xyz")
        source.chunks.put_nowait(b"Q")
        keys = [await asyncio.wait_for(terminal.read_key(), 1) for _ in range(3)]
        terminal.close()
        return keys

    assert asyncio.run(scenario()) == [Key.printable("x"), Key.printable("y"), Key.printable("Q")]


def test_window_sizes_are_clamped() -> None:
    terminal = StreamTerminal(_Source(), _StuckSink(), size=(65535, 65535))
    assert terminal.size == (MAX_COLS, MAX_ROWS)
    terminal.resize(0, 0)
    assert terminal.size == (80, 24)
    terminal.resize(99999, 30)
    assert terminal.size == (MAX_COLS, 30)


def _frame(text: str) -> Canvas:
    canvas = Canvas()
    canvas.put(3, 3, text)
    return canvas


def test_a_caller_who_does_not_read_gets_only_the_latest_frame_once_they_do() -> None:
    async def scenario() -> tuple[bytes, bytes]:
        sink = _StuckSink()
        terminal = StreamTerminal(_Source(), sink, term_type="xterm")
        renderer = Renderer(terminal)
        renderer.render(_frame("first"))
        await terminal.flush()
        sink.stuck = True
        sink.data += b"x" * 70_000  # the caller has stopped reading
        before = len(sink.data)
        for number in range(200):
            renderer.render(_frame(f"frame {number:03d}"))
        held = bytes(sink.data[before:])
        sink.release()
        sink.data.clear()
        await until(lambda: b"rame 199" in sink.data, what="the newest frame sent")
        renderer.close()
        return held, bytes(sink.data)

    held, sent = asyncio.run(scenario())
    assert held == b""  # nothing piles up while the caller does not read
    assert b"rame 199" in sent  # the diff from "first": the f stays
    assert b"198" not in sent


def test_a_storm_of_resizes_is_one_task_and_one_repaint() -> None:
    async def scenario() -> tuple[int, int, int]:
        sink = _StuckSink()
        terminal = StreamTerminal(_Source(), sink, term_type="xterm")
        renderer = Renderer(terminal)
        renderer.render(_frame("board"))
        await terminal.flush()
        sink.stuck = True
        tasks_before = len(asyncio.all_tasks())
        for number in range(5000):
            terminal.resize(80 + number % 20, 24)  # sizes that fit: each repaint is the frame
        tasks_during = len(asyncio.all_tasks()) - tasks_before
        held = len(sink.data)
        sink.release()
        # Resizes coalesce on a timer (the renderer's repaint interval, 50 ms): wait it
        # out several times over, so that a repaint too many would be counted.
        await asyncio.sleep(0.2)
        repaints = bytes(sink.data).count(b"board")
        renderer.close()
        await asyncio.sleep(0)
        return tasks_during, held, repaints

    tasks, held, repaints = asyncio.run(scenario())
    assert tasks == 1
    assert held < 10_000  # one repaint written, not five thousand
    assert repaints == 3  # the first frame, the first resize's, the newest size's


def test_closing_the_renderer_ends_its_background_task() -> None:
    async def scenario() -> int:
        sink = _StuckSink()
        terminal = StreamTerminal(_Source(), sink, term_type="xterm")
        renderer = Renderer(terminal)
        renderer.render(_frame("board"))
        sink.stuck = True
        terminal.resize(100, 30)
        renderer.close()
        await until(lambda: len(asyncio.all_tasks()) == 1, what="the renderer's task ended")
        return len(asyncio.all_tasks())

    assert asyncio.run(scenario()) == 1  # only the scenario itself


def test_a_caller_who_reads_nothing_for_too_long_is_hung_up_on() -> None:
    async def scenario() -> tuple[bool, bool]:
        sink = _StuckSink()
        terminal = StreamTerminal(_Source(), sink, output_stall_seconds=0.1)
        sink.stuck = True
        terminal.write("hello")
        try:
            await asyncio.wait_for(terminal.flush(), 1)
        except Disconnected:
            return True, sink.closed
        return False, sink.closed

    assert asyncio.run(scenario()) == (True, True)


def test_output_nobody_reads_past_the_hard_cap_closes_the_line() -> None:
    async def scenario() -> tuple[bool, bool]:
        sink = _StuckSink()
        terminal = StreamTerminal(_Source(), sink)
        sink.stuck = True
        for _ in range(40):
            terminal.write("y" * 64 * 1024)
        return terminal.connected, sink.closed

    assert asyncio.run(scenario()) == (False, True)


def test_a_flush_the_transport_takes_at_once_starts_no_task_and_a_stalled_one_is_timed() -> None:
    """Every frame is flushed: with nothing waiting in the transport the flush awaits
    the drain itself; only output held in the transport is given the stall timeout (a
    task each), and a sink that cannot tell what it holds always is."""

    class _BlindSink(_StuckSink):
        buffered = None  # type: ignore[assignment]  # (rlogin's: it cannot tell)

    async def tasks_made(sink: _StuckSink, flushes: int) -> int:
        loop = asyncio.get_running_loop()
        made = 0
        default = loop.get_task_factory()

        def counting(loop: asyncio.AbstractEventLoop, coro, **kwargs):  # type: ignore[no-untyped-def]
            nonlocal made
            made += 1
            if default is not None:
                return default(loop, coro, **kwargs)
            return asyncio.Task(coro, loop=loop, **kwargs)

        terminal = StreamTerminal(_Source(), sink, output_stall_seconds=5)
        loop.set_task_factory(counting)
        try:
            for _ in range(flushes):
                terminal.write("frame")
                await terminal.flush()
        finally:
            loop.set_task_factory(default)
        return made

    assert asyncio.run(tasks_made(_StuckSink(), 100)) == 0
    assert asyncio.run(tasks_made(_BlindSink(), 100)) >= 100
