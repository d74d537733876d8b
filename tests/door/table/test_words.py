"""The table's words as pure functions of the game's state (door/table/words.py)."""

from __future__ import annotations

import pytest

from door.competition.match import Match
from door.screens.game_over import PLAY_AGAIN
from door.table import words
from door.table.options import GameOptions
from door.term.keys import Key
from engine.rules.cards import Card
from engine.rules.outcome import Outcome


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (("Ann", "Bob"), "Ann vs Bob"),
        (("Ann", "Bob", "Cy"), "Ann vs Bob vs Cy"),
        (("Ann", "Bob", "Cy", "Di"), "Ann & Cy vs Bob & Di"),  # partners sit across
    ],
)
def test_a_tables_title_names_its_sides(names: tuple[str, ...], said: str) -> None:
    assert words.title(names) == said


@pytest.mark.parametrize(
    ("waits", "said"),
    [
        ({}, ""),
        ({1: "play"}, "Waiting for Bob to play."),
        ({0: "go on", 2: "go on"}, "Waiting for Ann and Cy to go on."),
        ({0: "go on", 1: "go on", 2: "go on"}, "Waiting for Ann, Bob and Cy to go on."),
        ({2: "deal", 0: "be ready"}, "Waiting for Cy to deal."),  # the first thing waited for
    ],
)
def test_whom_the_game_waits_for(waits: dict[int, str], said: str) -> None:
    assert words.waiting_text(waits, ("Ann", "Bob", "Cy")) == said


def test_the_header_shortens_from_its_end_and_names_the_level_only_against_the_computer() -> None:
    options = GameOptions(runs="exact", counting="manual", level="expert", best_of=3)
    header = words.header(options, 4, computer_plays=True, match_game=2)
    assert header == (
        "Game 2 of 3 · Hand 4 · exact runs · manual count · expert",
        "Game 2 of 3 · Hand 4 · exact runs · manual count",
        "Game 2 of 3 · Hand 4 · exact runs",
        "Game 2 of 3 · Hand 4",
        "Hand 4",
    )
    between_callers = words.header(GameOptions(), 1, computer_plays=False, match_game=None)
    assert between_callers[0] == "Hand 1 · free runs · auto count"


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (1, "1 second"),
        (30, "30 seconds"),
        (60, "1 minute"),
        (119, "119 seconds"),
        (120, "2 minutes"),
        (600, "10 minutes"),
    ],
)
def test_a_wait_is_said_in_seconds_then_minutes(seconds: float, said: str) -> None:
    assert words.duration(seconds) == said


def test_the_crib_is_yours_or_the_dealers() -> None:
    assert words.crib_owner(0, 0, ("Ann", "Bob")) == "your crib"
    assert words.crib_owner(1, 0, ("Ann", "Bob")) == "Bob's crib"


def test_the_question_at_a_games_end_follows_the_match() -> None:
    assert words.next_question(None, 0) == PLAY_AGAIN
    match = Match(("Ann", "Computer"), 3)
    assert words.next_question(match, 1) == "On to game 1 of the match? Press y or n."


def test_how_a_game_ends_for_its_players() -> None:
    assert words.end_text(abandoned=True) == "Nobody is left to play: the game is over."
    assert words.end_text(abandoned=False) == "The game is over."
    assert words.end_text(abandoned=False, stopped=True) == words.DOOR_CLOSING


def test_a_watchers_key_line() -> None:
    assert words.watching_status(exhibition=False, win_bar_never=False) == words.WATCHING_STATUS
    assert "w win bar" in words.watching_status(exhibition=True, win_bar_never=False)
    assert "w win bar" not in words.watching_status(exhibition=True, win_bar_never=True)


def test_a_key_that_does_nothing_is_named() -> None:
    assert words.wrong_key(Key.printable("x"), "press RETURN") == (
        "The 'x' key does nothing here: press RETURN."
    )
    assert words.faces([Card.parse("TD"), Card.parse("AS")]) == "10♦ A♠"


def test_the_lobbys_end_of_a_match_game_says_how_the_match_stands() -> None:
    first = Outcome(0, (121, 80), ((1, "skunk"),))
    match = Match(("Ann", "Bob"), best_of=3).add(first)
    said = words.ended_notice("Ann vs Bob", ("Ann", "Bob"), first, match)
    # In the words of the scores before it, and of a match forfeited between games.
    assert (
        said
        == "Ann vs Bob: Ann won 121 to 80 (a skunk). Ann leads 1 to 0 in games, 3 to 0 in points."
    )
    forfeited = words.match_forfeited_notice("Ann vs Bob", match, 1, claimed=False)
    assert forfeited == "Ann vs Bob: Ann won the match by forfeit at 1 to 0 in games (Bob left)."
    # One game alone is no match: nothing said of it.
    alone = Match(("Ann", "Bob")).add(first)
    assert words.ended_notice("Ann vs Bob", ("Ann", "Bob"), first, alone).endswith("(a skunk).")
