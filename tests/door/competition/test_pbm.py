"""Play-by-mail clocks: a deadline per move, a limit of moves a day, the lobby's words,
and who forfeits when time runs out. Every moment is passed in."""

from __future__ import annotations

import datetime as dt

import pytest

from door.competition.errors import CompetitionError, MoveLimitError
from door.competition.pbm import PbmClock, PbmRules, time_left_words

START = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
NAMES = ("Ada", "Bob")


def at(days: float = 0, hours: float = 0, minutes: float = 0) -> dt.datetime:
    return START + dt.timedelta(days=days, hours=hours, minutes=minutes)


@pytest.mark.parametrize(
    ("moment", "words"),
    [
        (at(), "3 days left"),
        (at(hours=20), "2 days 4 hours left"),  # not "2 days" under "within 3 days"
        (at(days=1), "2 days left"),
        (at(days=1, minutes=1), "1 day 23 hours left"),
        (at(days=2, hours=1), "23 hours left"),
        (at(days=2, hours=23), "1 hour left"),
        (at(days=2, hours=23, minutes=30), "under an hour left"),
        (at(days=3), "time is up"),
        (at(days=9), "time is up"),
    ],
)
def test_the_lobby_says_how_long_the_move_may_wait(moment: dt.datetime, words: str) -> None:
    clock = PbmClock.start(PbmRules(days_per_move=3), START)
    assert clock.deadline == dt.datetime(2026, 3, 4, 9, 0, tzinfo=dt.UTC)
    assert time_left_words(clock.time_left(moment)) == words
    assert clock.status_line(1, NAMES, (1,), moment) == f"your move against Ada ({words})"
    assert clock.status_line(0, NAMES, (1,), moment) == f"Bob's move ({words})"


def test_a_move_starts_the_wait_again() -> None:
    clock = PbmClock.start(PbmRules(days_per_move=2), START).moved(0, at(days=1, hours=12))
    assert clock.deadline == at(days=3, hours=12)
    assert (
        clock.status_line(1, NAMES, (1,), at(days=2))
        == "your move against Ada (1 day 12 hours left)"
    )


def test_the_player_still_to_move_at_the_deadline_forfeits() -> None:
    clock = PbmClock.start(PbmRules(days_per_move=1), START).moved(0, at(hours=1))
    assert clock.forfeiter((1,), at(days=1)) is None  # 23 hours after Ada's move
    assert clock.forfeiter((1,), at(days=1, hours=1)) == 1
    assert clock.forfeiter((), at(days=5)) is None  # the game waits for nobody


def test_when_both_must_throw_the_one_silent_longer_forfeits() -> None:
    clock = PbmClock.start(PbmRules(days_per_move=1), START)
    clock = clock.moved(1, at(hours=1)).moved(0, at(hours=2))
    assert clock.forfeiter((0, 1), at(days=1, hours=2)) == 1
    fresh = PbmClock.start(PbmRules(days_per_move=1), START).moved(0, at(hours=1))
    assert fresh.forfeiter((0, 1), at(days=2)) == 1  # Bob never moved at all


def test_moves_a_day_are_limited_by_the_utc_calendar_day() -> None:
    clock = PbmClock.start(PbmRules(days_per_move=3, moves_per_day=2), START)
    assert clock.moves_left_today(0, at()) == 2
    clock = clock.moved(0, at(hours=1)).moved(0, at(hours=2))
    assert clock.moves_left_today(0, at(hours=3)) == 0
    assert clock.moves_left_today(1, at(hours=3)) == 2  # each player has their own
    with pytest.raises(MoveLimitError):
        clock.moved(0, at(hours=3))
    assert clock.status_line(0, NAMES, (0,), at(hours=3)) == (
        "your move against Bob (today's moves made; 2 days 23 hours left)"
    )
    # 20:00 at UTC-5 on 1 March is 01:00 UTC on 2 March: a new day.
    evening = dt.datetime(2026, 3, 1, 20, 0, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
    assert clock.moves_left_today(0, evening) == 2
    assert clock.moved(0, evening).moves_left_today(0, evening) == 1


def test_no_limit_means_no_limit() -> None:
    clock = PbmClock.start(PbmRules(), START)
    for minute in range(50):
        clock = clock.moved(0, at(minutes=minute))
    assert clock.moves_left_today(0, at(hours=1)) is None


@pytest.mark.parametrize("rules", [{"days_per_move": 0}, {"moves_per_day": 0}])
def test_rules_that_allow_no_play_are_refused(rules: dict) -> None:
    with pytest.raises(CompetitionError):
        PbmRules(**rules)


def test_moments_need_their_time_zone() -> None:
    with pytest.raises(CompetitionError):
        PbmClock.start(PbmRules(), dt.datetime(2026, 3, 1, 9))
