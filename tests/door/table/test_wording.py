"""What the table says, word for word, where it used to say it wrong."""

from __future__ import annotations

import asyncio
import random

import pytest

from door.competition.match import Match
from door.screens.game_screen import TableView, draw_table
from door.screens.narration import describe
from door.screens.show import ShowPanel
from door.table.flow import Table
from door.table.options import GameOptions
from door.table.person import Person
from engine.rules.events import Discarded
from engine.rules.game import Phase
from tests.door.table.heard import Heard
from tests.door.waiting import until
from tests.engine.rules.test_edges import at_play


def test_one_card_thrown_is_a_card() -> None:
    names = ("You", "Bob", "Carol")
    assert describe(Discarded(1, 1), names, viewer=0) == "Bob throws a card to the crib."
    assert describe(Discarded(1, 2), names, viewer=0) == "Bob throws 2 cards to the crib."


def test_while_the_crib_is_counted_the_header_names_the_hands_dealer() -> None:
    game = at_play()  # seat 0 deals
    game.cut(1)
    while game.phase is Phase.PLAY:
        assert game.turn is not None
        game.play(game.turn, game.playable(game.turn)[0])
    game.count_hand()  # the pone's hand
    game.count_hand()  # the dealer's hand
    crib = tuple(game.crib)
    assert game.starter is not None
    game.count_hand()  # the crib: the deal passes to seat 1 at once
    assert game.dealer == 1
    view = TableView(("Ann", "Computer"), game, panel=ShowPanel(0, True, crib, game.starter))
    canvas, _ = draw_table(view)
    header = canvas.text(0)
    assert header.startswith(f" Ann {game.scores[0]} (dealer, crib)")
    assert "Computer" in header and header.count("(dealer, crib)") == 1


def test_the_computers_level_is_shown_only_where_the_computer_plays() -> None:
    options = GameOptions(level="expert")
    people = Table(options, ["Ann", "Bob"], rng=random.Random(1), admit=Person)
    people.set_header(people.game)
    computer = Table(options, ["Ann", None], rng=random.Random(1), admit=Person)
    computer.set_header(computer.game)
    assert not any("expert" in text for text in people.header)
    assert computer.header[0].endswith("· expert")


def test_a_match_is_played_game_after_game_until_a_side_wins_it() -> None:
    async def scenario() -> list[Match]:
        options = GameOptions(level="easy", best_of=3)
        # The computer against itself, so the games play out with nobody to answer.
        heard = Heard()
        table = Table(
            options, [None, None], rng=random.Random(8), admit=Person, pause=0, listener=heard
        )
        standings = heard.matches
        table.start()
        await until(lambda: bool(standings) and standings[-1].decided, 20, what="a match won")
        table.close()
        return standings

    standings = asyncio.run(scenario())
    assert standings and standings[-1].decided and len(standings) in (2, 3)
    assert [sum(match.wins) for match in standings] == list(range(1, len(standings) + 1))
    assert max(standings[-1].wins) == 2
    assert "wins the match" in standings[-1].line()


def test_match_options_are_checked_and_cycle() -> None:
    options = GameOptions()
    lengths = []
    for _ in range(4):
        options = options.with_next_match_length()
        lengths.append(options.best_of)
    assert lengths == [3, 5, 7, 1]
    with pytest.raises(ValueError, match="two sides"):
        GameOptions(players=3, best_of=3)
    with pytest.raises(ValueError, match="best of 1, 3, 5 or 7"):
        GameOptions(best_of=2)
    # Three players play single games; from three on to four, the match is chosen again.
    assert GameOptions(players=2, best_of=5).with_next_players() == GameOptions(players=3)
    assert GameOptions(players=4, best_of=5).with_next_players() == GameOptions(best_of=5)


def test_the_header_says_which_game_of_the_match() -> None:
    table = Table(GameOptions(best_of=5), ["Ann", None], rng=random.Random(1), admit=Person)
    table.set_header(table.game)
    assert table.header[0].startswith("Game 1 of 5 · Hand ")


def test_a_rated_game_is_between_two_players() -> None:
    with pytest.raises(ValueError, match="between two players"):
        GameOptions(players=4, rated=True)
    assert GameOptions(rated=True).with_next_players() == GameOptions(players=3)
