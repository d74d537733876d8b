"""The mail-games screen (``F`` in the lobby) and a member's turn at a mail game.

The screen lists the member's play-by-mail games (door/app/mail_games.py) with the line
for each; a game's number opens it when the move is theirs, ``N`` starts one against
another member by handle. Opening a game seats the member at a ``MailTable``
(door/table/mail.py) with the other player's seat empty: they read what the other
player did since their last move, make their moves until the game waits for the other
player (or for tomorrow), and come back here. Every move is kept as it is made
(``MailSaver``), so a dropped line loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Coroutine
from typing import Any, Final

from door.app.lobby_words import LobbyWords, screen_key
from door.app.mail_games import (
    COUNTING_NOTE,
    MAX_OPEN_GAMES,
    MailGames,
    MailRefusal,
    finished_words,
    mover,
)
from door.app.members import IN_THE_LOBBY, Member
from door.app.presence import Presence
from door.competition.errors import CompetitionError, MoveLimitError
from door.competition.pbm import PbmClock
from door.config import Config
from door.screens import theme
from door.screens.competition_speech import SEE_THE_KEYS, mail_said
from door.screens.form_hits import form_hits
from door.screens.mail_games import MailView, draw_mail_games
from door.screens.narration import narrate
from door.screens.speech import Said
from door.storage.errors import CompetitionNotFoundError, StoreError, briefly, refusal
from door.storage.pbm_games import PbmGame
from door.storage.store import Account
from door.table.admission import person_or_reader
from door.table.flow import Table
from door.table.listener import TableListener
from door.table.mail import MailTable
from door.table.options import GameOptions, GameResult
from door.term.canvas import Canvas
from door.term.clicks import HitMap
from door.term.keys import Key
from door.ui.bottom_line import read_bottom_line
from door.ui.session import Drawn, Session
from engine.rules.record import RecordedGame, replay_steps

logger = logging.getLogger(__name__)

REFRESH_SECONDS: Final = 30.0
STATUS: Final = "1-9 open a game  N new game  Esc back to the lobby  ^L redraw"
GUESTS: Final = "Mail games are between members: log in next time to play one."


class MailSaver(TableListener[Table]):
    """Keeps a mail game after every action, in order, off the game's path: each move
    with the clock moved for its player, each step nobody decides without, and the
    game's end (as the listener of its table). After a write fails nothing more is
    written and ``on_failure`` is told (the table then stops: the game stands as last
    kept)."""

    def __init__(self, mail: MailGames, pbm_id: int, clock: PbmClock, seat: int) -> None:
        self.mail = mail
        self.pbm_id = pbm_id
        self.clock = clock
        self.seat = seat
        """The member's seat: the game's end, if it ended elsewhere, is said from it."""
        self.moves = 0
        self.failure = ""
        self.ended_elsewhere = ""
        """The game was settled while open here (the opponent's account removed): how
        it ended, for the member ("You won: their account was removed (5 to 3).")."""
        self.on_failure: Callable[[str], None] | None = None
        self._last: asyncio.Task[None] | None = None

    def moves_left(self, seat: int) -> int | None:
        return self.clock.moves_left_today(seat, self.mail.now())

    def action_taken(self, game: RecordedGame, action: Any) -> None:
        """The game's ``on_action`` hook."""
        seat, now, recording = mover(game, action), self.mail.now(), game.recording
        if seat is not None:
            self.moves += 1
            # Past the limit the store refuses the move too, and the table is told then.
            with contextlib.suppress(MoveLimitError):
                self.clock = self.clock.moved(seat, now)
        self._then(lambda: self.mail.pbm_store.save_pbm_move(self.pbm_id, recording, seat, now))

    def game_over(self, table: Table, result: GameResult) -> None:
        assert isinstance(table.game, RecordedGame)  # MailScreen.play gives it one
        recording, now = table.game.recording, self.mail.now()
        self._then(lambda: self.mail.pbm_store.finish_pbm_game(self.pbm_id, recording, now=now))

    def _then(self, write: Callable[[], Coroutine[Any, Any, Any]]) -> None:
        previous = self._last

        async def run() -> None:
            if previous is not None:
                await previous
            if self.failure:
                return
            try:
                await write()
            except (StoreError, CompetitionError) as error:
                self.failure = briefly(error)
                logger.error("mail game %d could not be kept: %s", self.pbm_id, self.failure)
                if type(error) is CompetitionNotFoundError:  # no longer going
                    self.ended_elsewhere = await self._how_it_ended()
                if self.on_failure is not None:
                    self.on_failure(self.failure)

        self._last = asyncio.get_running_loop().create_task(run())

    async def _how_it_ended(self) -> str:
        """How the game ended, if it was settled elsewhere while open here: the sysop
        deleted the opponent (the sweep on time leaves a game open at a table alone)."""
        try:
            game = await self.mail.pbm_store.pbm_game(self.pbm_id)
        except (StoreError, CompetitionError):
            return ""
        return finished_words(game, self.seat) if game.finished else ""

    async def flush(self) -> None:
        if self._last is not None:
            await self._last


def since_last_move(game: PbmGame, seat: int) -> list[str]:
    """What happened since ``seat`` last moved, told to that seat, a line an action."""
    names = tuple(s.name for s in game.seats)
    lines: list[str] = []
    for action, events, replayed in replay_steps(game.recording):
        if mover(replayed, action) == seat:
            lines = []
        else:
            lines.append(narrate(events, names, seat))
    return [line for line in lines if line]


def _clicked(canvas: Canvas) -> HitMap:
    return form_hits(canvas, choices=True)


class MailScreen:
    """One member's mail-games screen; ``run`` until they go back to the lobby."""

    def __init__(
        self,
        session: Session,
        presence: Presence,
        member: Member,
        account: Account,
        mail: MailGames,
        config: Config,
        rng: random.Random,
    ) -> None:
        self.session = session
        self.presence = presence
        self.member = member
        self.account = account
        self.mail = mail
        self.config = config
        self.rng = rng
        rules = mail.rules
        limit = f"at most {rules.moves_per_day} moves a day" if rules.moves_per_day else ""
        self.view = MailView(
            f"{config.door.bbs_name} · Mail games",
            rules=(
                f"Move within {rules.days_per_move} day{'s' if rules.days_per_move != 1 else ''}"
                f" or forfeit the game{'; ' + limit + ' (UTC)' if limit else ''}.",
                f"{COUNTING_NOTE} Every move is kept as it is made.",
            ),
            most=MAX_OPEN_GAMES,
            status=STATUS,
        )
        # A game's line is its number (games 1 to 9: ten or more are typed).
        self.words = LobbyWords()
        """A screen reader's lines typed, and the keys they stand for."""
        self.screen = Drawn(lambda: draw_mail_games(self.view), said=self.said, hits_in=_clicked)

    async def run(self) -> None:
        self.session.push(self.screen)
        self.presence.set_place(self.member, "at the mail games")
        try:
            await self.mail.forfeit_overdue()
            await self.refresh()
            error = ""
            while True:
                self.view.error = bool(error)
                hint = "Choose a game, or N for a new one."
                self.view.message = error or self.view.message or hint
                self.view.status = STATUS
                key = await self.next_key()
                if key is None:
                    await self.refresh()
                    continue
                error, self.view.message = "", ""
                char = key.char.lower() if key.is_printable else ""
                if key == Key.ESCAPE or char == "q":
                    return
                if char == "n":
                    error = await self.new_game()
                elif char.isdigit():
                    error = await self.choose(char)
                else:
                    name = repr(key.char) if key.is_printable else key.name.value
                    error = f"The {name} key does nothing here: {SEE_THE_KEYS}."
        finally:
            self.session.pop(self.screen)
            self.presence.set_place(self.member, IN_THE_LOBBY)

    def said(self) -> Said:
        """This screen in sentences, for a screen reader (door/screens/competition_speech.py)."""
        return mail_said(self.view, self.words.typed)

    async def next_key(self) -> Key | None:
        reading = lambda: self.view.entry is not None  # noqa: E731 (read at each key)
        return await screen_key(self.session, self.words, reading, REFRESH_SECONDS)

    async def refresh(self) -> None:
        try:
            self.view.going, self.view.finished = await self.mail.lines_for(self.account)
        except StoreError as failure:
            self.view.message, self.view.error = (
                f"The mail games cannot be read: {briefly(failure)}",
                True,
            )

    async def read_line(self, prompt: str, limit: int, first: str = "") -> str | None:
        """A line typed at the bottom; None if Esc cancels it."""
        return await read_bottom_line(self.view, self.next_key, prompt, limit, initial=first)

    async def new_game(self) -> str:
        """Ask for a handle and start a game against that member; the refusal, if any."""
        handle = await self.read_line("Play whom (their handle)? ", 20)
        if handle is None:
            return ""
        try:
            pbm_id, opponent = await self.mail.start(
                self.account,
                handle,
                seed=self.rng.getrandbits(64),
                runs=self.config.game.runs,
            )
        except (MailRefusal, StoreError) as refused:
            return refusal(refused)
        await self.refresh()
        number = next(
            (n for n, line in enumerate(self.view.going, start=1) if line.pbm_id == pbm_id), 0
        )
        self.view.message = f"Game {number} against {opponent} is started."
        other = self.presence.find(opponent)
        if other is not None and other is not self.member:
            other.tell(f"{self.member.name} started a mail game with you: press F.")
        return ""

    async def choose(self, digit: str) -> str:
        """A game's number (two digits, RETURN after one, when there are ten or more)."""
        going = self.view.going
        typed = digit
        if len(going) >= 10 and int(digit) * 10 <= len(going):
            line = await self.read_line("Game number: ", 2, digit)
            if not line:
                return ""
            typed = line
        if not typed.isdigit() or not 1 <= int(typed) <= len(going):
            return f"There is no game {typed}: choose one from the list."
        return await self.open_game(going[int(typed) - 1].pbm_id)

    async def open_game(self, pbm_id: int) -> str:
        """Sit down at the game if the move is the member's; the refusal, if any."""
        try:
            game, seat = await self.mail.game_to_move(pbm_id, self.account)
        except (MailRefusal, StoreError) as refused:
            return refusal(refused)
        if not self.mail.take(pbm_id, self.member.name):
            return "That game is open on another line: try again shortly."
        try:
            opponent = game.seats[1 - seat].name
            self.presence.set_place(self.member, f"playing {opponent} by mail")
            saver = await self.play(game, seat)
        finally:
            self.mail.release(pbm_id)
            self.presence.set_place(self.member, "at the mail games")
        await self.refresh()
        if saver.ended_elsewhere:
            return f"The game is over. {saver.ended_elsewhere}"
        if saver.failure:
            return f"A move could not be kept: {saver.failure}"
        line = next((line for line in self.view.going if line.pbm_id == pbm_id), None)
        if line is not None:
            self.view.message = f"Against {opponent}: {line.status}."
        other = self.presence.find(opponent)
        if saver.moves and other is not None and other.account is not None:
            note = await self.mail.waiting_note(other.account)
            if note:
                other.tell(f"{self.member.name} moved in your mail game. {note}")
        return ""

    async def play(self, kept: PbmGame, seat: int) -> MailSaver:
        game = kept.resume()
        saver = MailSaver(self.mail, kept.pbm_id, kept.clock, seat)
        game.on_action = saver.action_taken
        names = [s.name for s in kept.seats]
        options = GameOptions(runs=game.runs, counting="auto", players=2)
        table = MailTable(
            options,
            names,
            mine=seat,
            game=game,
            admit=person_or_reader,
            moves_left=saver.moves_left,
            account_ids=[s.account_id for s in kept.seats],
            pause=self.config.game.computer_pause_seconds,
            listener=saver,
        )
        saver.on_failure = lambda why: table.stop(
            f"The game is over. {saver.ended_elsewhere}"
            if saver.ended_elsewhere
            else f"Move not kept: {why}. Try again later."  # one line, for the longest why
        )
        person = table.sit(seat, self.session)
        person.tell(f"Mail game against {names[1 - seat]}. {COUNTING_NOTE}", theme.TITLE)
        for line in since_last_move(kept, seat)[-12:]:
            person.tell(line)
        table.start()
        try:
            await person.attend()
        finally:
            table.close()
            await saver.flush()
        return saver
