"""Errors of the Memory Lane layer; each says what was wrong and which values are allowed."""
from __future__ import annotations

from reference.errors import StoreError


class LaneError(StoreError, ValueError):
    """A Memory Lane argument is invalid (type, entity slug, feedback signal, session id, ...)."""
