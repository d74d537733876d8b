"""A caller's games against the computer, as one coroutine: ``play_against_computer``.

The flow follows the game: the cut for deal, then for each hand a chat line before the
deal, the discard, the cut, the play and the show, until someone reaches 121 and the
caller is offered another game. Every step draws the whole screen from a ``TableView``
and the renderer sends only what changed, so moving the highlight bar costs a couple of
hundred bytes where a full screen costs a few thousand.

Keys that work everywhere (the status line always lists the ones that work now): ``?``
or F1 help, Ctrl-L redraws everything, ``c`` opens a chat line, ``q`` (or Ctrl-C) asks
before quitting. While the caller is typing a line, ``?`` (on an empty line) and F1 still
give help and Esc leaves the line. A key that means nothing at a step is answered on the
message line.

``door.terminal.Disconnected`` from the terminal is not caught here: the session ends the
call. Anything else that writes to the terminal during a game (an idle warning) should
then hand the table a Ctrl-L key before the caller's next key: the renderer only knows
what it sent itself, and Ctrl-L makes it repaint everything.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from door.ansi import sanitize
from door.canvas import Renderer
from door.keys import DESELECT_KEYS, Key
from door.screens import theme
from door.screens.cards import card_face
from door.screens.chat import MAX_CHAT_LENGTH, canned_reply, clean_chat
from door.screens.cut import CutForDealPanel, CutPanel
from door.screens.dialog import Dialog
from door.screens.game_over import GameOverPanel
from door.screens.game_screen import Entry, TableView, draw_table
from door.screens.help import HelpOverlay, default_help
from door.screens.narration import narrate
from door.screens.play_area import HandState
from door.screens.show import ShowPanel, show_title
from door.screens.theme import CALLER_SEAT, COMPUTER_SEAT
from door.terminal import Terminal
from door.thinking import think
from engine.ai import ComputerPlayer
from engine.cards import Card
from engine.errors import CribbageError
from engine.events import CutForDeal, Event, ShowScored
from engine.game import DOUBLE_SKUNK_LINE, SKUNK_LINE, CountingMode, Game, Phase
from engine.scoring import RunsRule

logger = logging.getLogger(__name__)

COMPUTER_NAME: Final = "Computer"
DEFAULT_PAUSE: Final = 0.8
"""Seconds the computer's moves stay on screen before the game goes on."""
MAX_NAME_LENGTH: Final = 20

_LEFT_KEYS: Final = frozenset({Key.LEFT, Key.UP})
_RIGHT_KEYS: Final = frozenset({Key.RIGHT, Key.DOWN})
_GO_ON_KEYS: Final = frozenset({Key.ENTER, Key.printable(" ")})
_EVERYWHERE: Final = "c chat  ? help  ^L redraw  q quit"
"""The keys that work at every step, ending each status line."""

Result = TypeVar("Result")


@dataclass(frozen=True)
class GameOptions:
    """How the caller chose to play: pegging runs, show counting, computer level."""

    runs: RunsRule = "free"
    counting: CountingMode = "auto"
    level: str = "normal"


@dataclass(frozen=True)
class GameResult:
    """The end of a game; ``skunk`` is "skunk" or "double skunk" for the loser, or None.

    ``quit`` means the caller left the game before it ended (the scores are where they
    stood; ``caller_won`` is False)."""

    caller_won: bool
    caller_score: int
    computer_score: int
    skunk: str | None
    quit: bool


async def play_against_computer(
    terminal: Terminal,
    options: GameOptions,
    caller_name: str,
    *,
    rng: random.Random,
    pause: float = DEFAULT_PAUSE,
    help_text: str | None = None,
    on_game_over: Callable[[GameResult], None] | None = None,
) -> GameResult:
    """Play games of cribbage against the computer until the caller stops.

    The caller is seat 0 ("player 1"). After each finished game ``on_game_over`` (if
    given) receives its result and the caller is asked whether to play again; the
    result returned is that of the last game, with ``quit`` set if the caller left it
    unfinished. ``rng`` shuffles every deck (and seeds the computer's choices); ``pause``
    is how long the computer's moves are held on screen; ``help_text`` defaults to the
    contents of config/help.txt. Raises ``door.terminal.Disconnected`` if the line drops.
    """
    table = _Table(terminal, options, caller_name, rng, pause, help_text)
    try:
        return await table.run(on_game_over)
    finally:
        table.close()


class _Quit(Exception):
    """The caller confirmed leaving the game."""


class _Table:
    def __init__(
        self,
        terminal: Terminal,
        options: GameOptions,
        caller_name: str,
        rng: random.Random,
        pause: float,
        help_text: str | None,
    ) -> None:
        self.terminal = terminal
        self.options = options
        self.rng = rng
        self.pause_seconds = pause
        # The computer gets its own stream so its choices never shift the deck's shuffles.
        self.computer = ComputerPlayer(options.level, random.Random(rng.getrandbits(64)))
        self.chat_rng = random.Random(rng.getrandbits(64))
        self.help_text = help_text if help_text is not None else default_help()
        name = sanitize(caller_name, MAX_NAME_LENGTH).strip() or "Player 1"
        self.names = (name, COMPUTER_NAME)
        self.renderer = Renderer(terminal)
        self.first_game = Game(2, runs=options.runs, counting=options.counting, rng=rng)
        self.view = TableView(self.names, self.first_game)
        self.pending: list[asyncio.Future[Any]] = []

    def close(self) -> None:
        self.renderer.close()
        for future in self.pending:
            future.cancel()

    # --- the games ----------------------------------------------------------------

    async def run(self, on_game_over: Callable[[GameResult], None] | None) -> GameResult:
        game = self.first_game
        while True:
            self.view.game = game
            try:
                await self.play_game(game)
            except _Quit:
                return GameResult(
                    False, game.scores[CALLER_SEAT], game.scores[COMPUTER_SEAT], None, True
                )
            result = _result(game)
            if on_game_over is not None:
                on_game_over(result)
            if not await self.ask_play_again(result):
                return result
            game = game.next_game()
            self.view.panel = None
            self.view.hand = HandState()
            self.view.log.add("A new game: the loser of the last one deals first.", theme.TITLE)

    async def play_game(self, game: Game) -> None:
        if game.phase is Phase.CUT_FOR_DEAL:
            self.cut_for_deal(game)
        while True:
            await self.before_deal(game)
            self.log(game.deal())
            self.view.panel = None
            await self.discard(game)
            await self.cut(game)
            if _over(game):  # two for his heels took the dealer to 121
                await self.pause()
                return
            await self.pegging(game)
            if _over(game):
                return
            await self.show(game)
            if _over(game):
                return

    def cut_for_deal(self, game: Game) -> None:
        events = game.cut_for_deal()
        self.log(events)
        last = [event for event in events if isinstance(event, CutForDeal)][-1]
        assert last.dealer is not None
        self.view.panel = CutForDealPanel(last.draws, last.dealer)

    async def before_deal(self, game: Game) -> None:
        """The chat line that is open before every hand; RETURN on a blank line deals."""
        self.set_header(game, upcoming=True)
        entry = Entry("Chat: ", limit=MAX_CHAT_LENGTH)
        self.view.entry = entry
        self.view.hand = HandState()
        dealer = "you deal" if game.dealer == CALLER_SEAT else f"{self.names[game.dealer]} deals"
        prompt = f"Hand {game.hand_number + 1}: {dealer}. Chat, or RETURN on a blank line to deal."
        status = "Type to chat  RETURN on a blank line: deal  ? help  ^L redraw  Esc quit"
        error = ""
        while True:
            self.show_prompt(prompt, error, status)
            key = await self.next_key(typing=entry.text)
            error = ""
            if key == Key.ENTER:
                if not clean_chat(entry.text):
                    break
                self.say(entry.text)
                entry.text = ""
            elif key == Key.ESCAPE:
                if entry.text:
                    entry.text = ""
                else:
                    await self.confirm_quit()
            elif not self.edit(entry, key):
                error = "Type a line to chat, or press RETURN on a blank line to deal."
        self.view.entry = None

    # --- the discard --------------------------------------------------------------

    async def discard(self, game: Game) -> None:
        self.set_header(game)
        need = game.discard_count
        whose = "your crib" if game.dealer == CALLER_SEAT else f"{self.names[game.dealer]}'s crib"
        computer_choice = self.start_thinking(self.computer.discard, game, COMPUTER_SEAT)
        cards = sorted(game.hand(CALLER_SEAT), key=_display_order)
        bar = 0
        marked: list[Card] = []
        error = ""
        while True:
            self.view.hand = HandState(tuple(cards), bar, frozenset(marked))
            if len(marked) < need:
                prompt = f"Choose {need} cards for {whose}: put the bar on a card, press RETURN."
                status = f"<- -> or 1-{len(cards)} move  RETURN mark  DEL unmark  {_EVERYWHERE}"
            else:
                prompt = f"RETURN throws {_faces(marked)} to {whose}. DEL un-marks a card."
                status = f"RETURN throw  DEL unmark  <- -> move  {_EVERYWHERE}"
            self.show_prompt(prompt, error, status)
            key = await self.next_key()
            error = ""
            moved = _move_bar(bar, key, len(cards))
            if moved is not None:
                bar = moved
            elif _digit(key) is not None:
                error = f"You hold {len(cards)} cards: press 1 to {len(cards)}."
            elif key == Key.ENTER:
                if len(marked) == need:
                    break
                if cards[bar] in marked:
                    error = "That card is marked already: move the bar to another one."
                else:
                    marked.append(cards[bar])
            elif key in DESELECT_KEYS:
                if cards[bar] in marked:
                    marked.remove(cards[bar])
                elif marked:
                    marked.pop()
                else:
                    error = "No card is marked: RETURN marks the card under the bar."
            else:
                error = _wrong_key(key, "move the bar with the arrows, RETURN marks a card")
        thrown = await computer_choice
        self.log(game.discard(COMPUTER_SEAT, _checked_throw(thrown, game, COMPUTER_SEAT)))
        game.discard(CALLER_SEAT, marked)
        self.view.log.add(f"You throw {_faces(marked)} to {whose}.")
        self.view.hand = HandState(tuple(sorted(game.hand(CALLER_SEAT), key=_display_order)))

    # --- the cut ------------------------------------------------------------------

    async def cut(self, game: Game) -> None:
        size = game.stock_size
        if game.cutter == CALLER_SEAT:
            position = await self.caller_cuts(size)
        else:
            chosen = await self.think(self.computer.cut, game, COMPUTER_SEAT)
            valid = isinstance(chosen, int) and 1 <= chosen <= size
            position = chosen if chosen is not None and valid else self.rng.randint(1, size)
            self.view.panel = CutPanel(size, position)
            self.show_prompt(f"{self.names[COMPUTER_SEAT]} cuts the deck at card {position}.")
            self.view.status = "Please wait"
            await self.pause()
        events = game.cut(position)
        self.log(events)
        self.view.panel = None
        assert game.starter is not None
        self.show_prompt(f"The starter is {card_face(game.starter)}.")

    async def caller_cuts(self, size: int) -> int:
        entry = Entry(f"Cut the deck at card number (1-{size}): ", limit=2)
        self.view.entry = entry
        selected: int | None = None
        prompt = f"You cut: type a card number from 1 to {size}, or move with the arrows."
        error = ""
        while True:
            self.view.panel = CutPanel(size, selected)
            status = f"1-{size} or <- -> pick  RETURN cut  BS erase  {_EVERYWHERE}"
            self.show_prompt(prompt, error, status)
            key = await self.next_key()
            error = ""
            moved = _move_bar((selected or 1) - 1, key, size, digits=False)
            if selected is None and moved is not None:
                moved = 0
            if moved is not None:
                selected = moved + 1
                entry.text = str(selected)
            elif _digit(key) is not None:
                longer, alone = entry.text + key.char, key.char
                if 1 <= int(longer) <= size and len(longer) <= 2:
                    entry.text = longer
                elif 1 <= int(alone) <= size:
                    entry.text = alone
                else:
                    error = f"Pick a card from 1 to {size}."
                selected = int(entry.text) if entry.text else None
            elif key in DESELECT_KEYS:
                entry.text = entry.text[:-1]
                selected = int(entry.text) if entry.text else None
            elif key == Key.ENTER:
                if selected is not None:
                    break
                error = f"First pick a card: type a number from 1 to {size}."
            else:
                error = _wrong_key(key, f"type a card number from 1 to {size}")
        self.view.entry = None
        return selected

    # --- the play -----------------------------------------------------------------

    async def pegging(self, game: Game) -> None:
        bar = 0
        while game.phase is Phase.PLAY:
            if game.turn == COMPUTER_SEAT:
                self.view.hand = HandState(_sorted_hand(game))
                self.show_prompt(f"{self.names[COMPUTER_SEAT]} is playing...")
                self.view.status = "Please wait: the computer plays"
                await self.pause()
                card = await self.think(self.computer.play, game, COMPUTER_SEAT)
                if card is None or card not in game.playable(COMPUTER_SEAT):
                    card = game.playable(COMPUTER_SEAT)[0]
                events = game.play(COMPUTER_SEAT, card)
            else:
                events, bar = await self.caller_plays(game, bar)
            self.log(events)
            self.view.hand = HandState(_sorted_hand(game))
        await self.pause()

    async def caller_plays(self, game: Game, bar: int) -> tuple[list[Event], int]:
        cards = _sorted_hand(game)
        playable = set(game.playable(CALLER_SEAT))
        if not 0 <= bar < len(cards) or cards[bar] not in playable:
            bar = next(index for index, card in enumerate(cards) if card in playable)
        unplayable = frozenset(card for card in cards if card not in playable)
        error = ""
        while True:
            self.view.hand = HandState(cards, bar, unplayable=unplayable)
            prompt = f"Your turn, the count is {game.count}: put the bar on a card, press RETURN."
            status = f"<- -> or 1-{len(cards)} move  RETURN play  {_EVERYWHERE}"
            self.show_prompt(prompt, error, status)
            key = await self.next_key()
            error = ""
            moved = _move_bar(bar, key, len(cards))
            if moved is not None:
                bar = moved
            elif _digit(key) is not None:
                error = f"You hold {len(cards)} card{'s' if len(cards) > 1 else ''}: "
                error += f"press 1 to {len(cards)}." if len(cards) > 1 else "press 1."
            elif key == Key.ENTER:
                if cards[bar] in unplayable:
                    total = game.count + cards[bar].pips
                    error = f"{card_face(cards[bar])} would make {total}: the count cannot pass 31."
                    continue
                try:
                    return game.play(CALLER_SEAT, cards[bar]), bar
                except CribbageError as refusal:
                    error = str(refusal)
            else:
                error = _wrong_key(key, "move the bar to a card and press RETURN to play it")

    # --- the show -----------------------------------------------------------------

    async def show(self, game: Game) -> None:
        assert game.starter is not None
        while game.phase is Phase.SHOW and game.showing is not None:
            seat, is_crib = game.showing
            cards = sorted(game.crib if is_crib else game.kept(seat), key=_display_order)
            panel = ShowPanel(seat, is_crib, tuple(cards), game.starter)
            self.view.panel = panel
            if game.counting == "auto":
                events = game.count_hand()
            elif seat == CALLER_SEAT:
                events = await self.caller_counts(game, show_title(seat, is_crib, self.names))
            else:
                claim = await self.think(self.computer.claim, game, seat)
                events = game.count_hand(claim if isinstance(claim, int) else 0)
            scored = next(event for event in events if isinstance(event, ShowScored))
            self.view.panel = ShowPanel(seat, is_crib, tuple(cards), game.starter, scored)
            self.log(events)
            if _over(game):
                next_step = "the end of the game"
            elif game.showing is None:
                next_step = "the next hand"
            else:
                title = show_title(*game.showing, self.names)
                next_step = "your" + title[4:] if title.startswith("Your") else title
            await self.wait_to_go_on(f"RETURN: on to {next_step}.")
        self.view.panel = None

    async def caller_counts(self, game: Game, title: str) -> list[Event]:
        entry = Entry(f"{title}: how many points? ", limit=2)
        self.view.entry = entry
        prompt = f"Count {title.lower()} with the starter, type the points, press RETURN."
        status = f"0-9 your count  RETURN enter  BS erase  {_EVERYWHERE}"
        error = ""
        while True:
            self.show_prompt(prompt, error, status)
            key = await self.next_key()
            error = ""
            if _digit(key) is not None:
                if len(entry.text) < entry.limit:
                    entry.text += key.char
                else:
                    error = "A hand counts 0 to 29."
            elif key in DESELECT_KEYS:
                entry.text = entry.text[:-1]
            elif key == Key.ENTER:
                try:
                    events = game.count_hand(entry.text)
                except CribbageError as refusal:
                    error = str(refusal)
                    entry.text = ""
                else:
                    self.view.entry = None
                    return events
            else:
                error = _wrong_key(key, "type your count and press RETURN")

    async def wait_to_go_on(self, prompt: str) -> None:
        error = ""
        while True:
            self.show_prompt(prompt, error, f"RETURN go on  {_EVERYWHERE}")
            key = await self.next_key()
            if key in _GO_ON_KEYS:
                return
            error = _wrong_key(key, "press RETURN to go on")

    # --- the end ------------------------------------------------------------------

    async def ask_play_again(self, result: GameResult) -> bool:
        game = self.view.game
        assert game.winner_side is not None
        self.view.panel = GameOverPanel(game.winner_side, tuple(game.scores), result.skunk)
        self.view.hand = HandState()
        self.view.entry = None
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

    # --- keys that work everywhere --------------------------------------------------

    async def next_key(self, *, typing: str | None = None, quit_key: bool = True) -> Key:
        """The next key for the current step, once the keys that work everywhere are
        dealt with. ``typing`` is the text of the line being typed, if any: then letters
        are text, and ``?`` means help only on an empty line."""
        while True:
            await self.refresh()
            key = await self.terminal.read_key()
            if key == Key.CTRL_L:
                self.renderer.invalidate()
            elif key == Key.F1 or (key.char == "?" and not typing):
                await self.help()
            elif typing is None and key.char in ("c", "C"):
                await self.chat()
            elif quit_key and (key == Key.CTRL_C or (typing is None and key.char in ("q", "Q"))):
                await self.confirm_quit()
            else:
                return key

    async def help(self) -> None:
        saved_status = self.view.status
        overlay = HelpOverlay.from_text(self.help_text)
        try:
            while True:
                self.view.overlay = overlay
                turn = "PgDn/RETURN next page  PgUp back" if not overlay.last_page else "PgUp back"
                self.view.status = f"{turn}  any other key: back to the game"
                await self.refresh()
                key = await self.terminal.read_key()
                if key == Key.CTRL_L:
                    self.renderer.invalidate()
                elif key in (Key.PGDN, Key.DOWN, Key.RIGHT, Key.ENTER, Key.printable(" ")):
                    if overlay.last_page and key in (Key.ENTER, Key.printable(" ")):
                        return
                    overlay = overlay.turned(1)
                elif key in (Key.PGUP, Key.UP, Key.LEFT):
                    overlay = overlay.turned(-1)
                else:
                    return
        finally:
            self.view.overlay = None
            self.view.status = saved_status

    async def confirm_quit(self) -> None:
        saved_status = self.view.status
        self.view.overlay = Dialog(
            "Quit this game?",
            (
                f"Leave now and {self.names[COMPUTER_SEAT]} is given the game.",
                "",
                "Press y to quit, any other key to keep playing.",
            ),
        )
        self.view.status = "y quit the game  any other key: keep playing"
        try:
            while True:
                await self.refresh()
                key = await self.terminal.read_key()
                if key == Key.CTRL_L:
                    self.renderer.invalidate()
                    continue
                if key.char in ("y", "Y"):
                    raise _Quit
                return
        finally:
            self.view.overlay = None
            self.view.status = saved_status

    async def chat(self) -> None:
        """A one-line chat in the middle of anything; the step resumes as it was."""
        view = self.view
        saved = (view.entry, view.message, view.error, view.status)
        entry = Entry("Say: ", limit=MAX_CHAT_LENGTH)
        view.entry = entry
        try:
            while True:
                self.show_prompt(
                    "Type what you want to say and press RETURN.",
                    "",
                    "RETURN send  Esc cancel  BS erase  F1 help  ^L redraw",
                )
                key = await self.next_key(typing=entry.text)
                if key == Key.ENTER:
                    if clean_chat(entry.text):
                        self.say(entry.text)
                    return
                if key == Key.ESCAPE:
                    return
                self.edit(entry, key)
        finally:
            view.entry, view.message, view.error, view.status = saved

    def say(self, text: str) -> None:
        line = clean_chat(text)
        if not line:
            return
        self.view.log.chat(self.names[CALLER_SEAT], line, theme.PLAYER_STYLES[CALLER_SEAT])
        self.view.log.chat(
            self.names[COMPUTER_SEAT],
            canned_reply(self.chat_rng),
            theme.PLAYER_STYLES[COMPUTER_SEAT],
        )

    @staticmethod
    def edit(entry: Entry, key: Key) -> bool:
        """Apply a typing key to ``entry``; False if the key is not one."""
        if key in DESELECT_KEYS:
            entry.text = entry.text[:-1]
        elif key.is_printable:
            if len(entry.text) < entry.limit:
                entry.text += key.char
        else:
            return False
        return True

    # --- drawing and waiting ------------------------------------------------------

    def show_prompt(self, prompt: str, error: str = "", status: str | None = None) -> None:
        self.view.message = error or prompt
        self.view.error = bool(error)
        if status is not None:
            self.view.status = status

    def set_header(self, game: Game, *, upcoming: bool = False) -> None:
        number = game.hand_number + (1 if upcoming else 0)
        runs = "exact runs" if self.options.runs == "exact" else "free runs"
        counting = f"{self.options.counting} count"
        level = self.options.level
        self.view.header = (
            f"Hand {number} · {runs} · {counting} · {level}",
            f"Hand {number} · {runs} · {counting}",
            f"Hand {number}",
        )

    def log(self, events: Sequence[Event]) -> None:
        text = narrate(events, self.names)
        if text:
            self.view.log.add(text)

    async def refresh(self) -> None:
        canvas, cursor = draw_table(self.view)
        self.renderer.render(canvas, cursor)
        await self.terminal.flush()

    async def pause(self) -> None:
        """Hold the screen a moment so the caller can follow the computer's moves."""
        await self.refresh()
        if self.pause_seconds > 0:
            await asyncio.sleep(self.pause_seconds)

    def start_thinking(
        self, decide: Callable[..., Result], *args: object
    ) -> Awaitable[Result | None]:
        """Begin a decision on a worker thread now, to await later: the computer
        chooses its discard while the caller chooses theirs."""
        future = asyncio.ensure_future(self.think(decide, *args))
        self.pending.append(future)
        return future

    async def think(self, decide: Callable[..., Result], *args: object) -> Result | None:
        """The computer's decision, worked out off the event loop; None if it failed.

        A failure is a bug in the computer player; it is logged, and the caller's game
        goes on with a legal stand-in move rather than ending."""
        try:
            return await think(decide, *args)
        except Exception:
            logger.exception("the computer player failed in %r", decide)
            return None


def _over(game: Game) -> bool:
    # A function, not an inline test, because the phase changes behind the awaits.
    return game.phase is Phase.OVER


def _result(game: Game) -> GameResult:
    assert game.winner_side is not None
    caller, computer = game.scores[CALLER_SEAT], game.scores[COMPUTER_SEAT]
    loser = min(caller, computer)
    skunk = "double skunk" if loser < DOUBLE_SKUNK_LINE else "skunk" if loser < SKUNK_LINE else None
    return GameResult(game.winner_side == CALLER_SEAT, caller, computer, skunk, False)


def _display_order(card: Card) -> tuple[int, str]:
    return (int(card.rank), card.suit.value)


def _sorted_hand(game: Game) -> tuple[Card, ...]:
    return tuple(sorted(game.hand(CALLER_SEAT), key=_display_order))


def _faces(cards: Sequence[Card]) -> str:
    return " ".join(card_face(card) for card in cards)


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


def _digit(key: Key) -> int | None:
    """The digit a key types (ASCII 0-9 only: ``int("²")`` would raise), or None."""
    return int(key.char) if key.is_printable and key.char in "0123456789" else None


def _move_bar(bar: int, key: Key, size: int, *, digits: bool = True) -> int | None:
    """Where the bar goes for ``key``, or None if the key does not move it."""
    if key in _LEFT_KEYS:
        return (bar - 1) % size
    if key in _RIGHT_KEYS:
        return (bar + 1) % size
    if key == Key.HOME:
        return 0
    if key == Key.END:
        return size - 1
    digit = _digit(key) if digits else None
    if digit is not None and 1 <= digit <= size:
        return digit - 1
    return None


def _wrong_key(key: Key, hint: str) -> str:
    name = repr(key.char) if key.is_printable else key.name.value
    return f"The {name} key does nothing here: {hint}."
