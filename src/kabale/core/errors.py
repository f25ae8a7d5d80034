"""The one exception tree of kabale: every error a caller can cause is a KabaleError."""

from __future__ import annotations

from .refusal import Refusal


class KabaleError(ValueError):
    """Base of every error kabale raises for bad input (a ValueError, so either catch works)."""


class NotationError(KabaleError):
    """Text that is not a move, card, variant or deal id in kabale's notation."""


class IllegalMoveError(KabaleError):
    """A well-formed move the rules refuse in the current position; the game is unchanged.
    ``refusal``: why, as a reason key and its parameters (core/refusal.py), when the rules
    refused the move (None for "nothing to undo" and the like)."""

    def __init__(self, message: str, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal


class InvalidDealError(KabaleError):
    """A deal id, deck or seed that does not describe a deal of the variant."""


class InvalidSaveError(KabaleError):
    """A saved game that is truncated, tampered with or inconsistent; nothing is loaded."""


def quoted(value: object, limit: int = 60) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
