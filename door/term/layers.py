"""A frame drawn in layers, each drawn again only when what it shows has changed.

A screen that is redrawn at every change (the table, at every card, count and move of
the highlight bar) describes its frame as an ordered list of layers: a name, a *key*
holding every value the layer draws from, and the function that draws it. ``Layers``
keeps, for each layer, what it wrote the last time (the text of each row it touched).
A layer whose key is unchanged is not drawn again; only the rows that a changed layer
touches, before or after, are put together again from every layer's cells, in order,
in the rows of the frame before (the frame is one canvas, brought up to date). A move of
the bar draws the row of card keys and rebuilds that row, not the whole screen.

What is kept is few objects, none of them walked by the garbage collector but the few
tuples: one flat tuple of runs per layer (row, column, text, style), and the frame's
rows, which are strings (door/term/canvas.py). A row not touched keeps its very string
from frame to frame.

>>> from door.term.canvas import Canvas
>>> layers = Layers()
>>> def title(text):
...     return ("title", text, lambda canvas: canvas.put(0, 0, text))
>>> frame, _ = layers.frame(10, 2, [title("hello"), ("rule", (), lambda c: c.fill(1, 0, 10, "-"))])
>>> [frame.text(0), frame.text(1)]
['hello     ', '----------']
>>> rule = frame.chars[1]
>>> again, _ = layers.frame(10, 2, [title("bye"), ("rule", (), lambda c: c.fill(1, 0, 10, "-"))])
>>> again.text(0), again.chars[1] is rule, layers.drawn
('bye       ', True, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from door.term.canvas import STYLE_RUNS, Canvas, Recorder, Runs

Draw = Callable[[Canvas], Any]
Layer = tuple[str, Hashable, Draw]
"""(name, key, draw): ``draw(canvas)`` must draw from nothing but what ``key`` holds."""

ALWAYS: object = object()
"""A key that never equals the one before: the layer is drawn at every frame (a layer
that is cheap to draw, or whose inputs are not worth gathering into a key)."""


@dataclass(slots=True)
class _Drawn:
    key: Hashable
    runs: Runs
    result: Any


class Layers:
    """One screen's layers as last drawn, and the frame they made (one per session)."""

    def __init__(self) -> None:
        self._size = (0, 0)
        self._order: list[str] = []
        self._drawn: dict[str, _Drawn] = {}
        self._canvas = Canvas(0, 0)
        self.drawn = 0
        """How many layers the last frame drew (the rest were kept): for tests and benches."""

    def frame(self, cols: int, rows: int, layers: Iterable[Layer]) -> tuple[Canvas, dict[str, Any]]:
        """The frame of ``layers`` (drawn bottom first) on a ``cols`` x ``rows`` canvas,
        and what each layer's draw returned, by name. The canvas is this object's own
        and changes at the next frame: draw over a copy of it, never on it."""
        layers = list(layers)
        order = [name for name, _, _ in layers]
        if len(set(order)) != len(order):
            raise ValueError(f"two layers share a name: {order}")
        if (cols, rows) != self._size:
            self._drawn.clear()  # layers clip to the canvas, and some lay out by its size
        whole = not self._drawn or not _same_relative_order(self._order, order)
        dirty: set[int] = set()
        drawn: dict[str, _Drawn] = {}
        self.drawn = 0
        for name, key, draw in layers:
            before = self._drawn.get(name)
            if before is not None and key is not ALWAYS and before.key == key:
                drawn[name] = before
                continue
            recorder = Recorder(cols, rows)
            result = draw(recorder)
            drawn[name] = _Drawn(key, tuple(recorder.runs), result)
            self.drawn += 1
            if not whole:
                dirty.update(recorder.runs[::4])
                if before is not None:
                    dirty.update(before.runs[::4])
        if not whole:
            for name, before in self._drawn.items():
                if name not in drawn:  # a layer gone: its rows show what is under it
                    dirty.update(before.runs[::4])
        self._drawn, self._order, self._size = drawn, order, (cols, rows)
        if (self._canvas.cols, self._canvas.rows) != (cols, rows):
            self._canvas = Canvas(cols, rows)
        if whole:
            dirty = set(range(rows))
        else:
            dirty.intersection_update(range(rows))
        if dirty:
            self._lay(dirty, order)
        return self._canvas, {name: drawn[name].result for name in order}

    def _lay(self, dirty: set[int], order: list[str]) -> None:
        """Put the ``dirty`` rows together again from every layer's runs, in order: each
        row in a list and a bytearray, made a string and bytes once at the end."""
        canvas = self._canvas
        chars = {y: [" "] * canvas.cols for y in dirty}
        styles = {y: bytearray(canvas.cols) for y in dirty}
        for name in order:
            runs = iter(self._drawn[name].runs)
            for row, start, text, number in zip(runs, runs, runs, runs, strict=True):
                target = chars.get(row)
                if target is not None:
                    end = start + len(text)
                    target[start:end] = text
                    styles[row][start:end] = STYLE_RUNS[number][: end - start]
        for y in dirty:
            canvas.chars[y], canvas.styles[y] = "".join(chars[y]), bytes(styles[y])


def _same_relative_order(before: list[str], now: list[str]) -> bool:
    """Whether the layers in both lists keep their order (layers come and go freely)."""
    common = set(before) & set(now)
    return [name for name in before if name in common] == [name for name in now if name in common]
