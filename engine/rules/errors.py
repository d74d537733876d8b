"""The engine's exceptions.

Every message is written to be shown to a caller as it is.
"""


class CribbageError(ValueError):
    """Base class of everything the engine raises on bad input."""


class NotationError(CribbageError):
    """A card, hand or number could not be read."""


class IllegalActionError(CribbageError):
    """A well-formed action that the rules or the turn order forbid now."""


class InvalidClaimError(CribbageError):
    """A show count claim that is not a whole number from 0 to 29."""
