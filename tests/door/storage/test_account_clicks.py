"""Clicks on the arrival and account screens (door/screens/form_hits.py): a line of the
arrival menu is its key, the forms' key bars (RETURN next, Esc back) are their keys, a
notice or the statistics go on or back by a click anywhere, a question is answered on
its key bar; a click on nothing does nothing."""

from __future__ import annotations

from door.app.accounts import choose_arrival, show_stats, yes_or_no
from tests.door.caller import run_async
from tests.door.storage.conftest import Database
from tests.door.storage.test_account_screens import PASSWORD, Screen


class ClickingScreen(Screen):
    """A screen whose caller's terminal reports clicks."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.terminal.mouse_reporting = True

    async def click(self, row: int, column: int) -> None:
        """A left click as xterm reports it (SGR, 1-based, press and release)."""
        self.terminal.pressed += 1
        report = f"\x1b[<0;{column + 1};{row + 1}"
        self.terminal.push_bytes(f"{report}M{report}m")
        await self.terminal.until_waiting(self.task)

    async def click_on(self, words: str, at: int = 0) -> None:
        for row, line in enumerate(self.terminal.display):
            if words in line:
                await self.click(row, line.index(words) + at)
                return
        raise AssertionError(f"{words!r} is not on the screen:\n{self.text}")


@run_async
async def test_the_arrival_menu_and_the_forms_are_answered_by_clicks(
    sqlite_database: Database,
) -> None:
    async with sqlite_database.store() as store:
        ada = await store.create_account("Ada", PASSWORD)
        caller = ClickingScreen(choose_arrival, store, "Cribbage Door")
        await caller.type()
        assert "Click a line, or press its key." in caller.text  # the screen says so
        before = caller.text
        await caller.click(7, 30)  # between two lines of the menu
        await caller.click(2, 10)  # above them
        assert caller.text == before
        await caller.click_on("New here? Make an account", at=10)
        assert "New account" in caller.text and "Password again:" in caller.text
        await caller.click_on("Esc back")
        assert caller.text == before  # back at the arrival, nothing said
        await caller.click_on("L log in", at=4)  # the key bar's offer
        assert "Log in" in caller.text and "Handle:" in caller.text
        await caller.type("Ada")
        await caller.click_on("RETURN next", at=8)
        await caller.type(PASSWORD)
        await caller.click_on("RETURN next")
        arrival = await caller.result()
        assert arrival.account is not None and arrival.account.id == ada.id


@run_async
async def test_the_statistics_go_back_and_a_question_is_answered_by_a_click(
    sqlite_database: Database,
) -> None:
    async with sqlite_database.store() as store:
        await store.create_account("Ada", PASSWORD)
        stats = ClickingScreen(show_stats, store, "Ada")
        await stats.type()
        assert "any key: back" in stats.text
        await stats.click(12, 40)  # anywhere: any key
        assert await stats.result() is None

        question = ClickingScreen(yes_or_no, "Log in with a key", "Attach the key?")
        await question.type()
        await question.click(12, 40)  # not an answer, and no key either
        assert "Attach the key?" in question.text and question.message == ""
        await question.click_on("Y yes")
        assert await question.result() is True


@run_async
async def test_the_arrival_offers_clicks_only_where_they_work(sqlite_database: Database) -> None:
    async with sqlite_database.store() as store:
        caller = Screen(choose_arrival, store, "Cribbage Door")  # a terminal without clicks
        await caller.type()
        assert "G Play as a guest" in caller.words
        assert "Click" not in caller.text
        caller.task.cancel()
