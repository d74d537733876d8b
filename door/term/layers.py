"""A frame drawn in layers, each drawn again only when what it shows has changed.

A screen that is redrawn at every change (the table, at every card, count and move of
the highlight bar) describes its frame as an ordered list of layers: a name, a *key*
holding every value the layer draws from, and the function that draws it. ``Layers``
keeps, for each layer, what it wrote the last time (its runs of text, each in a style).
A layer whose key is unchanged is not drawn again; only the rows that a changed layer
touches, before or after, are put together again from every layer's runs, in order;
every other row of the frame is the very string it was in the frame before, which the
renderer passes over with one comparison of identity. A move of the bar draws the row
of card keys and rebuilds that row, not the whole screen.

What is kept is few objects: one flat tuple of runs per layer and a row's characters
and styles as two strings (door/term/canvas.py). Every object a session keeps for
seconds is walked by each young garbage collection meanwhile: a new list per changed
row, or a cache of drawings shared between sessions (both tried), cost those
collections more than they saved; strings are never walked.

>>> from door.term.canvas import Canvas
>>> layers = Layers()
>>> def title(text):
...     return ("title", text, lambda canvas: canvas.put(0, 0, text))
>>> frame, _ = layers.frame(10, 2, [title("hello"), ("rule", (), lambda c: c.fill(1, 0, 10, "-"))])
>>> [frame.text(0), frame.text(1)]
['hello     ', '----------']
>>> again, _ = layers.frame(10, 2, [title("bye"), ("rule", (), lambda c: c.fill(1, 0, 10, "-"))])
>>> again.text(0), again.chars[1] is frame.chars[1], layers.drawn
('bye       ', True, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from compiled_parts import Twin
from door.term.canvas import Canvas, Recorder, Runs, blank_row

Draw = Callable[[Canvas], Any]
Layer = tuple[str, Hashable, Draw | None]
"""(name, key, draw): ``draw(canvas)`` must draw from nothing but what ``key`` holds.
With ``draw`` None the key is ``(function, *arguments)`` and the layer draws
``function(canvas, *arguments)``: no function made for it at every frame."""

ALWAYS: object = object()
"""A key that never equals the one before: the layer is drawn at every frame (a layer
that is cheap to draw, or whose inputs are not worth gathering into a key)."""


@dataclass(slots=True)
class _Drawn:
    key: Hashable
    runs: Runs
    result: Any
    rows: int
    """The rows the runs touch, as bits (row ``y`` is ``1 << y``): putting rows together
    again passes over the layers that touch none of them without reading their runs."""


def _rows_of(runs: Runs) -> int:
    rows = 0
    for y in set(runs[::4]):
        rows |= 1 << y
    return rows


def _row_numbers(rows: int) -> list[int]:
    """The rows whose bits are set, in order."""
    numbers = []
    while rows:
        low = rows & -rows
        numbers.append(low.bit_length() - 1)
        rows ^= low
    return numbers


class Layers:
    """One screen's layers as last drawn, and the frame they made (one per session)."""

    def __init__(self) -> None:
        self._size = (0, 0)
        self._order: list[str] = []
        self._drawn: dict[str, _Drawn] = {}
        self._frame = Canvas(0, 0)
        """The frame as last laid (``settled``: laying again makes new lists of rows, in
        which only the dirty rows are new strings)."""
        self.drawn = 0
        """How many layers the last frame drew (the rest were kept): for tests and benches."""

    def frame(self, cols: int, rows: int, layers: Iterable[Layer]) -> tuple[Canvas, dict[str, Any]]:
        """The frame of ``layers`` (drawn bottom first) on a ``cols`` x ``rows`` canvas,
        and what each layer's draw returned, by name (those that returned something).
        The canvas is ``settled``: nothing changes it after this (the next frame is a new
        canvas); to draw over it, draw on a copy."""
        layers = layers if isinstance(layers, list) else list(layers)
        order = [name for name, _, _ in layers]
        same_order = order == self._order  # most frames: checked already
        if not same_order and len(set(order)) != len(order):
            raise ValueError(f"two layers share a name: {order}")
        if (cols, rows) != self._size:
            self._drawn.clear()  # layers clip to the canvas, and some lay out by its size
        kept = self._drawn
        whole = not kept or not (same_order or _same_relative_order(self._order, order))
        dirty = 0  # rows, as bits
        drawn: dict[str, _Drawn] = {}
        results: dict[str, Any] = {}
        count = 0
        for name, key, draw in layers:
            before = kept.get(name)
            if before is not None and key is not ALWAYS and before.key == key:
                drawn[name] = before
                if before.result is not None:
                    results[name] = before.result
                continue
            recorder = Recorder(cols, rows)
            result = key[0](recorder, *key[1:]) if draw is None else draw(recorder)  # type: ignore[index]
            if result is not None:
                results[name] = result
            runs = tuple(recorder.runs)
            now = drawn[name] = _Drawn(key, runs, result, _rows_of(runs))
            count += 1
            dirty |= now.rows
            if before is not None:
                dirty |= before.rows
        self.drawn = count
        if not same_order:
            for name, before in kept.items():
                if name not in drawn:  # a layer gone: its rows show what is under it
                    dirty |= before.rows
        self._drawn, self._order, self._size = drawn, order, (cols, rows)
        if (self._frame.cols, self._frame.rows) != (cols, rows):
            self._frame = Canvas(cols, rows)
            self._frame.settled = True
        if whole:
            dirty = (1 << rows) - 1
        if dirty:
            self._lay(dirty, order)
        return self._frame, results

    def _lay(self, dirty: int, order: list[str]) -> None:
        """Put the ``dirty`` rows (bits) together again from the runs of every layer
        that touches them, in order."""
        before = self._frame
        frame = Canvas.over(list(before.chars), list(before.styles), before.cols)
        frame.settled = True
        self._frame = frame
        drawn = self._drawn
        # (most layers, for most frames, touch none of them: a bar move touches one row)
        runs = [layer.runs for name in order if (layer := drawn[name]).rows & dirty]
        LAYING.chosen(frame.chars, frame.styles, frame.cols, dirty, runs, *blank_row(frame.cols))


def _lay_rows(
    chars: list[str],
    styles: list[str],
    cols: int,
    dirty: int,
    layers_runs: list[Runs],
    blank_chars: str,
    blank_styles: str,
) -> None:
    """Set each ``dirty`` row (bits) of ``chars`` and ``styles`` to a blank row with
    every run of ``layers_runs`` on it laid over it, in order. (door/term/_lay.c does
    the same in C, and is used where it was built.)"""
    for y in _row_numbers(dirty):
        chars[y], styles[y] = blank_chars, blank_styles
    store = Canvas.over(chars, styles, cols).lay_run
    for runs in layers_runs:
        items = iter(runs)
        for y, start, text, kinds in zip(items, items, items, items, strict=True):
            if dirty >> y & 1:
                store(y, start, text, kinds)


LAYING: Final = Twin[Callable[..., None]](
    "door.term._lay", python=_lay_rows, compiled=lambda c: c.lay_rows
)
"""Laying the dirty rows, in C where door/term/_lay.c was built: the same rows."""


def _same_relative_order(before: list[str], now: list[str]) -> bool:
    """Whether the layers in both lists keep their order (layers come and go freely)."""
    common = set(before) & set(now)
    return [name for name in before if name in common] == [name for name in now if name in common]
