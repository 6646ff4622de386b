"""Row checksums of the tracker's own tables (schema v6, issue 11).

Every row of `memories`, `files`, `symbols` and `chunks` carries `row_sum`:
BLAKE2b-64 (as a signed SQLite integer) over the row's other columns exactly
as stored, rendered as Python's `repr` of the tuple of values (deterministic
for the str, int, float and None that SQLite returns; twice as fast as JSON). A read recomputes it and raises
`CorruptData` naming `tracker.db` and the row's key when it differs, so a
flipped byte in a row is reported, never returned. `keys` rows need no column:
a key's hash is `hash_fn(key)` and its kind follows from its namespace, both
checked on read. The FTS indexes and SQLite's own b-tree indexes are covered
by `verify` (`PRAGMA integrity_check` and the FTS5 integrity-check command),
not per read.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from reference.errors import corrupt

# table -> (its columns in checksum order, the column naming a row in errors)
TABLES: dict[str, tuple[tuple[str, ...], str]] = {
    "memories": (("id", "task", "insights", "context", "symbol_keys", "text", "tags", "blob_offset",
                  "blob_length", "key_hash", "created_at", "updated_at", "metadata"), "id"),
    "files": (("path", "key_hash", "content_hash", "size", "blob_offset", "blob_length", "indexed_at", "mode"),
              "path"),
    "symbols": (("key", "key_hash", "path", "name", "kind", "start_line", "end_line", "blob_offset",
                 "blob_length"), "key"),
    "chunks": (("key", "key_hash", "path", "chunk_id", "start_line", "end_line", "blob_offset", "blob_length"),
               "key"),
}
_I64 = 1 << 63


def row_sum(values: Sequence[Any]) -> int:
    """The checksum of one row's stored values (in `TABLES` column order)."""
    raw = repr(tuple(values)).encode("utf-8", "surrogatepass")
    n = int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "little")
    return n - (1 << 64) if n >= _I64 else n


# Python hashes of (table, row with its sum) already verified in this process. A hit means these exact
# values were checked against this exact stored sum (up to a 2**-64 chance of a colliding hash), so the
# BLAKE2b is skipped; different bytes on disk give a different tuple and are checked afresh. Bounded.
_VERIFIED: set[int] = set()
_MAX_VERIFIED = 1 << 16


def check_row(path: str, table: str, row: Sequence[Any]) -> tuple:
    """`row` is the table's columns then `row_sum`; return the columns or raise `CorruptData`."""
    values, stored = tuple(row[:-1]), row[-1]
    seen = hash((table, values, stored))
    if seen in _VERIFIED:
        return values
    if stored is None or row_sum(values) != stored:
        name = values[TABLES[table][0].index(TABLES[table][1])]
        raise corrupt(path, f"{table} row {name!r}", "row checksum mismatch (the row was damaged on disk)")
    if len(_VERIFIED) >= _MAX_VERIFIED:
        _VERIFIED.clear()
    _VERIFIED.add(seen)
    return values


def add_row_sums(conn: Any) -> None:
    """Migration v6: add `row_sum` to the four tables and fill it for the rows already there."""
    for table, (cols, _) in TABLES.items():
        conn.execute(f"ALTER TABLE {table} ADD COLUMN row_sum INTEGER")
        rows = conn.execute(f"SELECT rowid, {', '.join(cols)} FROM {table}").fetchall()
        for r in rows:
            conn.execute(f"UPDATE {table} SET row_sum = ? WHERE rowid = ?", (row_sum(r[1:]), r[0]))
