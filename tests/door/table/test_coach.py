"""The coach at the table: h turns it on; each choice is then weighed in the log."""

from __future__ import annotations

import asyncio

from door.term.keys import Key
from tests.door.caller import KeyboardTerminal, run_async
from tests.door.table.test_table import KNOWN_SHOW, log_text, press, start, until_status
from tests.stacked import StackedRandom


async def until_logged(terminal: KeyboardTerminal, words: str) -> str:
    for _ in range(300):
        text = log_text(terminal)
        if words in text:
            return text
        await asyncio.sleep(0.02)
        terminal.press(Key.CTRL_L)  # a key the table answers with a redraw only
    raise AssertionError(f"{words!r} never in the log: {log_text(terminal)!r}")


@run_async
async def test_the_coach_weighs_the_discard_and_the_play() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    assert "Coach" not in log_text(terminal)
    await press(terminal, task, "h")
    assert "Coach on" in log_text(terminal)
    await press(terminal, task, Key.ENTER, Key.RIGHT, Key.ENTER, Key.ENTER)
    text = await until_logged(terminal, "Coach: Throwing")
    assert "Chance to win" in text or "% to win; best:" in text
    task.cancel()


@run_async
async def test_without_the_coach_nothing_is_weighed() -> None:
    terminal = KeyboardTerminal()
    task = start(terminal, StackedRandom(*KNOWN_SHOW))
    await until_status(terminal, task, "RETURN mark")
    await press(terminal, task, Key.ENTER, Key.RIGHT, Key.ENTER, Key.ENTER)
    # The coach weighs off the event loop, and that it says nothing has no event to
    # wait for: the time is the point, a moment in which a coach left on would speak.
    await asyncio.sleep(0.3)
    assert "Coach" not in log_text(terminal)
    task.cancel()


def test_the_coach_speaks_of_cards_as_the_screen_shows_them() -> None:
    from door.table.coach import with_faces

    assert with_faces("best: keep AC 6D TS 9C, throw KD JD (48.2%).") == (
        "best: keep A♣ 6♦ 10♠ 9♣, throw K♦ J♦ (48.2%)."
    )
    assert with_faces("Hand 3: AS") == "Hand 3: A♠"  # "3:" is no card


def test_a_cost_that_rounds_to_nothing_is_called_as_good_as_the_best() -> None:
    from door.table.coach import coach_line
    from engine.computer.coach import Analysis, Choice

    chosen, best = Choice("play 3D", 1.0, 0.0004), Choice("play 7C", 1.0, 0.0008)
    line = coach_line(Analysis("play", 0, chosen, (best, chosen)))
    assert line.startswith("Playing 3D: as good as the best.") and "cost" not in line
    costly = Choice("play 3D", 0.0, 0.40)
    line = coach_line(Analysis("play", 0, costly, (Choice("play 7C", 1.0, 0.45), costly)))
    assert "cost 1.0 points and 5.0% to win; best: play 7C" in line


@run_async
async def test_a_coached_recorded_game_ends_with_a_review_of_its_costliest_choices() -> None:
    from door.table.options import GameOptions
    from door.table.solo import play_against_computer
    from door.ui.session import Session
    from engine.rules.record import RecordedGame
    from tests.door.caller import play_through

    terminal = KeyboardTerminal()
    game = RecordedGame(2, seed=11)
    task = asyncio.ensure_future(
        play_against_computer(
            Session(terminal),
            GameOptions(level="easy"),
            "Ada",
            rng=StackedRandom(),
            pause=0,
            game=game,
        )
    )
    await until_status(terminal, task, "blank line: deal")
    await press(terminal, task, Key.F1, Key.ESCAPE)  # nothing typed: h is a key, not chat
    await play_through(terminal, task, stop=lambda t: "RETURN mark" in t.status)
    await press(terminal, task, "h")
    await play_through(terminal, task, stop=lambda t: "y play again" in t.status)
    for _ in range(300):  # the review is worked out off the event loop
        if "r review" in terminal.status:
            break
        await asyncio.sleep(0.02)
        await press(terminal, task, Key.CTRL_L)
    assert "r review" in terminal.status
    await press(terminal, task, "r")
    assert terminal.shows("Coach's review: page 1 of")
    assert terminal.shows("1. Hand ")
    task.cancel()
