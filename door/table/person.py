"""Someone at a table: a player in a seat, or a watcher. Their ``attend`` coroutine
(run by their session) draws their view, reads their keys and answers the table's
requests; the table (door/table/flow.py) only changes state and wakes them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Final

from door.competition.turn_timer import TurnTimer
from door.screens import theme
from door.screens.cards import card_face
from door.screens.chat import MAX_CHAT_LENGTH, clean_chat
from door.screens.cut import CutPanel
from door.screens.dialog import Dialog, draw_dialog
from door.screens.frame import draw_status
from door.screens.game_screen import Entry, Panel, TableView, draw_table, shows_win_bar
from door.screens.help import HelpOverlay, draw_help
from door.screens.play_area import HandState
from door.screens.show import show_title
from door.table.before_deal import before_deal
from door.table.computer import think
from door.table.options import GameResult
from door.table.seats import (
    EVERYWHERE,
    GO_ON_KEYS,
    WAITING_STATUS,
    WATCHER_STYLE,
    LeftTheGame,
    Request,
    Result,
    Seat,
    SeatAway,
    StepInterrupted,
    and_list,
    display_order,
    faces,
    is_over,
    wrong_key,
)
from door.term.canvas import Canvas, Style
from door.term.keys import DESELECT_KEYS, Key
from door.term.layers import Layers
from door.term.terminal import Disconnected
from door.ui.card_picker import CardPicker, Pick, digit_of, move_bar
from door.ui.confirm import STATUS as CONFIRM_STATUS
from door.ui.confirm import Confirm
from door.ui.line_editor import Edit
from door.ui.session import Drawn, Overlay, Session
from engine.computer.coach import (
    Analysis,
    analyse_claim,
    analyse_discard,
    analyse_play,
    review_game,
)
from engine.rules.cards import Card
from engine.rules.errors import CribbageError
from engine.rules.game import parse_claim
from engine.rules.record import RecordedGame

logger = logging.getLogger(__name__)

SETTLE_TURNS: Final = 3
"""Turns of the event loop a player who has just answered lets the table take before
drawing: enough for a play or a count to reach the screen in one frame."""

REVIEW_LENGTH: Final = 8
_CARD_TEXT: Final = re.compile(r"\b[A2-9TJQK][SHDC]\b")


def coach_line(analysis: Analysis) -> str:
    """The coach's words on one choice; a cost that rounds to nothing is no cost."""
    shown = f"{analysis.points_cost:.1f} {analysis.chance_cost * 100:.1f}"
    if shown == "0.0 0.0":  # what describe() would say it cost
        return analysis.describe() if analysis.is_best else _as_good(analysis)
    return analysis.describe()


def _as_good(analysis: Analysis) -> str:
    best = analysis.describe().split(" cost ")[0]
    return f"{best}: as good as the best. Chance to win {analysis.chosen.chance:.1%}."


def with_faces(text: str) -> str:
    """The engine's card notation ("5H") as the screen shows cards ("5♥")."""
    return _CARD_TEXT.sub(lambda match: card_face(Card.parse(match.group(0))), text)


"""How many of a coached game's costliest choices its review names."""

if TYPE_CHECKING:
    from door.table.flow import Table


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
        self.layers = Layers()
        """The table screen's parts as last drawn: a frame draws again only what changed."""
        index = seat.index if seat is not None else None
        self.view = TableView(table.names, table.game, viewer=index)
        self.requests: list[Request[Any]] = []
        """Questions put to this person and not yet answered. Urgent ones come first,
        then the newest: someone's line dropping interrupts a discard, which is asked
        again after."""
        self.running: Request[Any] | None = None
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
        self.wants_win_bar = table.win_bar_at_start(seat)
        """Whether this person asked for the win bar (w): on against the computer and for
        watchers (unless the sysop set it off); between callers it shows once every caller
        at the table has asked."""
        self.thrown: tuple[Card, ...] = ()
        """The cards this person threw to the crib this hand: their win bar knows them."""
        self.timer: TurnTimer | None = None
        """The turn timer on this person's decision, in a timed game."""
        self.coached = False
        self.review_text = ""
        """The coach's review of the game just ended, shown with r."""
        """The coach (h) weighs each of this person's choices against the best one."""
        self._coaching: set[asyncio.Task[None]] = set()
        self._answered = False
        """This person has just answered a request (the table has yet to act on it)."""

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
                    with contextlib.suppress(StepInterrupted):
                        await self.idle()
                    continue
                self.running = request
                try:
                    answer = await request.step(self)
                except StepInterrupted:
                    continue
                finally:
                    self.running = None
                    self.reset_step_view()
                if not request.future.done():
                    request.future.set_result(answer)
                    self._answered = True
                self.forget(request.future)
            if table.failure is not None:
                raise table.failure
            return await self.finish()
        except LeftTheGame:
            table.person_quit(self)
            return table.result_for(self.index, quit=True)
        except Disconnected:
            table.person_dropped(self)
            raise
        finally:
            self.session.pop(self.screen)
            if table.over:
                table.let_go(self)

    async def idle(self) -> None:
        """Between requests: watch the game. While someone else is deciding, keys work
        (chat, help, quit); while the computer moves, keys wait in the terminal."""
        if self.seat is not None and not self.table.people_deciding():
            if self._answered:
                # An answer just given reaches the table a turn or two of the loop
                # later: let it act first, so that its outcome is one frame, not two.
                self._answered = False
                for _ in range(SETTLE_TURNS):
                    await asyncio.sleep(0)
                    if self._moved_on():
                        return  # attend() takes it from here
            # (The frame answers the wake-ups that brought the news: Session.paint.)
            await self.draw()
            await self.inbox.wait_woken()
            return
        try:
            while True:
                key = await self.next_key(quit_key=True)
                if self.seat is None and key == Key.ESCAPE:
                    raise LeftTheGame
                if self.table.exhibition and key.char in ("+", "-", "="):
                    self.idle_error = ""
                    self.log(self.table.change_speed(faster=key.char != "-"), theme.LABEL)
                    continue
                self.idle_error = wrong_key(key, "wait, or press c to chat")
        finally:
            self.idle_error = ""

    def _moved_on(self) -> bool:
        """Whether ``attend()`` has more than drawing to do: the game is over, this
        person has been asked something, or someone is deciding (keys work then)."""
        table = self.table
        return table.over or self.current_request() is not None or table.people_deciding()

    async def finish(self) -> GameResult:
        """The end of the game: the result for everyone but the caller of a game against
        the computer (who was asked to play again already), then RETURN to leave."""
        table = self.table
        result = table.result_for(self.index)
        if table.solo and self.seat is not None:
            return result
        self.finishing = True
        self.reset_step_view()
        question = f"Press RETURN to go back to {table.back_to}."
        table_text = table.end_text()
        if table.game.winner_side is not None:
            self.own_panel = table.game_over_panel(question)
        self.view.entry = None
        error = ""
        while True:
            self.view.message, self.view.error = error or table_text, bool(error)
            self.view.status = f"RETURN back to {table.back_to}  {EVERYWHERE}"
            try:
                key = await self.next_key(quit_key=False)
            except StepInterrupted:
                continue
            if key in GO_ON_KEYS or key == Key.ESCAPE or key.char in ("q", "Q"):
                return result
            error = wrong_key(key, f"press RETURN to go back to {table.back_to}")

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
        self.requests.append(Request(step, future, urgent))
        self.inbox.wake()
        return future

    def current_request(self) -> Request[Any] | None:
        requests = self.requests
        if len(requests) <= 1:  # nearly always (asked several times a key)
            return requests[0] if requests and not requests[0].future.done() else None
        waiting = [r for r in reversed(requests) if not r.future.done()]
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
        (the dealer) or says ready (when the computer deals for several people); Esc on
        a blank line closes it, for the table's keys (door/table/before_deal.py)."""
        table, game = self.table, self.table.game
        assert self.seat is not None
        entry = Entry("Chat: ", limit=MAX_CHAT_LENGTH)
        self.view.entry = entry
        dealer = table.seats[game.dealer]
        words = before_deal(
            game.hand_number + 1,
            dealer.name,
            i_deal=dealer is self.seat,
            computer_deals=dealer.computer_plays,
            alone=len(table.players_present()) == 1,
            coach=table.solo,
        )
        error = ""
        while True:
            chatting = self.view.entry is entry
            if chatting:
                self.show_prompt(words.prompt, error, words.status)
            else:
                self.show_prompt(words.keys_prompt, error, words.keys_status)
            key = await self.next_key(typing=entry.text if chatting else None)
            error = ""
            if key == Key.ENTER and not clean_chat(entry.text if chatting else ""):
                if words.deals:
                    return "deal"
                error = words.blank_line if chatting else f"{words.keys_hint}."
            elif key == Key.ESCAPE and not chatting:
                await self.confirm_quit()
            elif key == Key.ESCAPE and not entry.text:
                self.view.entry = None  # the table's keys work now
            elif not chatting:
                error = wrong_key(key, words.keys_hint)
            elif key == Key.ENTER:
                self.say(entry.text)
                entry.text = ""
            elif key == Key.ESCAPE:
                entry.editor.clear()
            elif (edit := entry.editor.feed(key)) is Edit.REFUSED:
                error = entry.editor.refusal
            elif edit is Edit.NOT_EDITING:
                error = words.blank_line

    async def discard(self) -> list[Card]:
        self.forget_typeahead()
        game = self.table.game
        assert self.seat is not None
        need = game.discard_count
        whose = self.table.crib_owner(self.seat.index)
        cards = sorted(game.hand(self.seat.index), key=display_order)
        picker = CardPicker(cards, need=need)
        error = ""
        while True:
            self.own_hand = HandState(tuple(cards), picker.bar, frozenset(picker.marked))
            if not picker.complete:
                plural = "s" if need > 1 else ""
                prompt = (
                    f"Choose {need} card{plural} for {whose}: put the bar on a card, press RETURN."
                )
                status = f"<- -> or 1-{len(cards)} move  RETURN mark  DEL unmark  {EVERYWHERE}"
            else:
                prompt = f"RETURN throws {faces(picker.marked)} to {whose}. DEL un-marks a card."
                status = f"RETURN throw  DEL unmark  <- -> move  {EVERYWHERE}"
            self.show_prompt(prompt, error, status)
            key = await self.next_key()
            error = ""
            picked = picker.feed(key)
            if picked is Pick.CHOSEN:
                self.thrown = tuple(picker.chosen)
                self.coach(analyse_discard, self.seat.index, tuple(picker.chosen))
                return picker.chosen
            if picked is Pick.REFUSED:
                error = picker.refusal
            elif picked is Pick.NOT_PICKING:
                error = wrong_key(key, "move the bar with the arrows, RETURN marks a card")

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
            status = f"1-{size} or <- -> pick  RETURN cut  BS erase  {EVERYWHERE}"
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
                error = wrong_key(key, f"type a card number from 1 to {size}")

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
            status = f"<- -> or 1-{len(cards)} move  RETURN play  {EVERYWHERE}"
            self.show_prompt(prompt, error, status)
            key = await self.next_key()
            error = ""
            picked = picker.feed(key)
            if picked is Pick.CHOSEN:
                self.coach(analyse_play, self.seat.index, picker.chosen[0], thrown=self.thrown)
                return picker.chosen[0]
            if picked is Pick.REFUSED:
                error = picker.refusal
            elif picked is not Pick.MOVED:
                error = wrong_key(key, "move the bar to a card and press RETURN to play it")

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
        status = f"0-9 your count  RETURN enter  BS erase  {EVERYWHERE}"
        error = ""
        while True:
            self.show_prompt(prompt, error, status)
            key = await self.next_key()
            error = ""
            edit = entry.editor.feed(key)
            if edit is Edit.DONE:
                try:
                    claim = parse_claim(entry.text)
                    self.coach(analyse_claim, claim, thrown=self.thrown)
                    return claim
                except CribbageError as refusal:
                    error = str(refusal)
                    entry.editor.clear()
            elif edit is Edit.REFUSED:
                full = len(entry.text) >= entry.limit
                error = "A hand counts 0 to 29." if full else entry.editor.refusal
            elif edit in (Edit.NOT_EDITING, Edit.CANCELLED):
                error = wrong_key(key, "type your count and press RETURN")

    async def go_on(self, prompt: str) -> None:
        error = ""
        while True:
            self.show_prompt(prompt, error, f"RETURN go on  {EVERYWHERE}")
            key = await self.next_key()
            if key in GO_ON_KEYS:
                return
            error = wrong_key(key, "press RETURN to go on")

    async def play_again(self) -> bool:
        self.forget_typeahead()
        self.review()
        self.own_panel = self.table.game_over_panel()
        self.own_hand = HandState()
        error = ""
        while True:
            match_on = self.table.match is not None and not self.table.match.decided
            answer = "y next game" if match_on else "y play again"
            review = "  r review" if self.review_text else ""
            status = f"{answer}  n leave{review}  c chat  ? help  ^L redraw"
            self.show_prompt(self.table.next_question(), error, status)
            key = await self.next_key(quit_key=False)
            if key.char in ("y", "Y"):
                self.review_text = ""
                return True
            if key.char in ("r", "R") and self.review_text:
                await self.nested(self.pages(self.review_text, "Coach's review"))
                continue
            if key.char in ("n", "N", "q", "Q") or key == Key.ESCAPE:
                return False
            error = wrong_key(key, "press y to play again or n to leave")

    async def absent(self, seat: Seat, minutes: str) -> str:
        """Someone's line dropped: wait for them, or let the computer play their seat."""
        error = ""
        while True:
            prompt = f"{seat.name}'s line dropped: waiting up to {minutes} for a call back."
            status = f"p computer plays for {seat.name}  {EVERYWHERE}"
            self.show_prompt(prompt, error, status)
            key = await self.next_key()
            if key.char in ("p", "P"):
                return "computer"
            error = wrong_key(key, f"wait for {seat.name}, or press p")

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
        are text, and ``?`` means help only on an empty line. Raises ``StepInterrupted``
        when the game has moved on from the step (never inside a chat line or help)."""
        while True:
            if self.nesting == 0 and self.interrupted():
                raise StepInterrupted
            await self.draw()
            # A running turn timer is redrawn every second.
            key = await self.inbox.next(timeout=1.0 if self.timer is not None else None)
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
            elif typing is None and key.char in ("w", "W"):
                self.toggle_win_bar()
            elif typing is None and key.char in ("h", "H") and self.seat is not None:
                self.toggle_coach()
            else:
                return key

    def toggle_win_bar(self) -> None:
        """``w``: the win bar on or off; between callers, a request until all agree."""
        table = self.table
        if refusal := table.win_bar_refusal():
            self.log(refusal, theme.DIM)
            return
        self.wants_win_bar = not self.wants_win_bar
        if table.solo or self.seat is None:
            self.idle_error = ""
            table.changed()
            return
        # Said in everyone's log: the message line is a prompt's while they decide.
        if not self.wants_win_bar:
            self.log("Win bar off: w asks for it again.", theme.LABEL)
            table.announce(f"{self.name} turned the win bar off.", theme.LABEL, exclude=self)
        elif table.win_bar_agreed():
            table.announce("Every player asked for the win bar: here it is (w: off).", theme.LABEL)
        else:
            waiting = and_list([p.name for p in table.players_present() if not p.wants_win_bar])
            self.log(f"Asked {waiting} for the win bar: it shows when they agree.", theme.LABEL)
            for other in table.players_present():  # (watchers have no say)
                if other is not self:
                    other.log(f"{self.name} asks for the win bar: press w to agree.", theme.LABEL)

    def toggle_coach(self) -> None:
        """``h``: the coach on or off. Only against the computer: a coach at a table of
        callers would play for one of them."""
        if not self.table.solo:
            self.log("The coach works in games against the computer.", theme.DIM)
            return
        self.coached = not self.coached
        if self.coached:
            self.log("Coach on: each choice is weighed against the best one (h: off).", theme.COACH)
        else:
            self.log("Coach off.", theme.COACH)

    def coach(self, analyse: Callable[..., Analysis], *args: object, **kwargs: object) -> None:
        """Weigh the choice just made on a snapshot of the game before it, off the event
        loop; the coach's line joins this person's log when it is ready."""
        if not self.coached:
            return
        before = self.table.game.snapshot()

        async def weigh() -> None:
            try:
                analysis = await think(analyse, before, *args, **kwargs)
            except CribbageError:
                logger.exception("the coach could not weigh %s's choice", self.name)
                return
            self.log(f"Coach: {with_faces(coach_line(analysis))}", theme.COACH)

        task = asyncio.get_running_loop().create_task(weigh())
        self._coaching.add(task)
        task.add_done_callback(self._coaching.discard)

    def review(self) -> None:
        """At a coached game's end: its three costliest choices, worst first (a game the
        door records; a guest's is not)."""
        game = self.table.game
        if not self.coached or self.seat is None or not isinstance(game, RecordedGame):
            return
        recording, seat = game.recording, self.seat.index

        async def look_back() -> None:
            try:
                mistakes = await think(review_game, recording, [seat], REVIEW_LENGTH)
            except CribbageError:
                logger.exception("the coach could not review %s's game", self.name)
                return
            if not mistakes:
                self.log("Coach's review: none of your choices cost anything.", theme.COACH)
                return
            lines = [
                with_faces(f"{number}. Hand {mistake.hand}: {coach_line(mistake.analysis)}")
                for number, mistake in enumerate(mistakes, start=1)
            ]
            self.review_text = "\n".join(["Your costliest choices, worst first:", "", *lines])
            if "n leave" in self.view.status and "r review" not in self.view.status:
                # The question is up already: its key line now offers the review.
                self.view.status = self.view.status.replace("n leave", "n leave  r review")
            count = f"{len(mistakes)} choice{'s' if len(mistakes) > 1 else ''}"
            self.log(f"Coach's review: {count} cost you something; r shows them.", theme.COACH)
            self.table.changed()

        task = asyncio.get_running_loop().create_task(look_back())
        self._coaching.add(task)
        task.add_done_callback(self._coaching.discard)

    def win_chances(self) -> tuple[float, ...] | None:
        """Each side's chance to win as this person may know it, when the bar is on;
        worked out again only when the game has moved."""
        table, game = self.table, self.table.game
        if not self.wants_win_bar or not table.win_bar_allowed(self):
            return None
        seat = self.seat.index if self.seat is not None else None
        thrown = tuple(card for card in self.thrown if card in game.crib)
        try:
            return table.win_bars.chances(game, seat, thrown)
        except CribbageError:
            logger.exception("no win bar for %s", self.name)
            return None

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
        await self.refresh()  # the paint composes the view (``frame``)

    async def overlay_key(self) -> Key:
        """The next key for an overlay (help, a dialog) on top of the table: the table
        under it keeps being redrawn as the game moves, and Ctrl-L repaints all."""
        while True:
            await self.draw()
            key = await self.inbox.next()
            if key is None:
                continue
            if key != Key.CTRL_L:
                return key
            self.session.redraw_all()

    async def help(self) -> None:
        """The help pages, over the table, until a key closes them."""
        await self.pages(self.table.help_text)

    async def pages(self, text: str, title: str = "Help") -> None:
        """Pages of text (help, the coach's review) over the table until a key closes them."""
        pages = HelpOverlay.from_text(text, title)

        def draw(canvas: Canvas) -> None:
            draw_help(canvas, pages)
            draw_status(canvas, pages.status("the game"))

        with self.session.showing(Overlay(draw)):
            while True:
                turned = pages.after(await self.overlay_key())
                if turned is None:
                    return
                pages = turned

    async def confirm_quit(self) -> None:
        if self.seat is None:
            raise LeftTheGame  # a watcher just stops watching
        confirm = Confirm("Quit this game?", self.table.quit_consequence(self))
        error = ""

        def draw(canvas: Canvas) -> None:
            draw_dialog(canvas, Dialog(confirm.question, (*confirm.lines, error)))
            draw_status(canvas, CONFIRM_STATUS)

        with self.session.showing(Overlay(draw)):
            while True:
                key = await self.overlay_key()
                answer = confirm.answer(key)
                if answer is True:
                    raise LeftTheGame
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
        view.size = self.session.size
        view.panel = self.own_panel if self.own_panel is not None else table.panel
        if self.own_hand is not None:
            view.hand = self.own_hand
        elif self.seat is not None and not is_over(table.game):
            view.hand = HandState(table.sorted_hand(self.seat.index))
        else:
            view.hand = HandState()
        # A bar the screen has no room for is not worked out (a fifth of the bars
        # were, during the show).
        view.win_chances = self.win_chances() if shows_win_bar(view.panel) else None
        timer = self.timer
        view.clock = timer.label(asyncio.get_running_loop().time()) if timer is not None else ""
        if self.running is None and not self.finishing:
            # Waiting, not answering: the table's news, or whom the game waits for.
            watching = self.seat is None or table.people_deciding()
            view.message = self.idle_error or (table.waiting_text() if watching else table.message)
            view.error = bool(self.idle_error)
            if self.seat is None:
                view.status = table.watching_status
            else:
                view.status = WAITING_STATUS if watching else table.status

    async def refresh(self) -> None:
        await self.session.paint()

    def frame(self) -> tuple[Canvas, tuple[int, int] | None]:
        """The table from this person's seat, as it stands now."""
        self.compose()
        return draw_table(self.view, self.layers)

    def log(self, text: str, style: Style = theme.TEXT) -> None:
        if text:
            self.view.log.add(text, style)
            self.inbox.wake()
