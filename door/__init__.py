"""Cribbage Door: the BBS-door server (telnet, SSH) around the pure rules in engine/."""

from __future__ import annotations

from importlib import metadata


def version() -> str:
    """The installed distribution's version ("unknown" when run from a bare checkout)."""
    try:
        return metadata.version("cribbage-door")
    except metadata.PackageNotFoundError:
        return "unknown"
