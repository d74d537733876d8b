"""The token bucket, with a hand-turned clock."""

from __future__ import annotations

import doctest

import pytest

import door.defence.ratelimit
from door.defence.ratelimit import TokenBucket


def test_module_examples_run() -> None:
    assert doctest.testmod(door.defence.ratelimit).failed == 0


@pytest.mark.parametrize(
    ("rate", "burst", "steps", "granted"),
    [
        # (seconds passed before the take, tokens wanted) -> tokens granted
        (10, 5, [(0, 5), (0, 1)], [5, 0]),
        (10, 5, [(0, 5), (0.1, 3)], [5, 1]),
        (10, 5, [(0, 1), (100, 9)], [1, 5]),  # never more than the burst
        (0.5, 1, [(0, 1), (1.0, 1), (1.0, 1)], [1, 0, 1]),
    ],
)
def test_tokens_granted_follow_rate_and_burst(
    rate: float, burst: int, steps: list[tuple[float, int]], granted: list[int]
) -> None:
    now = [0.0]
    bucket = TokenBucket(rate, burst, clock=lambda: now[0])
    got = []
    for passed, wanted in steps:
        now[0] += passed
        got.append(bucket.take(wanted))
    assert got == granted


def test_seconds_until_counts_the_refill() -> None:
    now = [0.0]
    bucket = TokenBucket(4, 8, clock=lambda: now[0])
    bucket.take(8)
    assert bucket.seconds_until(4) == pytest.approx(1.0)
    assert bucket.seconds_until(100) == pytest.approx(2.0)  # capped at the burst
    now[0] = 5
    assert bucket.seconds_until(8) == 0


@pytest.mark.parametrize(("rate", "burst"), [(0, 1), (-1, 5), (1, 0)])
def test_a_bucket_that_could_never_grant_is_refused(rate: float, burst: int) -> None:
    with pytest.raises(ValueError):
        TokenBucket(rate, burst)
