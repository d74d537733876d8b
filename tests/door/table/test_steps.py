"""The key loops answer a question from keys alone: no table, no terminal, no game
running (door/table/steps.py), as a widget is tested."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine
from typing import Any

from door.screens.game_screen import Panel, TableView
from door.screens.play_area import HandState
from door.table import steps
from door.table.coach import Coach
from door.table.question import Count, Cut, Discard, Play, Question, WaitForCaller
from door.term.keys import Key
from engine.computer.coach import Analysis
from engine.rules.cards import Card
from engine.rules.game import Game


class Keyboard:
    """Someone answering with ``keys``, in order; keeps every message they were shown."""

    def __init__(self, *keys: Key | str) -> None:
        self.keys = [Key.printable(key) if isinstance(key, str) else key for key in keys]
        self.view = TableView(("Ann", "Bob"), Game(2, rng=random.Random(1)), viewer=0)
        self.own_hand: HandState | None = None
        self.own_panel: Panel | None = None
        self.play_bar = 0
        self.thrown: tuple[Card, ...] = ()
        self.coach = Coach("Ann")
        self.messages: list[str] = []
        self.weighed: list[str] = []

    @property
    def index(self) -> int | None:
        return 0

    @property
    def clicks(self) -> bool:
        return False

    def show_prompt(self, prompt: str, error: str = "", status: str | None = None) -> None:
        self.messages.append(error or prompt)

    async def next_key(self, *, typing: str | None = None, quit_key: bool = True) -> Key:
        if not self.keys:
            raise AssertionError(f"more keys asked for; last shown: {self.messages[-1]!r}")
        return self.keys.pop(0)

    def forget_typeahead(self) -> None:
        pass

    def say(self, text: str) -> None:
        raise AssertionError("nothing is said in these steps")

    async def confirm_quit(self) -> None:
        raise AssertionError("nobody quits here")

    async def nested(self, inner: Coroutine[Any, Any, None]) -> None:
        await inner

    async def pages(self, text: str, title: str = "Help") -> None:
        pass

    def weigh(self, analyse: Callable[..., Analysis], *args: object, **kwargs: object) -> None:
        self.weighed.append(analyse.__name__)

    def review(self) -> None:
        pass


def answer(keyboard: Keyboard, question: Question[Any]) -> Any:
    return asyncio.run(steps.answer(keyboard, question))  # type: ignore[arg-type]


CARDS = tuple(Card.parse(text) for text in ("2C", "6H", "8C", "8D", "9S", "JS"))


def test_a_cut_off_the_deck_is_refused_and_the_next_number_taken() -> None:
    keyboard = Keyboard("5", "0", "1", "7", Key.ENTER)
    assert answer(keyboard, Cut(40)) == 17
    assert "There is no card 50: type a number from 1 to 40." in keyboard.messages


def test_a_cut_needs_a_card_picked_before_return() -> None:
    keyboard = Keyboard(Key.ENTER, Key.RIGHT, Key.ENTER)
    assert answer(keyboard, Cut(40)) == 1
    assert "First pick a card: type a number from 1 to 40." in keyboard.messages


def test_a_discard_is_the_two_cards_marked_and_the_coach_weighs_it() -> None:
    keyboard = Keyboard(Key.ENTER, Key.RIGHT, Key.RIGHT, Key.ENTER, Key.ENTER)
    assert answer(keyboard, Discard(CARDS, 2, "Bob's crib")) == [CARDS[0], CARDS[2]]
    assert keyboard.weighed == ["analyse_discard"]
    assert keyboard.messages[0].startswith("Choose 2 cards for Bob's crib")


def test_a_card_that_would_pass_31_is_refused_with_why() -> None:
    jack = CARDS[5]
    playable = frozenset(CARDS[:5])
    keyboard = Keyboard("6", Key.ENTER, "1", Key.ENTER)
    assert answer(keyboard, Play(CARDS, playable, 25)) == CARDS[0]
    assert any("would make 35: the count cannot pass 31" in text for text in keyboard.messages)
    assert jack not in playable


def test_a_count_over_29_is_refused() -> None:
    keyboard = Keyboard("3", "0", Key.ENTER, "1", "2", Key.ENTER)
    assert answer(keyboard, Count("Your hand", False)) == 12
    assert (
        keyboard.messages[0] == "Count your hand with the starter, type the points, press RETURN."
    )
    refusals = [text for text in keyboard.messages if "not a possible count" in text]
    assert refusals == ["30 is not a possible count: a hand scores 0 to 29."]


def test_p_lets_the_computer_play_for_a_caller_whose_line_dropped() -> None:
    keyboard = Keyboard("x", "p")
    assert answer(keyboard, WaitForCaller("Bob", "2 minutes")) == "computer"
    assert "The 'x' key does nothing here: wait for Bob, or press p." in keyboard.messages
