"""Whose request it is, behind a reverse proxy: the caller's address as a trusted proxy
(``[web] trusted_proxies``) reports it in ``X-Forwarded-For``, ``Forwarded: for=``
(RFC 7239) or ``X-Real-IP``.

Each proxy on the way appends the address it was called from, so the list is read from
the right, past the proxies trusted here, to the first address that is not one: that
one a trusted proxy saw itself; everything to its left is whatever the caller chose to
send. Nothing that is not an IP address is taken (a port, a scope, a name, ``unknown``):
a value that cannot be counted against the per-address limits is refused, not guessed.

>>> trusted = parse_trusted(["127.0.0.1", "10.0.0.0/8"])
>>> forwarded_address(trusted, x_forwarded_for="6.6.6.6, 203.0.113.9, 10.1.2.3")
'203.0.113.9'
>>> forwarded_address(trusted, forwarded=[{"for": "[2001:DB8::17]:4711"}, {"for": "10.0.0.2"}])
'2001:db8::17'
>>> forwarded_address(trusted, real_ip="::ffff:198.51.100.7")
'198.51.100.7'
>>> forwarded_address(trusted) is None
True
>>> try:
...     forwarded_address(trusted, x_forwarded_for="203.0.113.9, <script>")
... except ForwardedError as error:
...     print(error)
X-Forwarded-For holds something that is not an IP address
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

FORWARDED_FOR: Final = "X-Forwarded-For"
FORWARDED: Final = "Forwarded"
REAL_IP: Final = "X-Real-IP"

_RFC7239_NODE: Final = re.compile(r"^(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<v4>[0-9.]+))(?::\d{1,5})?$")
"""A ``for=`` node as RFC 7239 writes it (aiohttp takes off the quotes): ``192.0.2.43``,
``192.0.2.43:47011``, ``[2001:db8:cafe::17]`` or ``[2001:db8:cafe::17]:4711``."""


class ForwardedError(ValueError):
    """A forwarding header that does not name an IP address where one must be."""


def parse_trusted(texts: Iterable[str]) -> tuple[Network, ...]:
    """``"127.0.0.1"``, ``"10.0.0.0/8"``, ``"::1"`` as networks; ValueError for others."""
    return tuple(ipaddress.ip_network(text.strip(), strict=False) for text in texts)


def plain_address(text: str) -> Address:
    """``text`` as an IP address (an IPv4 address written as IPv6 taken as IPv4);
    ForwardedError for anything else, an IPv6 scope (``fe80::1%eth0``) included."""
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        raise ForwardedError("not an IP address") from None
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id is not None:
            raise ForwardedError("not an IP address")
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
    return address


def is_trusted(address: str, trusted: Sequence[Network]) -> bool:
    """Whether ``address`` (a socket's peer) is one of the trusted proxies."""
    try:
        found = plain_address(address)
    except ForwardedError:
        return False
    return any(found in network for network in trusted)


def forwarded_address(
    trusted: Sequence[Network],
    *,
    x_forwarded_for: str | None = None,
    forwarded: Sequence[Mapping[str, str]] = (),
    real_ip: str | None = None,
) -> str | None:
    """The caller's address as a request's forwarding headers give it, for a request
    that came from a trusted proxy; None when they name none (the proxy's own request).

    ``x_forwarded_for`` is the header's value (several lines of it joined by ", ", as
    HTTP allows); ``forwarded`` the elements of ``Forwarded`` as aiohttp parses them
    (``request.forwarded``). X-Forwarded-For is read first, then Forwarded, then
    X-Real-IP; ForwardedError (naming the header) when the one read names no address.
    """
    if x_forwarded_for is not None:
        return _rightmost_untrusted(FORWARDED_FOR, x_forwarded_for.split(","), trusted)
    nodes = [element["for"] for element in forwarded if "for" in element]
    if nodes:
        return _rightmost_untrusted(FORWARDED, [_rfc7239_node(node) for node in nodes], trusted)
    if real_ip is not None:
        return _rightmost_untrusted(REAL_IP, [real_ip], trusted)
    return None


def _rightmost_untrusted(header: str, entries: list[str], trusted: Sequence[Network]) -> str:
    found: Address | None = None
    for entry in reversed(entries):
        try:
            found = plain_address(entry)
        except ForwardedError:
            raise ForwardedError(f"{header} holds something that is not an IP address") from None
        if not any(found in network for network in trusted):
            return str(found)
    if found is None:
        raise ForwardedError(f"{header} names no address")
    # Every hop is a trusted proxy: the leftmost is where the request began.
    return str(found)


def _rfc7239_node(node: str) -> str:
    """The address in a ``for=`` node; ForwardedError when it is not a plain address
    (RFC 7239's ``unknown`` and obfuscated ``_hidden`` names included)."""
    match = _RFC7239_NODE.match(node.strip())
    if match is None:
        raise ForwardedError("Forwarded holds a for= that is not an IP address")
    return match["v6"] or match["v4"]
