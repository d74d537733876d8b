"""The same thing said the same way on every screen (#43, item 14): a claim of nineteen,
rating changes, the header as the scores grow, and the partner in the four-handed game."""

from __future__ import annotations

import datetime as dt
import random

from door.competition.rating import Rating
from door.screens.account import rating_line
from door.screens.account_speech import stat_sentence
from door.screens.frame import draw_header
from door.screens.game_screen import TableView, draw_table
from door.screens.show import result_text
from door.storage.ratings import RatingHistoryEntry
from door.storage.values import StatLine
from door.term.canvas import Canvas
from engine.rules.cards import Card
from engine.rules.events import ShowScored
from engine.rules.game import Game
from engine.rules.scoring import score_show

NOTHING = score_show([Card.parse(c) for c in ("2C", "4D", "6H", "8S")], Card.parse("QC"))
NAMES = ("Ada", "Computer")


def shown(seat: int, claim: int, score=NOTHING) -> ShowScored:  # type: ignore[no-untyped-def]
    return ShowScored(seat, False, score, claim, 0, 0, None, "")


def test_nineteen_for_a_hand_worth_nothing_is_a_right_claim() -> None:
    assert NOTHING.total == 0
    mine = result_text(shown(0, 19), NAMES, viewer=0)
    assert "right" in mine and "but it counts" not in mine
    theirs = result_text(shown(1, 19), NAMES, viewer=0)
    assert theirs.startswith("Computer says 19, cribbage's word for nothing: right.")
    wrong = result_text(shown(0, 5), NAMES, viewer=0)
    assert "You said 5, but it counts 0." in wrong


def test_the_record_writes_rating_changes_as_the_games_end_writes_them() -> None:
    when = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
    history = [
        RatingHistoryEntry(when, "Bob", 0.0, Rating(1500.0), Rating(1268.0), 7),
        RatingHistoryEntry(when, "Bob", 1.0, Rating(1268.0), Rating(1280.0), 8),
    ]
    line = rating_line(Rating(1280.0), history)
    assert "\N{MINUS SIGN}232" in line and "+12" in line
    assert "-232" not in line


def header_row(scores: tuple[int, int]) -> str:
    canvas = Canvas()
    middles = ("Hand 9 · free runs · auto count · easy", "Hand 9 · free runs", "Hand 9")
    draw_header(canvas, ("Bartley", "Computer"), scores, 0, middles)
    return canvas.text(0)


def test_the_header_keeps_its_fields_as_the_scores_grow() -> None:
    early, late = header_row((5, 7)), header_row((115, 118))
    assert "Bartley 115" in late and "Computer 118" in late
    for field in ("auto count", "free runs", "Hand 9"):
        assert (field in early) == (field in late), (early, late)


def test_the_partner_is_called_partner_in_the_four_handed_game() -> None:
    game = Game(4, rng=random.Random(8), dealer=3)
    game.deal()
    names = ("Ada", "Computer", "Computer 2", "Computer 3")
    canvas, _ = draw_table(TableView(names, game, viewer=0))
    panel = [canvas.text(row)[60:] for row in range(12, 17)]
    assert any("Partner" in row for row in panel), panel
    assert not any("Computer 2" in row for row in panel), panel
    assert any("Computer 3" in row for row in panel), panel


def test_a_records_modes_are_said_in_words_to_a_screen_reader() -> None:
    # They were said as the store keys them: "computer-normal free auto: 1 games".
    against_computer = StatLine("free", "auto", "computer-normal", games=1, wins=1)
    three_callers = StatLine("exact", "manual", "people-3p", games=2, losses=2)
    assert stat_sentence(against_computer).startswith(
        "Against the computer at normal, free runs, auto count: 1 game, won 1, lost 0,"
    )
    assert stat_sentence(three_callers).startswith(
        "Against other callers, 3 players, exact runs, manual count: 2 games, won 0,"
    )
    assert stat_sentence(StatLine.total([against_computer, three_callers])).startswith(
        "All modes: 3 games, won 1, lost 2,"
    )
