"""A frame drawn in layers, each drawn again only when what it shows has changed.

A screen that is redrawn at every change (the table, at every card, count and move of
the highlight bar) describes its frame as an ordered list of layers: a name, a *key*
holding every value the layer draws from, and the function that draws it. ``Layers``
keeps, for each layer, what it wrote the last time (the cells of each row it touched).
A layer whose key is unchanged is not drawn again; only the rows that a changed layer
touches, before or after, are put together again from every layer's cells, in order;
every other row of the frame is the very row of the frame before. A move of the bar
draws the hand and rebuilds its five rows, not the whole screen.

>>> from door.term.canvas import Canvas
>>> layers = Layers()
>>> def title(text):
...     return ("title", text, lambda canvas: canvas.put(0, 0, text))
>>> frame, _ = layers.frame(10, 2, [title("hello"), ("rule", (), lambda c: c.fill(1, 0, 10, "-"))])
>>> [frame.text(0), frame.text(1)]
['hello     ', '----------']
>>> again, _ = layers.frame(10, 2, [title("bye"), ("rule", (), lambda c: c.fill(1, 0, 10, "-"))])
>>> again.text(0), again.cells[1] is frame.cells[1], layers.drawn
('bye       ', True, 1)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from door.term.canvas import BLANK, Canvas, Cell

Draw = Callable[[Canvas], Any]
Layer = tuple[str, Hashable, Draw]
"""(name, key, draw): ``draw(canvas)`` must draw from nothing but what ``key`` holds."""

ALWAYS: object = object()
"""A key that never equals the one before: the layer is drawn at every frame (a layer
that is cheap to draw, or whose inputs are not worth gathering into a key)."""


class _Recorder(Canvas):
    """A canvas that keeps what is drawn on it as runs of cells per row."""

    def __init__(self, cols: int, rows: int) -> None:
        # No grid of cells: layers only write, and what they write is all that is kept.
        self.cols, self.rows = cols, rows
        self.runs: dict[int, list[tuple[int, tuple[Cell, ...]]]] = {}

    def _store(self, row: int, start: int, cells: tuple[Cell, ...]) -> None:
        self.runs.setdefault(row, []).append((start, cells))


@dataclass
class _Drawn:
    key: Hashable
    runs: dict[int, list[tuple[int, tuple[Cell, ...]]]]
    result: Any


class Layers:
    """One screen's layers as last drawn, and the frame they made (one per session)."""

    def __init__(self) -> None:
        self._size = (0, 0)
        self._order: list[str] = []
        self._drawn: dict[str, _Drawn] = {}
        self._rows: list[list[Cell]] = []
        self.drawn = 0
        """How many layers the last frame drew (the rest were kept): for tests and benches."""

    def frame(self, cols: int, rows: int, layers: Iterable[Layer]) -> tuple[Canvas, dict[str, Any]]:
        """The frame of ``layers`` (drawn bottom first) on a ``cols`` x ``rows`` canvas,
        and what each layer's draw returned, by name."""
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
            now = _drawn_elsewhere(name, key, cols, rows)
            if now is None:
                recorder = _Recorder(cols, rows)
                result = draw(recorder)
                now = _Drawn(key, recorder.runs, result)
                _remember(name, key, cols, rows, now)
                self.drawn += 1
            drawn[name] = now
            if not whole:
                dirty.update(now.runs)
                if before is not None:
                    dirty.update(before.runs)
        if not whole:
            for name, before in self._drawn.items():
                if name not in drawn:  # a layer gone: its rows show what is under it
                    dirty.update(before.runs)
        self._drawn, self._order, self._size = drawn, order, (cols, rows)
        if whole:
            self._rows = [self._compose(y, cols, order) for y in range(rows)]
        elif dirty:
            # A new list of rows: the frame returned before keeps its own.
            self._rows = list(self._rows)
            for y in dirty:
                if 0 <= y < rows:
                    self._rows[y] = self._compose(y, cols, order)
        frame = Canvas.over(self._rows, kept=True)
        return frame, {name: drawn[name].result for name in order}

    def _compose(self, y: int, cols: int, order: list[str]) -> list[Cell]:
        row = [BLANK] * cols
        for name in order:
            for start, cells in self._drawn[name].runs.get(y, ()):
                row[start : start + len(cells)] = cells
        return row

    def forget(self) -> None:
        """Draw every layer again at the next frame (the charset or the screen changed)."""
        self._drawn.clear()
        self._size = (0, 0)


# Layers drawn for any session, by (name, key, size): many callers see the same status
# line, prompt, header or hand, and a caller moving the bar sees the same hands again.
# A key must then say everything about the drawing, the drawing function too (a name
# alone could be another screen's); keys that cannot be hashed are not shared.
_SHARED: OrderedDict[Hashable, _Drawn] = OrderedDict()
SHARED_LAYERS: Final = 4096


def _drawn_elsewhere(name: str, key: Hashable, cols: int, rows: int) -> _Drawn | None:
    if key is ALWAYS:
        return None
    try:
        found = _SHARED.get((name, key, cols, rows))
    except TypeError:
        return None  # an unhashable key
    if found is not None:
        _SHARED.move_to_end((name, key, cols, rows))
    return found


def _remember(name: str, key: Hashable, cols: int, rows: int, drawn: _Drawn) -> None:
    if key is ALWAYS:
        return
    try:
        _SHARED[(name, key, cols, rows)] = drawn
    except TypeError:
        return
    if len(_SHARED) > SHARED_LAYERS:
        _SHARED.popitem(last=False)


def _same_relative_order(before: list[str], now: list[str]) -> bool:
    """Whether the layers in both lists keep their order (layers come and go freely)."""
    common = set(before) & set(now)
    return [name for name in before if name in common] == [name for name in now if name in common]
