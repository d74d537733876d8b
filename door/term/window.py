"""A caller's window size within reason: the size assumed when a transport reports none,
and the bounds a reported one is held to (a caller may claim 65535x65535)."""

from __future__ import annotations

from typing import Final

DEFAULT_SIZE: Final = (80, 24)
"""Assumed (cols, rows) when the transport reports none, as ``ssh -T`` does (0x0)."""

MAX_COLS: Final = 400
MAX_ROWS: Final = 200
"""Window sizes past these are clamped: a caller may claim 65535x65535."""


def clamp_size(cols: int, rows: int) -> tuple[int, int]:
    """A reported window size within reason; 0 (unknown) stays 0."""
    return (max(0, min(cols, MAX_COLS)), max(0, min(rows, MAX_ROWS)))
