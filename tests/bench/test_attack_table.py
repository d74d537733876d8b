"""The attack bench's pure parts: which attacks ``--only`` picks, its arguments, what it
reads off the witness's screen and the server's log, and the before/after table."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import attack_table  # noqa: E402
import attacks  # noqa: E402
from attack_table import (  # noqa: E402
    ALL_ATTACKS,
    COLUMNS,
    DATABASE_FDS_KEPT,
    GROUPS,
    Descriptors,
    Figures,
    LogCount,
    percentile,
    select_attacks,
    sessions_shown,
    table,
)

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_module_examples_run() -> None:
    assert doctest.testmod(attack_table).failed == 0


def test_only_takes_attacks_and_groups_once_each_in_the_benchs_order() -> None:
    assert select_attacks("rlogin, web-resize,proxy,web-resize", ALL_ATTACKS, GROUPS) == [
        "web-resize",
        "proxy-family",
        "proxy-flood",
        "rlogin-resize",
    ]
    assert select_attacks("all", ALL_ATTACKS, GROUPS) == list(ALL_ATTACKS)
    new = select_attacks("new", ALL_ATTACKS, GROUPS)
    assert "cluster-redis" in new and "web-tunnel-flood" in new and "flood-telnet" not in new
    assert select_attacks("tunnel", ALL_ATTACKS, GROUPS) == ["web-tunnel-flood"]


@pytest.mark.parametrize("text", ["webb", "web,nothing", " , "])
def test_only_refuses_what_names_no_attack(text: str) -> None:
    with pytest.raises(ValueError, match="unknown attacks|no attack"):
        select_attacks(text, ALL_ATTACKS, GROUPS)


def test_every_attack_has_an_attacker_and_every_group_names_attacks() -> None:
    assert set(ALL_ATTACKS) - {"cluster-redis"} == set(attacks.ATTACKERS)
    for members in GROUPS.values():
        assert set(members) <= set(ALL_ATTACKS)


def test_the_bench_runs_its_own_checkout_unless_told_another(tmp_path: Path) -> None:
    parser = attacks.build_parser()
    defaults = parser.parse_args([])
    assert defaults.repo == BENCH.parent
    assert defaults.only == "old"  # as the bench ran before it knew the new doors
    other = parser.parse_args(["--only", "web,proxy", "--repo", str(tmp_path / "x" / "..")])
    assert other.repo == tmp_path and other.only == "web,proxy"
    assert parser.parse_args(["--attacks", "silent"]).only == "silent"  # the old flag
    assert attacks.server_environment(tmp_path)["PYTHONPATH"] == str(tmp_path)


def test_each_door_under_attack_is_turned_on_in_the_servers_config() -> None:
    import tomllib

    assert tomllib.loads(attacks.server_config("web-refused", 8080, 513)) == {"web": {"port": 8080}}
    rlogin = tomllib.loads(attacks.server_config("rlogin-resize", 8080, 513))["rlogin"]
    assert rlogin == {"port": 513, "systems": {"127.0.0.2": "ATTACK"}}
    proxy = tomllib.loads(attacks.server_config("proxy-flood", 8080, 513))["server"]
    assert proxy["proxy_protocol"] is True
    assert "127.0.0.3" not in proxy["proxy_addresses"]  # the untrusted balancer
    assert attacks.server_config("flood-telnet", 8080, 513) == ""


def test_sessions_are_read_from_the_lobbys_rule() -> None:
    screen = "Cribbage Door\n---- Who is on (2) ----------\n 1 Witness\n 2 Tunneller\n"
    assert sessions_shown(screen) == 2
    assert sessions_shown("L log in  N new account  G guest") is None


def test_log_lines_errors_and_tracebacks_are_counted() -> None:
    log = "\n".join(
        [
            "2026-11-27 19:00:00,000 INFO web: refused",
            "2026-11-27 19:00:00,001 ERROR Task exception was never retrieved",
            "Traceback (most recent call last):",
            '  File "x.py", line 1, in <module>',
            "OverflowError: cannot convert float infinity to integer",
            "2026-11-27 19:00:00,002 WARNING closed a connection from 127.0.0.3:5",
        ]
    )
    assert LogCount.of(log) == LogCount(lines=6, errors=1, tracebacks=1)
    assert LogCount.of("") == LogCount(0, 0, 0)


def test_percentiles_are_in_milliseconds() -> None:
    values = [n / 1000 for n in range(1, 101)]  # 1 ms .. 100 ms
    assert percentile(values, 0.5) == pytest.approx(51.0)
    assert percentile(values, 0.95) == pytest.approx(96.0)
    assert percentile([], 0.95) == 0.0


def test_the_table_shows_each_run_on_a_row_and_what_it_found_below() -> None:
    runs = [
        Figures(
            "web-tunnel-flood",
            latencies=[0.001, 0.002, 0.064],
            cpu_during=17.25,
            rss_before=140,
            rss_peak=205.4,
            rss_after=150,
            fds_before=13,
            fds_peak=613,
            fds_after=14,
            log=LogCount(947, 105, 105),
            sessions_left=1,
            seconds=31,
            found={"frames_sent": 1648},
        ),
        Figures("cluster-redis", found={"sigterm_stop_s": 0.9}),
    ]
    plain = table(runs).splitlines()
    assert plain[0].split()[0] == "attack"
    assert plain[1].split()[:4] == ["web-tunnel-flood", "31", "3", "2.0"]
    assert "140/205/150" in plain[1] and "13/613/14" in plain[1] and "947 (105, 105)" in plain[1]
    assert plain[2].split()[-1] == "-"  # no lobby to count sessions in
    assert plain[4:] == ["web-tunnel-flood: frames_sent=1648", "cluster-redis: sigterm_stop_s=0.9"]
    markdown = table(runs, markdown=True).splitlines()
    assert markdown[1] == "|" + "|".join("---" for _ in COLUMNS) + "|"
    assert all(line.count("|") == len(COLUMNS) + 1 for line in markdown[:4])
    assert markdown[-1] == "- cluster-redis: sigterm_stop_s=0.9"


@pytest.mark.parametrize(
    ("target", "kind"),
    [
        ("socket:[1702544]", "sockets"),
        ("pipe:[1702356]", "pipes"),
        ("/tmp/srv/cribbage.sqlite3", "database"),
        ("/tmp/srv/cribbage.sqlite3-wal", "database"),
        ("/tmp/srv/cribbage.sqlite3-shm", "database"),
        ("/tmp/srv/server.log", "other"),
        ("anon_inode:[eventpoll]", "other"),
        ("/dev/null", "other"),
    ],
)
def test_each_descriptor_is_counted_by_what_it_is(target: str, kind: str) -> None:
    counted = Descriptors.of([target, target])
    assert getattr(counted, kind) == 2 and counted.total == 2


BEFORE = Descriptors(sockets=4, pipes=1, database=3, other=5)


@pytest.mark.parametrize(
    ("after", "left"),
    [
        (BEFORE, None),
        (Descriptors(sockets=2, pipes=1, database=3, other=5), None),  # fewer: closed
        # The pool opened more connections under the attack and keeps them: bounded.
        (Descriptors(sockets=4, pipes=1, database=DATABASE_FDS_KEPT, other=5), None),
        (Descriptors(sockets=6, pipes=1, database=3, other=5), "sockets 4 -> 6"),
        (Descriptors(sockets=4, pipes=3, database=3, other=6), "pipes 1 -> 3; other files 5 -> 6"),
        (
            Descriptors(sockets=4, pipes=1, database=DATABASE_FDS_KEPT + 2, other=5),
            f"database files 3 -> {DATABASE_FDS_KEPT + 2}",
        ),
    ],
)
def test_what_an_attack_left_open_is_named(after: Descriptors, left: str | None) -> None:
    figures = Figures("web-arrival-keys", fds_kinds_before=BEFORE, fds_kinds_after=after)
    assert figures.leaked == left


def test_the_descriptors_of_a_live_process_follow_its_sockets() -> None:
    import os
    import socket

    before = attacks.descriptor_kinds(os.getpid())
    first, second = socket.socketpair()
    try:
        held = attacks.descriptor_kinds(os.getpid())
        assert held.sockets == before.sockets + 2
        assert Figures("x", fds_kinds_before=before, fds_kinds_after=held).leaked == (
            f"sockets {before.sockets} -> {before.sockets + 2}"
        )
    finally:
        first.close()
        second.close()
    assert attacks.descriptor_kinds(os.getpid()).sockets == before.sockets
