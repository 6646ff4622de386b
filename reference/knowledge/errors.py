"""Errors of the knowledge layer; all are `StoreError`s so callers catch one type."""
from __future__ import annotations

from reference.errors import StoreError


class KnowledgeError(StoreError, ValueError):
    """Bad input to the knowledge layer (an argument's name and the problem are in the message)."""


class InvalidTime(KnowledgeError):
    """A time argument is not an ISO-8601 date/datetime or Unix seconds."""
