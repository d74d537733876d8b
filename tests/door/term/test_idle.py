import asyncio
import gc
import weakref

import pytest

from door.term.ansi import CLEAR_TO_END_OF_LINE, at
from door.term.idle import IdleGuardTerminal, IdleTimeout
from door.term.inbox import Inbox
from door.term.keys import Key
from tests.door.fake_terminal import FakeTerminal
from tests.door.waiting import until


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_idle_caller_is_warned_then_disconnected() -> None:
    async def scenario() -> list[str]:
        terminal = FakeTerminal()
        guard = IdleGuardTerminal(terminal, warn_after=0.05, hang_up_after=0.15)
        with pytest.raises(IdleTimeout):
            await guard.read_key()
        return terminal.display

    display = asyncio.run(scenario())
    screen = "\n".join(display)
    assert "Are you there?" in screen
    assert "goodbye" in screen


def test_a_key_after_the_warning_repaints_first_then_arrives() -> None:
    async def scenario() -> list[Key]:
        terminal = FakeTerminal()
        guard = IdleGuardTerminal(terminal, warn_after=0.05, hang_up_after=5)

        async def press_later() -> None:
            await until(lambda: _shows_warning(terminal), what="the warning on the screen")
            terminal.push_keys("x")

        task = asyncio.create_task(press_later())
        keys = [await guard.read_key(), await guard.read_key()]
        await task
        return keys

    assert asyncio.run(scenario()) == [Key.CTRL_L, Key.printable("x")]


def test_a_screen_waiting_for_a_key_or_news_is_warned_then_hung_up() -> None:
    async def scenario() -> tuple[bool, object, bool, bool, float]:
        terminal = FakeTerminal()
        guard = IdleGuardTerminal(terminal, warn_after=0.05, hang_up_after=0.3)
        inbox = Inbox(guard)
        started = asyncio.get_running_loop().time()
        waiting = asyncio.ensure_future(inbox.next())
        await until(lambda: _shows_warning(terminal), what="the warning on the screen")
        warned = not waiting.done()  # no answer for the screen
        inbox.wake()  # news: the screen redraws, over the warning
        woken = await waiting
        guard.write(f"{at(24, 1)}the table's news{CLEAR_TO_END_OF_LINE}")
        await guard.flush()
        covered = not _shows_warning(terminal)
        with pytest.raises(IdleTimeout):
            await inbox.next()
        shown_again = "Are you there?" in terminal.output.decode().split("news")[-1]
        return (
            warned,
            woken,
            covered,
            shown_again and "goodbye" in "\n".join(terminal.display),
            asyncio.get_running_loop().time() - started,
        )

    warned, woken, covered, shown_again_then_goodbye, seconds = asyncio.run(
        asyncio.wait_for(scenario(), 5)
    )
    assert (warned, woken, covered, shown_again_then_goodbye) == (True, None, True, True)
    assert 0.3 <= seconds < 1.0  # the news did not put the hang-up off


def test_a_screen_waiting_for_news_gets_a_key_after_the_warning_as_ctrl_l_then_the_key() -> None:
    async def scenario() -> list[object]:
        terminal = FakeTerminal()
        guard = IdleGuardTerminal(terminal, warn_after=0.05, hang_up_after=5)
        inbox = Inbox(guard)
        waiting = asyncio.ensure_future(inbox.next())
        await until(lambda: _shows_warning(terminal), what="the warning on the screen")
        terminal.push_keys("x")
        return [await waiting, await inbox.next(), await inbox.next(timeout=0.01)]

    assert asyncio.run(asyncio.wait_for(scenario(), 5)) == [Key.CTRL_L, Key.printable("x"), None]


def test_a_key_pressed_in_time_is_no_idleness() -> None:
    async def scenario() -> tuple[list[object], bool]:
        terminal = FakeTerminal()
        guard = IdleGuardTerminal(terminal, warn_after=0.08, hang_up_after=0.16)
        inbox = Inbox(guard)
        got: list[object] = []
        for _ in range(4):  # 0.24 s in all, never 0.08 s without a key
            waiting = asyncio.ensure_future(inbox.next())
            await asyncio.sleep(0.06)  # the point: a key each 60 ms, inside the 80 ms
            terminal.push_keys("k")
            got.append(await waiting)
        return got, _shows_warning(terminal)

    assert asyncio.run(asyncio.wait_for(scenario(), 5)) == ([Key.printable("k")] * 4, False)


def _shows_warning(terminal: FakeTerminal) -> bool:
    return "Are you there?" in terminal.display[-1]


def test_a_key_answering_the_warning_brings_the_next_warning_on_time() -> None:
    """The hang-up's deadline is far off; the key that answered the warning brings the
    next warning's sooner, and the guard warns then, not at the hang-up's."""

    async def scenario() -> float:
        terminal = FakeTerminal()
        guard = IdleGuardTerminal(terminal, warn_after=0.05, hang_up_after=2.0)
        inbox = Inbox(guard)
        loop = asyncio.get_running_loop()
        waiting = asyncio.ensure_future(inbox.next())
        await until(lambda: _shows_warning(terminal), what="the warning on the screen")
        terminal.push_keys("x")
        assert [await waiting, await inbox.next()] == [Key.CTRL_L, Key.printable("x")]
        answered = loop.time()
        guard.write(f"{at(24, 1)}the screen, repainted{CLEAR_TO_END_OF_LINE}")
        await guard.flush()
        assert not _shows_warning(terminal)
        waiting = asyncio.ensure_future(inbox.next())
        await until(lambda: _shows_warning(terminal), what="the warning on the screen")
        waiting.cancel()
        return loop.time() - answered

    assert asyncio.run(asyncio.wait_for(scenario(), 5)) < 0.5


def test_waits_answered_by_keys_share_one_timer() -> None:
    async def scenario() -> int:
        terminal = FakeTerminal()
        guard = IdleGuardTerminal(terminal, warn_after=30, hang_up_after=60)
        loop = asyncio.get_running_loop()
        made = 0
        call_at = loop.call_at

        def counting_call_at(*args, **kwargs):  # type: ignore[no-untyped-def]
            nonlocal made
            made += 1
            return call_at(*args, **kwargs)

        loop.call_at = counting_call_at  # type: ignore[method-assign]
        for _ in range(50):
            waiting = asyncio.ensure_future(guard.read_key())
            await asyncio.sleep(0)
            terminal.push_keys("k")
            assert await waiting == Key.printable("k")
        return made

    assert asyncio.run(asyncio.wait_for(scenario(), 5)) == 1


def test_a_guard_let_go_is_not_kept_by_its_timer() -> None:
    async def scenario() -> bool:
        terminal = FakeTerminal()
        guard = IdleGuardTerminal(terminal, warn_after=30, hang_up_after=60)
        waiting = asyncio.ensure_future(guard.read_key())
        await asyncio.sleep(0)
        terminal.push_keys("k")
        await waiting
        gone = weakref.ref(guard)
        del guard, waiting
        gc.collect()
        return gone() is None

    assert asyncio.run(scenario())


def test_time_waiting_on_others_is_not_counted_and_the_count_restarts_when_it_ends() -> None:
    async def scenario() -> tuple[object, bool, float]:
        terminal = FakeTerminal()
        guard = IdleGuardTerminal(terminal, warn_after=0.05, hang_up_after=0.1)
        inbox = Inbox(guard)
        loop = asyncio.get_running_loop()
        guard.waiting_on_others(True)
        waited = await inbox.next(timeout=0.3)  # three hang-ups long: no key, no news
        warned_meanwhile = _shows_warning(terminal)
        guard.waiting_on_others(False)
        ended = loop.time()
        waiting = asyncio.ensure_future(inbox.next())
        await until(lambda: _shows_warning(terminal), what="the warning on the screen")
        waiting.cancel()
        return waited, warned_meanwhile, loop.time() - ended

    waited, warned_meanwhile, warned_after = asyncio.run(asyncio.wait_for(scenario(), 5))
    assert (waited, warned_meanwhile) == (None, False)
    assert warned_after >= 0.045  # counted from the end of the wait, not before


def test_a_warning_is_withdrawn_by_a_wait_on_others_and_given_again_after_it() -> None:
    # Before, the warning stood through the wait (the table's screen covering it) and
    # after it the hang-up came with no warning written again.
    async def scenario() -> tuple[bool, float, float]:
        terminal = FakeTerminal()
        guard = IdleGuardTerminal(terminal, warn_after=0.05, hang_up_after=0.4)
        loop = asyncio.get_running_loop()
        reading = asyncio.ensure_future(guard.read_key())
        await until(lambda: _shows_warning(terminal), what="the first warning")
        guard.waiting_on_others(True)
        guard.write("\x1b[2J")  # the screen, drawn over the warning
        await asyncio.sleep(0.5)  # longer than the hang-up
        covered = not _shows_warning(terminal)
        guard.waiting_on_others(False)
        ended = loop.time()
        await until(lambda: _shows_warning(terminal), what="warned again")
        warned_after = loop.time() - ended
        with pytest.raises(IdleTimeout):
            await reading
        return covered, warned_after, loop.time() - ended

    covered, warned_after, hung_up_after = asyncio.run(asyncio.wait_for(scenario(), 5))
    assert covered
    assert 0.045 <= warned_after < 0.3  # the warning's time, not the hang-up's
    assert hung_up_after >= 0.4 * 0.9
