"""Incremental, resumable backfill: ingest memories written while the knowledge layer was not attached.

The backfill walks memories oldest first by `(created_at, id)` from a cursor kept in
the tracker's `meta` table (`knowledge:backfill_cursor`, JSON `[created_at, id]` of the
last memory passed), so a restart resumes where the last one stopped instead of
starting over. Each call does bounded work: at most `limit` memories ingested and
`scan_cap` rows examined (rows already ingested, e.g. by the live write listener, are
skipped cheaply). `KnowledgeLayer.for_store` runs one bounded step on open and every
live write runs a small one while a backlog remains, so opening a store never replays
unbounded work and the backlog still drains; `KnowledgeLayer.backfill()` with no limit
finishes it in one call.

A backfilled memory is linked only to memories before it in that order (the store as
it was when it was written); its vector neighbours are searched in widening steps up
to `MAX_NEIGHBOUR_WINDOW`, never over the whole store.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator

from reference.tracker.codec import from_db

CURSOR = "knowledge:backfill_cursor"
PER_OPEN = 256          # memories ingested by the step run when a store is opened
PER_WRITE = 2           # by the step each live write runs while a backlog remains
SCAN_CAP = 10_000       # rows examined per step at most (skipping rows already ingested)
PAGE = 256
MAX_NEIGHBOUR_WINDOW = 640   # vector neighbours read at most for one backfilled memory

Cursor = tuple[float, str]


def read_cursor(conn: sqlite3.Connection) -> Cursor | None:
    row = conn.execute("SELECT value FROM meta WHERE name = ?", (CURSOR,)).fetchone()
    if row is None:
        return None
    created, mid = json.loads(row[0])
    return float(created), str(mid)


def write_cursor(conn: sqlite3.Connection, cursor: Cursor) -> None:
    conn.execute("INSERT OR REPLACE INTO meta(name, value) VALUES (?, ?)", (CURSOR, json.dumps(list(cursor))))


_COLS = ("SELECT m.created_at, m.id, m.key_hash, t.document_id IS NOT NULL FROM memories m "
         "LEFT JOIN temporal_data t ON t.document_id = m.id ")


def _page(conn: sqlite3.Connection, cursor: Cursor | None) -> tuple[list[tuple], bool]:
    """The next rows after `cursor` in (created_at, id) order, whole groups of equal times; True when the last.

    Ordered in Python: the index is on created_at alone, and an SQL ORDER BY on
    (created_at, id) would sort the whole remaining range on every page.
    """
    rows: list[tuple] = []
    lo = float("-inf")
    if cursor is not None:
        lo = cursor[0]
        rows += conn.execute(_COLS + "WHERE m.created_at = ? AND m.id > ?", cursor).fetchall()
    bound = conn.execute("SELECT created_at FROM memories WHERE created_at > ? ORDER BY created_at LIMIT 1 OFFSET ?",
                         (lo, PAGE - 1)).fetchone()
    if bound is None:
        rows += conn.execute(_COLS + "WHERE m.created_at > ?", (lo,)).fetchall()
    else:
        rows += conn.execute(_COLS + "WHERE m.created_at > ? AND m.created_at <= ?", (lo, bound[0])).fetchall()
    rows.sort(key=lambda r: (r[0], r[1]))
    return rows, bound is None


def pending(conn: sqlite3.Connection, cursor: Cursor | None, scan_cap: int) -> Iterator[tuple[Cursor, int, bool]]:
    """(order key, key_hash, already ingested) of the memories after `cursor`, oldest first, about `scan_cap` at most."""
    seen = 0
    while seen < scan_cap:
        rows, last = _page(conn, cursor)
        for created, mid, key_hash, done in rows:
            cursor = (float(created), mid)
            seen += 1
            yield cursor, from_db(key_hash), bool(done)
        if last:
            return


def earlier_than(conn: sqlite3.Connection, key: Cursor) -> Callable[[str], bool]:
    """`eligible` for a backfilled memory: memories strictly before `key` in (created_at, id) order."""
    cache: dict[str, bool] = {}

    def eligible(memory_id: str) -> bool:
        if memory_id not in cache:
            row = conn.execute("SELECT created_at FROM memories WHERE id = ?", (memory_id,)).fetchone()
            cache[memory_id] = row is not None and (float(row[0]), memory_id) < key
        return cache[memory_id]
    return eligible
