"""Texts and art that live in files under config/, not in code."""

from __future__ import annotations

import functools
from pathlib import Path

SOURCE_CONFIG_DIR = Path(__file__).resolve().parent.parent / "config"


def config_dirs() -> list[Path]:
    """Where texts are looked for: ./config first, then the checkout's config/."""
    return [Path("config"), SOURCE_CONFIG_DIR]


@functools.cache
def load_text(name: str, fallback: str = "") -> str:
    """The file ``name`` from the first config directory that has it, else ``fallback``."""
    for directory in config_dirs():
        path = directory / name
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    return fallback
