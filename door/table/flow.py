"""A cribbage table: one game, several seats, each a person at a terminal or the computer.

``Table`` runs the game itself in one coroutine, the *host*: the cut for deal, then for
each hand a chat before the deal, the discard, the cut, the play and the show, until a
side reaches 121. Whenever a seat must decide something, the host asks: the computer
thinks on a worker thread, a person is sent a *request*. Every person at the table (each
player, and anyone watching) has a ``Person``, whose own coroutine (``attend``, run by that
caller's session) reads their keys, draws their view and answers requests. So two people
choose their discards at the same time, and anyone may open a chat line (``c``), read the
help or redraw while someone else is thinking, without the game losing its place.

Each person's ``TableView`` shows their own hand face up and everyone else's face down,
and tells the game from their seat ("You play 5♥", "Bob plays 5♥"). The host only changes
state and wakes people up; each person draws their own screen, so one coroutine writes to
one terminal.

A seat whose caller's line drops is *away*: the others are told at once, and when the game
needs that seat they are asked whether to wait for the caller to call back (the game then
goes on where it stood) or to let the computer play the seat. The wait is bounded
(``reconnect_wait`` seconds); then the computer takes over. A seat the computer took over
goes back to its caller if they call back before the game ends.

``play_against_computer`` is the simplest table: one caller at seat 0 ("player 1")
against the computer, with "play again?" after each game.

A table may be given a game already under way (a saved game the caller resumes): the
host picks it up from whatever phase it stands in, down to a discard half made, a count
half played or a show half counted. The table knows nothing of saving; whoever builds
the game hangs a saver on it (see door/app/records.py).

Keys that work everywhere (the status line always lists the ones that work now): ``?``
or F1 help, Ctrl-L redraws everything, ``c`` opens a chat line, ``q`` (or Ctrl-C) asks
before quitting. While the caller is typing a line, ``?`` (on an empty line) and F1 still
give help and Esc leaves the line. A key that means nothing at a step is answered on the
message line.

Anything else that writes to a person's terminal during a game (an idle warning) should
then hand the table a Ctrl-L key before the caller's next key: the renderer only knows
what it sent itself, and Ctrl-L makes it repaint everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from door.screens import theme
from door.screens.cards import card_face
from door.screens.chat import MAX_CHAT_LENGTH, canned_reply, clean_chat
from door.screens.cut import CutForDealPanel, CutPanel
from door.screens.dialog import Dialog, draw_dialog
from door.screens.frame import draw_status
from door.screens.game_over import PLAY_AGAIN, GameOverPanel
from door.screens.game_screen import Entry, Panel, TableView, draw_table
from door.screens.help import HelpOverlay, default_help, draw_help
from door.screens.narration import narrate
from door.screens.play_area import HandState
from door.screens.show import ShowPanel, show_title
from door.table.computer import think
from door.table.options import COMPUTER_NAME, GameOptions, GameResult
from door.term.ansi import sanitize
from door.term.canvas import Canvas, Style
from door.term.keys import DESELECT_KEYS, Key
from door.term.terminal import Disconnected
from door.ui.card_picker import CardPicker, Pick, digit_of, move_bar
from door.ui.confirm import STATUS as CONFIRM_STATUS
from door.ui.confirm import Confirm
from door.ui.line_editor import Edit
from door.ui.session import Drawn, Overlay, Session
from engine.ai import ComputerPlayer
from engine.cards import Card
from engine.errors import CribbageError
from engine.events import CutForDeal, Event, ShowScored
from engine.game import Game, Phase, parse_claim

logger = logging.getLogger(__name__)

DEFAULT_PAUSE: Final = 0.8
"""Seconds the computer's moves stay on screen before the game goes on."""
DEFAULT_RECONNECT_WAIT: Final = 120.0
"""Seconds a game waits for a dropped caller before the computer takes their seat."""
MAX_NAME_LENGTH: Final = 20
WATCHER_STYLE: Final = theme.TITLE
"""Chat from someone who is not playing (the sysop breaking in, a watcher)."""

_GO_ON_KEYS: Final = frozenset({Key.ENTER, Key.printable(" ")})
_EVERYWHERE: Final = "c chat  ? help  ^L redraw  q quit"
"""The keys that work at every step, ending each status line."""
_WAITING_STATUS: Final = f"Waiting  {_EVERYWHERE}"
_WATCHING_STATUS: Final = "Watching  c chat  ? help  ^L redraw  q stop watching"

Result = TypeVar("Result")


async def play_against_computer(
    session: Session,
    options: GameOptions,
    caller_name: str,
    *,
    rng: random.Random,
    pause: float = DEFAULT_PAUSE,
    help_text: str | None = None,
    on_game_over: Callable[[GameResult], None] | None = None,
    on_table: Callable[[Table], None] | None = None,
    game: Game | None = None,
) -> GameResult:
    """Play games of cribbage against the computer until the caller stops.

    The caller is seat 0 ("player 1"). After each finished game ``on_game_over`` (if
    given) receives its result and the caller is asked whether to play again; the
    result returned is that of the last game, with ``quit`` set if the caller left it
    unfinished. ``rng`` shuffles every deck (and seeds the computer's choices); ``pause``
    is how long the computer's moves are held on screen; ``help_text`` defaults to the
    contents of config/help.txt; ``on_table`` is told the table once it is set (so it can
    be listed and watched). ``game``, if given, is played instead of a new one: a game
    being recorded, or a saved game to resume where it stands. Raises
    ``door.term.terminal.Disconnected`` if the line drops.
    """
    table = Table(
        options,
        (caller_name, *([None] * (options.players - 1))),
        rng=rng,
        pause=pause,
        help_text=help_text,
        on_game_over=on_game_over,
        game=game,
    )
    person = table.sit(0, session)
    if on_table is not None:
        on_table(table)
    table.start()
    try:
        return await person.attend()
    finally:
        table.close()


class SeatAway(Exception):
    """The person asked has left the table (their line dropped, or they quit)."""


class _Quit(Exception):
    """The person confirmed leaving the game."""


class _Interrupted(Exception):
    """What the person was doing is no longer asked of them: the game moved on."""


class _Abandoned(Exception):
    """Nobody is left to play the game."""


# --- seats and the people at the table ---------------------------------------------------


class Seat:
    """One place at the table: played by a caller, or by the computer."""

    def __init__(
        self,
        index: int,
        name: str,
        human: bool,
        computer: ComputerPlayer,
        account_id: int | None = None,
    ) -> None:
        self.index = index
        self.name = name
        self.human = human
        """A caller's seat (even while the computer stands in for them)."""
        self.account_id = account_id
        """The account of the caller who sat down here, if they logged in: only that
        account may take the seat back after a dropped line."""
        self.computer = computer
        self.person: Person | None = None
        self.computer_plays = not human
        """The computer decides for this seat: a computer seat, or a caller's seat handed
        over after their line dropped or they left."""
        self.left = False
        """The caller quit: the seat is the computer's to the end."""
        self.returned = asyncio.Event()

    @property
    def away(self) -> bool:
        """A caller's seat whose caller is gone and may come back."""
        return self.human and self.person is None and not self.left


@dataclass
class _Request(Generic[Result]):
    """A question the host puts to one person; ``step`` runs their key loop for it."""

    step: Callable[[Person], Awaitable[Result]]
    future: asyncio.Future[Result]
    urgent: bool = False
    """Asked before anything else (whether to wait for someone whose line dropped)."""


class Person:
    """Someone at the table with a terminal: a player (``seat`` is theirs) or a watcher.

    ``attend`` is their side of the game: it draws their view, reads their keys and answers
    the host's requests until the game ends for them.
    """

    def __init__(self, table: Table, name: str, session: Session, seat: Seat | None) -> None:
        self.table = table
        self.name = name
        self.session = session
        self.seat = seat
        self.inbox = session.inbox
        self.screen = Drawn(self.frame)
        """The table as this person sees it, on their session's stack while they attend."""
        index = seat.index if seat is not None else None
        self.view = TableView(table.names, table.game, viewer=index)
        self.requests: list[_Request[Any]] = []
        """Questions put to this person and not yet answered. Urgent ones come first,
        then the newest: someone's line dropping interrupts a discard, which is asked
        again after."""
        self.running: _Request[Any] | None = None
        self.nesting = 0
        """How deep in a chat line, help or quit dialog the caller is: the game waits
        for those to close before it takes the caller to the next step."""
        self.own_hand: HandState | None = None
        self.own_panel: Panel | None = None
        self.play_bar = 0
        self.idle_error = ""
        """What a key pressed while waiting did not do, until the next key."""
        self.finishing = False
        self.left = False

    @property
    def index(self) -> int | None:
        return self.seat.index if self.seat is not None else None

    @property
    def style(self) -> Style:
        if self.seat is None:
            return WATCHER_STYLE
        return theme.PLAYER_STYLES[self.table.game.side_of(self.seat.index)]

    # --- the person's side of the game -------------------------------------------

    async def attend(self) -> GameResult:
        """Take part until the game ends for this person; returns their result.

        Raises ``Disconnected`` when the line drops (the seat is then away, and the
        game goes on or waits as the others decide)."""
        table = self.table
        self.session.push(self.screen)
        try:
            while not table.over:
                request = self.current_request()
                if request is None:
                    with contextlib.suppress(_Interrupted):
                        await self.idle()
                    continue
                self.running = request
                try:
                    answer = await request.step(self)
                except _Interrupted:
                    continue
                finally:
                    self.running = None
                    self.reset_step_view()
                if not request.future.done():
                    request.future.set_result(answer)
                self.forget(request.future)
            if table.failure is not None:
                raise table.failure
            return await self.finish()
        except _Quit:
            table.person_quit(self)
            return table.result_for(self.index, quit=True)
        except Disconnected:
            table.person_dropped(self)
            raise
        finally:
            self.session.pop(self.screen)

    async def idle(self) -> None:
        """Between requests: watch the game. While someone else is deciding, keys work
        (chat, help, quit); while the computer moves, keys wait in the terminal."""
        if self.seat is not None and not self.table.people_deciding():
            await self.draw()
            await self.inbox.wait_woken()
            return
        try:
            while True:
                key = await self.next_key(quit_key=True)
                if self.seat is None and key == Key.ESCAPE:
                    raise _Quit
                self.idle_error = _wrong_key(key, "wait, or press c to chat")
        finally:
            self.idle_error = ""

    async def finish(self) -> GameResult:
        """The end of the game: the result for everyone but the caller of a game against
        the computer (who was asked to play again already), then RETURN to leave."""
        table = self.table
        result = table.result_for(self.index)
        if table.solo and self.seat is not None:
            return result
        self.finishing = True
        self.reset_step_view()
        question = "Press RETURN to go back to the lobby."
        if table.abandoned:
            table_text = "Nobody is left to play: the game is over."
        else:
            table_text = "The game is over."
        if table.game.winner_side is not None:
            self.own_panel = table.game_over_panel(question)
        self.view.entry = None
        error = ""
        while True:
            self.view.message, self.view.error = error or table_text, bool(error)
            self.view.status = f"RETURN back to the lobby  {_EVERYWHERE}"
            try:
                key = await self.next_key(quit_key=False)
            except _Interrupted:
                continue
            if key in _GO_ON_KEYS or key == Key.ESCAPE or key.char in ("q", "Q"):
                return result
            error = _wrong_key(key, "press RETURN to go back to the lobby")

    def reset_step_view(self) -> None:
        self.own_hand = None
        self.own_panel = None
        self.view.entry = None
        self.view.error = False

    def ask(
        self, step: Callable[[Person], Awaitable[Result]], *, urgent: bool = False
    ) -> asyncio.Future[Result]:
        """Put a question to this person; the future holds their answer, or SeatAway."""
        future: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
        if self.left:
            future.set_exception(SeatAway(self.name))
            return future
        self.requests.append(_Request(step, future, urgent))
        self.inbox.wake()
        return future

    def current_request(self) -> _Request[Any] | None:
        waiting = [r for r in reversed(self.requests) if not r.future.done()]
        return next((r for r in waiting if r.urgent), waiting[0] if waiting else None)

    def forget(self, future: asyncio.Future[Any]) -> None:
        self.requests = [r for r in self.requests if r.future is not future]

    def withdraw(self, future: asyncio.Future[Any]) -> None:
        """The question is no longer asked (someone else answered, the game moved on)."""
        if not future.done():
            future.cancel()
        self.forget(future)
        self.inbox.wake()

    # --- the steps of a game, from this person's seat --------------------------------

    async def before_deal(self) -> str:
        """The chat line that is open before every hand. RETURN on a blank line deals
        (the dealer) or says ready (when the computer deals for several people)."""
        table, game = self.table, self.table.game
        assert self.seat is not None
        entry = Entry("Chat: ", limit=MAX_CHAT_LENGTH)
        self.view.entry = entry
        dealer = table.seats[game.dealer]
        i_deal = dealer is self.seat
        solo_deal = dealer.computer_plays and len(table.players_present()) == 1
        upcoming = game.hand_number + 1
        if i_deal or solo_deal:
            who = "you deal" if i_deal else f"{dealer.name} deals"
            prompt = f"Hand {upcoming}: {who}. Chat, or RETURN on a blank line to deal."
            status = "Type to chat  RETURN on a blank line: deal  ? help  ^L redraw  Esc quit"
        elif dealer.computer_plays:
            prompt = f"Hand {upcoming}: {dealer.name} deals. Chat; RETURN on a blank line: ready."
            status = "Type to chat  RETURN on a blank line: ready  ? help  ^L redraw  Esc quit"
        else:
            prompt = (
                f"Hand {upcoming}: {dealer.name} deals. Chat while {dealer.name} "
                "gets ready to deal."
            )
            status = "Type to chat  RETURN send  ? help  ^L redraw  Esc quit"
        error = ""
        while True:
            self.show_prompt(prompt, error, status)
            key = await self.next_key(typing=entry.text)
            error = ""
            if key == Key.ENTER:
                if not clean_chat(entry.text):
                    if i_deal or dealer.computer_plays:
                        return "deal"
                    error = f"{dealer.name} deals: type a line to chat while you wait."
                    continue
                self.say(entry.text)
                entry.text = ""
            elif key == Key.ESCAPE:
                if entry.text:
                    entry.editor.clear()
                else:
                    await self.confirm_quit()
            elif (edit := entry.editor.feed(key)) is Edit.REFUSED:
                error = entry.editor.refusal
            elif edit is Edit.NOT_EDITING:
                if i_deal or dealer.computer_plays:
                    error = "Type a line to chat, or press RETURN on a blank line to deal."
                else:
                    error = "Type a line to chat, and press RETURN to send it."

    async def discard(self) -> list[Card]:
        self.forget_typeahead()
        game = self.table.game
        assert self.seat is not None
        need = game.discard_count
        whose = self.table.crib_owner(self.seat.index)
        cards = sorted(game.hand(self.seat.index), key=_display_order)
        picker = CardPicker(cards, need=need)
        error = ""
        while True:
            self.own_hand = HandState(tuple(cards), picker.bar, frozenset(picker.marked))
            if not picker.complete:
                plural = "s" if need > 1 else ""
                prompt = (
                    f"Choose {need} card{plural} for {whose}: put the bar on a card, press RETURN."
                )
                status = f"<- -> or 1-{len(cards)} move  RETURN mark  DEL unmark  {_EVERYWHERE}"
            else:
                prompt = f"RETURN throws {_faces(picker.marked)} to {whose}. DEL un-marks a card."
                status = f"RETURN throw  DEL unmark  <- -> move  {_EVERYWHERE}"
            self.show_prompt(prompt, error, status)
            key = await self.next_key()
            error = ""
            picked = picker.feed(key)
            if picked is Pick.CHOSEN:
                return picker.chosen
            if picked is Pick.REFUSED:
                error = picker.refusal
            elif picked is Pick.NOT_PICKING:
                error = _wrong_key(key, "move the bar with the arrows, RETURN marks a card")

    async def cut(self) -> int:
        self.forget_typeahead()
        size = self.table.game.stock_size
        entry = Entry(f"Cut the deck at card number (1-{size}): ", limit=2)
        self.view.entry = entry
        selected: int | None = None
        prompt = f"You cut: type a card number from 1 to {size}, or move with the arrows."
        error = ""
        while True:
            self.own_panel = CutPanel(size, selected)
            status = f"1-{size} or <- -> pick  RETURN cut  BS erase  {_EVERYWHERE}"
            self.show_prompt(prompt, error, status)
            key = await self.next_key()
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
                error = _wrong_key(key, f"type a card number from 1 to {size}")

    async def play(self) -> Card:
        self.forget_typeahead()
        game = self.table.game
        assert self.seat is not None
        cards = self.table.sorted_hand(self.seat.index)
        playable = set(game.playable(self.seat.index))
        why_not = {
            card: f"{card_face(card)} would make {game.count + card.pips}: "
            "the count cannot pass 31."
            for card in cards
            if card not in playable
        }
        picker = CardPicker(cards, bar=self.play_bar, unplayable=set(why_not), why_not=why_not)
        error = ""
        while True:
            self.play_bar = picker.bar
            self.own_hand = HandState(cards, picker.bar, unplayable=frozenset(why_not))
            prompt = f"Your turn, the count is {game.count}: put the bar on a card, press RETURN."
            status = f"<- -> or 1-{len(cards)} move  RETURN play  {_EVERYWHERE}"
            self.show_prompt(prompt, error, status)
            key = await self.next_key()
            error = ""
            picked = picker.feed(key)
            if picked is Pick.CHOSEN:
                return picker.chosen[0]
            if picked is Pick.REFUSED:
                error = picker.refusal
            elif picked is not Pick.MOVED:
                error = _wrong_key(key, "move the bar to a card and press RETURN to play it")

    async def count(self) -> int:
        """The points this person claims for the hand on show (manual counting)."""
        self.forget_typeahead()
        game = self.table.game
        assert game.showing is not None
        title = show_title(*game.showing, self.table.names, self.index)
        entry = Entry(
            f"{title}: how many points? ",
            limit=2,
            allowed=lambda char: char in "0123456789",
            allowed_hint="Type the points in digits, 0 to 29.",
        )
        self.view.entry = entry
        prompt = f"Count {title.lower()} with the starter, type the points, press RETURN."
        status = f"0-9 your count  RETURN enter  BS erase  {_EVERYWHERE}"
        error = ""
        while True:
            self.show_prompt(prompt, error, status)
            key = await self.next_key()
            error = ""
            edit = entry.editor.feed(key)
            if edit is Edit.DONE:
                try:
                    return parse_claim(entry.text)
                except CribbageError as refusal:
                    error = str(refusal)
                    entry.editor.clear()
            elif edit is Edit.REFUSED:
                full = len(entry.text) >= entry.limit
                error = "A hand counts 0 to 29." if full else entry.editor.refusal
            elif edit in (Edit.NOT_EDITING, Edit.CANCELLED):
                error = _wrong_key(key, "type your count and press RETURN")

    async def go_on(self, prompt: str) -> None:
        error = ""
        while True:
            self.show_prompt(prompt, error, f"RETURN go on  {_EVERYWHERE}")
            key = await self.next_key()
            if key in _GO_ON_KEYS:
                return
            error = _wrong_key(key, "press RETURN to go on")

    async def play_again(self) -> bool:
        self.forget_typeahead()
        self.own_panel = self.table.game_over_panel()
        self.own_hand = HandState()
        error = ""
        while True:
            status = "y play again  n leave  c chat  ? help  ^L redraw"
            self.show_prompt("Play again? Press y or n.", error, status)
            key = await self.next_key(quit_key=False)
            if key.char in ("y", "Y"):
                return True
            if key.char in ("n", "N", "q", "Q") or key == Key.ESCAPE:
                return False
            error = _wrong_key(key, "press y to play again or n to leave")

    async def absent(self, seat: Seat, minutes: str) -> str:
        """Someone's line dropped: wait for them, or let the computer play their seat."""
        error = ""
        while True:
            prompt = f"{seat.name}'s line dropped: waiting up to {minutes} for a call back."
            status = f"p computer plays for {seat.name}  {_EVERYWHERE}"
            self.show_prompt(prompt, error, status)
            key = await self.next_key()
            if key.char in ("p", "P"):
                return "computer"
            error = _wrong_key(key, f"wait for {seat.name}, or press p")

    # --- keys that work everywhere --------------------------------------------------

    def forget_typeahead(self) -> None:
        """A decision is about to be asked: keys pressed before its prompt was shown
        (while the computer thought, say) are not its answer."""
        dropped = self.session.forget_typeahead()
        if dropped:
            logger.debug("%s: %d key(s) typed ahead of a decision dropped", self.name, dropped)

    async def next_key(self, *, typing: str | None = None, quit_key: bool = True) -> Key:
        """The next key for the current step, once the keys that work everywhere are
        dealt with. ``typing`` is the text of the line being typed, if any: then letters
        are text, and ``?`` means help only on an empty line. Raises ``_Interrupted``
        when the game has moved on from the step (never inside a chat line or help)."""
        while True:
            if self.nesting == 0 and self.interrupted():
                raise _Interrupted
            await self.draw()
            key = await self.inbox.next()
            if key is None:
                continue  # something happened at the table: redraw, look again
            if key == Key.CTRL_L:
                self.session.redraw_all()
            elif key == Key.F1 or (key.char == "?" and not typing):
                await self.nested(self.help())
            elif typing is None and key.char in ("c", "C"):
                await self.nested(self.chat())
            elif quit_key and (key == Key.CTRL_C or (typing is None and key.char in ("q", "Q"))):
                await self.nested(self.confirm_quit())
            else:
                return key

    def interrupted(self) -> bool:
        if self.finishing:
            return False
        if self.table.over or self.running is not self.current_request():
            return True
        # A player watching others decide goes quiet once nobody is deciding any more.
        return self.running is None and self.seat is not None and not self.table.people_deciding()

    async def nested(self, inner: Coroutine[Any, Any, None]) -> None:
        self.nesting += 1
        try:
            await inner
        finally:
            self.nesting -= 1

    async def draw(self) -> None:
        self.compose()
        await self.refresh()

    async def help(self) -> None:
        """The help pages, over the table, until a key closes them."""
        pages = HelpOverlay.from_text(self.table.help_text)

        def draw(canvas: Canvas) -> None:
            draw_help(canvas, pages)
            draw_status(canvas, pages.status("the game"))

        with self.session.showing(Overlay(draw)):
            while True:
                await self.draw()
                key = await self.inbox.next()
                if key is None:
                    continue
                if key == Key.CTRL_L:
                    self.session.redraw_all()
                    continue
                turned = pages.after(key)
                if turned is None:
                    return
                pages = turned

    async def confirm_quit(self) -> None:
        if self.seat is None:
            raise _Quit  # a watcher just stops watching
        if self.table.solo:
            consequence = f"Leave now and {self.table.first_opponent_name()} is given the game."
        else:
            consequence = "Leave now and the computer plays your seat."
        confirm = Confirm("Quit this game?", consequence)
        error = ""

        def draw(canvas: Canvas) -> None:
            draw_dialog(canvas, Dialog(confirm.question, (*confirm.lines, error)))
            draw_status(canvas, CONFIRM_STATUS)

        with self.session.showing(Overlay(draw)):
            while True:
                await self.draw()
                key = await self.inbox.next()
                if key is None:
                    continue
                if key == Key.CTRL_L:
                    self.session.redraw_all()
                    continue
                answer = confirm.answer(key)
                if answer is True:
                    raise _Quit
                if answer is False:
                    return
                error = confirm.not_an_answer(key)

    async def chat(self) -> None:
        """A one-line chat in the middle of anything; the step resumes as it was."""
        view = self.view
        saved = (view.entry, view.message, view.error, view.status)
        entry = Entry("Say: ", limit=MAX_CHAT_LENGTH)
        view.entry = entry
        error = ""
        try:
            while True:
                self.show_prompt(
                    "Type what you want to say and press RETURN.",
                    error,
                    "RETURN send  Esc cancel  BS erase  F1 help  ^L redraw",
                )
                key = await self.next_key(typing=entry.text)
                error = ""
                if key == Key.ENTER:
                    if clean_chat(entry.text):
                        self.say(entry.text)
                    return
                if key == Key.ESCAPE:
                    return
                if entry.editor.feed(key) is Edit.REFUSED:
                    error = entry.editor.refusal
        finally:
            view.entry, view.message, view.error, view.status = saved

    def say(self, text: str) -> None:
        self.table.chat(self.name, text, self.style)

    # --- drawing ------------------------------------------------------------------

    def show_prompt(self, prompt: str, error: str = "", status: str | None = None) -> None:
        self.view.message = error or prompt
        self.view.error = bool(error)
        if status is not None:
            self.view.status = status

    def compose(self) -> None:
        """Bring the view up to the table: the shared panel unless this person's step
        has its own, and their hand as it stands unless the step is choosing from it."""
        table, view = self.table, self.view
        view.game = table.game
        view.header = table.header
        view.panel = self.own_panel if self.own_panel is not None else table.panel
        if self.own_hand is not None:
            view.hand = self.own_hand
        elif self.seat is not None and not _over(table.game):
            view.hand = HandState(table.sorted_hand(self.seat.index))
        else:
            view.hand = HandState()
        if self.running is None and not self.finishing:
            # Waiting, not answering: the table's news, or whom the game waits for.
            watching = self.seat is None or table.people_deciding()
            view.message = self.idle_error or (table.waiting_text() if watching else table.message)
            view.error = bool(self.idle_error)
            if self.seat is None:
                view.status = _WATCHING_STATUS
            else:
                view.status = _WAITING_STATUS if watching else table.status

    async def refresh(self) -> None:
        await self.session.paint()

    def frame(self) -> tuple[Canvas, tuple[int, int] | None]:
        """The table from this person's seat, as it stands now."""
        self.compose()
        return draw_table(self.view)

    def log(self, text: str, style: Style = theme.TEXT) -> None:
        if text:
            self.view.log.add(text, style)
            self.inbox.wake()


class Table:
    """One game and the people at it. ``names`` holds a name for each seat taken by a
    caller and None for each seat the computer plays; seat 0 is "player 1".

    Call ``sit`` for each caller's seat (and ``watch`` for anyone watching) with their
    terminal, ``start`` to begin, and have each caller's session await their
    ``Person.attend()``. ``close`` stops the game if it is still going.

    ``game`` is the game to play (by default a new one shuffled by ``rng``); it may be
    one under way. ``account_ids`` holds, per seat, the account of the caller sitting
    there (None for a guest or the computer).
    """

    def __init__(
        self,
        options: GameOptions,
        names: Sequence[str | None],
        *,
        rng: random.Random,
        pause: float = DEFAULT_PAUSE,
        help_text: str | None = None,
        reconnect_wait: float = DEFAULT_RECONNECT_WAIT,
        on_game_over: Callable[[GameResult], None] | None = None,
        on_change: Callable[[], None] | None = None,
        game: Game | None = None,
        account_ids: Sequence[int | None] | None = None,
    ) -> None:
        if len(names) != options.players:
            raise ValueError(f"{options.players} players need {options.players} seats")
        if game is not None and game.players != options.players:
            raise ValueError(f"a game for {game.players} cannot be played by {options.players}")
        self.options = options
        self.rng = rng
        self.pause_seconds = pause
        self.reconnect_wait = reconnect_wait
        self.help_text = help_text if help_text is not None else default_help()
        self.on_game_over = on_game_over
        self.on_change = on_change
        self.chat_rng = random.Random(rng.getrandbits(64))
        self.last_reply = ""
        self.seats = _make_seats(names, options.level, rng, account_ids)
        self.names = tuple(seat.name for seat in self.seats)
        self.solo = sum(seat.human for seat in self.seats) == 1
        """One caller against the computer: no waiting for them if they drop, and
        "play again?" at the end."""
        self.game = game or Game(
            options.players, runs=options.runs, counting=options.counting, rng=rng
        )
        self.watchers: list[Person] = []
        self.header: tuple[str, ...] = ()
        self.panel: Panel | None = None
        self.message = ""
        self.status = "Please wait"
        self.waits: dict[int, str] = {}
        """Seats the game is waiting for, and what for ("play", "cut the deck")."""
        self.over = False
        self.abandoned = False
        self.failure: BaseException | None = None
        self.quit_result: GameResult | None = None
        self._host: asyncio.Task[None] | None = None
        self._thinking: list[asyncio.Future[Any]] = []

    # --- who is here ----------------------------------------------------------------

    @property
    def title(self) -> str:
        """``Alice vs Bob`` (``Alice & Carol vs Bob & Computer`` for partners)."""
        if self.options.players == 4:
            return f"{self.names[0]} & {self.names[2]} vs {self.names[1]} & {self.names[3]}"
        return " vs ".join(self.names)

    def players_present(self) -> list[Person]:
        return [seat.person for seat in self.seats if seat.person is not None]

    def people(self) -> list[Person]:
        """Everyone looking at the table: the players here, then the watchers."""
        return [*self.players_present(), *self.watchers]

    def people_deciding(self) -> bool:
        return any(person.current_request() for person in self.players_present()) or any(
            seat.away for seat in self.seats if seat.index in self.waits
        )

    def first_opponent_name(self) -> str:
        return self.names[1]

    @property
    def given_up(self) -> bool:
        """The caller of a game against the computer chose to quit it: not a dropped
        line, nor the door closing (those leave a saved game to resume)."""
        return self.quit_result is not None

    def sit(self, index: int, session: Session) -> Person:
        """The caller of seat ``index`` sits down, seeing the table on ``session``."""
        seat = self.seats[index]
        if not seat.human:
            raise ValueError(f"seat {index} is the computer's")
        person = Person(self, seat.name, session, seat)
        seat.person = person
        seat.returned.set()
        return person

    def waits_for(self, name: str, account_id: int | None = None) -> Seat | None:
        """The seat ``name`` may take back: a caller's seat of that name whose caller is
        gone, and, if they had logged in, only for the same account."""
        key = name.casefold()
        for seat in self.seats:
            if (
                seat.human
                and not seat.left
                and seat.person is None
                and seat.name.casefold() == key
                and seat.account_id in (None, account_id)
            ):
                return seat
        return None

    def rejoin(self, name: str, session: Session, account_id: int | None = None) -> Person | None:
        """The caller ``name`` (logged in to ``account_id``, if any) is back after their
        line dropped: their seat again, where the game stands; None if no seat here is
        waiting for them."""
        seat = self.waits_for(name, account_id)
        if seat is None or self.over:
            return None
        was_computer = seat.computer_plays
        seat.computer_plays = False
        person = self.sit(seat.index, session)
        person.view.log.add("You are back at the table, where the game stands.")
        back = f"{seat.name} is back."
        if was_computer:
            back += f" {seat.name} plays from the next decision on."
        self.announce(back, exclude=person)
        self.changed()
        return person

    def watch(self, name: str, session: Session) -> Person:
        person = Person(self, name, session, None)
        person.view.log.add(f"You are watching {self.title}. Press c to chat.", theme.TITLE)
        self.watchers.append(person)
        self.announce(f"{name} is watching.", exclude=person)
        return person

    def person_dropped(self, person: Person) -> None:
        """A line dropped: tell the others; the game waits for the seat when it needs it."""
        person.left = True
        self._fail_request(person)
        if person.seat is None:
            self._remove_watcher(person)
            return
        seat = person.seat
        if seat.person is person:
            seat.person = None
            seat.returned.clear()
        if self.over:
            return
        if self.solo:
            self.close()
            return
        self.announce(f"{seat.name}'s line has dropped.", theme.ERROR)
        self._end_if_nobody_plays()
        self.changed()

    def person_quit(self, person: Person) -> None:
        person.left = True
        self._fail_request(person)
        if person.seat is None:
            self._remove_watcher(person)
            self.announce(f"{person.name} stopped watching.")
            return
        seat = person.seat
        if seat.person is person:
            seat.person = None
        if self.over:
            return
        if self.solo:
            # Leaving a game against the computer forfeits it: the engine ends the game
            # (and a saved game records the forfeit as its last action).
            self.game.forfeit(seat.index)
            self.quit_result = self.result_for(seat.index, quit=True)
            self.close()
            return
        seat.left = True
        seat.computer_plays = True
        seat.returned.set()
        self.announce(f"{seat.name} left the game: the computer plays for {seat.name}.")
        self._end_if_nobody_plays()
        self.changed()

    def _fail_request(self, person: Person) -> None:
        requests, person.requests = person.requests, []
        for request in requests:
            if not request.future.done():
                request.future.set_exception(SeatAway(person.name))
                # The host may have stopped waiting for this answer (someone else dealt):
                # mark the exception seen so asyncio does not log it as lost.
                request.future.exception()

    def _remove_watcher(self, person: Person) -> None:
        if person in self.watchers:
            self.watchers.remove(person)
        self.changed()

    def _end_if_nobody_plays(self) -> None:
        if not any(seat.human and not seat.left for seat in self.seats):
            self.abandoned = True
            self.close()

    # --- running the game -------------------------------------------------------------

    def start(self) -> None:
        """Begin the game in the background (the host coroutine)."""
        if self._host is None:
            self._host = asyncio.get_running_loop().create_task(self._run())

    def close(self) -> None:
        """Stop the game if it is still going, and let everyone at the table go."""
        if self._host is not None and not self._host.done():
            self._host.cancel()
        for future in list(self._thinking):
            future.cancel()
        self._finish()

    def _finish(self) -> None:
        if self.over:
            return
        self.over = True
        for person in self.people():
            person.inbox.wake()
        self.changed()

    async def _run(self) -> None:
        try:
            await self.play_games()
        except _Abandoned:
            self.abandoned = True
        except asyncio.CancelledError:
            pass
        except Exception as error:
            logger.exception("the game at table %s failed", self.title)
            self.failure = error
        finally:
            self._finish()

    async def play_games(self) -> None:
        game = self.game
        while True:
            self.game = game
            await self.play_game(game)
            self.panel = self.game_over_panel()
            result = self.result_for(0 if self.solo else None)
            if self.on_game_over is not None:
                self.on_game_over(result)
            if not self.solo:
                return
            seat = self.seats[0]
            if not await self.decide(seat, Person.play_again, _never_computer, "answer"):
                return
            game = game.next_game()
            self.game = game
            self.panel = None
            self.announce("A new game: the loser of the last one deals first.", theme.TITLE)

    async def play_game(self, game: Game) -> None:
        """Play ``game`` to its end from whatever phase it is in: a new game starts with
        the cut for deal, a resumed one goes on mid-hand (each step below copes with a
        discard half made, a count half played or a show half counted)."""
        if game.phase not in (Phase.CUT_FOR_DEAL, Phase.DEAL):
            self.set_header(game)
        while not _over(game):
            phase = game.phase
            if phase is Phase.CUT_FOR_DEAL:
                self.cut_for_deal(game)
            elif phase is Phase.DEAL:
                await self.before_deal(game)
                self.log(game.deal())
                self.panel = None
            elif phase is Phase.DISCARD:
                await self.discard(game)
            elif phase is Phase.CUT:
                await self.cut(game)
                if _over(game):  # two for his heels took the dealer to 121
                    await self.pause()
            elif phase is Phase.PLAY:
                await self.pegging(game)
            elif phase is Phase.SHOW:
                await self.show(game)

    def cut_for_deal(self, game: Game) -> None:
        events = game.cut_for_deal()
        self.log(events)
        last = [event for event in events if isinstance(event, CutForDeal)][-1]
        assert last.dealer is not None
        self.panel = CutForDealPanel(last.draws, last.dealer)

    async def before_deal(self, game: Game) -> None:
        """Everyone is in chat mode; the dealer deals with RETURN on a blank line. When
        the computer deals, it deals once every caller has said they are ready."""
        self.set_header(game, upcoming=True)
        dealer = self.seats[game.dealer]
        while True:
            if dealer.away and not dealer.computer_plays:
                await self.wait_for_return(dealer)
                continue
            asked = {person: person.ask(Person.before_deal) for person in self.players_present()}
            self.waits = {dealer.index: "deal"}
            try:
                if dealer.person is not None:
                    with contextlib.suppress(SeatAway):
                        await asked[dealer.person]
                        return
                else:
                    self.waits = {person.seat.index: "be ready" for person in asked if person.seat}
                    await _settle_all(asked.values())
                    return
            finally:
                self.waits = {}
                for person, future in asked.items():
                    person.withdraw(future)

    async def discard(self, game: Game) -> None:
        """Everyone chooses at once. Callers' throws land as they are made; the computer
        thinks meanwhile and throws once the callers have, as a player across the table
        waits for the others before pushing their cards over."""
        self.set_header(game)
        self.changed()
        # A resumed game may have some throws in the crib already.
        throwing = [seat for seat in self.seats if not game.has_discarded(seat.index)]
        computers = [seat for seat in throwing if seat.computer_plays]
        thoughts = {
            seat: asyncio.ensure_future(self.think(seat.computer.discard, game, seat.index))
            for seat in computers
        }
        try:
            await _all(*(self.discard_for(seat) for seat in throwing if seat not in thoughts))
            for seat, thought in thoughts.items():
                thrown = _checked_throw(await thought, game, seat.index)
                self.log(game.discard(seat.index, thrown))
        finally:
            for thought in thoughts.values():
                thought.cancel()
        self.waits = {}

    async def discard_for(self, seat: Seat) -> None:
        game = self.game

        async def computer_throw() -> list[Card]:
            thrown = await self.think(seat.computer.discard, game, seat.index)
            return list(_checked_throw(thrown, game, seat.index))

        cards = await self.decide(seat, Person.discard, computer_throw, "throw to the crib")
        events = game.discard(seat.index, cards)
        if seat.person is not None:
            whose = self.crib_owner(seat.index)
            seat.person.log(f"You throw {_faces(cards)} to {whose}.")
        self.log(events)

    async def cut(self, game: Game) -> None:
        size = game.stock_size
        cutter = self.seats[game.cutter]
        self.panel = CutPanel(size)

        async def computer_cut() -> int:
            chosen = await self.think(cutter.computer.cut, game, cutter.index)
            valid = isinstance(chosen, int) and 1 <= chosen <= size
            position = chosen if chosen is not None and valid else self.rng.randint(1, size)
            self.panel = CutPanel(size, position)
            self.tell(f"{cutter.name} cuts the deck at card {position}.", "Please wait")
            await self.pause()
            return position

        position = await self.decide(cutter, Person.cut, computer_cut, "cut the deck")
        self.log(game.cut(position))
        self.panel = None
        assert game.starter is not None
        self.tell(f"The starter is {card_face(game.starter)}.")

    async def pegging(self, game: Game) -> None:
        while game.phase is Phase.PLAY:
            assert game.turn is not None
            seat = self.seats[game.turn]

            async def computer_play(seat: Seat = seat) -> Card:
                self.tell(f"{seat.name} is playing...", "Please wait: the computer plays")
                await self.pause()
                card = await self.think(seat.computer.play, game, seat.index)
                if card is None or card not in game.playable(seat.index):
                    card = game.playable(seat.index)[0]
                return card

            card = await self.decide(seat, Person.play, computer_play, "play")
            self.log(game.play(seat.index, card))
        await self.pause()

    async def show(self, game: Game) -> None:
        assert game.starter is not None
        while game.phase is Phase.SHOW and game.showing is not None:
            index, is_crib = game.showing
            seat = self.seats[index]
            cards = sorted(game.crib if is_crib else game.kept(index), key=_display_order)
            self.panel = ShowPanel(index, is_crib, tuple(cards), game.starter)
            if game.counting == "auto":
                events = game.count_hand()
            else:

                async def computer_claim(seat: Seat = seat) -> int:
                    claim = await self.think(seat.computer.claim, game, seat.index)
                    return claim if isinstance(claim, int) else 0

                what = "count the crib" if is_crib else "count the hand"
                claim = await self.decide(seat, Person.count, computer_claim, what)
                events = game.count_hand(claim)
            scored = next(event for event in events if isinstance(event, ShowScored))
            self.panel = ShowPanel(index, is_crib, tuple(cards), game.starter, scored)
            self.log(events)
            await self.everyone_goes_on(game)
        self.panel = None

    async def everyone_goes_on(self, game: Game) -> None:
        """Each caller reads the show and presses RETURN; the game goes on when all have."""

        def prompt_for(person: Person) -> str:
            if _over(game):
                next_step = "the end of the game"
            elif game.showing is None:
                next_step = "the next hand"
            else:
                title = show_title(*game.showing, self.names, person.index)
                next_step = "your" + title[4:] if title.startswith("Your") else title
            return f"RETURN: on to {next_step}."

        asked = {
            person: person.ask(lambda person: person.go_on(prompt_for(person)))
            for person in self.players_present()
        }
        self.waits = {person.seat.index: "go on" for person in asked if person.seat is not None}
        try:
            await _settle_all(asked.values(), on_each=lambda: self._drop_done_waits(asked))
        finally:
            self.waits = {}

    def _drop_done_waits(self, asked: dict[Person, asyncio.Future[Any]]) -> None:
        for person, future in asked.items():
            if future.done() and person.seat is not None:
                self.waits.pop(person.seat.index, None)
        self.changed()

    # --- asking a seat -------------------------------------------------------------

    async def decide(
        self,
        seat: Seat,
        step: Callable[[Person], Awaitable[Result]],
        computer_move: Callable[[], Awaitable[Result]],
        waiting_for: str,
    ) -> Result:
        """A decision for ``seat``: its caller's answer to ``step``, or the computer's
        move if the computer plays the seat. Waits (boundedly) for a caller whose line
        dropped."""
        while True:
            if seat.computer_plays:
                return await computer_move()
            if seat.person is None:
                self.waits[seat.index] = waiting_for
                await self.wait_for_return(seat)
                continue
            person = seat.person
            self.waits[seat.index] = waiting_for
            self.changed()
            try:
                return await person.ask(step)
            except SeatAway:
                continue
            finally:
                self.waits.pop(seat.index, None)
                self.changed()

    async def wait_for_return(self, seat: Seat) -> None:
        """``seat``'s caller is away: ask the others whether to wait for them; the
        computer takes the seat when one says so, or when the wait runs out."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_wait
        minutes = _duration(self.reconnect_wait)
        self.waits[seat.index] = "call back"
        choice: str | None = None
        while seat.away and not seat.computer_plays:
            asked = {
                person: person.ask(lambda person: person.absent(seat, minutes), urgent=True)
                for person in self.players_present()
            }
            back = asyncio.ensure_future(seat.returned.wait())
            try:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    break
                answers: set[asyncio.Future[Any]] = {back, *asked.values()}
                done, _ = await asyncio.wait(
                    answers, timeout=remaining, return_when=asyncio.FIRST_COMPLETED
                )
                for future in done:
                    if future is not back and not future.cancelled() and not future.exception():
                        choice = future.result()
                if choice is not None or not done:
                    break
            finally:
                back.cancel()
                for person, future in asked.items():
                    person.withdraw(future)
        self.waits.pop(seat.index, None)
        if not seat.away:
            return
        if not self.players_present():
            raise _Abandoned
        seat.computer_plays = True
        why = "as asked" if choice else "as the wait is over"
        self.announce(f"The computer plays for {seat.name} from here, {why}.", theme.TITLE)
        self.changed()

    # --- what everyone sees --------------------------------------------------------

    def log(self, events: Sequence[Event]) -> None:
        for person in self.people():
            person.log(narrate(events, self.names, person.index))

    def announce(
        self, text: str, style: Style = theme.TITLE, *, exclude: Person | None = None
    ) -> None:
        for person in self.people():
            if person is not exclude:
                person.log(text, style)

    def chat(self, speaker: str, text: str, style: Style) -> None:
        """A chat line for everyone at the table (and a word back from the computer when
        it is the caller's only company)."""
        line = clean_chat(text)
        if not line:
            return
        name = sanitize(speaker, MAX_NAME_LENGTH)
        for person in self.people():
            person.view.log.chat(name, line, style)
            person.inbox.wake()
        if self.solo and any(
            seat.person is not None and seat.person.name == speaker for seat in self.seats
        ):
            reply = self.last_reply = canned_reply(self.chat_rng, self.last_reply)
            computer = next(seat for seat in self.seats if not seat.human)
            computer_style = theme.PLAYER_STYLES[self.game.side_of(computer.index)]
            for person in self.people():
                person.view.log.chat(computer.name, reply, computer_style)

    def tell(self, message: str, status: str | None = None) -> None:
        """What everyone who is not answering a question reads on the message line."""
        self.message = message
        if status is not None:
            self.status = status
        self.changed()

    def waiting_text(self) -> str:
        if not self.waits:
            return self.message
        by_action: dict[str, list[str]] = {}
        for index, action in self.waits.items():
            by_action.setdefault(action, []).append(self.names[index])
        action, names = next(iter(by_action.items()))
        return f"Waiting for {_and(names)} to {action}."

    def set_header(self, game: Game, *, upcoming: bool = False) -> None:
        number = game.hand_number + (1 if upcoming else 0)
        runs = "exact runs" if self.options.runs == "exact" else "free runs"
        counting = f"{self.options.counting} count"
        # The computer's level says something only where the computer plays.
        level = f" · {self.options.level}" if not all(s.human for s in self.seats) else ""
        self.header = (
            f"Hand {number} · {runs} · {counting}{level}",
            f"Hand {number} · {runs} · {counting}",
            f"Hand {number}",
        )

    def crib_owner(self, seat: int) -> str:
        """``your crib`` or ``Bob's crib``, for the caller at ``seat``."""
        dealer = self.game.dealer
        return "your crib" if dealer == seat else f"{self.names[dealer]}'s crib"

    def sorted_hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(sorted(self.game.hand(seat), key=_display_order))

    def game_over_panel(self, question: str = PLAY_AGAIN) -> GameOverPanel:
        outcome = self.game.outcome()
        assert outcome is not None
        return GameOverPanel(outcome, question)

    def changed(self) -> None:
        """Something at the table changed: everyone redraws."""
        for person in self.people():
            person.inbox.wake()
        if self.on_change is not None:
            self.on_change()

    async def pause(self) -> None:
        """Hold the screens a moment so everyone can follow the computer's moves."""
        self.changed()
        await asyncio.sleep(self.pause_seconds if self.pause_seconds > 0 else 0)

    async def think(self, decide: Callable[..., Result], *args: object) -> Result | None:
        """The computer's decision, worked out off the event loop; None if it failed.

        A failure is a bug in the computer player; it is logged, and the game goes on
        with a legal stand-in move rather than ending."""
        # The worker decides on a snapshot: the live game may move on meanwhile (a
        # person's discard), and nothing the computer does can reach it.
        args = tuple(arg.snapshot() if isinstance(arg, Game) else arg for arg in args)
        future = asyncio.ensure_future(think(decide, *args))
        self._thinking.append(future)
        try:
            return await future
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("the computer player failed in %r", decide)
            return None
        finally:
            self._thinking.remove(future)

    # --- results --------------------------------------------------------------------

    def result_for(self, seat: int | None, *, quit: bool = False) -> GameResult:
        """The game as it ended (or stands) for ``seat``'s side; seat None: side 0.
        ``quit``: the seat's caller left; unless the game forfeited for them, it was
        given up."""
        if quit and self.quit_result is not None and self.solo:
            return self.quit_result
        game = self.game
        side = game.side_of(seat) if seat is not None else 0
        outcome = game.outcome()
        if quit and (outcome is None or outcome.forfeited_by != side):
            outcome = None
        return GameResult(outcome, side, tuple(game.scores))


def _make_seats(
    names: Sequence[str | None],
    level: str,
    rng: random.Random,
    account_ids: Sequence[int | None] | None = None,
) -> list[Seat]:
    accounts = list(account_ids) if account_ids is not None else [None] * len(names)
    seats = []
    computers = 0
    for index, name in enumerate(names):
        # The computer gets its own stream so its choices never shift the deck's shuffles.
        computer = ComputerPlayer(level, random.Random(rng.getrandbits(64)))
        if name is None:
            computers += 1
            shown = COMPUTER_NAME if computers == 1 else f"{COMPUTER_NAME} {computers}"
            seats.append(Seat(index, shown, False, computer))
        else:
            shown = sanitize(name, MAX_NAME_LENGTH).strip() or f"Player {index + 1}"
            seats.append(Seat(index, shown, True, computer, accounts[index]))
    return seats


async def _never_computer() -> bool:
    """The "play again?" answer when the caller is gone: no."""
    return False


async def _all(*steps: Coroutine[Any, Any, None]) -> None:
    """Run ``steps`` together; the first failure cancels the rest and is raised."""
    tasks = [asyncio.ensure_future(step) for step in steps]
    if not tasks:  # a resumed discard in which every caller has thrown already
        return
    try:
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            if task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
    finally:
        for task in tasks:
            task.cancel()


async def _settle_all(futures: Any, on_each: Callable[[], None] | None = None) -> None:
    """Wait until every future is answered or its person has gone (SeatAway)."""
    pending = {future for future in futures if not future.done()}
    while pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for future in done:
            if not future.cancelled() and future.exception() is not None:
                error = future.exception()
                if not isinstance(error, SeatAway):
                    raise error
        if on_each is not None:
            on_each()


def _over(game: Game) -> bool:
    # A function, not an inline test, because the phase changes behind the awaits.
    return game.phase is Phase.OVER


def _display_order(card: Card) -> tuple[int, str]:
    return (int(card.rank), card.suit.value)


def _faces(cards: Sequence[Card]) -> str:
    return " ".join(card_face(card) for card in cards)


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _duration(seconds: float) -> str:
    if seconds >= 120:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds:.0f} seconds"


def _checked_throw(thrown: Sequence[Card] | None, game: Game, seat: int) -> Sequence[Card]:
    """The computer's throw, or a legal stand-in if its answer is not one (a bug there
    must not stop the caller's game)."""
    hand = game.hand(seat)
    if (
        thrown is not None
        and len(set(thrown)) == len(thrown) == game.discard_count
        and all(card in hand for card in thrown)
    ):
        return thrown
    logger.error("the computer threw %r from %r; throwing the first cards instead", thrown, hand)
    return hand[: game.discard_count]


def _wrong_key(key: Key, hint: str) -> str:
    name = repr(key.char) if key.is_printable else key.name.value
    return f"The {name} key does nothing here: {hint}."
