"""Play-by-mail games as the door runs them: two members play one game over days, each
move whenever its player calls.

``MailGames`` is shared by every session (one per ``Records``, beside the store). It
lists a member's games with the lobby's words for each ("your move against Ada (2 days
left)"), starts a game against another member by handle (who need not be online),
forfeits games whose player ran out of time (``forfeit_overdue``: the server runs it on
start and hourly) and knows which games are open at a table right now, so one game is
never played on two lines at once. The rules are door/competition/pbm.py's, the keeping
door/storage/pbm_games.py's; the screen and the table are door/app/mail_screen.py.

Every moment comes from ``clock`` (the wall clock unless a test moves time itself).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from door.competition.pbm import PbmRules
from door.storage.errors import StorageUnavailableError, StoreError
from door.storage.pbm_games import PbmGame, PbmGameStore
from door.storage.store import Account, Seat, Store
from engine.rules.record import Action, RecordedGame, Recording, replay

logger = logging.getLogger(__name__)

Clock = Callable[[], dt.datetime]
MAX_OPEN_GAMES: Final = 20
"""Play-by-mail games one member may have going at once."""
FINISHED_SHOWN: Final = 5
COUNTING_NOTE: Final = "Mail games are counted automatically."


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class MailRefusal(ValueError):
    """What a member asked of their mail games cannot be done; the message says why."""


@dataclass(frozen=True)
class MailLine:
    """One game as the mail screen lists it, for one of its players."""

    pbm_id: int
    opponent: str
    status: str
    your_move: bool = False
    finished: bool = False


def mover(game: RecordedGame, action: Action) -> int | None:
    """The seat whose decision ``action`` (just taken on ``game``) was; None for the steps
    nobody decides (the cut for the first deal, a show counted automatically)."""
    if action.name in ("discard", "play", "forfeit") and type(action.args[0]) is int:
        return action.args[0]
    if action.name == "deal":
        return game.dealer
    if action.name == "cut":
        return game.cutter
    return None


def finished_words(game: PbmGame, seat: int, *, named: bool = True) -> str:
    """ "You won 121 to 98.", "Ada won on time: you did not move in time.", "You won:
    their account was removed." (the opponent was deleted), ...; with ``named`` False
    the opponent is "they", for a line that shows their name beside it already."""
    outcome = replay(game.recording).outcome()
    name = game.seats[1 - seat].name
    opponent, opponent_first = (name, name) if named else ("they", "They")
    if outcome is None:
        return "Over."
    mine, theirs = outcome.scores[seat], outcome.scores[1 - seat]
    if outcome.forfeit:
        if outcome.forfeited_by == seat:
            return f"{opponent_first} won on time: you did not move in time ({mine} to {theirs})."
        if game.seats[1 - seat].account_id is None and not game.clock.overdue(game.updated_at):
            # The sysop deleted them while they had time: their games going were settled
            # so (pbm_games.py). One settled once their time ran out was won on time,
            # whenever they were deleted (the clock stays as it stood at the end).
            return f"You won: their account was removed ({mine} to {theirs})."
        return f"You won on time: {opponent} did not move in time ({mine} to {theirs})."
    skunk = outcome.skunk_of(1 - seat if outcome.won(seat) else seat)
    note = f" (a {skunk})" if skunk else ""
    if outcome.won(seat):
        return f"You won {mine} to {theirs}{note}."
    return f"{opponent_first} won {theirs} to {mine}{note}."


class MailGames:
    """The door's play-by-mail games; see the module docstring."""

    def __init__(self, store: Store, rules: PbmRules | None = None, clock: Clock = utc_now) -> None:
        self.store = store
        self.pbm_store = PbmGameStore(store)
        self.rules = rules or PbmRules()
        self.clock = clock
        self._open: dict[int, str] = {}
        """Games at a table now, and who has each open."""

    def now(self) -> dt.datetime:
        return self.clock()

    # --- listing ------------------------------------------------------------------------

    async def lines_for(self, account: Account) -> tuple[list[MailLine], list[MailLine]]:
        """The member's games going (oldest first) and the last few finished (newest
        first), each with its line for the mail screen. Raises StoreError."""
        now = self.now()
        going = []
        for game in await self.pbm_store.pbm_games_for(account.id):
            seat = game.seat_of(account.id)
            status = game.status_line(account.id, now)
            yours = seat in game.waiting_on()
            going.append(MailLine(game.pbm_id, game.seats[1 - seat].name, status, yours))
        finished = [
            MailLine(
                game.pbm_id,
                game.seats[1 - (seat := game.seat_of(account.id))].name,
                finished_words(game, seat, named=False),
                finished=True,
            )
            for game in await self.pbm_store.finished_pbm_games_for(account.id, FINISHED_SHOWN)
        ]
        return going, finished

    async def waiting_note(self, account: Account | None) -> str:
        """The lobby's line for a member with games waiting for their move ("Your move
        against Ada (2 days left): press F."); "" when none is, or the store is down."""
        if account is None:
            return ""
        try:
            going, _ = await self.lines_for(account)
        except StoreError:
            return ""
        yours = [line for line in going if line.your_move]
        if not yours:
            return ""
        if len(yours) == 1:
            status = yours[0].status
            return f"{status[0].upper()}{status[1:]}: press F."
        return f"Your move in {len(yours)} mail games: press F."

    # --- starting and opening ---------------------------------------------------------

    async def start(
        self, account: Account, handle: str, *, seed: int, runs: str = "free"
    ) -> tuple[int, str]:
        """A new game between ``account`` (seat 0) and the member ``handle``: its number
        and the opponent's handle as kept. Raises MailRefusal (nobody of that name,
        oneself, too many games going) or StoreError."""
        handle = handle.strip()
        if not handle:
            raise MailRefusal("Type the handle of the member you want to play.")
        opponent = await self.store.account(handle)
        if opponent is None:
            raise MailRefusal(f"Nobody has the handle {handle}: mail games are between members.")
        if opponent.id == account.id:
            raise MailRefusal("That is you: choose another member to play.")
        for who, name in ((account, "You have"), (opponent, f"{opponent.handle} has")):
            going = await self.pbm_store.pbm_games_for(who.id)
            if len(going) >= MAX_OPEN_GAMES:
                raise MailRefusal(
                    f"{name} {MAX_OPEN_GAMES} mail games going, the most there may be: "
                    "finish one first."
                )
        recording = Recording(seed, 2, "exact" if runs == "exact" else "free", "auto")
        pbm_id = await self.pbm_store.start_pbm_game(
            Seat(account.handle, account.id),
            Seat(opponent.handle, opponent.id),
            recording,
            self.rules,
            self.now(),
        )
        logger.info("mail game %d: %s against %s", pbm_id, account.handle, opponent.handle)
        return pbm_id, opponent.handle

    async def game_to_move(self, pbm_id: int, account: Account) -> tuple[PbmGame, int]:
        """The game and the member's seat in it, if they may move now. Raises
        MailRefusal (not theirs, over, the other player's move, today's moves made, open
        on another line) or StoreError."""
        game = await self.pbm_store.pbm_game(pbm_id)
        if game.finished:
            raise MailRefusal("That game is over.")
        seat = game.seat_of(account.id)
        opponent = game.seats[1 - seat].name
        if seat not in game.waiting_on():
            raise MailRefusal(f"It is {opponent}'s move: you are told when it is yours.")
        if game.clock.moves_left_today(seat, self.now()) == 0:
            raise MailRefusal(
                f"You have made your {game.clock.rules.moves_per_day} moves for today in "
                "this game: the next can be made tomorrow (UTC)."
            )
        if pbm_id in self._open:
            raise MailRefusal(f"{self._open[pbm_id]} has this game open: try again shortly.")
        return game, seat

    def take(self, pbm_id: int, handle: str) -> bool:
        """Mark the game open at ``handle``'s table; False if it is open already."""
        if pbm_id in self._open:
            return False
        self._open[pbm_id] = handle
        return True

    def release(self, pbm_id: int) -> None:
        self._open.pop(pbm_id, None)

    # --- time running out ------------------------------------------------------------------

    async def forfeit_overdue(self) -> int:
        """Forfeit every game whose player to move ran out of time (not one open at a
        table: its player is moving now); how many were. Store failures are logged."""
        try:
            settled = await self.pbm_store.forfeit_overdue_pbm_games(
                self.now(), skip=frozenset(self._open)
            )
        except StoreError as failure:
            if not isinstance(failure, StorageUnavailableError):
                logger.error("overdue mail games could not be forfeited: %s", failure)
            return 0
        for pbm_id, outcome in settled:
            logger.info("mail game %d forfeited on time by seat %s", pbm_id, outcome.forfeited_by)
        return len(settled)
