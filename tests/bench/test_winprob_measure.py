"""bench/winprob_measure.py, the self-play that measures what a deal scores for the
win-probability tables bench/gen_winprob_tables.py writes: every point is booked."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from winprob_measure import measure_deals, model_from_counts  # noqa: E402


@pytest.mark.parametrize("players", [2, 3, 4])
def test_measured_deals_book_every_point_source(players: int) -> None:
    counts = measure_deals(players, 4, random.Random(players), level="normal")
    assert counts.deals == 4
    assert (counts.hands.sum(axis=1) == 4).all()  # every hand counted, nothing included
    assert counts.crib.sum() == 4
    per_role = 1 if players != 3 else 3
    assert counts.pegging.sum() == 4 * per_role
    # One snapshot of the play still to come before each card laid.
    assert counts.rest.sum() == 4 * 4 * players * per_role
    model = model_from_counts(counts)
    assert [role for role, _ in model.shows] == [
        seat % model.sides for seat in (*range(1, players), 0)
    ]
    assert all(dist.sum() == pytest.approx(1.0) for _, dist in model.shows)
    if players == 2:
        assert len(counts.keeps) == 8 and all(len(row) == 7 for row in counts.keeps)
