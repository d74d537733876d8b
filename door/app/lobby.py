"""The lobby: where a caller sees who is on, chats, and starts or joins a game.

From here a caller plays the computer (``P``), challenges other callers or the sysop
(``W``, with the game options set here: runs ``1``/``2``, counting ``A``, players ``G``),
accepts or declines a challenge (``Y``/``N``), watches a game (``V``) or chats (``C``).
When accounts are on, ``L`` shows the leaderboard and, for a caller who logged in, ``R``
their record (statistics) and ``F`` their play-by-mail games (door/app/mail_screen.py).
The sysop also pages a caller into a private chat (``O``), hosts a game with a caller who
is then player 1 (``H``), disconnects a caller (``K``) and broadcasts to everyone (``B``).

The screen is redrawn whenever anything in the shared ``Presence`` changes (each member's
``Inbox`` is woken) and every few seconds, so idle times and places stay current.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Final

from door.app.accounts import show_leaderboard, show_stats
from door.app.called_away import unless_called
from door.app.lobby_keys import (
    CHARSET_NAMES,
    LOBBY_KEYS,
    LOBBY_MENU,
    LOBBY_MOUSE_STATUS,
    LOBBY_STATUS,
    LOBBY_TAP_STATUS,
    OPTION_KEYS,
    OptionKeys,
    account_row,
    competition_row,
    lobby_holds,
    options_row,
)
from door.app.lobby_view import and_names, chat_texts, notice, who_lines
from door.app.lobby_words import LobbyWords, screen_key
from door.app.mail_screen import GUESTS, MailScreen
from door.app.members import IN_THE_LOBBY, HandedOver, Member
from door.app.menu_choices import MenuChoices
from door.app.presence import Presence
from door.app.private_chat import private_chat
from door.app.records import Records
from door.app.sysop_keys import SYSOP_KEYS, SYSOP_MENU, SysopKeys
from door.app.sysop_tools import open_tools
from door.app.table_service import TableService
from door.app.tournament_screen import TournamentScreen
from door.config import Config
from door.screens.chat import MAX_CHAT_LENGTH, Entry
from door.screens.lobby import CHAT_ROWS, LobbyView, draw_lobby
from door.screens.lobby_hits import lobby_hits
from door.screens.lobby_speech import lobby_said
from door.screens.narration import side_names
from door.screens.side_pane import WIDE_COLS, canvas_size
from door.screens.speech import SEE_THE_KEYS_ABOVE, Said
from door.storage.store import SavedGame
from door.table.flow import Table
from door.table.options import GameOptions
from door.table.person import Person
from door.table.solo import play_against_computer
from door.term.canvas import Canvas
from door.term.clicks import NO_HITS, HitMap
from door.term.keys import Key
from door.ui.bindings import Bindings
from door.ui.bottom_line import read_bottom_line
from door.ui.confirm import STATUS as CONFIRM_STATUS
from door.ui.confirm import Confirm
from door.ui.picker import Picker
from door.ui.session import Drawn, Session

REFRESH_SECONDS: Final = 15.0
"""How often the lobby redraws by itself, for the idle times."""
_STATUS: Final = LOBBY_STATUS.text
LEAVING_KEYS: Final = frozenset("ptvf")
"""Keys that take a caller to another table or game: not while their challenge is out."""


class _Called(Exception):
    """Something took the caller away from what they were typing: a game, a page."""


class Lobby:
    """One member's lobby screen and its keys."""

    def __init__(
        self,
        session: Session,
        presence: Presence,
        member: Member,
        config: Config,
        choices: MenuChoices,
        rng: random.Random,
        show_help: Callable[[], Awaitable[None]],
        records: Records | None = None,
        tables: TableService | None = None,
    ) -> None:
        self.session = session
        self.presence = presence
        self.member = member
        self.config = config
        self.choices = choices
        self.rng = rng
        self.show_help = show_help
        self.records = records or Records()
        self.tables = tables or TableService(config, presence, self.records)
        """The door's tables: the lobby asks there for one (door/app/table_service.py)."""
        self.screen = Drawn(self.frame, hits=self.hits, said=self.said)
        self.words = LobbyWords()
        """A screen reader's lines typed, and the keys they stand for."""
        self.view = LobbyView(
            config.door.bbs_name,
            member.name,
            sysop=member.sysop,
            menu_keys=LOBBY_MENU.text,
            sysop_keys=SYSOP_MENU.text if member.sysop else "",
        )
        self.option_keys = OptionKeys(choices, member, session, self.records)
        self.picked: list[Member] = []
        self.picking = False
        self.drawn_hits = NO_HITS
        """People are being chosen from the list of who is on (a click on one is their
        number)."""
        self.mail_note = ""
        """Mail games waiting for this member's move, for the notice line."""

    async def run(self) -> None:
        """Until the caller quits; raises Disconnected if the line drops."""
        self.session.push(self.screen)
        try:
            await self.note_mail_games()
            error = ""
            while True:
                await self.go_where_called()
                self.view.message, self.view.error = error or self.last_note(), bool(error)
                self.view.status = _STATUS
                try:
                    key = await self.next_key()
                except _Called:
                    continue
                if key is None:
                    continue
                error = ""
                # A note stands until the caller's next key: what that key does (self-play,
                # a K cancelled...) must not be read as "Game abandoned." again.
                self.choices.notes.clear()
                if await self.menu_key(key) is False:
                    return
        finally:
            self.session.pop(self.screen)

    async def menu_key(self, key: Key) -> bool | None:
        """Act on a key at the lobby (door/app/lobby_keys.py, door/app/sysop_keys.py);
        False means the caller is leaving."""
        member = self.member
        if key.char.lower() in LEAVING_KEYS and member.challenge is not None:
            # A game, or a game's moves, would keep them from the seat the answer gives.
            member.tell(
                "Your challenge is still out: wait here for the answer, or Esc withdraws it."
            )
            return None
        # What runs each group's actions: made here, not kept, as the lobby kept in a
        # group would be a cycle, never freed once frozen (door/gc_policy.py).
        groups: tuple[tuple[Bindings, object], ...] = (
            (LOBBY_KEYS, self),
            (OPTION_KEYS, self.option_keys),
            (SYSOP_KEYS, SysopKeys(self)),
        )
        for keys, actions in groups:
            binding = keys.find(key, lambda when: lobby_holds(when, member, self.records))
            if binding is not None:
                done = getattr(actions, binding.action)()
                return await done if inspect.isawaitable(done) else done
        name = repr(key.char) if key.is_printable else key.name.value
        member.tell(f"The {name} key does nothing here: {SEE_THE_KEYS_ABOVE}.")
        return None

    # --- the lobby's keys (LOBBY_KEYS) -----------------------------------------------

    async def leave(self) -> bool | None:
        if not await self.confirm("Leave the door? Press Y to leave, N to stay."):
            return None
        if self.member.challenge is not None:
            self.presence.withdraw(self.member.challenge)
        return False

    async def chat(self) -> None:
        text = await self.read_line("Say: ")
        if text:
            self.presence.say(self.member, text)

    async def help(self) -> None:
        await unless_called(self.member, self.show_help())

    def accept(self) -> None:
        if self.member.invitation is not None:
            self.presence.accept(self.member.invitation, self.member, self.make_table)

    def decline(self) -> None:
        if self.member.invitation is not None:
            self.presence.decline(self.member.invitation, self.member)

    def withdraw(self) -> None:
        if self.member.challenge is not None:
            self.presence.withdraw(self.member.challenge)

    async def show_record(self) -> None:
        store = self.records.store
        if self.member.account is None:
            self.member.tell("Guests have no record: log in next time to keep yours.")
        elif store is not None:
            await self.away_from_lobby(show_stats(self.session, store, self.member.name))

    async def leaderboard(self) -> None:
        if self.records.store is not None:
            await self.away_from_lobby(show_leaderboard(self.session, self.records.store))

    # --- moving the caller to where they are wanted ------------------------------------

    async def go_where_called(self) -> None:
        """A seat at a table, or a private chat with the sysop, takes the caller there."""
        while True:
            if self.member.handover is not None:
                raise HandedOver(self.member.handover, paged_by=self.member.paged_by)
            if self.member.seat is not None:
                await self.play_seat()
            elif self.member.private_chat is not None:
                await self.private_chat()
            else:
                return

    def called(self) -> bool:
        member = self.member
        return (
            member.seat is not None
            or member.private_chat is not None
            or member.handover is not None
        )

    async def play_seat(self) -> None:
        member = self.member
        person, member.seat = member.seat, None
        assert person is not None and person.seat is not None
        table = person.table
        others = [name for name in table.names if name != member.name]
        await self.attend(person, f"playing {and_names(others)}", table)

    async def attend(self, person: Person, place: str, table: Table) -> None:
        self.presence.set_place(self.member, place, table)
        try:
            result = await person.attend()
        finally:
            self.presence.set_place(self.member, IN_THE_LOBBY)
            if table.over:
                self.presence.remove_table(table)
        if person.seat is not None and table.forfeit_text:
            self.choices.notes.append(table.forfeit_text)  # both are told who forfeited
        elif person.seat is not None:
            sides = side_names(table.names, table.game.sides)
            self.choices.count(result, sides, spoken=self.session.speech)

    async def private_chat(self) -> None:
        """The private chat the sysop paged the caller into (door/app/private_chat.py)."""
        await private_chat(
            self.member, self.presence, self.view, lambda: self.next_key(interruptible=False)
        )

    async def sysop_tools(self) -> None:
        """The sysop's tools (door/app/sysop_tools.py): members, bans, chat, the audit."""
        store, name = self.records.store, self.config.door.bbs_name
        member, presence = self.member, self.presence
        await self.away_from_lobby(open_tools(self.session, presence, member, store, name))

    async def away_from_lobby(self, screen: Coroutine[Any, Any, None]) -> None:
        """Show another screen (statistics, the leaderboard), then the lobby again."""
        self.presence.set_place(self.member, "reading the records")
        try:
            await unless_called(self.member, screen)
        finally:
            self.presence.set_place(self.member, IN_THE_LOBBY)

    async def mail_games(self) -> None:
        """The member's play-by-mail games, then the lobby again."""
        mail, account = self.records.mail, self.member.account
        if account is None or mail is None:
            self.member.tell(GUESTS)
            return
        await MailScreen(
            self.session, self.presence, self.member, account, mail, self.config, self.rng
        ).run()
        await self.note_mail_games()

    async def tournament_screen(self) -> None:
        """The tournaments: standings, pairings, sign-up, the caller's match."""
        tournaments = self.records.tournaments
        if tournaments is None:
            return
        screen = TournamentScreen(
            self.session,
            self.presence,
            self.member,
            tournaments,
            self.config,
            self.send_tournament_challenge,
            self.make_table,
        )
        await unless_called(self.member, screen.run())

    def send_tournament_challenge(self, first: Member, second: Member, number: int) -> str:
        """Challenge this round's opponent to a game of tournament ``number`` (``first``
        in the first seat, as the pairing has it); what the caller is told."""
        options = GameOptions(runs=self.config.game.runs, players=2, tournament=number)
        if self.member.challenge is not None:
            return "Your challenge is still out: Esc in the lobby withdraws it."
        try:
            challenge = self.presence.challenge(
                self.member, [first, second], options, self.make_table
            )
        except ValueError as refusal:
            return str(refusal)
        names = and_names([m.name for m in challenge.invitees])
        return f"You challenge {names} to your tournament game: the game starts when they accept."

    async def note_mail_games(self) -> None:
        """Whether mail games wait for this member's move ("Your move against Ada (2 days
        left): press F."), for the notice line, where it stays while it is true (once
        there, not again on the message line below it)."""
        if self.records.mail is not None:
            self.mail_note = await self.records.mail.waiting_note(self.member.account)

    # --- games ---------------------------------------------------------------------

    async def play_computer(self, saved: SavedGame | None = None) -> None:
        """Games against the computer until the caller stops; ``saved`` resumes that game
        first. A caller who logged in has each game saved as it goes (door/app/records.py)."""
        member, choices = self.member, self.choices
        rng = random.Random(self.rng.getrandbits(64))
        keeper = self.tables.against_computer(member, choices.options, rng=rng, saved=saved)
        self.presence.set_place(member, "playing the computer")
        tables: list[Table] = []
        quit_rating: str | None = None

        def on_table(table: Table) -> None:
            tables.append(table)
            self.presence.add_table(table)
            self.presence.set_place(member, "playing the computer", table)
            if saved is not None:
                hand = max(table.game.hand_number, 1)
                table.announce(f"Your saved game goes on where it stopped, in hand {hand}.")
            keeper.seated(table)

        try:
            result = await play_against_computer(
                self.session,
                keeper.options,
                member.name,
                rng=rng,
                pause=self.config.game.computer_pause_seconds,
                win_bar=self.config.game.win_bar,
                listener=keeper,
                on_table=on_table,
                game=keeper.game,
            )
        finally:
            for table in tables:
                self.presence.remove_table(table)
            self.presence.set_place(member, IN_THE_LOBBY)
            for finished in keeper.results:  # (results come only from a table)
                sides = side_names(tables[0].names, len(finished.scores))
                choices.count(finished, sides, spoken=self.session.speech)
            quit_rating = await keeper.left(tables[0] if tables else None)
        if result.quit:
            choices.notes.append(" ".join(filter(None, ("Game abandoned.", quit_rating))))

    def make_table(self, options: GameOptions, names: list[str | None]) -> Table:
        """A table for a challenge this caller sends or accepts, from the door's tables."""
        return self.tables.between_callers(options, names, rng=self.rng)

    async def challenge(self) -> None:
        member = self.member
        if member.challenge is not None:
            member.tell("Your challenge is still out: Esc withdraws it.")
            return
        room = self.choices.options.players - 1
        chosen = await self.pick(
            f"Challenge whom (up to {room})? ", room, lambda other: other is not member
        )
        if chosen:
            self.send_challenge([member, *chosen])

    def send_challenge(self, seating: list[Member]) -> None:
        member = self.member
        guests = [other.name for other in seating if other.account is None]
        if self.choices.options.rated and guests:
            member.tell(f"A rated game is between members: {and_names(guests)} came as a guest.")
            return
        try:
            challenge = self.presence.challenge(
                member, seating, self.choices.options, self.make_table
            )
        except ValueError as refusal:
            member.tell(str(refusal))
            return
        names = and_names([m.name for m in challenge.invitees])
        member.tell(f"You challenge {names}: {challenge.describe()}. Esc withdraws it.")

    async def watch(self) -> None:
        worker_of = self.presence.worker_of

        def playing(other: Member) -> bool:
            if worker_of(other):  # at another worker: its place says whether they play
                return other.place.startswith("playing")
            return other.table is not None and not other.table.over

        chosen = await self.pick("Watch whose game? ", 1, playing)
        if not chosen:
            return
        if worker_of(chosen[0]):
            # Their table is on another worker: the caller goes on there, to watch it.
            raise HandedOver(worker_of(chosen[0]), watch=chosen[0].name)
        if chosen[0].table is not None:
            await self.watch_table(chosen[0].table)

    async def watch_table(self, table: Table) -> None:
        person = table.watch(self.member.name, self.session)
        await self.attend(person, f"watching {table.title}", table)

    async def watch_computer(self) -> None:
        """The computer plays itself at the caller's chosen options, with the win bar,
        as long as someone watches; + and - set its speed. Others may watch too."""
        table = self.tables.exhibition(self.choices.options, rng=self.rng)
        person = table.watch(self.member.name, self.session)
        self.presence.add_table(table)
        table.start()
        try:
            await self.attend(person, "watching the computer play itself", table)
        finally:
            table.close()
            self.presence.remove_table(table)

    # --- typing and picking ------------------------------------------------------------

    async def confirm(self, question: str) -> bool:
        """Ask ``question`` on the lobby's message line through the shared confirm dialog:
        True for Y, False for N or Esc (every key that cannot be undone asks first)."""
        view = self.view
        dialog = Confirm(question)
        error = ""
        try:
            while True:
                view.message = error or dialog.prompt
                view.error = bool(error)
                view.status = CONFIRM_STATUS
                key = await self.next_key()
                if key is None:
                    continue
                answer = dialog.answer(key)
                if answer is not None:
                    return answer
                error = dialog.not_an_answer(key)
        except _Called:
            return False  # a seat wants them (their challenge was accepted): not now
        finally:
            view.message, view.error, view.status = "", False, _STATUS

    async def read_line(self, prompt: str) -> str | None:
        """A line typed at the bottom of the lobby; None if Esc (or a game) cut it off."""
        try:
            return await read_bottom_line(
                self.view,
                self.next_key,
                prompt,
                MAX_CHAT_LENGTH,
                status="RETURN send  Esc cancel  BS erase",
            )
        except _Called:
            return None

    async def pick(
        self, prompt: str, most: int, allowed: Callable[[Member], bool]
    ) -> list[Member] | None:
        """Up to ``most`` people chosen by their numbers in the list; None if cancelled."""
        view = self.view

        def refusal(other: Member) -> str:
            if allowed(other):
                return ""
            return "That is you." if other is self.member else f"Not {other.name}: {other.place}."

        picker = Picker(most, refusal)
        entry = view.entry = Entry(prompt, 12)
        self.picking = True
        try:
            while True:
                online = self.presence.online()
                picker.keep_listed(online)
                self.picked = picker.chosen
                entry.text = picker.numbers(online)
                view.message = picker.error or picker.prompt
                view.error = bool(picker.error)
                view.status = picker.status
                key = await self.next_key()
                picker.error = ""
                if key is None:
                    continue
                done = picker.feed(key, online)
                if done is not None:
                    return picker.chosen if done else None
        except _Called:
            return None
        finally:
            self.picked, self.picking = [], False
            view.entry = None

    # --- drawing and waiting ------------------------------------------------------------

    async def next_key(self, *, interruptible: bool = True) -> Key | None:
        """Draw, then the caller's next key, or None when something changed. Raises
        _Called when the caller is wanted at a table or in a private chat."""
        if interruptible and self.called():
            raise _Called
        reading = lambda: self.view.entry is not None  # noqa: E731 (read at each key)
        return await screen_key(self.session, self.words, reading, REFRESH_SECONDS)

    def frame(self) -> tuple[Canvas, tuple[int, int] | None]:
        """The lobby as it stands: drawn at every paint while it is on the stack."""
        self.compose()
        try:
            self.drawn_hits = lobby_hits(self.view, picking=self.picking)
            return draw_lobby(self.view)
        finally:
            # Who is on and the chat are read afresh for every frame: kept, they would be
            # a list of everyone online per caller, held through every game (hundreds of
            # thousands of objects for the garbage collector to walk with a full house).
            self.view.who, self.view.chat = (), ()

    def said(self) -> Said:
        """The lobby in sentences, for a screen reader (door/screens/lobby_speech.py)."""
        self.compose()
        try:
            return lobby_said(self.view, self.words.typed)
        finally:
            self.view.who, self.view.chat = (), ()

    def hits(self) -> HitMap:
        """What a click on the frame just drawn means (door/screens/lobby_hits.py)."""
        return self.drawn_hits

    def compose(self) -> None:
        presence, member, view = self.presence, self.member, self.view
        online = presence.online()
        view.who = who_lines(online, member, self.picked)
        view.who_count = len(online)
        view.size = self.session.size
        lines = list(presence.chat)
        if canvas_size(view.size)[0] < WIDE_COLS:  # (a wide window shows every line kept)
            lines = lines[-CHAT_ROWS:]  # only the chat lines the screen has room for
        view.chat = chat_texts(lines)
        options = self.choices.options
        view.options = options_row(options)
        charset = CHARSET_NAMES[self.session.charset]
        mouse = ("on" if self.session.mouse else "off") if self.session.mouse_offered else ""
        if view.status in (_STATUS, LOBBY_MOUSE_STATUS.text, LOBBY_TAP_STATUS.text):
            # The lobby's own line says whether clicks (or taps) work.
            clicking = LOBBY_TAP_STATUS if self.session.touch else LOBBY_MOUSE_STATUS
            view.status = clicking.text if self.session.mouse else _STATUS
        view.account_keys = account_row(self.records, member, options, charset, mouse)
        view.competition_keys = competition_row(self.records, member)
        view.notice, view.notice_urgent = notice(member, self.mail_note)

    def last_note(self) -> str:
        member = self.member
        while member.notes:
            self.choices.notes.append(member.notes.popleft())
        if self.choices.notes:
            return self.choices.notes[-1]
        return "Choose from the menu above."
