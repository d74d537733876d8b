"""Bans: an address, a network (CIDR, IPv4 or IPv6) or a handle the sysop has turned away,
with a reason and perhaps an end; and the in-memory list every connection is checked
against as it arrives, before anything else (door/defence/guard.py asks it).

A target parses and prints symmetrically, and an IPv4-mapped IPv6 address is its IPv4
address, so that a caller reaching a dual-stack listener as ``::ffff:10.0.0.7`` meets the
bans of ``10.0.0.7``:

>>> str(BanTarget.parse("10.0.0.7")), str(BanTarget.parse("10.1.2.3/16"))
('10.0.0.7', '10.1.0.0/16')
>>> str(BanTarget.parse("::ffff:10.0.0.7")), str(BanTarget.parse("handle:Spam Bot"))
('10.0.0.7', 'handle:Spam Bot')
>>> bans = BanList([Ban(1, BanTarget.parse("10.0.0.0/24"), "spam")])
>>> bans.covering("::ffff:10.0.0.99").reason, bans.covering("10.0.1.1")
('spam', None)
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from door.defence.lookalike import skeleton

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

HANDLE_PREFIX: Final = "handle:"
MAX_REASON_LENGTH: Final = 200
"""A reason is one line a banned caller reads on an 80-column screen, twice at most."""
MAX_HANDLE_LENGTH: Final = 40
"""Longer than any handle or guest name the door takes (20), so a ban can never miss
one, short enough to show in a list."""


class BanError(ValueError):
    """A ban that cannot be made: the message says why, in one line."""


@dataclass(frozen=True)
class BanTarget:
    """Whom a ban turns away: every address of ``network``, or callers named ``handle``
    (compared by how the name looks: door/defence/lookalike.py)."""

    network: Network | None = None
    handle: str | None = None

    @classmethod
    def parse(cls, text: str) -> BanTarget:
        """``10.0.0.7``, ``10.0.0.0/24``, ``2001:db8::/32`` or ``handle:NAME``; raises
        BanError naming what is wrong."""
        text = text.strip()
        if text[: len(HANDLE_PREFIX)].casefold() == HANDLE_PREFIX:
            return cls(handle=_checked_handle(text[len(HANDLE_PREFIX) :]))
        try:
            network = ipaddress.ip_network(text.split("%")[0] if "/" not in text else text, False)
        except ValueError:
            raise BanError(
                f"{_shown(text)} is not an address, a network (CIDR) or handle:NAME"
            ) from None
        return cls(network=_unmapped(network))

    @property
    def key(self) -> str:
        """What two bans of the same target share (a handle by its look)."""
        return f"{HANDLE_PREFIX}{skeleton(self.handle)}" if self.handle is not None else str(self)

    def covers(self, address: str) -> bool:
        parsed = parse_address(address)
        return (
            parsed is not None
            and self.network is not None
            and parsed.version == self.network.version
            and parsed in self.network
        )

    def __str__(self) -> str:
        if self.handle is not None:
            return f"{HANDLE_PREFIX}{self.handle}"
        assert self.network is not None
        if self.network.prefixlen == self.network.max_prefixlen:
            return str(self.network.network_address)
        return str(self.network)

    def __repr__(self) -> str:
        return f"BanTarget.parse({str(self)!r})"


@dataclass(frozen=True)
class Ban:
    """One ban as the store keeps it: ``until`` None is for good."""

    id: int
    target: BanTarget
    reason: str
    until: dt.datetime | None = None
    actor: str = ""
    at: dt.datetime | None = None

    def in_force(self, now: dt.datetime) -> bool:
        return self.until is None or now < self.until

    def refusal(self) -> str:
        """The one line a banned caller is told before the line is closed."""
        whom = "Your name is" if self.target.handle is not None else "Your address is"
        return f"{whom} banned from this door: {self.reason} ({ending(self.until)})."


def ending(until: dt.datetime | None) -> str:
    """``until 2026-11-28 23:00 UTC``, or ``for good``."""
    if until is None:
        return "for good"
    return f"until {until.astimezone(dt.UTC):%Y-%m-%d %H:%M} UTC"


def check_reason(text: str) -> str:
    """A reason fit to show a caller and to log: one line of printable text."""
    reason = " ".join(text.split())
    if not reason:
        raise BanError("give a reason (--reason TEXT): the banned caller is told it")
    if any(unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs") for char in reason):
        raise BanError("the reason may not hold control characters")
    if len(reason) > MAX_REASON_LENGTH:
        raise BanError(f"the reason is longer than {MAX_REASON_LENGTH} characters")
    return reason


def parse_address(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """A peer's address as ipaddress sees it, an IPv4-mapped IPv6 one as IPv4; None for
    anything else (a console, a test's made-up peer)."""
    try:
        parsed = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return None
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return parsed.ipv4_mapped
    return parsed


class BanList:
    """The bans in force, held so that checking an address costs one dictionary look-up
    per prefix length in use (a handful), however many bans there are: each network is
    kept under its prefix length by its first address as a number."""

    def __init__(self, bans: Iterable[Ban] = ()) -> None:
        self.bans: tuple[Ban, ...] = tuple(bans)
        self._networks: dict[tuple[int, int], dict[int, Ban]] = {}
        """(IP version, prefix length) -> first address as a number -> the ban."""
        self._handles: dict[str, Ban] = {}
        """Banned names by their look (skeleton)."""
        for ban in self.bans:
            network, handle = ban.target.network, ban.target.handle
            if network is not None:
                by_start = self._networks.setdefault((network.version, network.prefixlen), {})
                by_start[int(network.network_address)] = _longer(
                    by_start.get(int(network.network_address)), ban
                )
            elif handle is not None:
                look = skeleton(handle)
                self._handles[look] = _longer(self._handles.get(look), ban)

    def __len__(self) -> int:
        return len(self.bans)

    def covering(self, address: str, now: dt.datetime | None = None) -> Ban | None:
        """The ban in force that turns ``address`` away, or None."""
        if not self._networks:
            return None
        parsed = parse_address(address)
        if parsed is None:
            return None
        number, bits = int(parsed), parsed.max_prefixlen
        now = now or dt.datetime.now(dt.UTC)
        for (version, length), by_start in self._networks.items():
            if version != parsed.version:
                continue
            start = number & ~((1 << (bits - length)) - 1) if length < bits else number
            ban = by_start.get(start)
            if ban is not None and ban.in_force(now):
                return ban
        return None

    def naming(self, name: str, now: dt.datetime | None = None) -> Ban | None:
        """The ban in force on ``name`` (or a name that looks the same), or None."""
        if not self._handles:
            return None
        ban = self._handles.get(skeleton(name))
        if ban is not None and ban.in_force(now or dt.datetime.now(dt.UTC)):
            return ban
        return None

    def without_expired(self, now: dt.datetime) -> BanList:
        return BanList(ban for ban in self.bans if ban.in_force(now))


def _longer(held: Ban | None, ban: Ban) -> Ban:
    """Of two bans of one target, the one that lasts longer."""
    if held is None:
        return ban
    if held.until is None or (ban.until is not None and held.until >= ban.until):
        return held
    return ban


def _unmapped(network: Network) -> Network:
    if isinstance(network, ipaddress.IPv6Network):
        mapped = network.network_address.ipv4_mapped
        if mapped is not None and network.prefixlen >= 96:
            return ipaddress.IPv4Network((mapped, network.prefixlen - 96))
    return network


def _checked_handle(text: str) -> str:
    handle = text.strip()
    if not handle:
        raise BanError("handle: needs a name after it (handle:NAME)")
    if len(handle) > MAX_HANDLE_LENGTH:
        raise BanError(f"a handle is {MAX_HANDLE_LENGTH} characters at most")
    if any(unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs") for char in handle):
        raise BanError("a handle may not hold control characters")
    return handle


def _shown(text: str) -> str:
    """``text`` fit for a one-line error: printable, and not the whole of a long one."""
    printable = "".join(char if char.isprintable() else "?" for char in text)
    return repr(printable if len(printable) <= 60 else printable[:57] + "...")


class BansInForce:
    """The bans one worker turns callers away by: the list is replaced whole when the
    sysop bans or lifts a ban (door/app/moderation.py), and read at every connection."""

    def __init__(self, bans: BanList | None = None) -> None:
        self.list = bans or BanList()

    def refusal(self, address: str) -> str | None:
        """What a caller from ``address`` is told if it is banned, else None."""
        ban = self.list.covering(address)
        return ban.refusal() if ban is not None else None

    def naming(self, name: str) -> Ban | None:
        return self.list.naming(name)
