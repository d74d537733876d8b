"""What the store raises. Every message is written to be shown to a caller as it is.

::

    StoreError
    ├── StorageUnavailableError   the database cannot be opened, read or written:
    │                             callers can still play as guests
    ├── GameNotFoundError
    ├── CompetitionNotFoundError  no such match, tournament or play-by-mail game
    │   └── PbmGameChangedError   (door/storage/pbm_games.py) it moved on meanwhile
    └── AccountError
        ├── HandleError           a handle that breaks the rules
        │   └── HandleTakenError  ...or that someone already has (in any case)
        ├── PasswordRuleError     a password that breaks the rules
        ├── LoginError            wrong handle or password
        │   └── AccountLockedError  too many wrong passwords: try again later
        ├── PasswordResetRequired a reset code typed as the password: choose a new one
        ├── MemberLockedError     the sysop locked the account (why, and until when)
        ├── UnknownMemberError    no member has that handle (the sysop's tools)
        └── SshKeyError           a public key that cannot be read or is someone else's
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class of everything the store raises on purpose."""


class StorageUnavailableError(StoreError):
    """The database cannot be used. ``str()`` is for callers; ``detail`` says for the
    sysop's log which database and what went wrong."""

    def __init__(self, message: str, detail: str = "", reason: str = "") -> None:
        super().__init__(message)
        self.detail = detail or message
        self.reason = reason or message
        """Why, in a few words ("the disk is full"), for a line that has room for no
        more: the message tells a caller at log-in what they may still do."""


class GameNotFoundError(StoreError):
    """No game has that number (or it is no longer open to save)."""


class CompetitionNotFoundError(StoreError):
    """No match, tournament or play-by-mail game has that number (or it is over)."""


class AccountError(StoreError):
    """Something about an account, its handle, password or keys."""


class HandleError(AccountError):
    """A handle that breaks the rules."""


class HandleTakenError(HandleError):
    """A handle someone already has, compared without regard to case."""


class PasswordRuleError(AccountError):
    """A new password that breaks the rules (too short, the handle, control characters)."""


class LoginError(AccountError):
    """Wrong handle or password; deliberately does not say which."""


class AccountLockedError(LoginError):
    """Too many wrong passwords in a short time; ``seconds_left`` until the lock lifts."""

    def __init__(self, message: str, seconds_left: int) -> None:
        super().__init__(message)
        self.seconds_left = seconds_left


class PasswordResetRequired(AccountError):
    """The member typed the reset code the sysop gave them as their password: they log in
    once they have chosen a new password (``Store.reset_password``). Not a LoginError:
    the code was right."""

    def __init__(self, account_id: int, handle: str) -> None:
        super().__init__(f"{handle}: your reset code is right. Choose a new password.")
        self.account_id = account_id
        self.handle = handle


class MemberLockedError(AccountError):
    """The sysop locked the account; the message says why and until when."""


class UnknownMemberError(AccountError):
    """No member has the handle the sysop named."""


class SshKeyError(AccountError):
    """A public key that cannot be read, or that belongs to another account."""


def briefly(error: BaseException) -> str:
    """What went wrong in a few words, for a message line: a database that cannot be
    used gives its reason ("the disk is full"), not the advice said at log-in."""
    return error.reason if isinstance(error, StorageUnavailableError) else str(error)


def refusal(error: BaseException) -> str:
    """A store's refusal as a sentence for a message line: a rule's own words ("that
    handle is taken"), or, for a database that cannot be used, that and why in a few words
    (its message is the advice a caller gets at log-in: play as a guest)."""
    if isinstance(error, StorageUnavailableError):
        return f"The database cannot be used now: {error.reason}."
    return str(error)
