"""Account rules: handles, passwords and public keys, each rule with a message."""

from __future__ import annotations

import base64
import doctest
import unicodedata

import asyncssh
import pytest

import door.storage.rules
from door.storage.errors import HandleError, PasswordRuleError, SshKeyError
from door.storage.rules import check_handle, check_password, handle_key, normalize_public_key

GOOD_HANDLES = [
    ("Ada", "Ada"),
    ("  Ada   Lovelace  ", "Ada Lovelace"),
    ("x_-.9", "x_-.9"),
    ("Ab", "Ab"),
    ("A" * 20, "A" * 20),
]

BAD_HANDLES = [
    ("", "at least 2"),
    ("   ", "at least 2"),
    ("A", "at least 2"),
    ("A" * 21, "at most 20"),
    ("A" * 400, "that one has 400"),
    ("Ada\x00", "control characters"),
    ("Ada\x07bell", "control characters"),
    ("Ada\r\nroot", "control characters"),
    ("\x1b[31mRed", "control characters"),
    ("Ada\u202eevil", "control characters"),  # right-to-left override
    ("Ada!", "'!' is not one"),
    ("Ad@m", "'@' is not one"),
    ("Αda", "'Α' is not one"),  # a Greek capital alpha that looks like A
    ("_ada", "start with a letter"),
    ("7up", "start with a letter"),
    ("NEW", "kept for the door"),
    ("Computer", "kept for the door"),
]


@pytest.mark.parametrize(("text", "kept"), GOOD_HANDLES)
def test_a_good_handle_is_kept_tidied(text: str, kept: str) -> None:
    assert check_handle(text) == kept


@pytest.mark.parametrize(("text", "complaint"), BAD_HANDLES)
def test_a_bad_handle_says_which_rule_it_breaks(text: str, complaint: str) -> None:
    with pytest.raises(HandleError) as refused:
        check_handle(text)
    message = str(refused.value)
    assert complaint in message
    # The message goes back to the caller's screen: it must be safe to show.
    assert not any(unicodedata.category(char).startswith("C") for char in message)


def test_handles_are_compared_without_case_or_extra_spaces() -> None:
    assert handle_key("Ada  LOVELACE") == handle_key(" ada lovelace ") == "ada lovelace"


@pytest.mark.parametrize(
    ("password", "complaint"),
    [
        ("short", "at least 8"),
        ("x" * 129, "at most 128"),
        ("pass\x1bword", "control characters"),
        ("ADA LOVELACE", "cannot be your handle"),
    ],
)
def test_a_bad_password_says_why(password: str, complaint: str) -> None:
    with pytest.raises(PasswordRuleError, match=complaint):
        check_password(password, "Ada Lovelace")


def test_a_good_password_passes() -> None:
    check_password("correct horse battery", "Ada")
    check_password("x" * 128, "Ada")


@pytest.mark.parametrize("algorithm", ["ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256"])
def test_an_openssh_key_line_is_kept_as_type_and_data(algorithm: str) -> None:
    options = {"key_size": 1024} if algorithm == "ssh-rsa" else {}
    key = asyncssh.generate_private_key(algorithm, **options)
    line = key.export_public_key().decode().strip()
    key_type, data = line.split()[:2]
    assert normalize_public_key(f"  {line} someone@somewhere \n") == f"{key_type} {data}"


def _blob_of(key_type: str) -> str:
    name = key_type.encode()
    return base64.b64encode(len(name).to_bytes(4, "big") + name + b"\x00" * 32).decode()


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("", "not an OpenSSH public key"),
        ("ssh-ed25519", "not an OpenSSH public key"),
        ("ssh-dss AAAAB3NzaC1kc3M=", "not accepted"),
        ("ssh-ed25519 not*base64", "damaged"),
        (f"ssh-ed25519 {_blob_of('ssh-rsa')}", "does not match"),
    ],
)
def test_a_bad_public_key_says_why(line: str, complaint: str) -> None:
    with pytest.raises(SshKeyError, match=complaint):
        normalize_public_key(line)


def test_module_examples() -> None:
    assert doctest.testmod(door.storage.rules).failed == 0
