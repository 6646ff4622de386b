"""Errors of the pattern-set layer.

`PatternError` is raised for a definition that cannot be loaded (a bad field,
a pattern that either engine rejects); `UnknownPatternSet` for an id that is
not loaded. Both derive from `reference.errors.StoreError`.
"""
from __future__ import annotations

from reference.errors import NotFound, StoreError


class PatternError(StoreError, ValueError):
    """A pattern-set definition cannot be loaded; nothing of that set was loaded.

    `set_id` names the set (or None when the id itself is bad), `index` the
    offending pattern's position in `patterns` (None for a set-level problem)
    and `reason` the engine's or validator's message.
    """

    def __init__(self, message: str, *, set_id: str | None = None, index: int | None = None,
                 reason: str | None = None) -> None:
        super().__init__(message)
        self.set_id = set_id
        self.index = index
        self.reason = reason or message


class UnknownPatternSet(NotFound):
    """A pattern-set id that is not loaded; the message lists the loaded ids."""

    def __init__(self, set_id: str, known: list[str]) -> None:
        listing = ", ".join(sorted(known)) or "none"
        super().__init__(f"pattern set {set_id!r} is not loaded (loaded: {listing})")
        self.set_id = set_id
        self.known = sorted(known)
