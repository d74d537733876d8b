"""Texts and art that live in files, not in code.

Each text is looked for first in the sysop's folder (the folder of the config file in
use, where ``cribbage-door init`` puts editable copies) and then among the package's own
resources (door/resources/, read with importlib.resources, so an installed wheel has
them wherever it is started from). ``use_texts_dir`` is called once at start.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

logger = logging.getLogger(__name__)

HELP_TEXT: Final = "help.txt"
MOUSE_HELP_TEXT: Final = "mouse.txt"
"""The help's page on clicking, added to the help for a caller whose mouse is on."""
WELCOME_ART: Final = "art/welcome.txt"
TEXT_NAMES: Final = (HELP_TEXT, MOUSE_HELP_TEXT, WELCOME_ART)
"""Every text the door shows; ``cribbage-door init`` copies each of them."""

DEFAULT_CONFIG_TEXT: Final = "door.toml"

_texts_dir: Path | None = None


def packaged_text(name: str) -> str:
    """A text shipped inside the package; raises OSError if the install lacks it."""
    return resources.files("door.resources").joinpath(name).read_text(encoding="utf-8")


@dataclass(frozen=True)
class FoundText:
    text: str
    source: str
    """Where it came from: a file's path, or "packaged"."""


def _find(name: str, texts_dir: Path | None) -> FoundText | None:
    if texts_dir is not None:
        path = texts_dir / name
        try:
            return FoundText(path.read_text(encoding="utf-8"), str(path))
        except FileNotFoundError:
            pass
        except (OSError, UnicodeDecodeError) as error:
            logger.warning("%s: cannot be read (%s); using the packaged copy", path, error)
    try:
        return FoundText(packaged_text(name), "packaged")
    except (OSError, UnicodeDecodeError) as error:
        logger.warning("%s: not in the package either (%s): showing a stand-in", name, error)
        return None


def use_texts_dir(texts_dir: Path | None) -> dict[str, str]:
    """Look for texts in ``texts_dir`` first from now on. Returns where each of
    ``TEXT_NAMES`` comes from, for the start-up log."""
    global _texts_dir
    _texts_dir = texts_dir
    _cached.cache_clear()
    sources = {}
    for name in TEXT_NAMES:
        found = _cached(name)
        sources[name] = "missing: a stand-in is shown" if found is None else found.source
    return sources


@functools.cache
def _cached(name: str) -> FoundText | None:
    # Cached, so each missing text is warned about once.
    return _find(name, _texts_dir)


def load_text(name: str, fallback: str = "") -> str:
    """The text ``name``: the sysop's copy, else the packaged one, else ``fallback``
    (read once per process)."""
    found = _cached(name)
    return fallback if found is None else found.text
