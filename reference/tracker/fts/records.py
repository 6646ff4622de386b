"""Reading FTS5's own bookkeeping for `memories_fts`: row count, token totals, per-row sizes.

bm25 needs the number of rows, the total tokens (for the average row length)
and each row's length in tokens. FTS5 keeps them in its shadow tables: the
"averages" record (`memories_fts_data` id 1: varint row count, then one
varint token total per column) and `memories_fts_docsize` (one varint size per
column for each rowid). Reading them directly gives exactly the figures FTS5's
own bm25 uses.
"""
from __future__ import annotations

import sqlite3

import numpy as np

AVERAGES_ID = 1


def _varints(blob: bytes) -> list[int]:
    """SQLite varints (big-endian 7-bit groups; a ninth byte carries 8 bits)."""
    out, i = [], 0
    while i < len(blob):
        v = 0
        for n in range(9):
            b = blob[i]
            i += 1
            if n == 8:
                v = (v << 8) | b
                break
            v = (v << 7) | (b & 0x7F)
            if b < 0x80:
                break
        out.append(v)
    return out


def totals(conn: sqlite3.Connection, table: str = "memories_fts") -> tuple[int, int]:
    """(rows, tokens over every column) as FTS5's bm25 reads them."""
    row = conn.execute(f"SELECT block FROM {table}_data WHERE id = ?", (AVERAGES_ID,)).fetchone()
    if row is None or not row[0]:
        return 0, 0
    vals = _varints(bytes(row[0]))
    return vals[0], sum(vals[1:])


def row_sizes(blobs: list[bytes]) -> np.ndarray:
    """Tokens per row (all columns summed) from `_docsize.sz` blobs, vectorised.

    Sizes are below 2^28 tokens per column, so every varint has at most four bytes.
    """
    n = len(blobs)
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    lens = np.fromiter(map(len, blobs), dtype=np.int64, count=n)
    buf = np.frombuffer(b"".join(blobs), dtype=np.uint8)
    ends = np.flatnonzero(buf < 0x80)  # the last byte of each varint
    which = np.searchsorted(ends, np.arange(buf.size))  # the varint each byte belongs to
    shift = 7 * (ends[which] - np.arange(buf.size))
    values = np.bincount(which, weights=(buf & 0x7F).astype(np.float64) * np.exp2(shift), minlength=ends.size)
    row_of_varint = np.repeat(np.arange(n), lens)[ends]
    return np.bincount(row_of_varint, weights=values, minlength=n)


def sizes_of(conn: sqlite3.Connection, rowids: list[int] | None = None,
             table: str = "memories_fts") -> tuple[np.ndarray, np.ndarray]:
    """(rowids ascending, tokens per row) for the given FTS rowids, or every row when None."""
    if rowids is None:
        rows = conn.execute(f"SELECT id, sz FROM {table}_docsize ORDER BY id").fetchall()
    else:
        rows = []
        for i in range(0, len(rowids), 500):
            part = rowids[i: i + 500]
            rows += conn.execute(f"SELECT id, sz FROM {table}_docsize WHERE id IN ({','.join('?' * len(part))})",
                                 part).fetchall()
        rows.sort()
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    return ids, row_sizes([bytes(r[1]) for r in rows])
