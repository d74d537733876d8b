"""The tournaments screen (``U`` in the lobby): the list of tournaments, one tournament's
standings and pairings, signing up, challenging one's opponent for a tournament game
(``P``) and answering such a challenge here (``Y``/``N``: both players of a match come
here to play it), and for the sysop making, starting and settling tournaments. Once a
game starts for the caller the screen gives way to it (door/app/called_away.py). The
values and rules are door/app/tournaments.py's; the drawing door/screens/tournaments.py's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from door.app.lobby_words import LobbyWords, screen_key
from door.app.members import AT_THE_TOURNAMENTS, IN_THE_LOBBY, Member, TableFactory
from door.app.presence import Presence
from door.app.tournaments import (
    GAMES_PER_MATCH,
    MAX_ROUNDS,
    TournamentInfo,
    TournamentRefusal,
    Tournaments,
    parse_start,
)
from door.competition.tournament import MAX_NAME_LENGTH
from door.config import Config
from door.screens.competition_speech import SEE_THE_KEYS, tournaments_said
from door.screens.form_hits import form_hits
from door.screens.speech import Said
from door.screens.tournaments import TournamentsView, draw_tournaments
from door.storage.errors import StoreError, briefly
from door.storage.store import Account
from door.term.keys import Key
from door.ui.bottom_line import read_bottom_line
from door.ui.confirm import Confirm
from door.ui.session import Drawn, Session

REFRESH_SECONDS: Final = 30.0
LIST_STATUS: Final = "1-9 open a tournament  Esc back to the lobby  ^L redraw"
SYSOP_LIST: Final = "1-9 open  N new tournament  Esc back to the lobby  ^L redraw"
TABLE_KEYS: Final[dict[str, tuple[tuple[str, bool], ...]]] = {
    "open": (("S sign up/withdraw", False), ("G start now", True)),
    "running": (("P play your match", False), ("X forfeit a match", True)),
    "finished": (),
}
"""A tournament's page's keys as it stands (open, running, finished): each with whether
only the sysop has it. Offered all at once, S on a running tournament and G on a finished
one only earned a refusal."""
GUESTS: Final = "Tournaments are for members: log in next time to play in one."

Challenger = Callable[[Member, Member, int], str]
"""Sends a challenge for a game of tournament ``number`` (first seat first); the words
for the caller."""


def table_status(status: str, *, sysop: bool) -> str:
    """The status line of a tournament's page: the keys that do something now."""
    keys = [key for key, sysops in TABLE_KEYS.get(status, ()) if sysop or not sysops]
    return "  ".join([*keys, "Esc back", "^L redraw"])


class TournamentScreen:
    """One caller's tournaments screen; ``run`` until they go back to the lobby."""

    def __init__(
        self,
        session: Session,
        presence: Presence,
        member: Member,
        tournaments: Tournaments,
        config: Config,
        challenge: Challenger,
        make_table: TableFactory,
    ) -> None:
        self.session = session
        self.presence = presence
        self.member = member
        self.account: Account | None = member.account
        self.tournaments = tournaments
        self.challenge = challenge
        self.make_table = make_table
        """How a game accepted here is set (the lobby's way)."""
        self.view = TournamentsView(
            f"{config.door.bbs_name} · Tournaments",
            you=self.account.id if self.account is not None else None,
        )
        self.words = LobbyWords()
        """A screen reader's lines typed, and the keys they stand for."""
        self.screen = Drawn(lambda: draw_tournaments(self.view), said=self.said, hits_in=form_hits)
        self._last_note: str | None = member.notes[-1] if member.notes else None

    async def run(self) -> None:
        self.session.push(self.screen)
        self.presence.set_place(self.member, AT_THE_TOURNAMENTS)
        try:
            await self.refresh()
            error = ""
            while True:
                view = self.view
                view.error = bool(error)
                view.message = error or self.news() or view.message or self.hint()
                view.status = self.status()
                if invitation := self.invitation():
                    # A challenge (their opponent's, most likely) is answered here.
                    view.message, view.error = invitation, True
                    view.status = "Y accept  N decline  Esc back to the lobby  ^L redraw"
                key = await self.next_key()
                if key is None:
                    await self.refresh()
                    continue
                error, view.message = "", ""
                char = key.char.lower() if key.is_printable else ""
                if key == Key.ESCAPE or char == "q":
                    if view.shown is None:
                        return
                    view.shown = None
                    await self.refresh()
                    continue
                if self.member.invitation is not None and char in ("y", "n"):
                    self.answer(yes=char == "y")
                    continue
                try:
                    error = await self.act(char, key)
                except TournamentRefusal as refusal:
                    error = str(refusal)
                except StoreError as failure:
                    error = f"The tournaments cannot be reached now: {briefly(failure)}"
                await self.refresh()
        finally:
            self.session.pop(self.screen)
            self.presence.set_place(self.member, IN_THE_LOBBY)

    def news(self) -> str:
        """A note for this member that came while they were here ("Bob declines the
        challenge."), once; the lobby shows it too."""
        notes = self.member.notes
        if not notes or notes[-1] is self._last_note:
            return ""
        self._last_note = notes[-1]
        return notes[-1]

    def invitation(self) -> str:
        """The challenge waiting for this member's answer, as the message line says it."""
        challenge = self.member.invitation
        if challenge is None:
            return ""
        return f"{challenge.sender.name} challenges you: {challenge.describe()}."

    def answer(self, *, yes: bool) -> None:
        challenge = self.member.invitation
        if challenge is None:
            return
        if yes:
            # Once everyone has, the game starts and this screen gives way to it.
            self.presence.accept(challenge, self.member, self.make_table)
        else:
            self.presence.decline(challenge, self.member)
            self.view.message = f"You declined {challenge.sender.name}'s challenge."

    def hint(self) -> str:
        if self.view.shown is None:
            return "Choose a tournament by its number."
        return "The standings and this round's pairings."

    def status(self) -> str:
        if self.view.shown is None:
            return SYSOP_LIST if self.member.sysop else LIST_STATUS
        return table_status(self.view.shown.tournament.status, sysop=self.member.sysop)

    async def act(self, char: str, key: Key) -> str:
        """One key; the refusal to show, if any."""
        shown = self.view.shown
        if shown is None:
            if char.isdigit() and char != "0":
                index = int(char) - 1
                if index >= len(self.view.listing):
                    return f"There is no tournament {char}: choose one from the list."
                self.view.shown = self.view.listing[index]
                return ""
            if char == "n" and self.member.sysop:
                return await self.new_tournament()
        else:
            # As it stands now, not as it was when last drawn: others sign up and play.
            shown = self.view.shown = await self.tournaments.info(shown.number)
            if char == "s":
                return await self.toggle_entry(shown)
            if char == "p":
                return await self.play(shown)
            if char == "g" and self.member.sysop:
                tournament = await self.tournaments.start_now(shown.number)
                self.view.message = f"{tournament.name} has started: round 1 is paired."
                return ""
            if char == "x" and self.member.sysop:
                return await self.forfeit(shown)
        name = repr(key.char) if key.is_printable else key.name.value
        return f"The {name} key does nothing here: {SEE_THE_KEYS}."

    async def refresh(self) -> None:
        try:
            listing = await self.tournaments.listing()
        except StoreError as failure:
            self.view.message, self.view.error = (
                f"Tournaments cannot be read: {briefly(failure)}",
                True,
            )
            return
        self.view.listing = listing
        shown = self.view.shown
        if shown is not None:
            self.view.shown = next((i for i in listing if i.number == shown.number), shown)

    def said(self) -> Said:
        """This screen in sentences, for a screen reader (door/screens/competition_speech.py)."""
        return tournaments_said(self.view, self.words.typed)

    async def next_key(self) -> Key | None:
        reading = lambda: self.view.entry is not None  # noqa: E731 (read at each key)
        return await screen_key(self.session, self.words, reading, REFRESH_SECONDS)

    # --- a member's keys -------------------------------------------------------------

    async def toggle_entry(self, shown: TournamentInfo) -> str:
        if self.account is None:
            return GUESTS
        entered = await self.tournaments.toggle_entry(shown.number, self.account.id)
        name = shown.tournament.name
        self.view.message = (
            f"You are signed up for {name}." if entered else f"You have withdrawn from {name}."
        )
        return ""

    async def play(self, shown: TournamentInfo) -> str:
        """Challenge this round's opponent to the next game of the match."""
        if self.account is None:
            return GUESTS
        pairing, opponent = await self.tournaments.match_to_play(shown.number, self.account.id)
        name = shown.name_of(opponent)
        other = self.presence.find(name)
        if other is None or other.account is None or other.account.id != opponent:
            return f"{name} is not on now: your match waits until you are both here."
        first, second = (
            (self.member, other) if pairing.first == self.account.id else (other, self.member)
        )
        self.view.message = self.challenge(first, second, shown.number)
        return ""

    # --- the sysop's keys ------------------------------------------------------------

    async def new_tournament(self) -> str:
        """The sysop's form, a question at a time; nothing is made until every answer is
        good."""
        name = await self.read_line("Name: ", MAX_NAME_LENGTH)
        if not name or not name.strip():
            return "No tournament made: it needs a name." if name is not None else ""
        kind_text = await self.read_line("Round robin or Swiss (R/S)? ", 1)
        if kind_text is None:
            return ""
        if kind_text.lower() not in ("r", "s"):
            return "No tournament made: answer R for a round robin or S for Swiss."
        kind = "swiss" if kind_text.lower() == "s" else "round robin"
        games_text = await self.read_line("Games a match (1-7)? ", 1)
        if games_text is None:
            return ""
        if not games_text.isdigit() or int(games_text) not in GAMES_PER_MATCH:
            return "No tournament made: a match is 1 to 7 games."
        # Nothing typed: the sysop starts it (G) once enough have signed up. "now" was
        # offered here, and meant "as the second member signs up".
        when = await self.read_line("Start (YYYY-MM-DD HH:MM UTC; RETURN: when you press G)? ", 16)
        if when is None:
            return ""
        starts_at = parse_start(when, self.tournaments.now())
        rounds = 1
        if kind == "swiss":
            rounds_text = await self.read_line(f"Rounds (1-{MAX_ROUNDS})? ", 2)
            if rounds_text is None:
                return ""
            if not rounds_text.isdigit() or not 1 <= int(rounds_text) <= MAX_ROUNDS:
                return f"No tournament made: a Swiss tournament has 1 to {MAX_ROUNDS} rounds."
            rounds = int(rounds_text)
        number = await self.tournaments.create(name, kind, int(games_text), starts_at, rounds)
        self.view.message = f"Tournament {number} is open for sign-up" + (
            ": press G on its page to start it." if starts_at is None else "."
        )
        self.presence.notice(f"A new tournament is open for sign-up: {name.strip()} (press U).")
        return ""

    async def forfeit(self, shown: TournamentInfo) -> str:
        """Settle a match whose player never came back, with a confirm first."""
        handle = await self.read_line("Whose match is forfeited (their handle)? ", 20)
        if not handle:
            return ""
        entrant = next(
            (e for e, n in shown.names.items() if n.lower() == handle.strip().lower()), None
        )
        pairing = shown.tournament.pairing_of(entrant) if entrant is not None else None
        if entrant is None or pairing is None or pairing.second is None:
            return f"{handle.strip()} has no match to forfeit this round."
        other = shown.name_of(pairing.opponent_of(entrant))
        question = f"{shown.name_of(entrant)} forfeits to {other}? Y forfeits, N does not."
        if not await self.confirm(question):
            return ""
        await self.tournaments.forfeit(shown.number, entrant)
        self.view.message = f"{shown.name_of(entrant)}'s match is forfeited to {other}."
        # The table where they play it, if any, is told: the two would otherwise play on
        # for a result that no longer counts, none the wiser until its end.
        self.presence.tournament_match_settled(
            shown.number,
            entrant,
            f"The sysop settled this match: {shown.name_of(entrant)} forfeits to {other}. "
            "This game no longer counts in the tournament.",
        )
        return ""

    # --- typing -------------------------------------------------------------------

    async def read_line(self, prompt: str, limit: int, first: str = "") -> str | None:
        """A line typed at the bottom; None if Esc cancels it."""
        return await read_bottom_line(self.view, self.next_key, prompt, limit, initial=first)

    async def confirm(self, question: str) -> bool:
        dialog = Confirm(question)
        error = ""
        while True:
            self.view.message, self.view.error = error or question, bool(error)
            self.view.status = "Y yes  N no"
            key = await self.next_key()
            if key is None:
                continue
            answer = dialog.answer(key)
            if answer is not None:
                return answer
            error = dialog.not_an_answer(key)
