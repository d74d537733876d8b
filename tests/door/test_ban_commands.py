"""``cribbage-door ban add|list|remove`` (door/ban_commands.py): what each prints, its one
line for bad input and its exit code; the sysop's own addresses need --force; every
change is in the audit as ``shell:<unix user>``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from door.cli import main
from door.storage.store import Store


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    async def make() -> None:
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'cribbage.sqlite3'}")
        await store.close()

    asyncio.run(make())
    return tmp_path


def ban(data_dir: Path, *args: str) -> int:
    return main(["ban", *args, "--data-dir", str(data_dir)])


@pytest.mark.parametrize(
    ("args", "code", "says"),
    [
        (["add", "10.0.0.256", "--reason", "x"], 2, "'10.0.0.256' is not an address"),
        (["add", "handle:", "--reason", "x"], 2, "handle: needs a name"),
        (["add", "10.0.0.1", "--reason", "  "], 2, "give a reason"),
        (["add", "10.0.0.1", "--reason", "x", "--hours", "0"], 2, "--hours must be more than 0"),
        (["add", "127.0.0.0/8", "--reason", "x"], 1, "covers 127.0.0.1, one of the sysop's own"),
        (["add", "::/0", "--reason", "x"], 1, "covers ::1"),
        (["remove", "7"], 1, "there is no ban in force numbered 7"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(
    data_dir: Path, capsys: pytest.CaptureFixture[str], args: list[str], code: int, says: str
) -> None:
    assert ban(data_dir, *args) == code
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith(f"cribbage-door ban {args[0]}: ") and says in err
    assert ban(data_dir, "list") == 0
    assert capsys.readouterr().out == "no bans in force\n"  # and nothing was kept


def test_the_shells_own_ssh_address_needs_force(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SSH_CLIENT", "198.51.100.7 50022 22")
    assert ban(data_dir, "add", "198.51.100.0/24", "--reason", "x") == 1
    assert "covers 198.51.100.7" in capsys.readouterr().err
    assert ban(data_dir, "add", "198.51.100.0/24", "--reason", "a noisy network", "--force") == 0
    assert capsys.readouterr().out == "ban #1: 198.51.100.0/24 for good (a noisy network)\n"


def test_add_list_remove_and_the_audit(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert ban(data_dir, "add", "2001:db8::/32", "--reason", "spam", "--hours", "2") == 0
    assert ban(data_dir, "add", "handle:Mallory", "--reason", "abuse") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("ban #1: 2001:db8::/32 until ") and out[0].endswith(" UTC (spam)")
    assert out[1] == "ban #2: handle:Mallory for good (abuse)"
    assert ban(data_dir, "list") == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0].split() == ["id", "target", "ends", "by", "reason"]
    assert listed[1].split()[:3] == ["1", "2001:db8::/32", "until"]
    assert listed[2].split()[:4] == ["2", "handle:Mallory", "for", "good"]
    assert ban(data_dir, "remove", "1") == 0
    assert capsys.readouterr().out == "ban #1 on 2001:db8::/32 lifted\n"

    async def audit() -> list[tuple[str, str, str | None]]:
        store = await Store.open(f"sqlite+aiosqlite:///{data_dir / 'cribbage.sqlite3'}")
        try:
            return [(e.actor, e.action, e.target) for e in await store.recorded_actions()]
        finally:
            await store.close()

    entries = asyncio.run(audit())
    assert [(action, target) for _, action, target in entries] == [
        ("ban.remove", "2001:db8::/32"),
        ("ban.add", "handle:Mallory"),
        ("ban.add", "2001:db8::/32"),
    ]
    assert all(actor.startswith("shell:") for actor, _, _ in entries)


def test_a_missing_database_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert ban(tmp_path, "list") == 1
    assert "there is no database at" in capsys.readouterr().err


def test_an_address_the_sysop_called_from_needs_force(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def sysop_called() -> None:
        store = await Store.open(f"sqlite+aiosqlite:///{data_dir / 'cribbage.sqlite3'}")
        try:
            await store.sysop_came_from("203.0.113.9")  # as the door keeps it
        finally:
            await store.close()

    asyncio.run(sysop_called())
    assert ban(data_dir, "add", "203.0.113.0/24", "--reason", "x") == 1
    assert "covers 203.0.113.9, one of the sysop's own addresses" in capsys.readouterr().err


def test_a_linked_bbss_address_needs_whole_bbs(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every caller of NODES comes from 198.51.100.4 (door/transports/rlogin.py): banning
    # it is barring them all, which the old code did without a word.
    config = data_dir / "door.toml"
    config.write_text('[rlogin]\nport = 0\nsystems = { "198.51.100.4" = "NODES" }\n')
    args = ["--config", str(config)]
    assert ban(data_dir, "add", "198.51.100.0/24", "--reason", "x", *args) == 1
    err = capsys.readouterr().err
    assert "would bar every caller of NODES" in err and "--whole-bbs bans it anyway" in err
    assert ban(data_dir, "list", *args) == 0
    assert capsys.readouterr().out == "no bans in force\n"
    assert ban(data_dir, "add", "handle:Zed", "--reason", "rude", *args) == 0
    assert ban(data_dir, "add", "198.51.100.4", "--reason", "a flood", "--whole-bbs", *args) == 0
    assert capsys.readouterr().out.splitlines() == [
        "ban #1: handle:Zed for good (rude)",
        "ban #2: 198.51.100.4 for good (a flood)",
    ]
