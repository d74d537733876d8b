"""The compiled parts: small modules built from C (setup.py), each doing the same work as
the Python twin beside it for less processor time. This one place says which parts there
are (``PARTS``), which are in use (``in_c``), and how a test runs either twin
(``choose``). It imports neither the engine nor the door, which both use it.

A module with a compiled part declares it once, as a ``Twin``, and calls whichever is
chosen::

    LAYING = Twin("door.term._lay", python=_lay_rows, compiled=lambda c: c.lay_rows)
    LAYING.chosen(chars, styles, ...)

Every part is optional: where it was not built (no C compiler where the door was
installed), or the environment sets ``CRIBBAGE_DOOR_PURE_PYTHON``, the Python runs.

>>> sorted(PARTS) == sorted(in_c())
True
"""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Final, Generic, NamedTuple, TypeVar

PURE_PYTHON: Final = "CRIBBAGE_DOOR_PURE_PYTHON"
"""Set (to anything) in the environment, every part runs its Python twin."""


class Part(NamedTuple):
    twin: str
    """The module holding the Python twin, which declares the two as a ``Twin``."""
    work: str
    """What the part does."""


PARTS: Final = {
    "door.term._record": Part("door.term.canvas", "a Recorder's two puts"),
    "door.term._lay": Part("door.term.layers", "laying a frame's dirty rows"),
    "door.ui._paint": Part("door.ui.renderer", "the row loop that paints a frame's changes"),
    "engine.odds._by_role": Part("engine.odds.model", "three sides' run through a deal by role"),
    "engine.odds._forward": Part("engine.odds.model", "the win bar's two-sided run"),
    "engine.odds._after_play": Part(
        "engine.odds.after_play", "a moment of two sides' play through the values after it"
    ),
    "engine.odds._crib": Part("engine.odds.crib", "a crib once the starter is cut"),
    "engine.odds._before_cut": Part(
        "engine.odds.before_cut", "a known hand and a half-known crib before the cut"
    ),
    "engine.computer._peg": Part(
        "engine.computer.full_play", "the play searched to its end over sampled hands"
    ),
    "engine.computer._table_peg": Part(
        "engine.computer.table_full_play",
        "the play at three or four searched to its end over sampled hands",
    ),
}
"""Every compiled part, by its C module (built from the .c file of the same path)."""

T = TypeVar("T")

_TWINS: dict[str, Twin[object]] = {}
_FORGETTERS: list[Callable[[], None]] = []


class Twin(Generic[T]):
    """A compiled part and its Python twin: ``python``, ``compiled`` (the same made of the
    C module by the ``compiled`` function given; None where it was not built), ``chosen``,
    the one in use, and ``c_module``, the C module itself (None where it was not built),
    for tests that give it what no caller would."""

    __slots__ = ("module", "c_module", "python", "compiled", "chosen")

    def __init__(self, module: str, python: T, compiled: Callable[[ModuleType], T]) -> None:
        if module not in PARTS:
            raise ValueError(f"{module} is not one of the compiled parts in compiled_parts.PARTS")
        if module in _TWINS:
            raise ValueError(f"{module} is declared twice")
        self.module = module
        self.python = python
        self.c_module: ModuleType | None
        try:
            self.c_module = importlib.import_module(module)
        except ImportError:
            self.c_module = None
        self.compiled: T | None = None if self.c_module is None else compiled(self.c_module)
        self.chosen: T = python
        if self.compiled is not None and not os.environ.get(PURE_PYTHON):
            self.chosen = self.compiled
        _TWINS[module] = self  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Twin {self.module}: {'C' if self.in_c else 'Python'}>"

    @property
    def in_c(self) -> bool:
        return self.compiled is not None and self.chosen is self.compiled


def _declared() -> dict[str, Twin[object]]:
    """Every part's Twin, importing the modules that declare them."""
    for part in PARTS.values():
        importlib.import_module(part.twin)
    return dict(_TWINS)


def in_c() -> dict[str, bool]:
    """Whether each part runs in C (False: its Python twin runs)."""
    return {name: twin.in_c for name, twin in _declared().items()}


def built() -> dict[str, bool]:
    """Whether each part's C module was built and could be loaded."""
    return {name: twin.compiled is not None for name, twin in _declared().items()}


def forget_on_switch(forget: Callable[[], None]) -> None:
    """Have ``forget`` called whenever ``choose`` switches the parts: for work kept from
    one twin's results that the other twin should make afresh."""
    _FORGETTERS.append(forget)


@contextlib.contextmanager
def choose(compiled: bool) -> Iterator[None]:
    """Within the block every part runs in C (``compiled``; the parts must have been
    built: raises LookupError naming those that were not) or every part runs its Python
    twin; as before after it. For tests, which run the callers of the parts over both."""
    twins = _declared()
    missing = [name for name, twin in twins.items() if compiled and twin.compiled is None]
    if missing:
        raise LookupError(f"not built: {', '.join(missing)}")
    before = {name: twin.chosen for name, twin in twins.items()}
    _switch({name: twin.compiled if compiled else twin.python for name, twin in twins.items()})
    try:
        yield
    finally:
        _switch(before)


def _switch(chosen: dict[str, object]) -> None:
    for name, twin in _TWINS.items():
        twin.chosen = chosen[name]
    for forget in _FORGETTERS:
        forget()


def main() -> int:
    """``python -m compiled_parts``: each part, and whether it runs in C; exit status 1
    if any does not."""
    using = in_c()
    width = max(map(len, using))  # the columns line up however long a part's name
    for name, running in using.items():
        part = PARTS[name]
        print(f"{name:{width}}  {'C' if running else 'Python':8}{part.twin}: {part.work}")
    return 0 if all(using.values()) else 1
