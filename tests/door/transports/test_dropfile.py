"""DOOR32.SYS and DOOR.SYS, as real BBS software writes them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from door.transports.dropfile import (
    CommType,
    DropFileError,
    Emulation,
    parse_door32,
    parse_door_sys,
    read_drop_file,
)

# As Synchronet writes it for a telnet caller on node 3 (CRLF line ends).
DOOR32 = (
    "2\r\n412\r\n38400\r\nSynchronet 3.20\r\n17\r\nAda Lovelace\r\nAda\r\n90\r\n42\r\n1\r\n3\r\n"
)


def door_sys(alias: str = "Stud", graphics: str = "GR", port: str = "COM0:") -> str:
    """A 52-line DOOR.SYS with the fields the door reads set, the rest as in the spec."""
    lines = ["x"] * 52
    lines[0] = port
    lines[3] = "2"  # node
    lines[9] = "Rick Greer"
    lines[14] = "110"  # security level
    lines[18] = "126"  # minutes left
    lines[19] = graphics
    lines[25] = "7"  # user record number
    lines[35] = alias
    return "\r\n".join(lines) + "\r\n"


def test_door32_gives_every_field() -> None:
    drop = parse_door32(DOOR32)
    assert drop.comm_type is CommType.TELNET and drop.handle == 412
    assert (drop.bbs_name, drop.user_number, drop.node) == ("Synchronet 3.20", 17, 3)
    assert (drop.real_name, drop.alias, drop.caller_name) == ("Ada Lovelace", "Ada", "Ada")
    assert (drop.security_level, drop.minutes_left) == (90, 42)
    assert drop.emulation is Emulation.ANSI and drop.emulation.has_ansi


def test_door_sys_gives_the_same_meaning() -> None:
    drop = parse_door_sys(door_sys())
    assert drop.comm_type is CommType.LOCAL
    assert (drop.real_name, drop.alias, drop.caller_name) == ("Rick Greer", "Stud", "Stud")
    assert (drop.security_level, drop.minutes_left, drop.user_number, drop.node) == (
        110,
        126,
        7,
        2,
    )
    assert drop.emulation is Emulation.ANSI


def test_door_sys_without_an_alias_uses_the_real_name() -> None:
    assert parse_door_sys(door_sys(alias="")).caller_name == "Rick Greer"


@pytest.mark.parametrize(
    ("mode", "emulation"),
    [("NG", Emulation.ASCII), ("7E", Emulation.ASCII), ("rip", Emulation.RIP)],
)
def test_door_sys_graphics_modes(mode: str, emulation: Emulation) -> None:
    assert parse_door_sys(door_sys(graphics=mode)).emulation is emulation


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2\r\n412\r\n", "2 lines"),
        (DOOR32.replace("2\r\n412", "9\r\n412", 1), "line 1 (comm type) is 9"),
        (DOOR32.replace("\r\n412\r\n", "\r\nsock\r\n"), "line 2 (comm handle) is 'sock'"),
        (DOOR32.replace("\r\n42\r\n", "\r\n-5\r\n"), "line 9 (minutes left) is '-5', not a number"),
        (DOOR32.replace("\r\n1\r\n3\r\n", "\r\n7\r\n3\r\n"), "line 10 (emulation) is 7"),
        (DOOR32.replace("Ada Lovelace\r\nAda", "\r\n"), "give the caller no name"),
    ],
)
def test_a_bad_door32_names_the_line(text: str, message: str) -> None:
    with pytest.raises(DropFileError, match=re.escape(message)):
        parse_door32(text)


def test_a_bad_door_sys_names_the_line() -> None:
    with pytest.raises(DropFileError, match="line 1 .comm port."):
        parse_door_sys(door_sys(port="LPT1"))
    with pytest.raises(DropFileError, match="line 20 .graphics mode."):
        parse_door_sys(door_sys(graphics="XX"))


def test_names_cannot_carry_control_sequences() -> None:
    drop = parse_door32(DOOR32.replace("\r\nAda\r\n", "\r\n\x1b[2JAda\x07" + "x" * 100 + "\r\n"))
    assert drop.alias.startswith("Ada") and "\x1b" not in drop.alias and "\x07" not in drop.alias
    assert len(drop.alias) <= 40


def test_a_folder_is_searched_for_either_name_in_any_case(tmp_path: Path) -> None:
    (tmp_path / "DOOR.SYS").write_text(door_sys())
    assert read_drop_file(tmp_path).alias == "Stud"
    (tmp_path / "Door32.Sys").write_text(DOOR32)
    assert read_drop_file(tmp_path).alias == "Ada"  # DOOR32.SYS first


def test_missing_and_oversized_files(tmp_path: Path) -> None:
    with pytest.raises(DropFileError, match="no DOOR32.SYS or DOOR.SYS"):
        read_drop_file(tmp_path)
    with pytest.raises(DropFileError, match="cannot read it"):
        read_drop_file(tmp_path / "door32.sys")
    (tmp_path / "door32.sys").write_bytes(b"2\r\n" * 40_000)
    with pytest.raises(DropFileError, match="not a drop file"):
        read_drop_file(tmp_path / "door32.sys")


def door32_with(line: int, value: str) -> str:
    lines = DOOR32.split("\r\n")
    lines[line - 1] = value
    return "\r\n".join(lines)


@pytest.mark.parametrize(
    ("line", "value", "message"),
    [
        pytest.param(9, "9" * 60_000, "line 9 (minutes left)", id="60,000 digits"),
        pytest.param(9, "9" * 400, "line 9 (minutes left)", id="400 digits"),
        pytest.param(9, "٤٢", "line 9 (minutes left)", id="digits not ASCII"),
        pytest.param(2, "9" * 20, "line 2 (comm handle)", id="20-digit handle"),
        pytest.param(2, "2147483648", "line 2 (comm handle)", id="handle over a C int"),
        pytest.param(5, "1" * 5000, "line 5 (user record number)", id="5,000 digits"),
        pytest.param(11, "³", "line 11 (node number)", id="superscript"),
    ],
)
def test_hostile_numbers_are_refused_in_one_short_line(line: int, value: str, message: str) -> None:
    with pytest.raises(DropFileError) as refused:
        parse_door32(door32_with(line, value))
    text = str(refused.value)
    assert message in text
    assert len(text) < 160 and "\n" not in text


def test_a_large_minutes_left_is_taken_as_a_week() -> None:
    assert parse_door32(door32_with(9, "5000")).minutes_left == 5000
    assert parse_door32(door32_with(9, "32767")).minutes_left == 7 * 24 * 60
    assert parse_door32(door32_with(9, "999999999")).minutes_left == 7 * 24 * 60


@pytest.mark.parametrize("port", ["COM²:", "COM¹", "COM99999999999999999999:", "COM256:", "COM:"])
def test_a_door_sys_comm_port_must_be_ascii_digits(port: str) -> None:
    with pytest.raises(DropFileError, match="line 1 .comm port."):
        parse_door_sys(door_sys(port=port))


def test_a_control_character_in_a_name_does_not_shift_the_lines() -> None:
    drop = parse_door32(DOOR32.replace("Ada Lovelace", "Ada\x1cLovelace\x85"))
    assert (drop.minutes_left, drop.node) == (42, 3)


def test_fifos_and_devices_are_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "door32.sys"
    os.mkfifo(fifo)
    with pytest.raises(DropFileError, match="not a regular file"):
        read_drop_file(fifo)  # before, this open waited for a writer for ever
    with pytest.raises(DropFileError, match="not a regular file"):
        read_drop_file(tmp_path)  # the FIFO found in the node's folder
    with pytest.raises(DropFileError, match="not a regular file"):
        read_drop_file(Path("/dev/zero"))


def test_a_path_with_control_characters_is_named_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "node\x1b[2J\n1"
    folder.mkdir()
    with pytest.raises(DropFileError) as refused:
        read_drop_file(folder)
    assert "\x1b" not in str(refused.value) and "\n" not in str(refused.value)
