"""A game in a member's list of games (door/screens/game_list.py): how it ended, as each
of its players reads it."""

from __future__ import annotations

import datetime as dt

import pytest

from door.screens.game_list import RESULT_WIDTH, game_line, game_rows, result_text
from door.storage.values import GameSummary, Seat
from engine.rules.outcome import Outcome

WHEN = dt.datetime(2026, 3, 2, 9, 5, tzinfo=dt.UTC)
ADA, BOB = 1, 2


def forfeited(*, claimed: bool) -> GameSummary:
    """Bob (seat 1) forfeited to Ada at 40 to 60: he left, or Ada claimed it from him."""
    outcome = Outcome(0, (60, 40), (), forfeited_by=1, claimed=claimed)
    return GameSummary(7, 2, (Seat("Ada", ADA), Seat("Bob", BOB)), WHEN, True, outcome)


@pytest.mark.parametrize(
    ("claimed", "viewer", "result"),
    [
        (False, BOB, "you left it: a loss"),
        (False, ADA, "won by forfeit"),
        (False, None, "Ada won by forfeit"),
        # A game claimed from Bob, who had not moved, read "you left it" to him.
        (True, BOB, "claimed from you: lost"),
        (True, ADA, "won by a claim"),
        (True, None, "Ada won by a claim"),
    ],
)
def test_a_forfeit_reads_as_left_or_claimed(claimed: bool, viewer: int | None, result: str) -> None:
    game = forfeited(claimed=claimed)
    assert result_text(game, viewer) == result
    assert len(result) < RESULT_WIDTH  # the names after it stay in their column
    assert game_line(game, viewer).endswith(f"  {result:<{RESULT_WIDTH - 1}} Ada vs Bob")


def four_handed(*names: str) -> GameSummary:
    """A four-handed game Ada's side (seats 0 and 2) won, 121 to 98."""
    seats = tuple(Seat(name, ADA if n == 0 else None) for n, name in enumerate(names))
    return GameSummary(1234, 4, seats, WHEN, True, Outcome(0, (121, 98)))


@pytest.mark.parametrize(
    ("names", "rows"),
    [
        # The line was cut at 78 cells: "... Alice & Computer vs Bruno & C".
        (
            ("Alice", "Bruno", "Computer", "Computer 2"),
            ["Alice & Computer vs", "Bruno & Computer 2"],
        ),
        # Partners too long for the first row together: it breaks between them.
        (
            ("Bartholomew Smithers", "Maximiliana Feathers", "Alexandrina Kowalski", "Computer 2"),
            ["Bartholomew Smithers &", "Alexandrina Kowalski vs Maximiliana Feathers & Computer 2"],
        ),
    ],
)
def test_a_four_handed_game_too_long_for_its_row_goes_on_under_the_date_names_whole(
    names: tuple[str, ...], rows: list[str]
) -> None:
    game = four_handed(*names)
    first, second = game_rows(game, ADA, 78)
    assert first == f"#1234  2026-03-02 09:05  {'won, 121 to 98':<{RESULT_WIDTH - 1}} {rows[0]}"
    assert second == " " * len("#1234  ") + rows[1]  # under the date
    assert len(first) <= 78 and len(second) <= 78


def test_a_game_that_fits_its_row_is_its_line() -> None:
    game = four_handed("Al", "Bo", "Cy", "Di")
    assert game_rows(game, ADA, 78) == [game_line(game, ADA)]
    assert game_line(game, ADA).endswith("  Al & Cy vs Bo & Di")


def test_four_names_of_twenty_letters_fit_two_rows_of_80_columns_each_whole() -> None:
    names = [letter * 20 for letter in "ABCD"]
    rows = game_rows(four_handed(*names), ADA, 78)
    assert len(rows) == 2 and all(len(row) <= 78 for row in rows)
    assert "…" not in "".join(rows)
    for name in names:
        assert any(name in row for row in rows)


def test_the_record_screen_shows_four_handed_games_whole() -> None:
    from door.screens.account import draw_stats
    from door.storage.values import Account, PlayerStats

    ada = Account(ADA, "Alice", WHEN)
    four = four_handed("Alice", "Bruno", "Computer", "Computer 2")
    games = [four, forfeited(claimed=True)] * 20  # more than the screen holds
    canvas = draw_stats(PlayerStats(ada, ()), games=games)
    rows = [canvas.text(row).rstrip() for row in range(canvas.rows)]
    top = next(n for n, row in enumerate(rows) if row.startswith(" Latest games"))
    assert rows[top + 1].endswith(" Alice & Computer vs")
    assert rows[top + 2] == " " * 8 + "Bruno & Computer 2"
    assert rows[top + 3].endswith(" Ada vs Bob")
    assert all(len(row) <= 79 for row in rows)
    # The list ends with a game whole, above the message line.
    listed = [row for row in rows[top + 1 : 22] if row.strip()]
    assert listed[-1].endswith((" Ada vs Bob", " Bruno & Computer 2")), listed


def test_the_record_said_to_a_screen_reader_lists_its_games_a_sentence_each() -> None:
    """The screen's list of games was not said at all; a reader hears each game as one
    sentence, in the screen's order, names whole and no column padding."""
    from door.screens.account_speech import stats_said
    from door.storage.values import Account, PlayerStats

    ada = Account(ADA, "Ada", WHEN)
    names = ("Ada", "Maximiliana Feathers", "Alexandrina Kowalski", "Computer 2")
    games = [four_handed(*names), forfeited(claimed=True), forfeited(claimed=False)]
    said = stats_said(PlayerStats(ada, ()), games=games)
    listed = said.sentences[-4:]
    assert listed == (
        "Latest games, newest first; the number is the one the sysop replays.",
        "Game 1234, 2026-03-02 09:05, won, 121 to 98;"
        " Ada & Alexandrina Kowalski vs Maximiliana Feathers & Computer 2.",
        "Game 7, 2026-03-02 09:05, won by a claim; Ada vs Bob.",
        "Game 7, 2026-03-02 09:05, won by forfeit; Ada vs Bob.",
    )
    assert not any("  " in sentence for sentence in said.sentences)
    assert stats_said(PlayerStats(ada, ())).sentences == said.sentences[:-4]  # no games
