"""The attack bench's pure parts: which attacks a ``--only`` names, what one attack's
run measured, and the table that shows runs side by side (plain or Markdown).

>>> select_attacks("proxy,web-resize", ALL_ATTACKS, GROUPS)
['web-resize', 'proxy-family', 'proxy-flood']
>>> sessions_shown("-- Who is on (3) ----")
3
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

TELNET_SSH_ATTACKS: Final = (
    "flood-telnet",
    "flood-ssh",
    "resize-telnet",
    "resize-ssh",
    "silent",
    "subneg",
    "hammer",
    "lookalike",
    "banned",
)
WEB_ATTACKS: Final = (
    "web-tunnel-flood",
    "web-page-flood",
    "web-resize",
    "web-malformed",
    "web-half-open",
    "web-refused",
    "web-silent",
    "web-arrival-keys",
)
PROXY_ATTACKS: Final = ("proxy-family", "proxy-flood")
RLOGIN_ATTACKS: Final = ("rlogin-resize",)
CLUSTER_ATTACKS: Final = ("cluster-redis",)
ALL_ATTACKS: Final = (
    *TELNET_SSH_ATTACKS,
    *WEB_ATTACKS,
    *PROXY_ATTACKS,
    *RLOGIN_ATTACKS,
    *CLUSTER_ATTACKS,
)
GROUPS: Final[Mapping[str, tuple[str, ...]]] = {
    "telnet": tuple(a for a in TELNET_SSH_ATTACKS if "ssh" not in a),
    "ssh": ("flood-ssh", "resize-ssh"),
    "old": TELNET_SSH_ATTACKS,
    "web": WEB_ATTACKS,
    "tunnel": ("web-tunnel-flood",),
    "proxy": PROXY_ATTACKS,
    "rlogin": RLOGIN_ATTACKS,
    "cluster": CLUSTER_ATTACKS,
    "new": (*WEB_ATTACKS, *PROXY_ATTACKS, *RLOGIN_ATTACKS, *CLUSTER_ATTACKS),
    "all": ALL_ATTACKS,
}

_WHO_IS_ON = re.compile(r"Who is on \((\d+)\)")


def select_attacks(
    text: str, known: Sequence[str], groups: Mapping[str, Sequence[str]]
) -> list[str]:
    """The attacks a comma-separated list of attack and group names picks, each once and
    in the bench's own order; ValueError naming what is neither."""
    wanted: set[str] = set()
    unknown = []
    for name in (part.strip() for part in text.split(",")):
        if not name:
            continue
        if name in groups:
            wanted.update(groups[name])
        elif name in known:
            wanted.add(name)
        else:
            unknown.append(name)
    if unknown:
        raise ValueError(
            f"unknown attacks: {', '.join(unknown)}; known: {', '.join(known)};"
            f" groups: {', '.join(groups)}"
        )
    if not wanted:
        raise ValueError("no attack named")
    return [name for name in known if name in wanted]


def sessions_shown(screen: str) -> int | None:
    """How many callers the lobby's "Who is on (N)" rule counts, if it shows."""
    found = _WHO_IS_ON.findall(screen)
    return int(found[-1]) if found else None


@dataclass(frozen=True)
class LogCount:
    lines: int
    errors: int  # lines at ERROR or above
    tracebacks: int

    @classmethod
    def of(cls, text: str) -> LogCount:
        lines = text.splitlines()
        return cls(
            len(lines),
            sum(1 for line in lines if " ERROR " in line or " CRITICAL " in line),
            sum(1 for line in lines if line.startswith("Traceback")),
        )


@dataclass
class Figures:
    """One run of one attack, as the bench measured it from outside the server."""

    attack: str
    latencies: list[float] = field(default_factory=list)
    unanswered: int = 0
    rss_before: float = 0.0
    rss_peak: float = 0.0
    rss_after: float = 0.0
    cpu_during: float = 0.0
    idle_after: float | None = None
    fds_before: int = 0
    fds_peak: int = 0
    fds_after: int = 0
    log: LogCount = field(default_factory=lambda: LogCount(0, 0, 0))
    sessions_left: int | None = None
    seconds: float = 0.0
    found: dict[str, object] = field(default_factory=dict)


def percentile(values: Sequence[float], share: float) -> float:
    """The value ``share`` of the way up, in milliseconds (0 for none)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000 if ordered else 0.0


COLUMNS: Final = (
    "attack",
    "secs",
    "keys",
    "p50 ms",
    "p95 ms",
    "lost",
    "CPU s",
    "RSS MB before/peak/after",
    "fds before/peak/after",
    "log lines (ERROR, tracebacks)",
    "sessions left",
)


def row(figures: Figures) -> list[str]:
    f = figures
    left = "-" if f.sessions_left is None else str(f.sessions_left)
    return [
        f.attack,
        f"{f.seconds:.0f}",
        str(len(f.latencies)),
        f"{percentile(f.latencies, 0.5):.1f}",
        f"{percentile(f.latencies, 0.95):.1f}",
        str(f.unanswered),
        f"{f.cpu_during:.1f}",
        f"{f.rss_before:.0f}/{f.rss_peak:.0f}/{f.rss_after:.0f}",
        f"{f.fds_before}/{f.fds_peak}/{f.fds_after}",
        f"{f.log.lines} ({f.log.errors}, {f.log.tracebacks})",
        left,
    ]


def table(runs: Sequence[Figures], *, markdown: bool = False) -> str:
    """The runs one row each, then each run's findings on a line of its own."""
    rows = [list(COLUMNS), *(row(f) for f in runs)]
    if markdown:
        lines = ["| " + " | ".join(cells) + " |" for cells in rows]
        lines.insert(1, "|" + "|".join("---" for _ in COLUMNS) + "|")
    else:
        widths = [max(len(cells[n]) for cells in rows) for n in range(len(COLUMNS))]
        lines = [
            "  ".join(cell.ljust(w) if n == 0 else cell.rjust(w) for n, (cell, w) in
                      enumerate(zip(cells, widths, strict=True)))
            for cells in rows
        ]  # fmt: skip
    found = [
        f"{'- ' if markdown else ''}{f.attack}: "
        + ", ".join(f"{key}={value}" for key, value in f.found.items())
        for f in runs
        if f.found
    ]
    return "\n".join([*lines, "", *found]) if found else "\n".join(lines)
