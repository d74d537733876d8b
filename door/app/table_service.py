"""The door's tables: made here, and their games kept (saved, rated, recorded).

One ``TableService`` belongs to the door (door/app/door.py's ``Door``), beside the
``Presence`` that lists the tables and the ``Records`` that store their games. A session
asks it for a table and plays at it; it never builds one itself:

- ``between_callers``: a game of a challenge (the factory ``Presence.challenge`` and
  ``accept`` are given), saved after every action when someone at it logged in, rated
  when it is rated, counted in its match when it is a tournament's;
- ``resumed``: such a game that a stopped door (or worker) left in the store, set again
  as it stood;
- ``against_computer``: a caller's games against the computer, saved and rated for a
  member (the listener ``play_against_computer`` is given);
- ``exhibition``: the computer playing itself for whoever watches.

Each table hears of its keeper through its listener (door/table/listener.py). Each
table's deck is shuffled by a generator drawn from the asking session's, so a seeded
session deals the same games wherever its table is made.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
import random
from collections.abc import Coroutine
from typing import Any, Final

from door.app.members import Member
from door.app.presence import Presence
from door.app.records import KeptGame, Records, computer_names
from door.app.table_settings import read_settings, settings_text
from door.config import Config
from door.screens.narration import side_names
from door.storage.errors import StoreError
from door.storage.saver import GameSaver
from door.storage.store import Account, SavedGame
from door.table import words
from door.table.admission import person_or_reader
from door.table.flow import Table
from door.table.listener import TableListener
from door.table.options import GameOptions, GameResult
from engine.rules.game import Game
from engine.rules.outcome import Outcome

logger = logging.getLogger(__name__)

UNKNOWN_TIME: Final = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
"""When the account of a seat in a game set again from the store was made (unused)."""
RESUMED_TEXT: Final = "The door stopped during this game: it goes on where it was saved."
NOT_COUNTED: Final = (
    "This game does not count in the tournament: your match was settled without it."
)
SETTLED_WHILE_STOPPED: Final = "The sysop settled this match; this game no longer counts."
EXHIBITION_PAUSE: Final = 0.8
"""The least pause a move when the computer plays itself, in seconds, so a watcher can
follow it (they speed it up with +)."""


class TableService:
    """Makes the door's tables and keeps their games (see the module's text)."""

    def __init__(self, config: Config, presence: Presence, records: Records) -> None:
        self.config = config
        self.presence = presence
        self.records = records
        self._background: set[asyncio.Task[None]] = set()
        """Ratings and tournament results being written: kept so that they finish."""

    # --- tables ---------------------------------------------------------------------

    def between_callers(
        self, options: GameOptions, names: list[str | None], *, rng: random.Random
    ) -> Table:
        """The table of an accepted challenge (``names``: a caller's name per seat,
        None for a seat the computer plays); its game is saved as it goes when someone
        at it logged in."""
        accounts = [self.account_of(name) for name in names]
        table_rng = random.Random(rng.getrandbits(64))
        game = self.records.game_between_callers(options, accounts, table_rng)
        keeper = CallersGame(self, accounts)
        table = self._table(
            options,
            names,
            table_rng,
            keeper,
            game,
            [account.id if account is not None else None for account in accounts],
        )
        account_ids = [seat.account_id for seat in table.seats]
        callers = sum(name is not None for name in names)
        saver = self.records.keep_game_between_callers(
            table.game, table.names, account_ids, callers
        )
        if saver is not None:
            keeper.saved_by(table, saver)
        return table

    def resumed(self, saved: SavedGame, *, rng: random.Random) -> Table:
        """A game between callers that a stopped door (or worker) left in the store, set
        again as it stood; every caller's seat waits for them to come back."""
        game, saver = self.records.resume_between_callers(saved)
        computers = set(computer_names(game.players))
        names = [
            None if seat.account_id is None and seat.name in computers else seat.name
            for seat in saved.seats
        ]
        kept, match_games = read_settings(saved.table_settings)
        options = kept or GameOptions(
            runs=game.runs,
            counting=game.counting,
            level=self.config.game.level,
            players=game.players,
        )
        accounts = [
            Account(seat.account_id, seat.name, UNKNOWN_TIME) if seat.account_id else None
            for seat in saved.seats
        ]
        keeper = CallersGame(self, accounts, resumed=True)
        table = self._table(
            options,
            names,
            random.Random(rng.getrandbits(64)),
            keeper,
            game,
            [seat.account_id for seat in saved.seats],
        )
        if table.match is not None and match_games:
            table.match = dataclasses.replace(table.match, games=match_games)
        for seat in table.seats:
            seat.sat_down = seat.human  # they come back to it
        table.back_text = RESUMED_TEXT
        keeper.saved_by(table, saver)
        return table

    async def count_only_if_match_open(self, table: Table) -> None:
        """A resumed tournament game whose match the sysop settled while the door was
        stopped goes on as a game that does not count there (leaving it forfeits
        nothing), each player told as they come back to it. When the store cannot say,
        it counts: its result is checked again when it is recorded
        (``record_tournament_game``)."""
        number, tournaments = table.options.tournament, self.records.tournaments
        first, second = (seat.account_id for seat in table.seats[:2])
        if not number or tournaments is None or first is None or second is None:
            return
        try:
            if await tournaments.match_open(number, first, second):
                return
        except StoreError as failure:
            logger.warning("tournament %d: a resumed game's match unread: %s", number, failure)
            return
        # Nobody sits at it yet to be told now: each hears it on coming back.
        table.options = table.options.with_(tournament=0)
        table.back_text = f"{table.back_text} {SETTLED_WHILE_STOPPED}"

    def against_computer(
        self,
        member: Member,
        options: GameOptions,
        *,
        rng: random.Random,
        saved: SavedGame | None = None,
    ) -> ComputerGames:
        """The keeper of ``member``'s games against the computer at ``options`` (or of
        their ``saved`` game, resumed first): saved as they go and rated for a member."""
        kept: KeptGame | None = None
        if saved is not None:
            kept = self.records.resume(saved)
        elif member.account is not None:
            kept = self.records.computer_game(member.account, options, rng)
        return ComputerGames(self, member, kept.options if kept else options, kept)

    def exhibition(self, options: GameOptions, *, rng: random.Random) -> Table:
        """The computer playing itself at ``options``, for whoever watches."""
        return Table(
            options,
            [None] * options.players,
            rng=random.Random(rng.getrandbits(64)),
            admit=person_or_reader,
            pause=max(self.config.game.computer_pause_seconds, EXHIBITION_PAUSE),
            win_bar=self.config.game.win_bar,
            listener=ModeratedTable(self),
        )

    def _table(
        self,
        options: GameOptions,
        names: list[str | None],
        rng: random.Random,
        keeper: CallersGame,
        game: Game | None,
        account_ids: list[int | None],
    ) -> Table:
        game_config = self.config.game
        return Table(
            options,
            names,
            rng=rng,
            admit=person_or_reader,
            pause=game_config.computer_pause_seconds,
            reconnect_wait=game_config.reconnect_wait_seconds,
            claim_after=game_config.claim_after_seconds,
            win_bar=game_config.win_bar,
            game=game,
            account_ids=account_ids,
            listener=keeper,
        )

    # --- what a game's end leads to --------------------------------------------------

    def account_of(self, name: str | None) -> Account | None:
        """The account of the caller online as ``name`` (None: a guest, the computer)."""
        member = self.presence.find(name) if name is not None else None
        return member.account if member is not None else None

    def tell_players(self, table: Table, lines: list[str]) -> None:
        """Tell each caller of ``table`` who is online their line."""
        for name, line in zip(table.names, lines, strict=True):
            other = self.presence.find(name)
            if other is not None:
                other.tell(line)

    async def rate_members(self, first: Account, second: Account, table: Table) -> None:
        """A rated game between two members is over: each is told their new rating."""
        lines = await self.records.rate_between_members(first, second, table.outcome())
        if lines is not None:
            # The last line the lobby shows: the forfeit is said with the rating.
            self.tell_players(table, [f"{table.forfeit_text} {line}".lstrip() for line in lines])

    async def record_tournament_game(
        self, number: int, first: Account, second: Account, table: Table
    ) -> None:
        """A tournament game is over: into its match, and the players told how it stands."""
        tournaments, outcome = self.records.tournaments, table.outcome()
        if tournaments is None or outcome is None:
            return
        try:
            after = await tournaments.record(number, first.id, outcome, against=second.id)
        except StoreError as failure:
            logger.error("tournament %d: a game was not recorded: %s", number, failure)
            return
        if after is None:
            # The sysop settled the match while the game went on: said, or the players
            # would look for a result the standings never show.
            self.tell_players(table, [NOT_COUNTED] * len(table.names))
            return
        pairing = after.pairing_of(first.id, after.current_round)
        line = f"Tournament game recorded in {after.name}"
        if after.status == "finished":
            line += ": the tournament is over (U shows the standings)."
        elif pairing is None or first.id not in pairing.entrants or after.settled(pairing):
            line += ": your match is complete (U shows the standings)."
        else:
            line += f": game {len(pairing.games) + 1} of {after.games_per_match} is next."
        self.tell_players(table, [line] * len(table.names))

    async def rate_against_computer(
        self, account: Account | None, options: GameOptions, outcome: Outcome | None
    ) -> str | None:
        """A member's two-handed game against the computer ended (won, lost or quit):
        rated against the computer's level; the line telling the new rating, if any."""
        if account is None or outcome is None or options.players != 2:
            return None
        return await self.records.rate_against_computer(account, options.level, outcome)

    def in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Store work no caller need wait for (a rating), kept until it is done."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)


class ModeratedTable(TableListener[Table]):
    """What every keeper of the door's tables does: the table's chat, its players' and
    its watchers', goes through the door's moderation (door/app/moderation.py) as the
    lobby's does: a muted caller is refused, masked words are starred, and the sysop's
    recent-chat list keeps the line."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    def chat_refusal(self, table: Table, speaker: str) -> str | None:
        moderation = self.service.presence.moderation
        return moderation.chat_refusal(speaker) if moderation is not None else None

    def chat_heard(self, table: Table, speaker: str, line: str) -> str:
        moderation = self.service.presence.moderation
        if moderation is None:
            return line
        return moderation.heard(speaker, f"table {table.title}", line)


class CallersGame(ModeratedTable):
    """The keeper of a table of callers: saves its game (when someone at it logged in),
    rates it when it is rated, and counts it in its match when it is a tournament's.
    ``accounts`` holds each seat's account (None: a guest, the computer)."""

    def __init__(
        self, service: TableService, accounts: list[Account | None], *, resumed: bool = False
    ) -> None:
        super().__init__(service)
        self.accounts = accounts
        self.saver: GameSaver | None = None
        # Set again after a restart: the lobby never read that it began, so a table nobody
        # came back to ends without a line (one a table would follow every restart).
        self.resumed = resumed

    def saved_by(self, table: Table, saver: GameSaver) -> None:
        """``saver`` saves ``table``'s game after every action from now on."""
        self.saver = saver
        saver.on_trouble = table.announce
        saver.table_settings = lambda: settings_text(
            table.options, table.match.games if table.match is not None else ()
        )

    def game_over(self, table: Table, result: GameResult) -> None:
        forfeiter = result.outcome.forfeited_by if result.outcome is not None else None
        if self.saver is not None and table.won_while_away and forfeiter is not None:
            self.saver.forfeited_at_end(forfeiter)  # not the computer's win for them
        if result.outcome is not None:
            # The lobby read "a game begins" (Presence._accepted); it reads the end too,
            # at every worker (the notice goes to the cluster's chat).
            sides = side_names(table.names, result.outcome.sides)
            ended = words.ended_notice(table.title, sides, result.outcome, table.match)
            self.service.presence.notice(ended)
        first, second = (self.accounts + [None, None])[:2]
        if first is None or second is None:
            return
        service, options = self.service, table.options
        if options.rated:
            service.in_background(service.rate_members(first, second, table))
        if options.tournament:
            service.in_background(
                service.record_tournament_game(options.tournament, first, second, table)
            )

    def match_forfeited(self, table: Table, seat: int) -> None:
        # Between two games: the lobby read the last game's end, and reads the match's.
        if table.match is not None:
            leaver = table.game.side_of(seat)
            ended = words.match_forfeited_notice(
                table.title, table.match, leaver, claimed=table.claimed
            )
            self.service.presence.notice(ended)

    def abandoned(self, table: Table) -> None:
        # Everyone left: nothing to resume, and nobody to count it against. The lobby,
        # which read that it began, reads that it ended unfinished.
        if table.won_while_away:  # played out, but no result (door/table/forfeits.py)
            notice = words.won_while_away_notice(table.title, table.options, table.won_while_away)
            self.service.presence.notice(notice)
        elif not self.resumed:
            self.service.presence.notice(words.abandoned_notice(table.title, table.options))
        if self.saver is not None:
            self.saver.set_aside()

    def saved_as(self) -> int | None:
        return self.saver.game_id if self.saver is not None else None

    def saved_whole(self) -> bool:
        return self.saver is not None and self.saver.all_written

    async def until_saved(self) -> None:
        if self.saver is not None:
            await self.saver.flush()


class ComputerGames(ModeratedTable):
    """The keeper of one caller's games against the computer: ``kept`` (for a member)
    saves the first as it goes; each finished game is in ``results`` and, for a member,
    rated against the computer's level (they are told their new rating)."""

    def __init__(
        self, service: TableService, member: Member, options: GameOptions, kept: KeptGame | None
    ) -> None:
        super().__init__(service)
        self.member = member
        self.options = options
        self.kept = kept
        self.results: list[GameResult] = []

    @property
    def game(self) -> Game | None:
        """The game to play first: a saved one, or a new one being saved (None: a new
        one nobody keeps)."""
        return self.kept.game if self.kept is not None else None

    def seated(self, table: Table) -> None:
        """``table`` plays the games: a full disk or a database that is down is told
        there, once."""
        if self.kept is not None:
            self.kept.saver.on_trouble = table.announce

    def game_over(self, table: Table, result: GameResult) -> None:
        self.results.append(result)
        if result.quit:
            return  # rated where the quit is settled (``left``)
        service, member, options = self.service, self.member, self.options

        async def rate() -> None:
            line = await service.rate_against_computer(member.account, options, result.outcome)
            if line is not None:
                member.tell(line)

        service.in_background(rate())

    def saved_as(self) -> int | None:
        return self.kept.saver.game_id if self.kept is not None else None

    def saved_whole(self) -> bool:
        return self.kept is not None and self.kept.saver.all_written

    async def until_saved(self) -> None:
        if self.kept is not None:
            await self.kept.saver.flush()

    async def left(self, table: Table | None) -> str | None:
        """The caller left the table: a game they chose to quit is lost (in the record
        and the rating: the line telling the new rating, if any); a dropped line or the
        door closing leaves it saved, to resume on the next call."""
        if self.kept is None:
            return None
        rating = None
        if table is not None and table.given_up:
            await self.kept.saver.forfeit(0)
            rating = await self.service.rate_against_computer(
                self.member.account, self.options, table.game.outcome()
            )
        await self.kept.saver.flush()
        return rating
