"""Whose decision a game waits for, the steps nobody decides, and a move made for an
absent player: shared by the play-by-mail rules and the turn timer.

A *move* is one decision of one player: dealing, a discard, the cut, a card played, or
a count claimed in manual counting. The cut for the first deal, and the show in
automatic counting, decide nothing and are played by ``play_automatic``.
"""

from __future__ import annotations

from door.competition.errors import CompetitionError
from engine.computer.player import ComputerPlayer
from engine.rules.events import Event
from engine.rules.game import Game, Phase


def waiting_on(game: Game) -> tuple[int, ...]:
    """The seats whose move the game waits for (both, while both have still to throw to
    the crib); none when the game is over or its next step is automatic."""
    phase = game.phase
    if phase is Phase.DEAL:
        return (game.dealer,)
    if phase is Phase.DISCARD:
        return tuple(seat for seat in range(game.players) if not game.has_discarded(seat))
    if phase is Phase.CUT:
        return (game.cutter,)
    if phase is Phase.PLAY:
        assert game.turn is not None
        return (game.turn,)
    if phase is Phase.SHOW and game.counting == "manual" and game.showing is not None:
        return (game.showing[0],)
    return ()


def play_automatic(game: Game) -> list[Event]:
    """Play the steps nobody decides (the cut for the first deal, shows counted
    automatically) until the game waits for a player or is over."""
    events: list[Event] = []
    while game.phase is not Phase.OVER and not waiting_on(game):
        if game.phase is Phase.CUT_FOR_DEAL:
            events += game.cut_for_deal()
        else:
            events += game.count_hand()
    return events


def play_for(game: Game, seat: int, computer: ComputerPlayer) -> list[Event]:
    """Make ``seat``'s move as ``computer`` would (the best move at its level), for a
    player whose time ran out. Raises CompetitionError when the game is not waiting for
    that seat."""
    if seat not in waiting_on(game):
        raise CompetitionError(f"the game is not waiting for seat {seat}")
    phase = game.phase
    if phase is Phase.DEAL:
        return game.deal()
    if phase is Phase.DISCARD:
        return game.discard(seat, computer.discard(game, seat))
    if phase is Phase.CUT:
        return game.cut(computer.cut(game, seat))
    if phase is Phase.PLAY:
        return game.play(seat, computer.play(game, seat))
    return game.count_hand(computer.claim(game, seat))
