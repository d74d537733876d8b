"""Someone at a table: a player in a seat, or a watcher. Their ``attend`` coroutine
(run by their session) draws their view, reads their keys and answers the questions the
table puts to them (door/table/question.py) with the key loop for each
(door/table/steps.py); the table (door/table/flow.py) only asks, tells and wakes them,
through what it knows of any participant (door/table/seats.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from door.competition.turn_timer import TurnTimer
from door.screens import theme
from door.screens.chat import LOG_PAGE, MAX_CHAT_LENGTH, Entry, clean_chat
from door.screens.cut import CutPanel
from door.screens.dialog import Dialog, draw_dialog
from door.screens.frame import draw_status
from door.screens.game_screen import Panel, TableView, draw_table, shows_win_bar
from door.screens.help import HelpOverlay, draw_help, with_mouse_help
from door.screens.play_area import HandState
from door.screens.table_hits import later_table_hits, table_hits
from door.table.asked import Asked, Request
from door.table.bar_row import paint_bar_row
from door.table.coach import Coach
from door.table.last_frame import LastFrame
from door.table.options import GameResult
from door.table.seats import Seat, is_over, thrown_before
from door.table.settle import after_turns
from door.table.step_frame import paint_step_frame
from door.table.steps import GO_ON_KEYS, answer
from door.table.win_bars import Shown
from door.table.words import EVERYWHERE, WAITING_STATUS, wrong_key
from door.term.canvas import Canvas, Style
from door.term.clicks import HitMap, LaterHits
from door.term.idle import IdleTimeout, tell_waiting_on_others
from door.term.keys import Key
from door.term.layers import Layers
from door.term.terminal import Disconnected
from door.ui.confirm import STATUS as CONFIRM_STATUS
from door.ui.confirm import Confirm
from door.ui.line_editor import Edit
from door.ui.session import Drawn, Overlay, Session
from engine.computer.coach import Analysis
from engine.rules.cards import Card
from engine.rules.errors import CribbageError

if TYPE_CHECKING:
    from door.table.flow import Table

logger = logging.getLogger(__name__)

SETTLE_TURNS: Final = 3
"""Turns of the event loop a player who has just answered lets the table take before
drawing: enough for a play or a count to reach the screen in one frame."""
_NO_HAND: Final = HandState()
WATCHER_STYLE: Final = theme.TITLE
"""Chat from someone who is not playing (the sysop breaking in, a watcher)."""


class LeftTheGame(Exception):
    """The person confirmed leaving the game."""


class StepInterrupted(Exception):
    """What the person was doing is no longer asked of them: the game moved on."""


class Person(Asked):
    """Someone at the table with a terminal: a player (``seat`` is theirs) or a watcher.

    ``attend`` is their side of the game: it draws their view, reads their keys and answers
    the table's questions until the game ends for them.
    """

    def __init__(
        self, table: Table[Person], name: str, session: Session, seat: Seat | None
    ) -> None:
        self.table = table
        self.name = name
        self.session = session
        self.seat = seat
        self.inbox = session.inbox
        self.screen = Drawn(self.frame, hits=self.hits)
        """The table as this person sees it, on their session's stack while they attend."""
        self.layers = Layers()
        """The table screen's parts as last drawn: a frame draws again only what changed."""
        index = seat.index if seat is not None else None
        self.view = TableView(table.names, table.game, viewer=index)
        self.requests: list[Request] = []
        """Questions put to this person and not yet answered. Urgent ones come first,
        then the newest: someone's line dropping interrupts a discard, which is asked
        again after."""
        self.running: Request | None = None
        self.nesting = 0
        """How deep in a chat line, help or quit dialog the caller is: the game waits
        for those to close before it takes the caller to the next step."""
        self.own_hand: HandState | None = None
        self.own_panel: Panel | None = None
        self.play_bar = 0
        self.waiting_error = ""
        """What a key pressed while waiting did not do, until the next key."""
        self.finishing = False
        self.left = False
        """They have left the table: whatever is asked of them now fails at once."""
        self.wants_win_bar = table.win_bar_at_start(seat)
        """Whether this person asked for the win bar (w): on against the computer and for
        watchers (unless the sysop set it off); between callers it shows once every caller
        at the table has asked."""
        self.timer: TurnTimer | None = None
        """The turn timer on this person's decision, in a timed game."""
        self.coach = Coach(name)
        """The coach (h) weighs each of this person's choices against the best one."""
        self._answered = False
        """This person has just answered a request (the table has yet to act on it)."""
        self.last_frame = LastFrame()
        """When the last whole frame was composed: what may be drawn alone since."""
        self._held: tuple[Card, ...] | None = None  # the seat's cards at the last frame
        self._shown = _NO_HAND  # and those cards as shown, sorted (``compose``)

    @property
    def index(self) -> int | None:
        return self.seat.index if self.seat is not None else None

    @property
    def thrown(self) -> tuple[Card, ...]:
        """The cards this person's seat threw to this hand's crib, as the game has them:
        their win bar and coach know them, whoever chose them (the computer, when their
        wait ran out) and however often the line dropped."""
        return thrown_before(self.table.game, self.seat)

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
                        await self.watch_the_game()
                    continue
                self.running = request
                try:
                    answered = await answer(self, request.question)
                except StepInterrupted:
                    continue
                finally:
                    self.running = None
                    self.reset_step_view()
                if not request.future.done():
                    request.future.set_result(answered)
                    self._answered = True
                self.forget(request.future)
            if table.failure is not None:
                raise table.failure
            return await self.finish()
        except LeftTheGame:
            table.person_quit(self)
            return table.result_for(self.index, quit=True)
        except Disconnected as dropped:
            table.person_dropped(self, idle=isinstance(dropped, IdleTimeout))
            raise
        finally:
            self.waiting_on_others(False)  # wherever they go next, idleness counts
            self.session.pop(self.screen)
            if table.over:
                table.let_go(self)

    async def watch_the_game(self) -> None:
        """Between questions: watch the game. While someone else is deciding, keys work
        (chat, help, quit); while the computer moves, keys wait in the terminal."""
        if self.seat is not None and not self.table.people_deciding():
            if self._answered:
                # An answer just given reaches the table a turn or two of the loop
                # later: let it act first, so that its outcome is one frame, not two.
                self._answered = False
                await self._after_the_table_acts()
                if self._moved_on():  # (looked at again: the table had another turn)
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
                    self.waiting_error = ""
                    self.tell(self.table.change_speed(faster=key.char != "-"), theme.LABEL)
                    continue
                self.waiting_error = wrong_key(key, "wait, or press c to chat")
        finally:
            self.waiting_error = ""

    def _after_the_table_acts(self) -> asyncio.Future[None]:
        """Settled once ``_moved_on``, or the table pauses on the computer's move (done for
        now: the pause after most plays), or after ``SETTLE_TURNS`` turns of the loop."""
        return after_turns(SETTLE_TURNS, self._table_acted)

    def _table_acted(self) -> bool:
        return self.table.pausing or self._moved_on()

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

    # --- what the table asks and tells (door/table/seats.py's Participant) -----------

    def tell(self, text: str, style: Style = theme.TEXT) -> None:
        if text:
            self.view.log.add(text, style)
            self.inbox.wake()

    def hear(self, speaker: str, line: str, style: Style) -> None:
        self.view.log.chat(speaker, line, style)
        self.inbox.wake()

    def wake(self) -> None:
        self.inbox.wake()

    def bar_ready(self) -> None:
        """The win bar this person's last frame showed dimmed is worked out: the next
        draw sends its row alone, unless anything else woke them since that frame."""
        self.last_frame.bar_ready(self.inbox)

    def clock(self, timer: TurnTimer | None) -> None:
        self.timer = timer

    def waiting_on_others(self, waiting: bool) -> None:
        tell_waiting_on_others(self.session.terminal, waiting)

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
            # A running turn timer is redrawn every second.
            key = await self.key_after_drawing(timeout=1.0 if self.timer is not None else None)
            if key is None:
                # Watching: the table may act over a few turns; draw once it has.
                if self.running is None and not self.interrupted():
                    await after_turns(SETTLE_TURNS, self.interrupted)
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
            elif key in (Key.PGUP, Key.PGDN):  # (the wheel too) the log back and on
                self.view.log.scroll(LOG_PAGE if key == Key.PGUP else -LOG_PAGE, LOG_PAGE)
            else:
                self.view.log.back = 0  # an answer: the log shows the newest again
                return key

    def toggle_win_bar(self) -> None:
        """``w``: the win bar on or off (the table says what that means here)."""
        if self.table.toggle_win_bar(self) and (self.table.solo or self.seat is None):
            self.waiting_error = ""  # the bar itself answers the key

    def toggle_coach(self) -> None:
        """``h``: the coach on or off. Only against the computer: a coach at a table of
        callers would play for one of them."""
        if not self.table.solo:
            self.tell("The coach works in games against the computer.", theme.DIM)
            return
        self.tell(self.coach.toggle(), theme.COACH)

    def weigh(self, analyse: Callable[..., Analysis], *args: object, **kwargs: object) -> None:
        """The coach weighs the choice being made, on a snapshot of the game before it."""
        if self.coach.on:
            self.coach.weigh(self.table.game.snapshot(), self.tell, analyse, *args, **kwargs)

    def review(self) -> None:
        """At a coached game's end: the coach reviews this person's choices."""
        if self.seat is None:
            return

        def ready() -> None:
            if "n leave" in self.view.status and "r review" not in self.view.status:
                # The question is up already: its key line now offers the review.
                self.view.status = self.view.status.replace("n leave", "n leave  r review")
            self.table.changed()

        self.coach.review(self.table.game, self.seat.index, self.tell, ready)

    def win_chances(self) -> tuple[float, ...] | None:
        """Each side's chance to win as this person may know it, when the bar is on;
        worked out now unless it is known for this moment."""
        table, game = self.table, self.table.game
        if not self.wants_win_bar or not table.win_bar_allowed(self):
            return None
        try:
            return table.win_bars.chances(game, self.index, self.thrown_to_crib())
        except CribbageError:
            logger.exception("no win bar for %s", self.name)
            return None

    def win_bar_shown(self) -> Shown | None:
        """The bar to draw in this frame: this moment's (worked out in it only if cheap),
        or the last one dimmed while this moment's waits (door/table/win_bars.py)."""
        table, game = self.table, self.table.game
        if not self.wants_win_bar or not table.win_bar_allowed(self):
            return None
        try:
            return table.win_bars.shown(game, self.index, self.thrown_to_crib(), self)
        except CribbageError:
            logger.exception("no win bar for %s", self.name)
            return None

    def thrown_to_crib(self) -> tuple[Card, ...]:
        crib = self.table.game.crib
        return tuple(card for card in self.thrown if card in crib)

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

    async def key_after_drawing(self, timeout: float | None = None) -> Key | None:
        """The next key (None: woken), the screen drawn first unless it is typed ahead."""
        if (key := await self.inbox.typed_ahead()) is None:
            await self.draw()
            key = await self.inbox.next(timeout=timeout)
        return key

    async def draw(self) -> None:
        session = self.session
        if self.last_frame.bar_row_only(self.inbox) and paint_bar_row(
            session, self.screen, self.view, self.layers, self.win_bar_shown()
        ):
            self.last_frame.bar_row_sent(self.inbox)
            await session.terminal.flush()
            return
        if await paint_step_frame(self):
            return
        await self.refresh()  # the paint composes the view (``frame``)

    async def overlay_key(self) -> Key:
        """The next key for an overlay (help, a dialog) on top of the table: the table
        under it keeps being redrawn as the game moves, and Ctrl-L repaints all."""
        while (key := await self.key_after_drawing()) is None or key == Key.CTRL_L:
            if key is not None:
                self.session.redraw_all()
        return key

    async def help(self) -> None:
        """The help pages, over the table, until a key closes them."""
        await self.pages(with_mouse_help(self.table.help_text, self.session.mouse))

    async def pages(self, text: str, title: str = "Help") -> None:
        """Pages of text (help, the coach's review) over the table until a key closes them."""
        pages = HelpOverlay.from_text(text, title)

        def draw(canvas: Canvas) -> None:
            draw_help(canvas, pages)
            draw_status(canvas, pages.status("the game"))

        with self.session.showing(overlay := Overlay(draw)):
            while True:
                # The wheel turns the pages as PgUp and PgDn do.
                hits = self.status_hits(pages.status("the game"))
                overlay.hits = hits.scrolled_by(Key.PGUP, Key.PGDN)
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

        with self.session.showing(Overlay(draw, self.status_hits(CONFIRM_STATUS))):
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
        refusal = self.table.chat(self.name, text, self.style)
        if refusal is not None:
            self.tell(refusal, theme.ERROR)

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
        view.names = table.names  # a seat's member may be renamed by the sysop mid-game
        view.header = table.header
        view.size = self.session.size
        view.panel = self.own_panel if self.own_panel is not None else table.panel
        view.hand = self.hand_now()
        # A bar the screen has no room for is not worked out (a fifth of the bars
        # were, during the show).
        bar = self.win_bar_shown() if shows_win_bar(view.panel) else None
        view.win_chances = bar.chances if bar is not None else None
        view.win_bar_current = bar is None or bar.current
        timer = self.timer
        view.clock = timer.label(asyncio.get_running_loop().time()) if timer is not None else ""
        view.win_bar_asked = self.win_bar_asked()
        if self.running is None and not self.finishing:
            # Waiting, not answering: the table's news, or whom the game waits for.
            watching = self.seat is None or table.people_deciding()
            news = table.waiting_text() if watching else table.message
            view.message = self.waiting_error or news
            view.error = bool(self.waiting_error)
            if self.seat is None:
                view.status = table.watching_status
            else:
                view.status = WAITING_STATUS if watching else table.status

    def hand_now(self) -> HandState:
        """The hand the view shows: the step's, else the seat's (a watcher's: none)."""
        if self.own_hand is not None:
            return self.own_hand
        table = self.table
        if self.seat is not None and not is_over(table.game):
            held = table.game.hand(self.seat.index)
            if held != self._held:  # (drawn at every move at the table, sorted once)
                self._held, self._shown = held, HandState(table.sorted_hand(self.seat.index))
            return self._shown
        return _NO_HAND

    def win_bar_asked(self) -> bool:
        """Whether another player's request for the win bar waits on this player's w."""
        table = self.table
        return (
            self.seat is not None
            and not self.wants_win_bar
            and not table.solo
            and not table.over
            and not table.win_bar_refusal()
            and any(person.wants_win_bar for person in table.players_present())
        )

    async def refresh(self) -> None:
        await self.session.paint()

    @property
    def clicks(self) -> bool:
        return self.session.mouse

    @property
    def click_word(self) -> str:
        return self.session.click_word

    def status_hits(self, status: str) -> HitMap:
        """What a click on an overlay's status line means (help, the quit dialog)."""
        return table_hits(replace(self.view, status=status))

    def hits(self) -> LaterHits:
        """What a click on the frame just drawn means (worked out if a click comes): the
        cards are clicked only by the step choosing from them, not inside a chat line;
        the wheel scrolls the log; a request for the win bar in the log agrees to it."""
        steady = self.nesting == 0
        hand = steady and self.own_hand is not None
        cut = steady and isinstance(self.own_panel, CutPanel)
        # A request for the win bar is clicked to agree, by a player who has not (w
        # toggles: a click on an old request must not turn their own bar off).
        agree = steady and self.seat is not None and not self.wants_win_bar
        return later_table_hits(
            self.view, hand=hand, cut=cut, agree=agree, wheel=(Key.PGUP, Key.PGDN)
        )

    def frame(self) -> tuple[Canvas, tuple[int, int] | None]:
        """The table from this person's seat, as it stands now."""
        self.last_frame.composed(self.inbox, self.session.top is self.screen)
        self.compose()
        return draw_table(self.view, self.layers)
