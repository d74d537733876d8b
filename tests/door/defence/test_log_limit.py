import logging

import pytest

from door.defence.log_limit import SourceLog


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records]


def test_one_line_per_source_and_window_then_the_count_held_back(caplog, clock):
    log = SourceLog(logging.getLogger("door.test"), window=60, clock=clock)
    with caplog.at_level(logging.INFO, logger="door.test"):
        for _ in range(500):
            log.warning("192.0.2.7", "refused: %s", "not a trusted proxy")
        clock.now += 30
        log.warning("192.0.2.7", "refused: %s", "not a trusted proxy")
        clock.now += 31
        log.warning("192.0.2.7", "refused: %s", "bad header")
    assert lines(caplog) == [
        "192.0.2.7: refused: not a trusted proxy",
        "192.0.2.7: refused: bad header (500 more from there held back in the last minute)",
    ]


def test_sources_are_counted_apart(caplog, clock):
    log = SourceLog(logging.getLogger("door.test"), clock=clock)
    with caplog.at_level(logging.INFO, logger="door.test"):
        assert log.info("192.0.2.1", "half-open request closed")
        assert log.info("192.0.2.2", "half-open request closed")
        assert not log.info("192.0.2.1", "half-open request closed")
    assert len(caplog.records) == 2


def test_the_table_of_sources_is_bounded_dropping_the_least_recent(caplog, clock):
    log = SourceLog(logging.getLogger("door.test"), max_sources=3, clock=clock)
    with caplog.at_level(logging.INFO, logger="door.test"):
        for source in ("a", "b", "c", "d"):
            log.info(source, "x")
        assert len(log) == 3
        # "a" was forgotten, so it is written again; "d" is remembered and held back.
        assert log.info("a", "x")
        assert not log.info("d", "x")


def test_a_source_that_carries_escapes_reaches_the_log_escaped(caplog, clock):
    log = SourceLog(logging.getLogger("door.test"), clock=clock)
    with caplog.at_level(logging.INFO, logger="door.test"):
        log.info("\x1b[2Jevil\n", "refused")
    assert "\x1b" not in lines(caplog)[0] and "\n" not in lines(caplog)[0]


def test_nothing_is_counted_when_the_level_is_off(caplog, clock):
    log = SourceLog(logging.getLogger("door.test"), clock=clock)
    with caplog.at_level(logging.ERROR, logger="door.test"):
        assert not log.info("192.0.2.1", "x")
    assert len(log) == 0
