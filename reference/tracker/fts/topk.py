"""The best FTS5 matches among allowed memories, in one ranked query.

FTS5 ranks by bm25 inside the index; joining every match to its row (or
re-running the query per batch of allowed ids) costs more than the ranking.
Here the ranked rowids are read in batches and kept when allowed, until `k`
are kept and the group tied with the k-th is complete, so the caller can
break ties by its own id order. The store's `KeywordIndex` computes the same
ranking without FTS5's per-row work; FTS5 stays the reference and the fallback.
"""
from __future__ import annotations

import sqlite3

import numpy as np

from reference.tracker.codec import from_db
from reference.tracker.keyword.index import KeywordIndex


def ranked_matches(conn: sqlite3.Connection, match: str, k: int, allowed: np.ndarray | None = None,
                   index: KeywordIndex | None = None) -> list[tuple[int, float]]:
    """(key hash, -bm25) of the best `k` matches plus ties with the k-th, best first.

    `allowed` is a sorted uint64 array of key hashes (None: every memory).
    With `index` (the store's `KeywordIndex`) the same answer comes from its
    numpy postings; FTS5 answers what the index declines.
    """
    if k <= 0 or (allowed is not None and allowed.size == 0):
        return []
    if index is not None:
        fast = index.ranked(conn, match, k, allowed)
        if fast is not None:
            return fast
    cur = conn.execute("SELECT rowid, -bm25(memories_fts) FROM memories_fts WHERE memories_fts MATCH ? "
                       "ORDER BY bm25(memories_fts)", (match,))
    kept: list[tuple[int, float]] = []
    try:
        while True:
            batch = cur.fetchmany(max(256, 2 * k))
            if not batch:
                break
            rows = [(from_db(r), float(s)) for r, s in batch]
            if allowed is not None:
                hashes = np.fromiter((h for h, _ in rows), dtype=np.uint64, count=len(rows))
                pos = np.minimum(np.searchsorted(allowed, hashes), allowed.size - 1)
                rows = [r for r, ok in zip(rows, allowed[pos] == hashes) if ok]
            kept += rows
            if len(kept) > k and kept[-1][1] < kept[k - 1][1]:
                break  # every row still to come scores below the k-th
    finally:
        cur.close()
    if len(kept) > k:
        kept = [r for r in kept if r[1] >= kept[k - 1][1]]
    return kept
