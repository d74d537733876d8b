"""The sysop's credentials: the password hash kept in config/door.toml, and its check.

The config never holds the password, only a hash: argon2id when ``argon2-cffi`` is
installed, else the standard library's scrypt (``scrypt$n$r$p$salt$hash``, base64).
Either kind is checked wherever the door runs, as long as argon2 hashes meet argon2-cffi.

>>> stored = hash_password("wombat", prefer_argon2=False)
>>> stored.startswith("scrypt$"), verify_password(stored, "wombat"), verify_password(stored, "x")
(True, True, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Final

SCRYPT_N: Final = 2**14
SCRYPT_R: Final = 8
SCRYPT_P: Final = 1
SALT_BYTES: Final = 16


def hash_password(password: str, *, prefer_argon2: bool = True) -> str:
    """A hash of ``password`` to paste into ``[sysop] password_hash``."""
    if prefer_argon2:
        try:
            from argon2 import PasswordHasher
        except ImportError:
            pass
        else:
            return str(PasswordHasher().hash(password))
    salt = secrets.token_bytes(SALT_BYTES)
    digest = _scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return "$".join(
        ("scrypt", str(SCRYPT_N), str(SCRYPT_R), str(SCRYPT_P), _b64(salt), _b64(digest))
    )


def verify_password(stored: str, password: str) -> bool:
    """Whether ``password`` matches ``stored``; False for an empty or unreadable hash."""
    if stored.startswith("$argon2"):
        try:
            from argon2 import PasswordHasher
            from argon2.exceptions import Argon2Error
        except ImportError:
            return False
        try:
            return bool(PasswordHasher().verify(stored, password))
        except (Argon2Error, ValueError):
            return False
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        return False
    try:
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt, expected = _unb64(parts[4]), _unb64(parts[5])
        digest = _scrypt(password, salt, n, r, p, len(expected))
    except (ValueError, MemoryError):
        return False
    return hmac.compare_digest(digest, expected)


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int, length: int = 32) -> bytes:
    return hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=length, maxmem=64 * 1024 * 1024
    )


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text.encode("ascii"), validate=True)
