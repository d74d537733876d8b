"""The game-over panel reads the engine's one outcome: capped scores, skunks, forfeits."""

from __future__ import annotations

from door.screens.game_over import GameOverPanel, headline, skunk_text
from engine.rules.game import Phase
from engine.rules.outcome import Outcome
from tests.engine.rules.test_edges import at_play
from tests.engine.rules.test_game import play_all

NAMES = ("You", "Computer")


def test_a_game_won_in_the_show_reads_121_not_more() -> None:
    game = at_play()
    game.cut(1)
    play_all(game, "9H 6S 6H 5S")
    game.play(0, game.playable(0)[0])
    while game.phase is Phase.PLAY:
        assert game.turn is not None
        game.play(game.turn, game.playable(game.turn)[0])
    game.scores[:] = [60, 118]  # the pone counts first, a hand worth more than 3
    game.count_hand()
    outcome = game.outcome()
    assert outcome is not None
    panel = GameOverPanel(outcome)
    assert headline(panel, NAMES, viewer=0) == "Computer wins, 121 to 60."
    assert skunk_text(panel, NAMES, viewer=0) == "You are double skunked: under 61 at the end."


def test_a_forfeit_says_who_left() -> None:
    panel = GameOverPanel(Outcome(1, (40, 70), (), forfeited_by=0))
    names = ("Ada", "Bo")
    assert headline(panel, names, viewer=0) == "You left the game at 40: it counts as a loss."
    assert headline(panel, names, viewer=1) == "Ada left the game: You win by forfeit."
    assert headline(panel, names, viewer=None) == "Ada left the game: Bo wins by forfeit."
    assert skunk_text(panel, names, viewer=0) == ""


def test_a_claimed_forfeit_says_it_was_claimed_not_left() -> None:
    # Bob sat on his move and Ada claimed the game (door/table/stalls.py): nobody left.
    panel = GameOverPanel(Outcome(0, (70, 40), (), forfeited_by=1), claimed=True)
    names = ("Ada", "Bob")
    assert headline(panel, names, viewer=1) == "Claimed from you at 40: it counts as a loss."
    assert headline(panel, names, viewer=0) == "You claimed the game: you win by forfeit."
    assert headline(panel, names, viewer=None) == "Ada claimed the game from Bob by forfeit."
