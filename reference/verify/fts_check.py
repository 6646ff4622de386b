"""Check the FTS5 `_docsize` shadow tables of tracker.db against their content tables.

FTS5's own `integrity-check` on a contentless index does not decode every
docsize record, yet bm25 does, so a damaged one fails a keyword search with
"database disk image is malformed". Here every docsize record must decode
as exactly one SQLite varint per indexed column, and its rowids must be the
content table's key hashes (the index's rowid is the row's key hash).
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

# FTS table -> (indexed columns, the content table whose key_hash is the FTS rowid)
FTS = {"memories_fts": (2, "memories"), "chunks_fts": (1, "chunks")}


def check_fts(conn: sqlite3.Connection, path: Path, tables: set[str], report) -> None:
    for fts, (ncols, content) in FTS.items():
        docsize = f"{fts}_docsize"
        if docsize not in tables or content not in tables:
            continue
        ids = set()
        for rowid, blob in conn.execute(f"SELECT id, sz FROM {docsize}"):
            ids.add(rowid)
            if not isinstance(blob, bytes) or _varints(blob) != ncols:
                report.add(path, f"{docsize} row {rowid}", f"size record does not decode as {ncols} varint(s)")
        want = {r[0] for r in conn.execute(f"SELECT key_hash FROM {content}")}
        for rowid in sorted(ids ^ want)[:20]:
            where = "the full-text index" if rowid in ids else content
            report.add(path, f"{fts} rowid {rowid}", f"present only in {where}")


def _varints(blob: bytes) -> int:
    """How many SQLite varints exactly fill `blob` (-1 if the last one runs past the end)."""
    n = pos = 0
    while pos < len(blob):
        for i in range(9):
            if pos >= len(blob):
                return -1
            b = blob[pos]
            pos += 1
            if i == 8 or b < 0x80:
                break
        n += 1
    return n
