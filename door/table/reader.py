"""Someone at a table through a screen reader (``Display.SPEECH``): the game as a
transcript, not a picture.

The table (door/table/flow.py) asks, tells and wakes a ``Reader`` as it does any
participant (door/table/seats.py). The reader says each thing the table tells once, in
order, as a sentence with the cards named in words (door/screens/speech.py); says what
the game waits for on a prompt line of its own; and answers the table's questions with
words the caller types and ends with RETURN: ``throw 2 5``, ``play 3``, ``count 8``,
``cut 12``. ``hand``, ``score``, ``board``, ``log``, ``say TEXT``, ``help`` and
``repeat`` work at any time. A line that does not make sense gets one sentence saying
why, and changes nothing.

Nothing is drawn: no cursor movement, no clearing, no box. What the caller types is
echoed as they type it (a telnet door echoes), and a sentence arriving while they type
goes on a line of its own, after which their line so far is typed out again.
"""

from __future__ import annotations

import collections
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from door.competition.turn_timer import TurnTimer
from door.screens import theme
from door.screens.chat import MAX_CHAT_LENGTH, clean_chat
from door.screens.speech import (
    board_line,
    card_words,
    cards_words,
    in_words,
    numbered,
    score_line,
    spoken,
)
from door.table.asked import Asked, Request
from door.table.coach import Coach
from door.table.options import GameResult
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
from door.table.seats import Seat, thrown_before
from door.term.canvas import Style
from door.term.idle import IdleTimeout, tell_waiting_on_others
from door.term.keys import Key
from door.term.terminal import Disconnected
from door.ui.line_editor import Edit, LineEditor
from door.ui.session import Session
from engine.computer.coach import Analysis, analyse_claim, analyse_discard, analyse_play
from engine.rules.cards import Card
from engine.rules.claims import parse_claim
from engine.rules.errors import CribbageError
from engine.rules.game import Phase

if TYPE_CHECKING:
    from door.table.flow import Table

logger = logging.getLogger(__name__)

LOG_SENTENCES: Final = 10
"""Sentences ``log`` says again: the last ten things that happened."""
MAX_LINE: Final = MAX_CHAT_LENGTH + 8
"""The longest line a caller may type: ``say`` and a chat line."""
MAX_WAITING_SENTENCES: Final = 200
"""Sentences held for a caller not reading them (output paused): the oldest go first.
A whole hand against the computer tells about 40."""
EOL: Final = "\r\n"
RUB_OUT: Final = "\b \b"
CURSOR_KEYS: Final = frozenset({Key.LEFT, Key.RIGHT, Key.HOME, Key.END, Key.UP, Key.DOWN})

HELP: Final = (
    "Type a word and press RETURN.",
    "hand: your cards, numbered. throw 2 5, or just 2 5: throw cards 2 and 5 to the crib.",
    "play 3, or just 3: play card 3. go: when you cannot play (the door says it for you).",
    "cut 12: cut the deck at card 12. count 8: your count of a hand, in manual counting.",
    "score: both scores. board: where the pegs stand and what is left to 121.",
    "log: the last ten things that happened. repeat: what the game waits for, again.",
    "who: who is at the table. chances: each side's chance to win.",
    "coach: the coach on or off, against the computer; review: its review of your game.",
    "say TEXT: chat at the table. quit: leave the game, or stop watching.",
    "RETURN alone: go on, or deal. Watching the computer play itself: faster, slower.",
)


VERBS: Final[dict[type, str]] = {Discard: "throw", Play: "play", Cut: "cut", Count: "count"}
"""The word a line of bare numbers stands for at each step."""


class LeftTheGame(Exception):
    """The caller confirmed leaving the game."""


class Reader(Asked):
    """A player (or watcher) at ``table`` who uses a screen reader; see the module."""

    def __init__(self, table: Table[Any], name: str, session: Session, seat: Seat | None) -> None:
        self.table = table
        self.name = name
        self.session = session
        self.seat = seat
        self.wants_win_bar = False
        """Said on demand (``chances`` is still to come): never drawn."""
        self.requests: list[Request] = []
        self.waiting: collections.deque[str] = collections.deque(maxlen=MAX_WAITING_SENTENCES)
        """Sentences told and not yet said."""
        self.said: collections.deque[str] = collections.deque(maxlen=LOG_SENTENCES)
        self.shows_said = len(table.game.shows)
        """The game's shows said so far (a resumed game's earlier ones are not)."""
        self.prompted: Request | None = None
        """The request whose prompt was said last (a new one is said once)."""
        self.editor = LineEditor(MAX_LINE)
        self.rang = False
        """The bell rang for a key refused on the line being typed."""
        self.confirming_quit = False
        self.left = False
        self.timer: TurnTimer | None = None
        self.coach = Coach(name)
        """The coach (``coach``) weighs each of this caller's choices, in a sentence."""

    @property
    def index(self) -> int | None:
        return self.seat.index if self.seat is not None else None

    @property
    def thrown(self) -> tuple[Card, ...]:
        """The cards this caller's seat threw to this hand's crib, as the game has them:
        their chances and coach know them."""
        return thrown_before(self.table.game, self.seat)

    # --- the caller's side of the game --------------------------------------------

    async def attend(self) -> GameResult:
        """Take part until the game ends for this caller; returns their result. Raises
        ``Disconnected`` when the line drops."""
        table = self.table
        try:
            if self.seat is None:
                opening = f"Watching {table.title}: type help for the words, quit to stop."
            else:
                opening = f"You sit down at {table.title}. Type help for the words."
            await self.send(EOL + opening + EOL)
            while not table.over:
                await self.send(self.news())
                key = await self.session.inbox.next()
                if key is not None:
                    await self.send(self.key(key))
            if table.failure is not None:
                raise table.failure
            await self.send(self.news() + EOL + self.the_end() + EOL)
            return table.result_for(self.index)
        except LeftTheGame:
            table.person_quit(self)
            left = "You stop watching." if self.seat is None else "You leave the game."
            with contextlib.suppress(Disconnected):
                await self.send(EOL + left + EOL)
            return table.result_for(self.index, quit=True)
        except Disconnected as dropped:
            table.person_dropped(self, idle=isinstance(dropped, IdleTimeout))
            raise
        finally:
            self.waiting_on_others(False)  # wherever they go next, idleness counts
            # What comes next (the lobby) is said whole, not only where it changed.
            self.session.redraw_all()
            if table.over:
                table.let_go(self)

    def the_end(self) -> str:
        """The game is over: how (a forfeit, nobody left), and where the caller goes now
        (against the computer they said they would not play again: nothing more)."""
        table = self.table
        if table.solo and self.seat is not None:
            return "The game is over."
        return f"{table.end_text()} Back to {table.back_to}."

    async def send(self, text: str) -> None:
        if text:
            await self.session.send_lines(text)

    def news(self) -> str:
        """What has happened since the caller last heard, then the prompt of a new
        question; the line typed so far follows on its own line."""
        self.note_shows()
        lines = list(self.waiting)
        self.waiting.clear()
        self.said.extend(line for line in lines if line)  # the log: events, not prompts
        request = self.current_request()
        if request is not None and request is not self.prompted:
            self.prompted = request
            if isinstance(request.question, PlayAgain):
                self.review()
            lines.append(self.prompt(request.question))
        if not lines:
            return ""
        typed = self.editor.text
        start = EOL if typed else ""
        return start + "".join(line + EOL for line in lines) + typed

    def note_shows(self) -> None:
        """A hand or crib counted since: its cards and the count said in full ("fifteen
        two, fifteen four and a pair is six"), before the table's line on it (``tell``
        notes the shows before it takes its line). Each goes after what waits already:
        put in front of it, the shows counted between two of the caller's turns to hear
        (the computer playing itself) were said crib first, and before the play's end."""
        # (A deal starts the list again, and is told while it is empty: the count of
        # shows said goes back to 0 then, in every hand of every game.)
        shows = self.table.game.shows
        for scored in shows[self.shows_said :]:
            whose = self.table.names[scored.seat]
            owner = "Your" if scored.seat == self.index else f"{whose}'s"
            what = "crib" if scored.is_crib else "hand"
            score = scored.score
            count = score.announcement.rstrip(".") or "Nothing"
            self.waiting.append(
                f"{owner} {what}: {cards_words(score.hand)}, starter {card_words(score.starter)}."
                f" {count}."
            )
        self.shows_said = len(shows)

    def key(self, key: Key) -> str:
        """What one key typed echoes; RETURN obeys the line. The line is edited at its
        end only (arrows and Home would move a cursor the caller cannot see)."""
        editor = self.editor
        if key == Key.CTRL_L:
            return EOL + self.repeat() + EOL + editor.text
        if key in CURSOR_KEYS:
            return ""
        before = len(editor.text)
        edit = editor.feed(key)
        if edit is Edit.CHANGED:
            if len(editor.text) > before:
                return editor.text[before:]
            return RUB_OUT * (before - len(editor.text))
        if edit is Edit.REFUSED:
            # One bell a line: a reader says each, and a pasted paragraph rang dozens.
            rang, self.rang = self.rang, True
            return "" if rang else "\a"
        if edit is Edit.CANCELLED:
            editor.clear()
            self.rang = False
            return EOL + "Line cleared." + EOL
        if edit is not Edit.DONE:
            return ""
        line = " ".join(editor.text.split())
        editor.clear()
        self.rang = False
        return EOL + "".join(reply + EOL for reply in self.obey(line) if reply)

    # --- what the caller types ------------------------------------------------------

    def obey(self, line: str) -> list[str]:
        """The replies to one typed line (it may answer the table's question)."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if self.confirming_quit:
            self.confirming_quit = False
            if word in ("yes", "y"):
                raise LeftTheGame
            return ["You stay in the game."]
        request = self.current_request()
        question = request.question if request is not None else None
        if word.isdigit() and isinstance(question, Discard | Play | Cut | Count):
            # "2 5" throws, "3" plays: the verb of the step is understood.
            word, rest = VERBS[type(question)], line
        anytime = {
            "hand": self.hand,
            "score": self.score,
            "board": self.board,
            "log": self.log,
            "help": lambda: " ".join(HELP),
            "?": lambda: " ".join(HELP),
            "repeat": self.repeat,
            "who": self.who,
            "chances": self.chances,
            "coach": self.toggle_coach,
            "review": self.coach_review,
        }
        if word in anytime:
            return [anytime[word]()]
        if word == "say":
            if not clean_chat(rest):
                return ["Type say and what you want to say."]
            self.table.chat(self.name, rest, theme.TEXT)
            return []
        if word in ("faster", "slower") and self.table.exhibition:
            return [in_words(self.table.change_speed(faster=word == "faster"))]
        if word in ("quit", "q") and self.seat is None:
            raise LeftTheGame  # a watcher loses nothing by going
        if word in ("quit", "q"):
            self.confirming_quit = True
            return [f"Leave the game? {self.table.quit_consequence(self)} Type yes to leave."]
        if request is None or question is None:
            return [f"Nothing is asked of you now. {self.waiting_for()}"]
        try:
            answer = self.answer(question, word, rest)
        except WrongLine as wrong:
            return [str(wrong)]
        self.weigh_answer(question, answer)
        if not request.future.done():
            request.future.set_result(answer)
        self.forget(request.future)
        return []

    def answer(self, question: Question[Any], word: str, rest: str) -> Any:
        """The answer ``word rest`` gives ``question``; raises WrongLine saying why not."""
        numbers = rest.split()
        if isinstance(question, ReadyToDeal) and not question.words.deals:
            dealer = self.table.names[self.table.game.dealer]
            raise WrongLine(f"{dealer} deals: wait for the cards, or type say and a line.")
        if isinstance(question, ReadyToDeal | GoOn):
            if word:
                raise WrongLine(f"Press RETURN on an empty line to {question_verb(question)}.")
            return "deal" if isinstance(question, ReadyToDeal) else None
        if isinstance(question, Discard):
            if word != "throw":
                raise WrongLine(f"Type throw and {question.need} card numbers, such as throw 1 2.")
            return _pick(question.cards, numbers, question.need)
        if isinstance(question, Play):
            if word == "go":
                raise WrongLine("You can still play, so you cannot say go.")
            if word != "play":
                raise WrongLine("Type play and a card number, such as play 1.")
            (card,) = _pick(question.cards, numbers, 1)
            if card not in question.playable:
                total = question.count + card.pips
                raise WrongLine(
                    f"The {card_words(card)} would make {total}: the count cannot pass 31."
                )
            return card
        if isinstance(question, Cut):
            if word != "cut" or len(numbers) > 1:
                raise WrongLine(f"Type cut and a number from 1 to {question.size}.")
            if not numbers:
                return (question.size + 1) // 2
            return _number(numbers[0], question.size)
        if isinstance(question, Count):
            if word != "count" or len(numbers) != 1:
                raise WrongLine("Type count and your count, such as count 8.")
            try:
                return parse_claim(numbers[0])
            except CribbageError as error:
                raise WrongLine(str(error)) from None
        if isinstance(question, PlayAgain):
            if word in ("yes", "y"):
                return True
            if word in ("no", "n"):
                return False
            raise WrongLine("Type yes or no.")
        if isinstance(question, WaitForCaller):
            if word in ("wait", "computer"):
                return word
            raise WrongLine("Type wait, or computer to let the computer play the seat.")
        if isinstance(question, ClaimGame):
            if word == "claim":
                return "claim"
            raise WrongLine(f"Type claim to claim the game, or wait for {question.name}.")
        raise WrongLine("That cannot be answered in words yet.")

    def weigh_answer(self, question: Question[Any], answer: Any) -> None:
        """The coach, when on, weighs the choice about to be made (on the game before it)."""
        if not self.coach.on or self.index is None:
            return
        if isinstance(question, Discard):
            self.weigh(analyse_discard, self.index, tuple(answer))
        elif isinstance(question, Play):
            self.weigh(analyse_play, self.index, answer, thrown=self.thrown)
        elif isinstance(question, Count):
            self.weigh(analyse_claim, answer, thrown=self.thrown)

    def weigh(self, analyse: Callable[..., Analysis], *args: object, **kwargs: object) -> None:
        self.coach.weigh(self.table.game.snapshot(), self.tell, analyse, *args, **kwargs)

    def review(self) -> None:
        """At a coached game's end: the coach reviews this caller's choices."""
        if self.seat is not None:
            self.coach.review(self.table.game, self.seat.index, self.tell, self.session.wake)

    # --- what the caller may ask at any time ------------------------------------------

    def toggle_coach(self) -> str:
        if not self.table.solo:
            return "The coach works in games against the computer."
        if self.seat is None:
            return "The coach helps a player, not a watcher."
        return in_words(self.coach.toggle())

    def coach_review(self) -> str:
        """The coach's review of the game just ended, read out."""
        text = self.coach.review_text
        if not text:
            return "There is no review yet: with the coach on, a finished game is reviewed."
        # A choice a line: a screen reader's caller steps through them, where one line
        # of eight choices was read out whole or not at all.
        return EOL.join(spoken(line) for line in text.splitlines() if line)

    def hand(self) -> str:
        if self.seat is None:
            return "You are watching: you hold no cards."
        cards = self.table.sorted_hand(self.seat.index)
        if not cards:
            return "You hold no cards now."
        return f"Your hand: {numbered(cards)}."

    def sides(self) -> tuple[str, ...]:
        """Each side as this caller hears it: "You", "Bob"; with partners "You and
        Carol", "Bob and Computer"."""
        game, names = self.table.game, self.table.names
        said = []
        for side in range(game.sides):
            seats = [seat for seat in range(game.players) if game.side_of(seat) == side]
            mine = self.index in seats
            others = [names[seat] for seat in seats if seat != self.index]
            said.append(" and ".join((["You"] if mine else []) + others))
        return tuple(said)

    def score(self) -> str:
        game = self.table.game
        dealer = None
        if game.phase is not Phase.CUT_FOR_DEAL:
            dealer = "You" if game.dealer == self.index else self.table.names[game.dealer]
        return score_line(self.sides(), game.scores, dealer)

    def board(self) -> str:
        return board_line(self.sides(), self.table.game.scores)

    def who(self) -> str:
        names = [
            "you" if index == self.index else name for index, name in enumerate(self.table.names)
        ]
        watching = [person.name for person in self.table.watchers]
        line = f"At the table: {', '.join(names)}."
        return line + (f" Watching: {', '.join(watching)}." if watching else "")

    def chances(self) -> str:
        """The win bar, said: each side's chance to win as this caller may know it."""
        table, game = self.table, self.table.game
        if refusal := table.win_bar_refusal():
            return refusal
        if not table.win_bar_allowed(self):
            if self.seat is not None and not self.wants_win_bar:
                table.toggle_win_bar(self)  # asks the others; it tells this caller so
                return ""
            return "The chances are said once every player at the table asks for them."
        seat = self.index
        thrown = tuple(card for card in self.thrown if card in game.crib)
        try:
            chances = table.win_bars.chances(game, seat, thrown)
        except CribbageError:
            logger.exception("no chances for %s", self.name)
            return "The chances cannot be worked out just now."
        said = [
            f"{name} {round(100 * chance)} percent"
            for name, chance in zip(self.sides(), chances, strict=True)
        ]
        return f"Chances to win: {', '.join(said)}."

    def log(self) -> str:
        if not self.said:
            return "Nothing has happened yet."
        return " ".join(self.said)

    def repeat(self) -> str:
        request = self.current_request()
        if request is None:
            return self.waiting_for()
        return self.prompt(request.question)

    def shown_cards(self, title: str) -> str:
        """``Your crib: ...cards..., starter ...``: the hand to count, in manual counting."""
        game = self.table.game
        if game.showing is None or game.starter is None:
            return f"{title}: count it."
        seat, is_crib = game.showing
        cards = game.crib if is_crib else game.kept(seat)
        return f"{title}: {cards_words(cards)}, starter {card_words(game.starter)}. Count it."

    def waiting_for(self) -> str:
        return spoken(self.table.waiting_text()) or "The game goes on."

    def prompt(self, question: Question[Any]) -> str:
        """What the game waits for from the caller, and how to answer it."""
        if isinstance(question, ReadyToDeal) and not question.words.deals:
            return f"Score: {self.score()} Wait for the cards, or type say and a line to chat."
        if isinstance(question, ReadyToDeal):
            # "Hand 2: you deal. Press RETURN to deal, or a key below.": the hand and its
            # dealer are said when it is dealt; here only what to press.
            keys = question.words.keys_prompt.replace(", or a key below", "")
            return f"Score: {self.score()} {keys.split('. ', 1)[-1]}"
        if isinstance(question, Discard):
            cards = "one card" if question.need == 1 else f"{question.need} cards"
            numbers = "1 number" if question.need == 1 else f"{question.need} numbers"
            return (
                f"Your hand: {numbered(question.cards)}. Throw {cards} to {question.whose}: "
                f"type throw and {numbers}."
            )
        if isinstance(question, Cut):
            return f"Cut the deck: type cut and a number from 1 to {question.size}."
        if isinstance(question, Play):
            return (
                f"Your turn, the count is {question.count}. Your cards: "
                f"{numbered(question.cards)}. Type play and a number."
            )
        if isinstance(question, Count):
            return f"{self.shown_cards(question.title)} Type count and the points."
        if isinstance(question, GoOn):
            return question.prompt.replace("RETURN: on to", "Press RETURN to go on to")
        if isinstance(question, PlayAgain):
            return question.prompt.replace("Press y or n.", "Type yes or no.")
        if isinstance(question, WaitForCaller):
            return (
                f"{question.name}'s line dropped. Type wait to wait up to {question.wait}, "
                "or computer to let the computer play the seat."
            )
        if isinstance(question, ClaimGame):
            return (
                f"{question.name} {question.stalled} for {question.waited}. Type claim to claim "
                f"the game, which {question.name} then forfeits, or wait."
            )
        return question.waiting_for

    # --- what the table asks and tells (door/table/seats.py's Participant) ------------

    def tell(self, text: str, style: Style = theme.TEXT) -> None:
        if text:
            self.note_shows()
            self.waiting.append(in_words(text))
            self.session.wake()

    def hear(self, speaker: str, line: str, style: Style) -> None:
        who = "You say" if speaker == self.name else f"{speaker} says"
        self.waiting.append(f"{who}: {spoken(line)}")
        self.session.wake()

    def wake(self) -> None:
        self.session.wake()

    def clock(self, timer: TurnTimer | None) -> None:
        self.timer = timer

    def waiting_on_others(self, waiting: bool) -> None:
        tell_waiting_on_others(self.session.terminal, waiting)


class WrongLine(Exception):
    """A typed line that answers nothing: the message says why, in one sentence."""


def question_verb(question: Question[Any]) -> str:
    return "deal, or say you are ready" if isinstance(question, ReadyToDeal) else "go on"


def _number(text: str, most: int) -> int:
    if not text.isdigit() or not text.isascii() or not 1 <= int(text) <= most:
        raise WrongLine(f"{text[:8]!r} is not a number from 1 to {most}.")
    return int(text)


def _pick(cards: tuple[Card, ...], numbers: list[str], need: int) -> list[Card]:
    """The cards numbered ``numbers`` (from 1) in ``cards``; exactly ``need`` of them."""
    card_s = "card number" if need == 1 else "card numbers"
    if len(numbers) != need:
        raise WrongLine(f"Give {need} {card_s}, from 1 to {len(cards)}.")
    chosen = [_number(text, len(cards)) for text in numbers]
    if len(set(chosen)) != len(chosen):
        raise WrongLine("Give each card once.")
    return [cards[number - 1] for number in chosen]
