"""A screen waits in one place for the caller's next key or news from elsewhere."""

from __future__ import annotations

import asyncio

import pytest

from door.term.inbox import Inbox
from door.term.keys import Key
from door.term.terminal import Disconnected
from tests.door.caller import KeyboardTerminal
from tests.door.waiting import until


def run(scenario):  # type: ignore[no-untyped-def]
    return asyncio.run(asyncio.wait_for(scenario(), 5))


def test_a_key_is_returned_and_a_wake_up_returns_none() -> None:
    async def scenario() -> list[object]:
        terminal = KeyboardTerminal()
        inbox = Inbox(terminal)
        terminal.push_keys("a")
        got: list[object] = [await inbox.next()]
        waiting = asyncio.ensure_future(inbox.next())
        await until(lambda: terminal.reading, what="the screen waiting for a key")
        inbox.wake()
        got.append(await waiting)
        terminal.push_keys("b")  # waited for the wake-up's redraw: not lost
        got.append(await inbox.next())
        terminal.close()
        return got

    assert run(scenario) == [Key.printable("a"), None, Key.printable("b")]


def test_a_wake_up_before_the_wait_is_answered_at_once_and_only_once() -> None:
    async def scenario() -> list[object]:
        terminal = KeyboardTerminal()
        inbox = Inbox(terminal)
        inbox.wake()
        first = await inbox.next()
        terminal.push_keys("x")
        second = await inbox.next()
        terminal.close()
        return [first, second]

    assert run(scenario) == [None, Key.printable("x")]


def test_the_timeout_returns_none_and_the_next_key_still_comes() -> None:
    async def scenario() -> list[object]:
        terminal = KeyboardTerminal()
        inbox = Inbox(terminal)
        got: list[object] = [await inbox.next(timeout=0.02)]
        terminal.push_keys("k")
        got.append(await inbox.next(timeout=1.0))
        terminal.close()
        return got

    assert run(scenario) == [None, Key.printable("k")]


def test_a_dropped_line_is_raised() -> None:
    async def scenario() -> None:
        terminal = KeyboardTerminal()
        inbox = Inbox(terminal)
        terminal.hang_up()
        await inbox.next()

    with pytest.raises(Disconnected):
        run(scenario)


def test_cancelling_the_waiting_screen_cancels_it_and_leaves_the_keys() -> None:
    async def scenario() -> tuple[bool, object]:
        terminal = KeyboardTerminal()
        inbox = Inbox(terminal)
        waiting = asyncio.ensure_future(inbox.next())
        await until(lambda: terminal.reading, what="the screen waiting for a key")
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        terminal.push_keys("z")  # the next screen gets it
        key = await inbox.next()
        terminal.close()
        return waiting.cancelled(), key

    assert run(scenario) == (True, Key.printable("z"))


def test_waiting_for_news_alone_ends_at_the_wake_up() -> None:
    async def scenario() -> bool:
        terminal = KeyboardTerminal()
        inbox = Inbox(terminal)
        waiting = asyncio.ensure_future(inbox.wait_woken())
        # Waiting for news alone watches no key: nothing to see it wait by. A
        # moment's run of the loop is what must not end the wait.
        await asyncio.sleep(0.01)
        pending = not waiting.done()
        inbox.wake()
        await waiting
        terminal.close()
        return pending

    assert run(scenario) is True


def test_a_key_that_comes_with_a_wake_up_is_kept() -> None:
    async def scenario() -> list[Key | None]:
        terminal = KeyboardTerminal()
        inbox = Inbox(terminal)
        waiting = asyncio.ensure_future(inbox.next())
        await until(lambda: terminal.reading, what="the screen waiting for a key")
        terminal.push_keys("a")
        await terminal.settle()  # the key is in: the screen has yet to run
        inbox.wake()
        got = [await waiting, await inbox.next(), await inbox.next(timeout=0.02)]
        terminal.close()
        return got

    # The key first, then the wake-up it came with; nothing more.
    assert run(scenario) == [Key.printable("a"), None, None]


def test_a_wake_up_comes_before_the_keys_waiting_which_stay_in_order() -> None:
    async def scenario() -> list[Key | None]:
        terminal = KeyboardTerminal()
        inbox = Inbox(terminal)
        terminal.push_keys("a", "b")
        await terminal.settle()
        inbox.wake()
        got = [await inbox.next(), await inbox.next(), await inbox.next()]
        terminal.close()
        return got

    assert run(scenario) == [None, Key.printable("a"), Key.printable("b")]


def test_a_screen_cancelled_as_its_key_arrives_leaves_the_key_for_the_next() -> None:
    async def scenario() -> tuple[bool, object]:
        terminal = KeyboardTerminal()
        inbox = Inbox(terminal)
        waiting = asyncio.ensure_future(inbox.next())
        await until(lambda: terminal.reading, what="the screen waiting for a key")
        terminal.push_keys("z")
        await terminal.settle()  # the key has settled the screen's wait...
        waiting.cancel()  # ...and the screen is cancelled before it runs
        await asyncio.gather(waiting, return_exceptions=True)
        key = await inbox.next(timeout=0.5)
        terminal.close()
        return waiting.cancelled(), key

    assert run(scenario) == (True, Key.printable("z"))


def test_a_key_typed_too_small_to_see_answers_nothing() -> None:
    async def scenario() -> list[Key | None]:
        terminal = KeyboardTerminal(cols=20, rows=5)
        inbox = Inbox(terminal)
        terminal.push_keys("a")
        got = [await inbox.next()]
        terminal.resize(80, 24)
        terminal.push_keys("b")
        got.append(await inbox.next())
        terminal.close()
        return got

    assert run(scenario) == [None, Key.printable("b")]


def test_a_key_typed_ahead_is_taken_without_waiting_even_when_woken() -> None:
    async def scenario() -> list[Key | None]:
        terminal = KeyboardTerminal()
        inbox = Inbox(terminal)
        got = [await inbox.typed_ahead()]  # none typed: no wait
        terminal.push_keys("ab")
        await terminal.settle()
        inbox.wake()
        got += [await inbox.typed_ahead(), await inbox.typed_ahead(), await inbox.typed_ahead()]
        got.append(await inbox.next())  # the wake-up is still there for the screen
        terminal.close()
        return got

    assert run(scenario) == [None, Key.printable("a"), Key.printable("b"), None, None]


def test_a_key_typed_ahead_too_small_to_see_is_left_for_next() -> None:
    async def scenario() -> list[Key | None]:
        terminal = KeyboardTerminal(cols=20, rows=5)
        inbox = Inbox(terminal)
        terminal.push_keys("a")
        await terminal.settle()
        got = [await inbox.typed_ahead(), await inbox.next()]  # next answers it: redraw
        terminal.close()
        return got

    assert run(scenario) == [None, None]


def test_waiting_makes_no_task() -> None:
    async def scenario() -> tuple[list[str], list[Key | None]]:
        terminal = KeyboardTerminal()
        inbox = Inbox(terminal)
        terminal.start()  # the terminal's own input task, made once per caller
        loop = asyncio.get_running_loop()
        made: list[str] = []

        def count(loop: asyncio.AbstractEventLoop, coro, **kwargs):  # type: ignore[no-untyped-def]
            made.append(coro.__qualname__)
            return asyncio.Task(coro, loop=loop, **kwargs)

        loop.set_task_factory(count)
        waiting = loop.create_task(inbox.next())  # the screen's own task
        await until(lambda: terminal.reading, what="the screen waiting for a key")
        inbox.wake()
        got = [await waiting]
        waiting = loop.create_task(inbox.next())
        await until(lambda: terminal.reading, what="the screen waiting for a key")
        terminal.push_keys("k")
        got.append(await waiting)
        got.append(await inbox.next(timeout=0.01))
        loop.set_task_factory(None)
        terminal.close()
        return made, got

    assert run(scenario) == (["Inbox.next", "Inbox.next"], [None, Key.printable("k"), None])
