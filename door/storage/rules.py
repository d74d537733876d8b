"""Account rules, checked before anything is stored: handles, passwords, SSH public keys.

>>> check_handle("  Ada  Lovelace ")
'Ada Lovelace'
>>> handle_key("Ada Lovelace")
'ada lovelace'
>>> check_handle("1st")
Traceback (most recent call last):
door.storage.errors.HandleError: A handle must start with a letter.
"""

from __future__ import annotations

import base64
import binascii
import string
import unicodedata
from collections.abc import Collection, Iterator
from typing import Final

from door.storage.errors import HandleError, PasswordRuleError, SshKeyError

MIN_HANDLE_LENGTH: Final = 2
MAX_HANDLE_LENGTH: Final = 20
HANDLE_CHARACTERS: Final = frozenset(string.ascii_letters + string.digits + " _-.")
# Names the door itself uses: SSH users "new" (sign up) and "guest", the computer player.
RESERVED_HANDLES: Final = frozenset({"new", "guest", "computer", "sysop"})

MIN_PASSWORD_LENGTH: Final = 8
MAX_PASSWORD_LENGTH: Final = 128

SSH_KEY_TYPES: Final = frozenset(
    {
        "ssh-ed25519",
        "ssh-rsa",
        "ecdsa-sha2-nistp256",
        "ecdsa-sha2-nistp384",
        "ecdsa-sha2-nistp521",
        "sk-ssh-ed25519@openssh.com",
        "sk-ecdsa-sha2-nistp256@openssh.com",
    }
)


def _has_control_characters(text: str) -> bool:
    # Category C: controls, format characters (bidi overrides), unassigned, private use.
    return any(unicodedata.category(char).startswith("C") for char in text)


def check_handle(text: str, reserved: Collection[str] = ()) -> str:
    """The handle as it will be kept, with surrounding spaces dropped and inner runs of
    spaces made one. Raises HandleError saying which rule it breaks.

    Only ASCII letters count, so that no two handles can look alike on screen. Besides
    RESERVED_HANDLES, ``reserved`` names more that nobody may take (the sysop's name).
    """
    if _has_control_characters(text):
        raise HandleError("A handle cannot contain control characters.")
    handle = " ".join(text.split())
    if len(handle) < MIN_HANDLE_LENGTH:
        raise HandleError(f"A handle needs at least {MIN_HANDLE_LENGTH} characters.")
    if len(handle) > MAX_HANDLE_LENGTH:
        raise HandleError(
            f"A handle can be at most {MAX_HANDLE_LENGTH} characters long "
            f"(that one has {len(handle)})."
        )
    bad = next((char for char in handle if char not in HANDLE_CHARACTERS), None)
    if bad is not None:
        raise HandleError(
            f"A handle may use only letters A-Z, digits, spaces and _ - . ({bad!r} is not one)."
        )
    if not handle[0].isalpha():
        raise HandleError("A handle must start with a letter.")
    key = handle_key(handle)
    if key in RESERVED_HANDLES or key in {handle_key(name) for name in reserved}:
        raise HandleError(f'"{handle}" is kept for the door itself: choose another handle.')
    return handle


def handle_key(handle: str) -> str:
    """What two handles are compared by: "Ada", "ADA" and " ada " are one handle."""
    return " ".join(handle.split()).lower()


def check_password(password: str, handle: str) -> None:
    """Raise PasswordRuleError unless ``password`` is fit for the account ``handle``."""
    if _has_control_characters(password):
        raise PasswordRuleError("A password cannot contain control characters.")
    if len(password) < MIN_PASSWORD_LENGTH:
        raise PasswordRuleError(f"A password needs at least {MIN_PASSWORD_LENGTH} characters.")
    if len(password) > MAX_PASSWORD_LENGTH:
        raise PasswordRuleError(f"A password can be at most {MAX_PASSWORD_LENGTH} characters.")
    if handle_key(password) == handle_key(handle):
        raise PasswordRuleError("Your password cannot be your handle.")


def normalize_public_key(text: str) -> str:
    """An OpenSSH public key line (``ssh-ed25519 AAAA... comment``) as ``type base64``,
    the form keys are stored and compared in. Raises SshKeyError if it is not one.
    """
    fields = text.strip().split()
    if len(fields) < 2:
        raise SshKeyError("That is not an OpenSSH public key: expected 'ssh-ed25519 AAAA...'.")
    key_type, encoded = fields[0], fields[1]
    if key_type not in SSH_KEY_TYPES:
        raise SshKeyError(f"Keys of type {key_type[:40]!r} are not accepted.")
    try:
        blob = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise SshKeyError("The key's base64 part is damaged.") from None
    # The blob starts with its own type as an SSH string: a length, then the name.
    length = int.from_bytes(blob[:4], "big")
    if len(blob) < 4 + length or blob[4 : 4 + length] != key_type.encode("ascii"):
        raise SshKeyError("The key's data does not match its type.")
    return f"{key_type} {encoded}"


def handle_candidates(name: str, reserved: Collection[str] = ()) -> Iterator[str]:
    """Handles for someone who already has a ``name`` elsewhere (a BBS alias), best
    first: the name made to fit the rules, then with a number added (for when a member
    here has it already)."""
    # Accents go (Ünïcode -> Unicode); anything else outside the handle rules is dropped.
    plain = unicodedata.normalize("NFKD", " ".join(name.split()))
    kept = "".join(char for char in plain if char in HANDLE_CHARACTERS)
    base = kept.lstrip(" _-.0123456789").strip()[:MAX_HANDLE_LENGTH].strip()
    if len(base) < MIN_HANDLE_LENGTH or handle_key(base) in RESERVED_HANDLES:
        base = "Caller"
    try:
        first: str | None = check_handle(base, reserved)
    except HandleError:
        first = None  # the sysop's name, say: only numbered forms of it will do
    if first is not None:
        yield first
    for number in range(2, 1000):
        suffix = f" {number}"
        yield check_handle(base[: MAX_HANDLE_LENGTH - len(suffix)].strip() + suffix, reserved)
