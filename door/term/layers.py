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
from typing import Any, Final, NamedTuple, cast

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


Drawn = tuple[Hashable, Runs, Any, int]
"""A layer as last drawn: (its key, its runs, what its draw returned, the rows the runs
touch as bits: row ``y`` is ``1 << y``). Putting rows together again passes over the
layers that touch none of them without reading their runs. A tuple, not an object of a
class: one is made for every layer drawn, and door/term/_lay.c makes them too."""
_KEY, _RUNS, _RESULT, _ROWS = range(4)


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

    # Slots: read at every frame, and cold among a thousand callers' sessions: the
    # attributes in the object, not in a values array beside it (#48).
    __slots__ = ("_size", "_order", "_drawn", "_frame", "_recorder", "drawn")

    def __init__(self) -> None:
        self._size = (0, 0)
        self._order: list[str] = []
        self._drawn: dict[str, Drawn] = {}
        self._frame = Canvas(0, 0)
        """The frame as last laid (``settled``: laying again makes new lists of rows, in
        which only the dirty rows are new strings)."""
        self._recorder = Recorder(0, 0)
        """What every layer of a frame is drawn on in turn (its runs taken after each)."""
        self.drawn = 0
        """How many layers the last frame drew (the rest were kept): for tests and benches."""

    def frame(self, cols: int, rows: int, layers: Iterable[Layer]) -> tuple[Canvas, dict[str, Any]]:
        """The frame of ``layers`` (drawn bottom first) on a ``cols`` x ``rows`` canvas,
        and what each layer's draw returned, by name (those that returned something).
        The canvas is ``settled``: nothing changes it after this (the next frame is a new
        canvas); to draw over it, draw on a copy."""
        if (cols, rows) != self._size:
            self._drawn.clear()  # layers clip to the canvas, and some lay out by its size
            self._recorder = Recorder(cols, rows)
        layers = layers if isinstance(layers, list) else list(layers)
        drawn, results, count, dirty = LAYING.chosen.gather(
            layers, self._drawn, self._recorder, ALWAYS
        )
        kept = self._drawn
        if len(drawn) != len(layers):
            raise ValueError(f"two layers share a name: {[name for name, _, _ in layers]}")
        order = list(drawn)
        same_order = order == self._order  # most frames
        whole = not kept or not (same_order or _same_relative_order(self._order, order))
        if not same_order:
            for name, before in kept.items():
                if name not in drawn:  # a layer gone: its rows show what is under it
                    dirty |= before[_ROWS]
        self.drawn = count
        self._drawn, self._order, self._size = drawn, order, (cols, rows)
        if (self._frame.cols, self._frame.rows) != (cols, rows):
            self._frame = Canvas(cols, rows)
            self._frame.settled = True
        if whole:
            dirty = (1 << rows) - 1
        if dirty:
            self._lay(dirty, order)
        return self._frame, results

    def redraw(self, *layers: Layer) -> tuple[Canvas, dict[str, Any]] | None:
        """The last frame with some of its layers drawn again from new keys, and what
        each layer's draw returned: only the layers whose keys changed are drawn and only
        their rows laid (a win bar worked out after its frame was sent: one row; a move
        of the highlight bar: the hand's labels). None when the last frame had no layer
        of one of those names (draw the whole frame instead)."""
        kept = self._drawn
        for name, _, _ in layers:
            if name not in kept:
                return None
        self.drawn = 0
        dirty = 0
        recorder = self._recorder
        recorded = recorder.runs
        for name, key, draw in layers:
            before = kept[name]
            if key is not ALWAYS and before[_KEY] == key:
                continue
            recorded.clear()
            result = key[0](recorder, *key[1:]) if draw is None else draw(recorder)  # type: ignore[index]
            runs = tuple(recorded)
            recorded.clear()
            now = kept[name] = (key, runs, result, _rows_of(runs))
            self.drawn += 1
            dirty |= now[_ROWS] | before[_ROWS]
        if dirty:
            self._lay(dirty, self._order)
        return self._frame, {
            name: drawn[_RESULT] for name, drawn in kept.items() if drawn[_RESULT] is not None
        }

    def last_key(self, name: str) -> Hashable | None:
        """The key the layer ``name`` was last drawn from (None: not in the last frame)."""
        drawn = self._drawn.get(name)
        return None if drawn is None else drawn[_KEY]

    def _lay(self, dirty: int, order: list[str]) -> None:
        """Put the ``dirty`` rows (bits) together again from the runs of every layer
        that touches them, in order, on new lists of rows (the frame before is settled)."""
        before = self._frame
        cols = before.cols
        chars, styles = LAYING.chosen.lay_frame(
            before.chars, before.styles, cols, dirty, order, self._drawn, *blank_row(cols)
        )
        frame = self._frame = Canvas.over(chars, styles, cols)
        frame.settled = True


def _lay_frame(
    chars: list[str],
    styles: list[str],
    cols: int,
    dirty: int,
    order: list[str],
    drawn: dict[str, Drawn],
    blank_chars: str,
    blank_styles: str,
) -> tuple[list[str], list[str]]:
    """New lists of the rows ``chars`` and ``styles``, each ``dirty`` row (bits) laid
    again from the runs of the layers named in ``order`` (``drawn``, by name) that touch
    one. (door/term/_lay.c does the same in C, and is used where it was built: the copy,
    the choice of layers and the laying in one call.)"""
    chars, styles = list(chars), list(styles)
    # (most layers, for most frames, touch none of them: a bar move touches one row)
    runs = [layer[_RUNS] for name in order if (layer := drawn[name])[_ROWS] & dirty]
    _lay_rows(chars, styles, cols, dirty, cast(list[Runs], runs), blank_chars, blank_styles)
    return chars, styles


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


def _gather(
    layers: list[Layer], kept: dict[str, Drawn], recorder: Recorder, always: object
) -> tuple[dict[str, Drawn], dict[str, Any], int, int]:
    """Each of ``layers`` as drawn for this frame: the one ``kept`` if its key is the
    same (and not ``always``), else drawn again on ``recorder``. Returns them by name,
    what each draw returned (those that returned something), how many were drawn, and
    the rows (bits) the layers drawn touch, now or before. (door/term/_lay.c does the
    same in C, and is used where it was built.)"""
    recorded = recorder.runs  # one list for every layer drawn: no recorder a layer
    dirty = 0
    drawn: dict[str, Drawn] = {}
    results: dict[str, Any] = {}
    count = 0
    for name, key, draw in layers:
        before = kept.get(name)
        if before is not None and key is not always and before[_KEY] == key:
            drawn[name] = before
            if before[_RESULT] is not None:
                results[name] = before[_RESULT]
            continue
        recorded.clear()
        result = key[0](recorder, *key[1:]) if draw is None else draw(recorder)  # type: ignore[index]
        if result is not None:
            results[name] = result
        runs = tuple(recorded)
        rows = _rows_of(runs)
        drawn[name] = (key, runs, result, rows)
        count += 1
        dirty |= rows
        if before is not None:
            dirty |= before[_ROWS]
    recorded.clear()
    return drawn, results, count, dirty


class Laying(NamedTuple):
    """The loops of a frame, each in C where door/term/_lay.c was built."""

    gather: Callable[..., tuple[dict[str, Drawn], dict[str, Any], int, int]]
    lay_rows: Callable[..., None]
    lay_frame: Callable[..., tuple[list[str], list[str]]]


LAYING: Final = Twin[Laying](
    "door.term._lay",
    python=Laying(_gather, _lay_rows, _lay_frame),
    compiled=lambda c: Laying(c.gather, c.lay_rows, c.lay_frame),
)
"""Gathering a frame's layers and laying its dirty rows, in C where door/term/_lay.c was
built: the same layers drawn, the same rows."""


def _same_relative_order(before: list[str], now: list[str]) -> bool:
    """Whether the layers in both lists keep their order (layers come and go freely)."""
    common = set(before) & set(now)
    return [name for name in before if name in common] == [name for name in now if name in common]
