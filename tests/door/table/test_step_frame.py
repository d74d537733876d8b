"""A key that changed only the step's part of the screen (a move of the highlight bar, a
mark, a digit of the cut, a refusal) is drawn as that part alone (issue #48): the table
is not composed again for it, yet the bytes sent, the screen, the click map and a touch
screen's keys are those the whole frame gave, and the next whole frame is right.
Anything else that changed for the person since their last frame (news in the log, help
over the table) gets the whole frame."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from door.screens.chat import Entry
from door.screens.cut import CutPanel
from door.screens.game_screen import draw_table, redraw_step
from door.screens.play_area import HandState
from door.table import person as person_module
from door.table.flow import Table
from door.table.options import GameOptions, GameResult
from door.table.person import Person
from door.table.solo import play_against_computer
from door.term.canvas import picture_top
from door.term.keys import Key, Mouse, MouseButton
from door.term.layers import Layers
from door.term.offers import Offer
from door.ui.session import Session
from engine.rules.cards import Card
from tests.door.caller import KeyboardTerminal, play_through, run_async
from tests.door.fake_terminal import FakeTerminal
from tests.stacked import StackedRandom

# The computer cuts the ace and deals; the caller holds 2C 3C 4S 7D 9H KS, cuts card 1.
KNOWN_SHOW = ("KH AS", "2C 3C 9H KS 7D 4S QH QD QC QS KH KD AH")

MOVES = (Key.RIGHT, Key.LEFT, Key.UP, Key.DOWN, Key.HOME, Key.END)
DISCARD_KEYS: tuple[Key | str, ...] = (
    Key.RIGHT,
    Key.RIGHT,
    Key.LEFT,
    Key.END,
    Key.HOME,
    "3",  # the bar to the third card
    Key.ENTER,  # a mark
    Key.RIGHT,
    "9",  # refused: said on the message line
    Key.RIGHT,  # the message back to the prompt
    Key.PGUP,  # the log scrolled back, and on
    Key.PGDN,
    "?",  # help over the table, and closed
    Key.ESCAPE,
    Key.DOWN,
    Key.DELETE,  # an un-mark
    Key.UP,
    Key.ENTER,
    Key.DOWN,
    Key.ENTER,  # the second mark: the key bar says RETURN throws
    Key.LEFT,
    Key.ENTER,  # thrown
)
CUT_KEYS: tuple[Key | str, ...] = (
    Key.RIGHT,
    Key.RIGHT,
    Key.LEFT,
    "0",  # card 10
    Key.BACKSPACE,  # card 1
    Key.ENTER,
)
PLAY_KEYS: tuple[Key | str, ...] = (Key.RIGHT, Key.RIGHT, Key.LEFT, Key.ENTER)


class TouchTerminal(KeyboardTerminal):
    """A caller's terminal that reports clicks, and is told the keys a touch screen's
    buttons offer (the web page's)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.offered: list[tuple[Offer, ...]] = []

    def offer_keys(self, offers: tuple[Offer, ...]) -> None:
        self.offered.append(offers)


@dataclass
class Keyed:
    """What the caller got for each key pressed."""

    sent: list[bytes] = field(default_factory=list)
    screens: list[list[str]] = field(default_factory=list)
    clicks: list[tuple[tuple[Key, ...], ...]] = field(default_factory=list)
    offered: list[int] = field(default_factory=list)
    composed: list[int] = field(default_factory=list)


def click_map(session: Session, size: tuple[int, int]) -> tuple[tuple[Key, ...], ...]:
    """What a click on each cell of the picture means now."""
    top = picture_top(size[1])
    return tuple(
        session.clicks.hits.keys_for(Mouse(MouseButton.LEFT, column, row))
        for row in range(top, top + 24)
        for column in range(0, 80, 2)
    )


async def play_keys(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], *, step_frames: bool
) -> Keyed:
    """A game against the computer to its first plays, a key at a time: the caller
    clicks and plays on a touch screen. ``step_frames`` False: every key gets the whole
    frame, as before the step's frame."""
    composed = [0]
    compose = Person.compose

    def counted(self: Person) -> None:
        composed[0] += 1
        compose(self)

    monkeypatch.setattr(Person, "compose", counted)
    if not step_frames:

        async def never(person: Person) -> bool:
            return False

        monkeypatch.setattr(person_module, "paint_step_frame", never)
    terminal = TouchTerminal(*size)
    session = Session(terminal)
    session.touch = True
    terminal.mouse_reporting = True
    task: asyncio.Task[GameResult] = asyncio.ensure_future(
        play_against_computer(
            session,
            GameOptions(level="easy"),
            "Alice",
            rng=StackedRandom(*KNOWN_SHOW),
            pause=0,
        )
    )
    keyed = Keyed()
    for keys, status in (
        (DISCARD_KEYS, "RETURN mark"),
        (CUT_KEYS, "RETURN cut"),
        (PLAY_KEYS, "RETURN play"),
    ):
        await play_through(terminal, task, stop=lambda terminal: status in terminal.status)  # noqa: B023
        assert status in terminal.status, terminal.status
        for key in keys:
            before, composed[0] = len(terminal.output), 0
            terminal.press(key)
            await terminal.until_waiting(task)
            keyed.sent.append(terminal.output[before:])
            keyed.screens.append(terminal.display)
            keyed.clicks.append(click_map(session, size))
            keyed.offered.append(len(terminal.offered))
            keyed.composed.append(composed[0])
    task.cancel()
    return keyed


@pytest.mark.parametrize("size", [(80, 24), (80, 40), (132, 50)], ids=["80x24", "tall", "wide"])
@run_async
async def test_step_keys_send_what_the_whole_frame_sent_without_composing_the_table(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    whole = await play_keys(monkeypatch, size, step_frames=False)
    monkeypatch.undo()
    stepped = await play_keys(monkeypatch, size, step_frames=True)
    keys = DISCARD_KEYS + CUT_KEYS + PLAY_KEYS
    for index, key in enumerate(keys):
        # (A key the computer answers is followed by as many frames as its moves and
        # bars take turns of the loop: the bytes vary from run to run, the screen not.)
        if stepped.composed[index] == 0:
            assert stepped.sent[index] == whole.sent[index], (index, key)
        assert stepped.screens[index] == whole.screens[index], (index, key)
        assert stepped.clicks[index] == whole.clicks[index], (index, key)
        assert stepped.offered[index] == whole.offered[index], (index, key)
    moves = [index for index, key in enumerate(keys) if key in MOVES]
    assert all(stepped.composed[index] == 0 for index in moves), stepped.composed
    assert all(whole.composed[index] == 1 for index in moves), whole.composed
    # Marks, a refusal and the cut's digits too.
    assert sum(stepped.composed) <= sum(whole.composed) - len(keys) + 5
    assert 0 < len(stepped.sent[0]) < 60  # a move of the bar: its row of labels


class People:
    """Every person made at a table, and how often one's whole view is composed (the
    table drawn whole)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made: list[Person] = []
        self.composed = 0
        made, compose = Person.__init__, Person.compose

        def making(person: Person, *args: Any, **kwargs: Any) -> None:
            made(person, *args, **kwargs)
            self.made.append(person)

        def counted(person: Person) -> None:
            self.composed += 1
            compose(person)

        monkeypatch.setattr(Person, "__init__", making)
        monkeypatch.setattr(Person, "compose", counted)


@run_async
async def test_a_move_after_news_at_the_table_gets_the_whole_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    people = People(monkeypatch)
    terminal = KeyboardTerminal()
    task = asyncio.ensure_future(
        play_against_computer(
            Session(terminal),
            GameOptions(level="easy"),
            "Alice",
            rng=StackedRandom(*KNOWN_SHOW),
            pause=0,
        )
    )
    await play_through(terminal, task, stop=lambda terminal: "RETURN mark" in terminal.status)
    (person,) = people.made
    people.composed = 0
    terminal.press(Key.RIGHT)
    await terminal.until_waiting(task)
    assert people.composed == 0
    person.tell("Bob says the crib is his.")
    # A wake-up no frame answered (as if the key had been read first): the count of
    # wake-ups remembers it.
    person.inbox.forget_wake()
    terminal.press(Key.RIGHT)
    await terminal.until_waiting(task)
    assert people.composed == 1
    assert "Bob says the crib is his." in " ".join(terminal.display)
    task.cancel()


def view_at(panel: CutPanel | None, entry: Entry | None, clock: str) -> Any:
    table = Table(GameOptions(level="easy"), [None, None], rng=random.Random(3), admit=Person)
    person = table.watch("W", Session(FakeTerminal()))
    table.game.cut_for_deal()
    table.game.deal()
    view = person.view
    view.hand = HandState(tuple(Card.parse(text) for text in ("AH", "5S", "JC")), bar=1)
    view.panel, view.entry, view.clock = panel, entry, clock
    view.message, view.status = "Choose.", "RETURN mark  ^L redraw  q quit"
    return view


@pytest.mark.parametrize(
    ("panel", "entry", "clock"),
    [
        (None, None, ""),
        (CutPanel(40, 3), Entry("Cut the deck at card number (1-40): ", limit=2), ""),
        (None, None, "0:42"),
    ],
    ids=["hand", "cut", "clock"],
)
@pytest.mark.parametrize("size", [(80, 24), (80, 40), (132, 50)], ids=["80x24", "tall", "wide"])
def test_the_step_layers_are_those_of_the_whole_table(
    panel: CutPanel | None, entry: Entry | None, clock: str, size: tuple[int, int]
) -> None:
    """``redraw_step`` writes out the step's layers as ``table_layers`` does: drawn again
    from the view the whole frame was drawn from, none is drawn (but the line being
    typed, drawn at every frame), and the frame is the same."""
    view = view_at(panel, entry, clock)
    view.size = size
    layers = Layers()
    whole, cursor = draw_table(view, layers)
    redrawn = redraw_step(view, layers)
    assert redrawn is not None
    assert layers.drawn == (1 if entry is not None else 0)
    assert redrawn[0].chars == whole.chars and redrawn[0].styles == whole.styles
    assert redrawn[1] == cursor
    view.hand = HandState(view.hand.cards, bar=2)
    moved = redraw_step(view, layers)
    assert moved is not None and layers.drawn == (2 if entry is not None else 1)
    fresh, _ = draw_table(view, Layers())
    assert moved[0].chars == fresh.chars and moved[0].styles == fresh.styles
    assert (moved[0].log_rows, moved[0].pane_cols) == (fresh.log_rows, fresh.pane_cols)


def test_step_layers_come_or_gone_get_the_whole_frame() -> None:
    view = view_at(None, None, "")
    layers = Layers()
    draw_table(view_at(None, None, ""), layers)
    view.entry = Entry("Say: ", limit=10)  # a line being typed now, none before
    assert redraw_step(view, layers) is None
    view.entry = None
    view.clock = "0:42"
    assert redraw_step(view, layers) is None
    draw_table(view, layers)
    view.clock = ""  # the clock gone
    assert redraw_step(view, layers) is None
    assert redraw_step(view, Layers()) is None  # nothing drawn yet
