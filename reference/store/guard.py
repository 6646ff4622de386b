"""Wrap the public methods of `MemoryStore` so no raw sqlite3/JSON exception reaches a caller (issue 11).

A damaged `tracker.db` can make SQLite raise `sqlite3.DatabaseError` ("database
disk image is malformed") from any query; the wrapper re-raises it as
`CorruptData` (or `StoreError` when the database is busy) naming the file.
Generators returned by a method are wrapped too, since they run their
queries as they are consumed.
"""
from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from typing import Any

from reference.tracker.sqlite_errors import sqlite_errors


def guard_methods(cls: type) -> type:
    """Wrap every public method so a raw sqlite3/JSON exception from a damaged tracker.db
    reaches the caller as `CorruptData` (or `StoreError` when busy) naming the file (issue 11)."""
    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            with sqlite_errors(self.data_dir / "tracker.db"):
                out = fn(self, *args, **kwargs)
            return _guard_iter(self, out) if inspect.isgenerator(out) else out
        return method

    for name, fn in list(vars(cls).items()):
        if not name.startswith("_") and inspect.isfunction(fn) and name not in ("close", "set_context"):
            setattr(cls, name, wrap(fn))
    return cls


def _guard_iter(store: Any, it: Iterator[Any]) -> Iterator[Any]:
    with sqlite_errors(store.data_dir / "tracker.db"):
        yield from it
