"""The key loops that answer the table's questions, one per kind of question.

Each loop shows its prompt and key line, reads keys (``next_key`` has dealt with the
keys that work everywhere: chat, help, quit, the win bar, the coach) until the keys make
an answer, and returns it. A key that means nothing at the step is answered on the
message line. The question (door/table/question.py) brings what the step shows; the one
answering (``Answering``: a caller's person, door/table/person.py) brings their screen
and keys.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Final, Protocol

from door.screens.cards import card_face
from door.screens.chat import MAX_CHAT_LENGTH, Entry, clean_chat
from door.screens.cut import CutPanel
from door.screens.game_screen import Panel, TableView
from door.screens.play_area import HandState
from door.table.coach import Coach
from door.table.question import (
    ClaimGame,
    Count,
    Cut,
    Discard,
    GoOn,
    Play,
    PlayAgain,
    Question,
    ReadyToDeal,
    WaitForCaller,
)
from door.table.words import CLAIM_STATUS, EVERYWHERE, faces, wrong_key
from door.term.keys import DESELECT_KEYS, Key
from door.ui.card_picker import CardPicker, Pick, digit_of, move_bar
from door.ui.line_editor import Edit
from engine.computer.coach import Analysis, analyse_claim, analyse_discard, analyse_play
from engine.rules.cards import Card
from engine.rules.claims import parse_claim
from engine.rules.errors import CribbageError

GO_ON_KEYS: Final = frozenset({Key.ENTER, Key.printable(" ")})


def moving_keys(cards: int) -> str:
    """The key bar's keys that move the bar over ``cards`` cards, and the gap after them:
    none for one card, where the bar has nowhere to go ("1-1 move" said nothing)."""
    return f"<- -> or 1-{cards} move  " if cards > 1 else ""


class Answering(Protocol):
    """What a key loop needs of the one answering: their view and keys."""

    view: TableView
    own_hand: HandState | None
    """Their hand as the step shows it (the bar, the marks); None: as it stands."""
    own_panel: Panel | None
    """The step's own panel over the table's (the cut, the game's end)."""
    play_bar: int
    """Where the bar stood at their last play: the next play starts there."""
    coach: Coach

    @property
    def thrown(self) -> tuple[Card, ...]:
        """What their seat threw to this hand's crib (the game's ``thrown_by``)."""
        ...

    @property
    def index(self) -> int | None: ...

    @property
    def clicks(self) -> bool:
        """Their clicks work (door/term/clicks.py): the prompts say so."""
        ...

    @property
    def click_word(self) -> str:
        """What their prompts call a click ("tap" on a touch screen)."""
        ...

    def show_prompt(self, prompt: str, error: str = "", status: str | None = None) -> None: ...

    async def next_key(self, *, typing: str | None = None, quit_key: bool = True) -> Key: ...

    def forget_typeahead(self) -> None: ...

    def say(self, text: str) -> None: ...

    async def confirm_quit(self) -> None: ...

    async def nested(self, inner: Coroutine[Any, Any, None]) -> None: ...

    async def pages(self, text: str, title: str = "Help") -> None: ...

    def weigh(self, analyse: Callable[..., Analysis], *args: object, **kwargs: object) -> None:
        """The coach weighs the choice about to be answered (if the coach is on)."""
        ...

    def review(self) -> None:
        """The coach reviews the game just ended (if the coach is on)."""
        ...


async def ready_to_deal(caller: Answering, question: ReadyToDeal) -> str:
    """The chat line that is open before every hand. RETURN on a blank line deals (the
    dealer) or says ready (when the computer deals for several people); Esc on a blank
    line closes it, for the table's keys (door/table/before_deal.py)."""
    words = question.words
    entry = Entry("Chat: ", limit=MAX_CHAT_LENGTH)
    caller.view.entry = entry
    error = ""
    while True:
        chatting = caller.view.entry is entry
        if chatting:
            caller.show_prompt(words.prompt, error, words.status)
        else:
            caller.show_prompt(words.keys_prompt, error, words.keys_status)
        key = await caller.next_key(typing=entry.text if chatting else None)
        error = ""
        if key == Key.ENTER and not clean_chat(entry.text if chatting else ""):
            if words.deals:
                return "deal"
            error = words.blank_line if chatting else f"{words.keys_hint}."
        elif key == Key.ESCAPE and not chatting:
            await caller.confirm_quit()
        elif key == Key.ESCAPE and not entry.text:
            caller.view.entry = None  # the table's keys work now
        elif not chatting:
            error = wrong_key(key, words.keys_hint)
        elif key == Key.ENTER:
            caller.say(entry.text)
            entry.text = ""
        elif key == Key.ESCAPE:
            entry.editor.clear()
        elif (edit := entry.editor.feed(key)) is Edit.REFUSED:
            error = entry.editor.refusal
        elif edit is Edit.NOT_EDITING:
            error = words.blank_line


async def discard(caller: Answering, question: Discard) -> list[Card]:
    caller.forget_typeahead()
    need, whose, cards = question.need, question.whose, list(question.cards)
    picker = CardPicker(cards, need=need)
    error = ""
    while True:
        caller.own_hand = HandState(
            tuple(cards), picker.bar, frozenset(picker.marked), full=picker.complete
        )
        if not picker.complete:
            plural = "s" if need > 1 else ""
            prompt = f"Choose {need} card{plural} for {whose}: put the bar on a card, press RETURN."
            if caller.clicks:
                them = "them" if need > 1 else "it"
                choose = f"Choose {need} card{plural} for {whose}"
                prompt = f"{choose}: {caller.click_word} {them}, or use the bar and RETURN."
            status = f"{moving_keys(len(cards))}RETURN mark  DEL unmark  {EVERYWHERE}"
        else:
            prompt = f"RETURN throws {faces(picker.marked)} to {whose}. DEL un-marks a card."
            if caller.clicks:
                which = "it" if need == 1 else "one"
                prompt = (
                    f"RETURN throws {faces(picker.marked)} to {whose}; "
                    f"{caller.click_word} {which} to un-mark it."
                )
            status = f"RETURN throw  DEL unmark  <- -> move  {EVERYWHERE}"
        caller.show_prompt(prompt, error, status)
        key = await caller.next_key()
        error = ""
        picked = picker.feed(key)
        if picked is Pick.CHOSEN:
            caller.weigh(analyse_discard, caller.index, tuple(picker.chosen))
            return picker.chosen
        if picked is Pick.REFUSED:
            error = picker.refusal
        elif picked is Pick.NOT_PICKING:
            error = wrong_key(key, "move the bar with the arrows, RETURN marks a card")


async def cut(caller: Answering, question: Cut) -> int:
    caller.forget_typeahead()
    size = question.size
    entry = Entry(f"Cut the deck at card number (1-{size}): ", limit=2)
    caller.view.entry = entry
    selected: int | None = None
    prompt = f"You cut: type a card number from 1 to {size}, or move with the arrows."
    if caller.clicks:
        prompt = (
            f"You cut: {caller.click_word} a card of the deck, or type its number from 1 to {size}."
        )
    error = ""
    while True:
        caller.own_panel = CutPanel(size, selected)
        status = f"1-{size} or <- -> pick  RETURN cut  BS erase  {EVERYWHERE}"
        caller.show_prompt(prompt, error, status)
        key = await caller.next_key()
        error = ""
        moved = move_bar((selected or 1) - 1, key, size, digits=False)
        if selected is None and moved is not None:
            moved = 0
        if moved is not None:
            selected = moved + 1
            entry.text = str(selected)
        elif digit_of(key) is not None:
            typed = entry.text + key.char
            if 1 <= int(typed) <= size:
                entry.text = typed
            else:  # say so, rather than quietly taking the last digit alone
                entry.text = ""
                error = f"There is no card {int(typed)}: type a number from 1 to {size}."
            selected = int(entry.text) if entry.text else None
        elif key in DESELECT_KEYS:
            entry.text = entry.text[:-1]
            selected = int(entry.text) if entry.text else None
        elif key == Key.ENTER:
            if selected is not None:
                return selected
            error = f"First pick a card: type a number from 1 to {size}."
        else:
            error = wrong_key(key, f"type a card number from 1 to {size}")


async def play(caller: Answering, question: Play) -> Card:
    caller.forget_typeahead()
    cards, count = question.cards, question.count
    why_not = {
        card: f"{card_face(card)} would make {count + card.pips}: the count cannot pass 31."
        for card in cards
        if card not in question.playable
    }
    picker = CardPicker(cards, bar=caller.play_bar, unplayable=set(why_not), why_not=why_not)
    error = ""
    while True:
        caller.play_bar = picker.bar
        caller.own_hand = HandState(cards, picker.bar, unplayable=frozenset(why_not))
        prompt = f"Your turn, the count is {count}: put the bar on a card, press RETURN."
        if caller.clicks:
            click = caller.click_word
            prompt = (
                f"Your turn, the count is {count}: {click} a card, or put the bar on it, RETURN."
            )
        status = f"{moving_keys(len(cards))}RETURN play  {EVERYWHERE}"
        caller.show_prompt(prompt, error, status)
        key = await caller.next_key()
        error = ""
        picked = picker.feed(key)
        if picked is Pick.CHOSEN:
            caller.weigh(analyse_play, caller.index, picker.chosen[0], thrown=caller.thrown)
            return picker.chosen[0]
        if picked is Pick.REFUSED:
            error = picker.refusal
        elif picked is not Pick.MOVED:
            error = wrong_key(key, "move the bar to a card and press RETURN to play it")


async def count(caller: Answering, question: Count) -> int:
    """The points claimed for the hand on show (manual counting)."""
    caller.forget_typeahead()
    title = question.title
    entry = Entry(
        f"{title}: how many points? ",
        limit=2,
        allowed=lambda char: char in "0123456789",
        allowed_hint="Type the points in digits, 0 to 29.",
    )
    caller.view.entry = entry
    prompt = f"Count {title.lower()} with the starter, type the points, press RETURN."
    status = f"0-9 your count  RETURN enter  BS erase  {EVERYWHERE}"
    error = ""
    while True:
        caller.show_prompt(prompt, error, status)
        key = await caller.next_key()
        error = ""
        edit = entry.editor.feed(key)
        if edit is Edit.DONE:
            try:
                claim = parse_claim(entry.text)
                caller.weigh(analyse_claim, claim, thrown=caller.thrown)
                return claim
            except CribbageError as refusal:
                error = str(refusal)
                entry.editor.clear()
        elif edit is Edit.REFUSED:
            full = len(entry.text) >= entry.limit
            error = "A hand counts 0 to 29." if full else entry.editor.refusal
        elif edit in (Edit.NOT_EDITING, Edit.CANCELLED):
            error = wrong_key(key, "type your count and press RETURN")


async def go_on(caller: Answering, question: GoOn) -> None:
    error = ""
    while True:
        caller.show_prompt(question.prompt, error, f"RETURN go on  {EVERYWHERE}")
        key = await caller.next_key()
        if key in GO_ON_KEYS:
            return
        error = wrong_key(key, "press RETURN to go on")


async def play_again(caller: Answering, question: PlayAgain) -> bool:
    caller.forget_typeahead()
    caller.review()
    caller.own_panel = question.panel
    caller.own_hand = HandState()
    coach = caller.coach
    error = ""
    while True:
        answer = "y next game" if question.match_on else "y play again"
        review = "  r review" if coach.review_text else ""
        status = f"{answer}  n leave{review}  c chat  ? help  ^L redraw"
        caller.show_prompt(question.prompt, error, status)
        key = await caller.next_key(quit_key=False)
        if key.char in ("y", "Y"):
            coach.review_text = ""
            return True
        if key.char in ("r", "R") and coach.review_text:
            await caller.nested(caller.pages(coach.review_text, "Coach's review"))
            continue
        if key.char in ("n", "N", "q", "Q") or key == Key.ESCAPE:
            return False
        error = wrong_key(key, "press y to play again or n to leave")


async def one_key_or_wait(
    caller: Answering, prompt: str, status: str, key_char: str, hint: str
) -> None:
    """The key loop of a question whose one answer is a key (``key_char``, either case)
    and whose other choice is to wait, as it stands (a claim, a dropped line): it returns
    when the key is pressed, and names the key for any other (``hint``)."""
    error = ""
    while True:
        caller.show_prompt(prompt, error, status)
        key = await caller.next_key()
        if key.char in (key_char, key_char.upper()):
            return
        error = wrong_key(key, hint)


async def claim_game(caller: Answering, question: ClaimGame) -> str:
    """The game has waited long on someone's move: claim it, or go on waiting (this is
    withdrawn when they move)."""
    name = question.name
    prompt = f"{name} {question.stalled} for {question.waited}: g claims the game, or wait."
    hint = f"wait for {name}, or press g to claim the game"
    await one_key_or_wait(caller, prompt, CLAIM_STATUS, "g", hint)
    return "claim"


async def wait_for_caller(caller: Answering, question: WaitForCaller) -> str:
    """Someone's line dropped: wait for them, or let the computer play their seat."""
    name = question.name
    prompt = f"{name}'s line dropped: waiting up to {question.wait} for a call back."
    status = f"p computer plays for {name}  {EVERYWHERE}"
    await one_key_or_wait(caller, prompt, status, "p", f"wait for {name}, or press p")
    return "computer"


Step = Callable[[Answering, Any], Awaitable[Any]]
STEPS: Final[dict[type[Question[Any]], Step]] = {
    ReadyToDeal: ready_to_deal,
    Discard: discard,
    Cut: cut,
    Play: play,
    Count: count,
    GoOn: go_on,
    PlayAgain: play_again,
    WaitForCaller: wait_for_caller,
    ClaimGame: claim_game,
}
"""The key loop answering each kind of question."""


def answer(caller: Answering, question: Question[Any]) -> Awaitable[Any]:
    """``caller``'s key loop for ``question``."""
    return STEPS[type(question)](caller, question)
