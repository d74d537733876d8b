"""Holding a compiled part to its Python twin wherever the engine calls it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from compiled_parts import Twin


@contextmanager
def both_compared(twin: Twin[Any], tolerance: float = 1e-13) -> Iterator[list[Any]]:
    """Every call the engine makes of ``twin`` meanwhile worked out by the Python and by
    the C, which must agree to ``tolerance`` (sums added in another order); the Python's
    answer goes on. Yields the calls' arguments, as they come."""
    calls: list[Any] = []

    def compare(*args: Any) -> Any:
        assert twin.compiled is not None
        python, c = twin.python(*args), twin.compiled(*args)
        assert c == pytest.approx(python, abs=tolerance, rel=0), args
        calls.append(args)
        return python

    kept = twin.chosen
    twin.chosen = compare
    try:
        yield calls
    finally:
        twin.chosen = kept
