"""Tables that a layer built on the store (knowledge, project memory, ...) adds to tracker.db.

The layers' migrations run in order with the tracker's own; these helpers let a
layer also create its tables on a database opened before the layer existed. It lives outside `reference.tracker` because the layers' schema modules
import it while the `reference` package initialises (`schema_steps.py`).
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from typing import Any


def has_tables(conn: sqlite3.Connection, tables: Iterable[str]) -> bool:
    """True when every one of `tables` exists."""
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return all(t in names for t in tables)


def ensure_tables(tracker: Any, tables: Iterable[str], migrate: Callable[[Any], None]) -> bool:
    """Run `migrate` in one transaction if any of `tables` is missing; True when it ran."""
    tables = tuple(tables)
    if has_tables(tracker.conn(), tables):
        return False
    with tracker.tx() as conn:
        migrate(conn)
    return True
