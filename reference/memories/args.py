"""Checks of the arguments memory operations read: memory ids and counts, and their `InvalidArgument` error."""
from __future__ import annotations

from typing import Any

from reference.errors import InvalidKey, StoreError
from reference.keys import parse_key


class InvalidArgument(StoreError, ValueError):
    """A search or list argument is out of range."""


def check_memory_id(memory_id: Any) -> str:
    if not isinstance(memory_id, str) or parse_key(memory_id).namespace != "mem":
        raise InvalidKey(f"{memory_id!r} is not a memory id (expected mem:{{8 hex digits}})")
    return memory_id


def check_count(name: str, value: Any) -> int:
    """`value` if it is a non-negative int (not a bool); else `InvalidArgument` naming `name`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidArgument(f"{name} must be a non-negative integer, got {value!r}")
    return value
