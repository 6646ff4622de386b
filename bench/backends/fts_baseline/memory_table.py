"""The `memories` table and its FTS5 index, on a stdlib sqlite3 or an apsw connection.

Shared by fts-baseline (sqlite3) and sqlite-vec (apsw, which can load the
vec0 extension). The connection must be in autocommit mode; `tx()` opens
an explicit `BEGIN IMMEDIATE`. Lists (insights, context, symbol_keys, tags)
and metadata are JSON text, so the reference's `MemoryFilter.sql` filters
them with `json_each`. The FTS5 index (porter + unicode61, as the reference
uses) takes its content from `memories` (text and the tags' JSON text), so
the text is stored once; a delete hands the old values back to FTS5.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from reference.clock import iso
from reference.errors import StoreError
from reference.tracker import MemoryFilter

from bench.backends.fts_baseline.records import MemoryInput

SCHEMA_VERSION = 1
TOKENIZER = "porter unicode61 remove_diacritics 2"
COLUMNS = "id, task, insights, context, symbol_keys, text, tags, metadata, created_at"
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS memories (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, task TEXT, "
    "insights TEXT NOT NULL, context TEXT NOT NULL, symbol_keys TEXT NOT NULL, text TEXT NOT NULL, "
    "tags TEXT NOT NULL, metadata TEXT NOT NULL, created_at REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS memories_newest ON memories(created_at DESC, id)",
    "CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(text, tags, content='memories', "
    f"content_rowid='seq', tokenize='{TOKENIZER}')",
)
NEWEST = "m.created_at DESC, m.id ASC"


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the backend."""


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _record(row: tuple) -> dict[str, Any]:
    mid, task, insights, context, symbol_keys, text, tags, metadata, created_at = row
    return {"id": mid, "task": task, "insights": json.loads(insights), "context": json.loads(context),
            "symbol_keys": json.loads(symbol_keys), "text": text, "tags": json.loads(tags),
            "metadata": json.loads(metadata), "created_at": created_at, "created_at_iso": iso(created_at)}


class MemoryTable:
    """Row and FTS access for memories over one autocommit connection."""

    def __init__(self, conn: Any, where: str) -> None:
        self.conn = conn
        self.where = where  # the database path, for error messages

    def create(self) -> None:
        """Create the schema on a new database; refuse one written by a newer version."""
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise SchemaTooNew(f"{self.where}: schema version {version} is newer than {SCHEMA_VERSION}")
        if version < SCHEMA_VERSION:
            with self.tx():
                for stmt in SCHEMA:
                    self.conn.execute(stmt)
                self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def tx(self) -> Iterator[None]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def taken(self, mid: str) -> bool:
        return self.conn.execute("SELECT 1 FROM memories WHERE id = ?", (mid,)).fetchone() is not None

    def insert(self, mid: str, inp: MemoryInput, created_at: float) -> int:
        """Insert a row and its FTS entry (inside the caller's `tx()`); return its rowid `seq`."""
        tags = _dump(list(inp.tags))
        seq = self.conn.execute(
            f"INSERT INTO memories({COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?) RETURNING seq",
            (mid, inp.task, _dump(list(inp.insights)), _dump(list(inp.context)), _dump(list(inp.symbol_keys)),
             inp.text, tags, _dump(inp.metadata), created_at)).fetchone()[0]
        self.conn.execute("INSERT INTO memories_fts(rowid, text, tags) VALUES (?, ?, ?)", (seq, inp.text, tags))
        return seq

    def delete(self, mid: str) -> int | None:
        """Delete a row and its FTS entry (inside the caller's `tx()`); its `seq`, or None if absent."""
        row = self.conn.execute("SELECT seq, text, tags FROM memories WHERE id = ?", (mid,)).fetchone()
        if row is None:
            return None
        self.conn.execute("INSERT INTO memories_fts(memories_fts, rowid, text, tags) VALUES ('delete', ?, ?, ?)",
                          tuple(row))
        self.conn.execute("DELETE FROM memories WHERE seq = ?", (row[0],))
        return row[0]

    def get(self, mid: str) -> dict[str, Any] | None:
        row = self.conn.execute(f"SELECT {COLUMNS} FROM memories WHERE id = ?", (mid,)).fetchone()
        return _record(row) if row else None

    def list(self, flt: MemoryFilter, limit: int, offset: int) -> list[dict[str, Any]]:
        """Filtered records, newest first (created_at descending, then id)."""
        where, params = flt.sql("m")
        cols = ", ".join("m." + c.strip() for c in COLUMNS.split(","))
        rows = self.conn.execute(f"SELECT {cols} FROM memories m WHERE {where} ORDER BY {NEWEST} LIMIT ? OFFSET ?",
                                 (*params, limit, offset)).fetchall()
        return [_record(r) for r in rows]

    def fts(self, match: str, flt: MemoryFilter, limit: int) -> list[tuple[str, float]]:
        """Top `limit` (id, -bm25) for an FTS5 MATCH string among filtered rows; ties by id."""
        where, params = flt.sql("m")
        rows = self.conn.execute(
            "SELECT m.id, -bm25(memories_fts) AS score FROM memories_fts JOIN memories m "
            f"ON m.seq = memories_fts.rowid WHERE memories_fts MATCH ? AND {where} "
            "ORDER BY score DESC, m.id ASC LIMIT ?", (match, *params, limit)).fetchall()
        return [(r[0], float(r[1])) for r in rows]

    def filtered_ids(self, flt: MemoryFilter, limit: int, exclude: set[str]) -> list[str]:
        """Up to `limit` ids passing the filter and not in `exclude`, by id ascending."""
        where, params = flt.sql("m")
        rows = self.conn.execute(f"SELECT m.id FROM memories m WHERE {where} ORDER BY m.id LIMIT ?",
                                 (*params, limit + len(exclude))).fetchall()
        return [r[0] for r in rows if r[0] not in exclude][:limit]

    def seq_filter(self, flt: MemoryFilter) -> tuple[str, list[Any]]:
        """A subquery selecting the `seq` of filtered rows, and its parameters."""
        where, params = flt.sql("m")
        return f"SELECT m.seq FROM memories m WHERE {where}", params

    def ids_of(self, seqs: list[int]) -> dict[int, str]:
        if not seqs:
            return {}
        marks = ",".join("?" * len(seqs))
        return dict(self.conn.execute(f"SELECT seq, id FROM memories WHERE seq IN ({marks})", seqs).fetchall())
