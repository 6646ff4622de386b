"""Incremental, resumable backfill: ingest memories written while the knowledge layer was not attached.

The backfill walks memories oldest first by `(created_at, id)` from a cursor kept in
the tracker's `meta` table (`knowledge:backfill_cursor`, JSON `[created_at, id]` of the
last memory passed), so a restart resumes where the last one stopped instead of
starting over. Each call does bounded work: at most `limit` memories ingested and
`scan_cap` rows examined (rows already ingested, e.g. by the live write listener, are
skipped cheaply, and a run of them is passed in one SQL statement first, so a store built
with the layer on does not walk its whole history a page per write after each open).
`KnowledgeLayer.for_store` runs one bounded step on open and every
live write runs a small one while a backlog remains, so opening a store never replays
unbounded work and the backlog still drains; `KnowledgeLayer.backfill()` with no limit
finishes it in one call.

Memories written live while a backlog remains cannot link, through shared entities, to backlog
memories not yet ingested (they have no mentions yet); vector links are unaffected.

A backfilled memory is linked only to memories before it in that order (the store as
it was when it was written); its vector neighbours are searched in widening steps up
to `MAX_NEIGHBOUR_WINDOW`, never over the whole store.
"""
from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

from reference.errors import CorruptData
from reference.tracker.codec import from_db

log = logging.getLogger("reference.knowledge")

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


def skip_ingested(conn: sqlite3.Connection, cursor: Cursor | None) -> tuple[Cursor | None, bool]:
    """The cursor moved past the memories after it that are already ingested; True when none is left to ingest.

    Two indexed statements instead of a Python loop over every such row: the first
    memory not ingested, then the last memory before it (or the last of all).
    """
    after = "" if cursor is None else "WHERE m.created_at >= ? AND (m.created_at > ? OR m.id > ?) "
    args: tuple = () if cursor is None else (cursor[0], cursor[0], cursor[1])
    first = conn.execute(
        "SELECT m.created_at, m.id FROM memories m " + (after or "WHERE 1 ")
        + "AND NOT EXISTS (SELECT 1 FROM temporal_data t WHERE t.document_id = m.id) "
        "ORDER BY m.created_at, m.id LIMIT 1", args).fetchone()
    if first is None:
        last = conn.execute("SELECT created_at, id FROM memories ORDER BY created_at DESC, id DESC LIMIT 1").fetchone()
    else:
        last = conn.execute("SELECT created_at, id FROM memories WHERE created_at <= ? AND (created_at < ? OR id < ?) "
                            "ORDER BY created_at DESC, id DESC LIMIT 1", (first[0], first[0], first[1])).fetchone()
    if last is not None and (cursor is None or (float(last[0]), str(last[1])) > cursor):
        cursor = (float(last[0]), str(last[1]))
    return cursor, first is None


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


def step(tracker: Any, ingest: Callable[..., Any], limit: int | None, scan_cap: int) -> tuple[int, bool]:
    """One backfill step (see the module docstring): (memories ingested, backlog left).

    `ingest(entry, eligible, cursor=key)` ingests one memory and writes the cursor in
    its own transaction; rows already ingested only move the cursor, written once at the end.
    """
    conn = tracker.conn()
    cursor = read_cursor(conn)
    moved, clear = skip_ingested(conn, cursor)
    count, finished = 0, True
    for key, key_hash, done in pending(conn, moved, 0 if clear else scan_cap if limit is not None else 1 << 62):
        if not done:
            if limit is not None and count >= limit:
                finished = False
                break
            try:
                entry = tracker.get_memory_by_key(key_hash)
            except CorruptData as exc:      # a damaged row: the rest is still ingested (issue 25)
                log.warning("knowledge backfill skips a damaged memory: %s", exc)
                entry = None
            if entry is not None:
                ingest(entry, earlier_than(conn, key), cursor=key)
                count += 1
        moved = key
    else:
        finished = limit is None or not _rows_after(conn, moved, cursor)
    if moved is not None and moved != cursor:
        with tracker.tx() as tx:
            if (read_cursor(tx) or moved) <= moved:
                write_cursor(tx, moved)
    return count, not finished


def _rows_after(conn: sqlite3.Connection, moved: Cursor | None, start: Cursor | None) -> bool:
    """True when a step stopped at its scan cap with memories left after `moved`."""
    return moved is not None and moved != start and conn.execute(
        "SELECT 1 FROM memories WHERE created_at > ? OR (created_at = ? AND id > ?) LIMIT 1",
        (moved[0], moved[0], moved[1])).fetchone() is not None
