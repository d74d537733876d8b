"""The open-file limit is raised at start to what max_sessions needs (door/file_limit.py)."""

from __future__ import annotations

import logging
import resource
from collections.abc import Iterator

import pytest

from door.file_limit import files_needed, raise_open_file_limit


@pytest.fixture
def file_limit() -> Iterator[tuple[int, int]]:
    """The limits as they were, put back afterwards (lowering the soft limit is allowed)."""
    before = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        yield before
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, before)


def test_a_low_soft_limit_is_raised_to_what_the_sessions_need(
    file_limit: tuple[int, int],
) -> None:
    _, hard = file_limit
    needed = files_needed(300)
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"this machine's hard limit {hard} is under {needed}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
    assert raise_open_file_limit(300) == needed
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == (needed, hard)


def test_a_hard_limit_too_low_is_reported_with_the_figure_to_set(
    file_limit: tuple[int, int], caplog: pytest.LogCaptureFixture
) -> None:
    _, hard = file_limit
    if hard == resource.RLIM_INFINITY:
        pytest.skip("no hard limit on this machine")
    sessions = hard  # needs twice the hard limit and more
    with caplog.at_level(logging.WARNING, logger="door.file_limit"):
        in_force = raise_open_file_limit(sessions)
    assert in_force <= hard
    assert f"ulimit -n {files_needed(sessions)}" in caplog.text
