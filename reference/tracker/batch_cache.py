"""A larger SQLite page cache for the length of one batch write, then the connection's own size again.

    with batch_page_cache(conn, len(records)):
        with tracker.tx(): ...

A batch of 1,000 memories inserts ~10,000 relationship rows, each into the table and two indexes
keyed by random ids (`(source_id, target_id)`, `(target_id, type)`), plus keys and memory rows
with their random-id indexes. With SQLite's default 2 MiB cache, the ~2,700 pages such a batch dirties do not
fit: dirty pages are spilled to the WAL and read back many times within the batch. At 10k
memories, 10,000 relationship rows: inserts 61 -> 33 ms CPU, `COMMIT` 15 -> 21 ms (the
pages are written once at the commit instead of spilled), ~20 ms less a batch
(`bench/benchmarks/SCALE_NOTES.md`, "ingest, fifth pass"). Single writes keep the default: a
larger cache was measured to make their `COMMIT` dearer (reference/README.md, "Writes").

The cache size only changes when pages are read and written, never what is stored: the
database bytes after the batch are the same (`tests/reference/tracker/test_batch_cache.py`).
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

MIN_ROWS = 64            # below it a batch's pages fit the default cache: nothing to gain
BATCH_CACHE_KIB = 65_536  # 64 MiB while the batch runs (negative `cache_size` = KiB)


@contextmanager
def batch_page_cache(conn: sqlite3.Connection, rows: int) -> Iterator[None]:
    """`PRAGMA cache_size` raised to `BATCH_CACHE_KIB` while a batch of `rows` memories runs (at least
    `MIN_ROWS`; else unchanged), restored to the connection's previous value afterwards, also on error."""
    if rows < MIN_ROWS:
        yield
        return
    old = int(conn.execute("PRAGMA cache_size").fetchone()[0])
    if old < 0 and -old >= BATCH_CACHE_KIB or old >= 0 and old * 4 >= BATCH_CACHE_KIB:
        yield   # already as large (page counts taken at 4 KiB, the store's page size)
        return
    conn.execute(f"PRAGMA cache_size=-{BATCH_CACHE_KIB}")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA cache_size={old}")
