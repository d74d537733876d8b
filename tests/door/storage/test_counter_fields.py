"""The stat counters are listed three times (the table, one game's figures, a stored
total); a counter added to one and not the others would be silently dropped."""

from dataclasses import fields

from door.storage.schema import STAT_COUNTERS, player_stats
from door.storage.stats import SeatStats
from door.storage.store import StatLine


def test_every_counter_is_a_column_a_game_figure_and_a_total() -> None:
    counters = set(STAT_COUNTERS)
    assert counters <= {column.name for column in player_stats.columns}
    assert set(SeatStats().counters()) == counters | {"best_hand_score"}
    totals = {field.name for field in fields(StatLine)} - {"runs", "counting", "opponent"}
    assert totals == counters | {"best_hand_score", "best_hand_cards"}
