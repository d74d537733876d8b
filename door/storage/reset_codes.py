"""One-time password reset codes: made for the sysop to give a member, kept only as a
hash, recognised when the member types one as their password.

A code is 12 characters of an alphabet without look-alikes (no 0/O, 1/I/L), 60 random
bits, shown in groups of four. That is far too many to guess within the log-in limits,
so a fast hash (SHA-256) keeps it as safely as argon2 would a password, and checking one
costs nothing on a wrong password.

>>> normalized("abcd-efgh-jkmn")
'ABCDEFGHJKMN'
>>> normalized("a wrong password") is None
True
>>> len(shown(new_code()))
14
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from typing import Final

CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH: Final = 12
GROUP: Final = 4
VALID_FOR: Final = dt.timedelta(hours=24)


def new_code() -> str:
    """A fresh code, as ``normalized`` gives it."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def shown(code: str) -> str:
    """The code in groups of four, as the sysop reads it out: ``ABCD-EFGH-JKMN``."""
    return "-".join(code[start : start + GROUP] for start in range(0, len(code), GROUP))


def normalized(typed: str) -> str | None:
    """``typed`` as a code (any case, with or without the dashes and spaces), or None
    when it cannot be one (then it is only a password)."""
    text = "".join(typed.split()).replace("-", "").upper()
    if len(text) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in text):
        return None
    return text


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode("ascii")).hexdigest()


def matches(stored_hash: str, typed: str) -> bool:
    """Whether ``typed`` is the code whose hash is ``stored_hash`` (compared in constant
    time)."""
    code = normalized(typed)
    return code is not None and hmac.compare_digest(code_hash(code), stored_hash)
