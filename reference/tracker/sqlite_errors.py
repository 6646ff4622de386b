"""Turn the sqlite3 and JSON exceptions a damaged `tracker.db` provokes into the store's errors.

`sqlite3.DatabaseError` ("database disk image is malformed", "file is not a
database", ...) and a `json.JSONDecodeError` from a stored JSON column become
`CorruptData` naming the file; a busy or locked database stays a plain
`StoreError` naming the file (it is not damage). Used at the tracker's own
boundary and by the store facade around every operation.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from reference.errors import StoreError, corrupt

_BUSY = ("locked", "busy")


def translate(path: str | Path, exc: BaseException) -> StoreError | None:
    """The store error for a raw library exception, or None if `exc` is not one of them."""
    if isinstance(exc, sqlite3.OperationalError) and any(w in str(exc) for w in _BUSY):
        return StoreError(f"{path}: {str(exc)[:200]}")
    if isinstance(exc, (sqlite3.DatabaseError, json.JSONDecodeError, UnicodeDecodeError)):
        return corrupt(path, None, f"{type(exc).__name__}: {str(exc)[:200]}")
    return None


@contextmanager
def sqlite_errors(path: str | Path) -> Iterator[None]:
    """Re-raise sqlite3/JSON exceptions from the block as `CorruptData` / `StoreError` naming `path`."""
    try:
        yield
    except (sqlite3.Error, json.JSONDecodeError, UnicodeDecodeError) as exc:
        err = translate(path, exc)
        if err is None:
            raise
        raise err from exc
