"""The win bar for everyone at one table, worked out once per moment of the game.

Each person sees the chances as their seat may know them (their own hand and the cards
they threw; a watcher sees every hand). People who see the game the same way (every
watcher, say) share one computation, and nothing is worked out again until the game
moves: a play, a count, a cut, a new hand.
"""

from __future__ import annotations

import time
from collections.abc import Hashable

from door.metrics.tally import TALLY
from engine.odds.winbar import win_bar
from engine.rules.cards import Card
from engine.rules.game import Game

WIN_BAR_SETTINGS = ("on", "off", "never")
"""The sysop's ``[game] win_bar``: the bar on from the start where it may show (against
the computer, for watchers), off until a caller presses w, or never (w is refused). A
bar costs about a sixth of the processor time a key, so "never" is the setting for a
board that needs every caller it can seat on one core (README)."""


def moment_of(game: Game) -> Hashable:
    """What changes whenever any side's chance to win may change."""
    return (
        id(game),
        game.phase,
        game.hand_number,
        len(game.plays),
        len(game.shows),
        tuple(game.scores),
        game.starter,
        len(game.crib),
    )


class WinBars:
    """One table's win bars for the game's present moment, by view."""

    def __init__(self) -> None:
        self._moment: Hashable = None
        self._known: dict[tuple[int | None, tuple[Card, ...]], tuple[float, ...]] = {}
        self.worked_out = 0
        """How many bars have been computed (for tests and benches)."""

    def chances(self, game: Game, seat: int | None, thrown: tuple[Card, ...]) -> tuple[float, ...]:
        """Each side's chance as ``seat`` (None: a watcher) sees it, having thrown
        ``thrown`` to the crib. Raises CribbageError as ``engine.odds.winbar.win_bar`` does."""
        moment = moment_of(game)
        if moment != self._moment:
            self._known.clear()
            self._moment = moment
        view = (seat, thrown)
        known = self._known.get(view)
        if known is None:
            started = time.perf_counter()
            known = self._known[view] = win_bar(game, seat, thrown=thrown)
            TALLY.win_bar_seconds += time.perf_counter() - started
            TALLY.win_bar_updates += 1
            self.worked_out += 1
        return known
