"""A play-by-mail table: one member sits at their seat of a game kept in the store; the
other player's seat is empty, and nobody (not the computer) moves for it.

The table plays on from wherever the game stands. When the game needs a decision from
the empty seat, or the member has made the moves a day allows (``moves_left``), the
table *adjourns*: the host stops, the member reads where the game stands and why it
waits ("it is Ada's turn to play"), and goes back to their mail games. Quitting and a
dropped line adjourn it too: in a mail game leaving costs nothing, as every move is kept
when it is made (by whoever hung their saver on the game: door/app/mail_screen.py).

There is no win bar (the other player cannot agree to it) and no computer anywhere.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, NoReturn

from door.table.flow import Table
from door.table.options import GameOptions
from door.table.question import Answer, Question
from door.table.seats import Admit, GameAbandoned, Participant, Seat, Someone
from engine.rules.game import Game

MovesLeft = Callable[[int], int | None]
"""The moves a seat may still make today (None: no limit)."""


class Adjourned(GameAbandoned):
    """The game waits for the other player, or for tomorrow: the table closes and the
    game stays kept where it stands."""


def _no_limit(seat: int) -> int | None:
    return None


class MailTable(Table[Someone]):
    """A table for the member in seat ``mine`` of a two-player mail game ``game``."""

    back_to = "your mail games"

    def __init__(
        self,
        options: GameOptions,
        names: Sequence[str],
        *,
        mine: int,
        game: Game,
        admit: Admit[Someone],
        moves_left: MovesLeft = _no_limit,
        account_ids: Sequence[int | None] | None = None,
        pause: float = 0.0,
        help_text: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            options,
            names,
            rng=random.Random(),  # nothing here is shuffled: the game brings its own deck
            admit=admit,
            pause=pause,
            help_text=help_text,
            game=game,
            account_ids=account_ids,
            **kwargs,
        )
        self.mine = mine
        self.moves_left = moves_left
        self.adjourned = ""
        """Why the table closed with the game unfinished, for the member to read."""

    # --- when the table stops --------------------------------------------------------

    def adjourn(self, why: str) -> NoReturn:
        self.adjourned = why
        raise Adjourned(why)

    def stop(self, why: str) -> None:
        """Close the table from outside the game (a move that could not be kept)."""
        if not self.over:
            self.adjourned = why
            self.close()

    def end_text(self) -> str:
        return self.adjourned or super().end_text()

    def quit_consequence(self, person: Participant | None = None) -> str:
        return "Your moves so far are kept: the game goes on from here when you open it again."

    def win_bar_refusal(self) -> str:
        return "Mail games have no win bar: the other player cannot agree to it."

    def _absent(self, seat: Seat, what: str) -> NoReturn:
        self.adjourn(f"It is {seat.name}'s turn to {what}: the game is kept until they move.")

    def _check_limit(self, seat: Seat) -> None:
        if seat.person is not None and self.moves_left(seat.index) == 0:
            self.adjourn(
                "You have made today's moves in this game: the next can be made "
                "tomorrow (UTC). The game is kept."
            )

    # --- the steps that ask a seat -------------------------------------------------------

    async def decide(
        self,
        seat: Seat,
        question: Question[Answer],
        computer_move: Callable[[], Awaitable[Answer]] | None = None,
    ) -> Answer:
        if seat.person is None:
            self._absent(seat, question.waiting_for)
        self._check_limit(seat)
        return await super().decide(seat, question, computer_move)

    async def before_deal(self, game: Game) -> None:
        dealer = self.seats[game.dealer]
        if dealer.person is None:
            self.set_header(game, upcoming=True)
            self._absent(dealer, "deal")
        self._check_limit(dealer)
        await super().before_deal(game)

    async def discard(self, game: Game) -> None:
        """The member throws (if they have still to); then, if the other has still to,
        the table adjourns."""
        self.set_header(game)
        self.changed()
        for seat in self.seats:
            if seat.person is not None and not game.has_discarded(seat.index):
                await self.discard_for(seat)
        for seat in self.seats:
            if not game.has_discarded(seat.index):
                self._absent(seat, "throw to the crib")

    # --- people leaving ----------------------------------------------------------------------

    def person_quit(self, person: Participant) -> None:
        self._leave(person, "You left the table: the game is kept where it stands.")

    def person_dropped(self, person: Participant, *, idle: bool = False) -> None:
        self._leave(person, "The line dropped: the game is kept where it stands.")

    def _leave(self, person: Participant, why: str) -> None:
        person.gone()
        if person.seat is None:
            self._remove_watcher(person)
            return
        if person.seat.person is person:
            person.seat.person = None
        self.stop(why)
