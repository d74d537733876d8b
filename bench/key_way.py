"""The key's way in: process CPU from a telnet caller's bytes reaching the door's telnet
protocol to the screen's ``Inbox.next`` returning the key, and the frame's way out: a
frame written and flushed to the transport.

No socket and no drawing: telnetlib3's server protocol over a transport that takes
every write at once, the caller's ``StreamTerminal`` (key decoder, rate limit, key
queue) behind the idle guard, and a screen's ``Inbox`` reading a key, writing a frame of
``--frame-bytes`` and flushing it, as a table's person does. What it times is the part
of a key that is neither the table nor the drawing nor the kernel: the tasks, awaits,
queues and timers in between (issue #48). Compare checkouts with ``--code``.

Run: python bench/key_way.py [--keys 20000] [--code PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path


class _Transport(asyncio.Transport):
    """A socket that takes every write at once."""

    def __init__(self) -> None:
        super().__init__()
        self.sent = 0

    def get_extra_info(self, name: str, default: object = None) -> object:
        return ("127.0.0.1", 4000) if name == "peername" else default

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.sent += len(data)

    def is_closing(self) -> bool:
        return False

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_write_buffer_size(self) -> int:
        return 0

    def close(self) -> None:
        pass


async def run(keys: int, frame_bytes: int) -> tuple[float, float]:
    """(us of CPU a key in and out, us a key for the frame's write and flush alone)."""
    return await _keys_in_and_frames_out(keys, frame_bytes)


def hops_a_key(keys: int, frame_bytes: int) -> float:
    """Callbacks the event loop ran a key (a task's wake-up is one, a future's done
    callback or a timer another), the bench's own wake-up for the next key included."""
    ran = [0]
    asyncio.run(_keys_in_and_frames_out(keys, frame_bytes, ran))
    return ran[0] / keys


async def _keys_in_and_frames_out(
    keys: int, frame_bytes: int, ran: list[int] | None = None
) -> tuple[float, float]:
    """``run``; with ``ran``, the loop's callbacks while the keys go in and out are
    counted into it (slower: not timed then)."""
    from door.term.charset import Charset
    from door.term.idle import IdleGuardTerminal
    from door.term.inbox import Inbox
    from door.transports.telnet import DoorTelnetServer, terminal_for

    protocol = DoorTelnetServer(encoding=False, timeout=False)
    transport = _Transport()
    protocol.connection_made(transport)
    terminal = IdleGuardTerminal(
        terminal_for(protocol.reader, protocol.writer, key_rate=1e9, key_burst=10**9),
        warn_after=600.0,
        hang_up_after=900.0,
    )
    terminal.charset = Charset.UTF8  # as an xterm caller's
    inbox = Inbox(terminal)
    frame = "x" * frame_bytes
    loop = asyncio.get_running_loop()
    flushing = 0.0

    answered: asyncio.Future[None] = loop.create_future()

    async def screen() -> None:
        nonlocal flushing, answered
        for _ in range(keys):
            key = await inbox.next()
            assert key is not None
            began = time.process_time()
            terminal.write(frame)
            await terminal.flush()
            flushing += time.process_time() - began
            answered.set_result(None)

    reading = loop.create_task(screen())
    await asyncio.sleep(0)
    run_handle = asyncio.events.Handle._run
    if ran is not None:

        def counted(handle: asyncio.events.Handle) -> None:
            ran[0] += 1
            run_handle(handle)

        asyncio.events.Handle._run = counted  # type: ignore[method-assign, assignment]
    began = time.process_time()
    for _ in range(keys):
        protocol.data_received(b"\x1b[C")  # an arrow: the bar moves
        await answered
        answered = loop.create_future()
    await reading
    spent = time.process_time() - began
    asyncio.events.Handle._run = run_handle  # type: ignore[method-assign]
    terminal.close()
    return spent / keys * 1e6, flushing / keys * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=20000)
    parser.add_argument("--frame-bytes", type=int, default=430)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--code", type=Path, default=Path(__file__).resolve().parents[1], help="the checkout"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(args.code))
    figures = [asyncio.run(run(args.keys, args.frame_bytes)) for _ in range(args.runs)]
    each = statistics.median(whole for whole, _ in figures)
    out = statistics.median(flush for _, flush in figures)
    hops = hops_a_key(2000, args.frame_bytes)
    print(
        f"{args.code}: {each:.1f} us of CPU a key in and its frame out "
        f"(the frame's write and flush {out:.1f} us); median of {args.runs} runs of "
        f"{args.keys} keys; the loop ran {hops:.2f} callbacks a key (one is the bench's)"
    )


if __name__ == "__main__":
    main()
