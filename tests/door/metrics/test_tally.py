"""What the key path counts: keys, frames, bytes, and the time from a key coming in to
the frame answering it, on a terminal in memory with a clock the test moves."""

from __future__ import annotations

import asyncio

from door.metrics.tally import KEY_SECONDS_BUCKETS, TALLY, Tally
from door.term.keys import Key
from tests.door.caller import run_async
from tests.door.fake_terminal import FakeTerminal


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def snapshot() -> tuple[int, int, int, list[int], float]:
    return (
        TALLY.keys,
        TALLY.frames,
        TALLY.bytes_sent,
        list(TALLY.key_buckets),
        TALLY.key_seconds_sum,
    )


@run_async
async def test_a_key_answered_by_a_frame_is_timed_from_its_arrival_to_the_frame() -> None:
    clock = Clock()
    terminal = FakeTerminal(clock=clock)
    keys, frames, sent, buckets, seconds = snapshot()
    terminal.push_keys("a", "b")
    assert await terminal.read_key() == Key.printable("a")
    clock.now += 0.004  # the screen takes 4 ms to answer
    terminal.write("answered")
    await terminal.flush()
    assert await terminal.read_key() == Key.printable("b")  # already answered: not timed again
    terminal.write("more")
    await terminal.flush()
    await asyncio.sleep(0)
    assert TALLY.keys - keys == 2
    assert TALLY.frames - frames == 2
    assert TALLY.bytes_sent - sent == len(b"answered") + len(b"more")
    timed = [after - before for after, before in zip(TALLY.key_buckets, buckets, strict=True)]
    assert timed == [0, 0, 1] + [0] * (len(KEY_SECONDS_BUCKETS) - 2)  # within 5 ms, over 2.5
    assert abs(TALLY.key_seconds_sum - seconds - 0.004) < 1e-9
    terminal.close()


@run_async
async def test_a_frame_with_no_key_waiting_times_nothing() -> None:
    terminal = FakeTerminal(clock=Clock())
    _, frames, _, buckets, _ = snapshot()
    terminal.write("a clock ticking on the screen")
    await terminal.flush()
    assert TALLY.frames - frames == 1
    assert TALLY.key_buckets == buckets
    terminal.close()


def test_a_slow_answer_lands_in_the_last_bucket() -> None:
    tally = Tally()
    tally.key_answered(KEY_SECONDS_BUCKETS[-1] * 2)
    tally.key_answered(KEY_SECONDS_BUCKETS[0])  # on the bound: within it
    assert tally.key_buckets[-1] == 1 and tally.key_buckets[0] == 1
