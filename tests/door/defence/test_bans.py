"""Bans: parsing a target, matching addresses and names, what a banned caller is told."""

from __future__ import annotations

import datetime as dt
import doctest

import pytest

from door.defence import bans as bans_module
from door.defence.bans import Ban, BanError, BanList, BanTarget, check_reason

NOW = dt.datetime(2026, 11, 27, 22, 0, tzinfo=dt.UTC)


def test_doctests() -> None:
    assert doctest.testmod(bans_module).failed == 0


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("10.0.0.7", "10.0.0.7"),
        (" 10.0.0.7 ", "10.0.0.7"),
        ("10.0.0.0/24", "10.0.0.0/24"),
        ("10.0.0.9/24", "10.0.0.0/24"),  # host bits dropped, as the sysop meant
        ("10.0.0.7/32", "10.0.0.7"),
        ("2001:DB8::1", "2001:db8::1"),
        ("2001:db8::/32", "2001:db8::/32"),
        ("::ffff:10.0.0.7", "10.0.0.7"),
        ("::ffff:10.0.0.0/120", "10.0.0.0/24"),
        ("fe80::1%eth0", "fe80::1"),
        ("handle:Spam Bot", "handle:Spam Bot"),
        ("HANDLE:Ada", "handle:Ada"),
    ],
)
def test_a_target_parses_and_prints_again(text: str, shown: str) -> None:
    target = BanTarget.parse(text)
    assert str(target) == shown
    assert BanTarget.parse(str(target)) == target
    assert repr(target) == f"BanTarget.parse({shown!r})"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("10.0.0.256", "is not an address"),
        ("10.0.0.0/33", "is not an address"),
        ("example.com", "is not an address"),
        ("", "is not an address"),
        ("handle:", "needs a name"),
        ("handle:" + "x" * 41, "40 characters"),
        ("handle:a\x1b[2Jb", "control characters"),
        ("\x1b[2J", "'?[2J' is not an address"),
    ],
)
def test_a_bad_target_says_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(BanError, match=r".*" + says.replace("?", r"\?").replace("[", r"\[")):
        BanTarget.parse(text)


def _list(*targets: str, until: dt.datetime | None = None) -> BanList:
    return BanList(
        Ban(number, BanTarget.parse(target), f"reason {number}", until)
        for number, target in enumerate(targets, 1)
    )


@pytest.mark.parametrize(
    ("targets", "address", "banned_by"),
    [
        (["10.0.0.7"], "10.0.0.7", 1),
        (["10.0.0.7"], "10.0.0.8", None),
        (["10.0.0.0/24"], "10.0.0.255", 1),
        (["10.0.0.0/24"], "10.0.1.0", None),
        (["10.0.0.7"], "::ffff:10.0.0.7", 1),  # IPv4-mapped meets the IPv4 ban
        (["10.0.0.0/8"], "::ffff:10.200.0.1", 1),
        (["::ffff:10.0.0.7"], "10.0.0.7", 1),
        (["2001:db8::/32"], "2001:db8:ffff::1", 1),
        (["2001:db8::/32"], "2001:db9::1", None),
        (["0.0.0.0/0"], "::1", None),  # every IPv4 address is not an IPv6 one
        (["::/0"], "127.0.0.1", None),
        (["::/0"], "::1", 1),
        (["127.0.0.2", "127.0.0.0/8"], "127.0.0.2", 1),
        (["127.0.0.2", "127.0.0.0/8"], "127.0.0.3", 2),
        (["handle:Ada"], "10.0.0.7", None),
        (["10.0.0.7"], "", None),
        (["10.0.0.7"], "console", None),
    ],
)
def test_an_address_is_banned_by_the_ban_covering_it(
    targets: list[str], address: str, banned_by: int | None
) -> None:
    ban = _list(*targets).covering(address, NOW)
    assert (ban.id if ban else None) == banned_by
    for target in targets:  # the list and each target alone agree
        if BanTarget.parse(target).covers(address):
            assert ban is not None


def test_a_ban_that_has_ended_turns_nobody_away() -> None:
    ended = _list("10.0.0.7", "handle:Ada", until=NOW - dt.timedelta(seconds=1))
    lasting = _list("10.0.0.7", "handle:Ada", until=NOW + dt.timedelta(hours=1))
    assert ended.covering("10.0.0.7", NOW) is None and ended.naming("Ada", NOW) is None
    assert lasting.covering("10.0.0.7", NOW) is not None
    assert lasting.naming("Ada", NOW) is not None
    assert len(ended.without_expired(NOW)) == 0 and len(lasting.without_expired(NOW)) == 2


@pytest.mark.parametrize("name", ["Ada", "ADA", "\u0410da", "A\u200bda", "\uff21da"])
def test_a_handle_ban_turns_away_the_name_and_its_lookalikes(name: str) -> None:
    assert _list("handle:Ada").naming(name, NOW) is not None
    assert _list("handle:Ada").naming("Eda", NOW) is None


def test_of_two_bans_of_one_target_the_longer_holds() -> None:
    soon, later = NOW + dt.timedelta(hours=1), NOW + dt.timedelta(hours=5)
    bans = BanList(
        [
            Ban(1, BanTarget.parse("10.0.0.7"), "short", soon),
            Ban(2, BanTarget.parse("10.0.0.7"), "long", later),
        ]
    )
    assert bans.covering("10.0.0.7", NOW).reason == "long"


def test_the_banned_caller_is_told_why_and_until_when() -> None:
    until = dt.datetime(2026, 11, 28, 23, 5, tzinfo=dt.UTC)
    assert (
        Ban(1, BanTarget.parse("10.0.0.7"), "spamming chat", until).refusal()
        == "Your address is banned from this door: spamming chat (until 2026-11-28 23:05 UTC)."
    )
    assert (
        Ban(2, BanTarget.parse("handle:Ada"), "abuse").refusal()
        == "Your name is banned from this door: abuse (for good)."
    )


@pytest.mark.parametrize(
    ("reason", "kept", "error"),
    [
        ("  spamming   chat ", "spamming chat", None),
        ("", None, "give a reason"),
        ("bad\x1b[2J", None, "control characters"),
        ("x" * 201, None, "longer than 200"),
    ],
)
def test_a_reason_is_one_printable_line(reason: str, kept: str | None, error: str | None) -> None:
    if error is None:
        assert check_reason(reason) == kept
    else:
        with pytest.raises(BanError, match=error):
            check_reason(reason)


def test_many_bans_each_turn_away_their_own_network() -> None:
    many = BanList(
        Ban(n, BanTarget.parse(f"10.{n // 256}.{n % 256}.0/24"), "spam") for n in range(5000)
    )
    assert many.covering("10.19.135.200", NOW).id == 19 * 256 + 135
    assert many.covering("10.20.136.1", NOW) is None
