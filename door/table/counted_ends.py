"""How a game that counts ends at the table when it does not end as played: a caller
left it, it was claimed from them, or the computer won it in the seat of a caller whose
line was down. door/table/forfeits.py gives the rules and their words; ``CountedEnds``,
which door/table/company.py's ``Company`` inherits, carries them out: the game's end as it
counts (``outcome``), the table's keeper told (rated, recorded), everyone told, the table
closed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from door.competition.match import Match
from door.screens import theme
from door.storage.stats import forfeited_at_end
from door.table import forfeits, words
from door.table.listener import TableListener
from door.table.options import GameOptions, GameResult
from door.table.seats import Seat, is_over
from engine.rules.game import Game
from engine.rules.outcome import Outcome

if TYPE_CHECKING:
    from door.screens.game_over import GameOverPanel
    from door.screens.game_screen import Panel
    from door.term.canvas import Style


class CountedEnds:
    """The ends of a game that counts, for ``Company`` to inherit (see the module)."""

    # The company's, which these ends read and set.
    options: GameOptions
    seats: list[Seat]
    game: Game
    match: Match | None
    listener: TableListener[Any]
    reconnect_wait: float
    panel: Panel | None
    forfeit_text: str
    claimed: bool
    abandoned: bool
    won_while_away: str
    counted: Outcome | None

    if TYPE_CHECKING:

        def announce(self, text: str, style: Style = ...) -> None: ...
        def close(self) -> None: ...
        def game_over_panel(self, question: str = "") -> GameOverPanel: ...
        def result_for(self, seat: int | None, *, quit: bool = False) -> GameResult: ...

    def _left_while_away(self, seat: Seat, away: Seat) -> None:
        """``seat``'s caller left a game that counts while ``away``'s line was down: after
        the reconnect wait it is ``away``'s forfeit; before, it ends counted for neither."""
        if away.away_longer_than(self.reconnect_wait):
            waited = words.duration(self.reconnect_wait)
            text = forfeits.not_back_line(self.options, away.name, seat.name, waited)
            self.forfeited_by(away, text=text)
            return
        self._ends_for_neither(forfeits.left_while_away_line(seat.name, away.name))

    def game_ended(self) -> None:
        """The game just reached 121, its end not saved yet (the loop has not turned): a
        win the computer played for a caller whose line is down is not theirs, in a game
        that counts (forfeits.py); a forfeit after the reconnect wait, or else no result."""
        away = forfeits.won_while_away(self.options, self.seats, self.game)
        if away is None:
            return
        other = next(other for other in self.seats if other is not away)
        self.won_while_away = away.name
        waited = words.duration(self.reconnect_wait)
        if away.away_longer_than(self.reconnect_wait):
            text = forfeits.won_while_away_line(self.options, away.name, other.name, waited)
            self.forfeited_by(away, text=text)
            return
        self._ends_for_neither(forfeits.won_while_away_line(self.options, away.name, "", ""))

    def _ends_for_neither(self, text: str) -> None:
        """The game ends counted for neither side, ``text`` told: the table is abandoned,
        its save set aside before any end is written, rated and recorded nowhere."""
        self.forfeit_text = text
        self.announce(text, theme.TITLE)
        self.abandoned = True
        self.close()

    def forfeited_by(
        self, seat: Seat, claimed_text: str = "", by: int | None = None, *, text: str = ""
    ) -> None:
        """``seat``'s caller left a game that counts, or ``by`` claimed it (``claimed_text``;
        ``text``: told in place of the usual line): the game in play is their loss, a
        match is lost whole, the table ends (forfeits.py)."""
        other = next(other for other in self.seats if other is not seat)
        self.claimed = bool(claimed_text)
        self.forfeit_text = (
            claimed_text or text or forfeits.forfeit_line(self.options, seat.name, other.name)
        )
        ended = self.game.outcome()
        if ended is not None and self.won_while_away:  # forfeited at its end (game_ended)
            self.counted = forfeited_at_end(ended, self.game.side_of(seat.index))
        if not is_over(self.game) or self.counted:  # (not between two games of a match)
            if not self.counted:
                self.game.forfeit(seat.index, claimed_by=by)  # a saved game records it last
            outcome = self.outcome()
            if self.match is not None and outcome is not None:
                self.match = self.match.add(outcome)
            self.panel = self.game_over_panel()
            self.listener.game_over(self, self.result_for(None))  # rated, or into the tournament
        elif self.match is not None:  # between two games: no game to end, the match lost
            self.listener.match_forfeited(self, seat.index)
        self.announce(self.forfeit_text, theme.TITLE)
        self.close()

    def outcome(self) -> Outcome | None:
        """How the game ended as it counts (``counted``), or None while it is played."""
        return self.counted or self.game.outcome()
