"""The versioned `tracker.db` schema: `PRAGMA user_version` + ordered migrations.

`MIGRATIONS[i]` takes a database at version `i` to version `i + 1`. Version 1
is the seed 000 §3.1 baseline (keys, files, symbols, chunks with their code
FTS, memories with exactly the seed's columns); version 2 adds what later
seeds need (memories.metadata, the memory FTS index, files.mode); v3-v5 are
the layers' tables; v6 adds `row_sum` checksums (rowsum.py); v7 drops the
indexes no query reads (lean_indexes.py); v8 keys two knowledge tables by document id; v9 indexes relationships by
(target, type). Opening a
file runs the missing steps in one transaction; a file newer than this code
is refused rather than guessed at.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable

from reference.errors import StoreError
from reference.knowledge.schema import index_relationships_by_target_type, key_by_document, knowledge_schema
from reference.lane.schema import lane_v1
from reference.project.schema import project_schema
from reference.tracker.lean_indexes import drop_unread_indexes
from reference.tracker.rowsum import add_row_sums

FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"


class SchemaTooNew(StoreError):
    """tracker.db was written by a newer version of this code."""


def _v1(conn: sqlite3.Connection) -> None:
    conn.executescript(
        f"""
        CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE keys (key_hash INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, kind TEXT NOT NULL);
        CREATE INDEX idx_keys_kind ON keys(kind);
        CREATE TABLE files (
            path TEXT PRIMARY KEY, key_hash INTEGER UNIQUE NOT NULL, content_hash TEXT NOT NULL,
            size INTEGER NOT NULL, blob_offset INTEGER NOT NULL, blob_length INTEGER NOT NULL,
            indexed_at REAL NOT NULL);
        CREATE TABLE symbols (
            key TEXT PRIMARY KEY, key_hash INTEGER UNIQUE NOT NULL, path TEXT NOT NULL, name TEXT NOT NULL,
            kind TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
            blob_offset INTEGER NOT NULL, blob_length INTEGER NOT NULL);
        CREATE INDEX idx_symbols_path ON symbols(path);
        CREATE INDEX idx_symbols_name ON symbols(name);
        CREATE TABLE chunks (
            key TEXT PRIMARY KEY, key_hash INTEGER UNIQUE NOT NULL, path TEXT NOT NULL, chunk_id INTEGER NOT NULL,
            start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
            blob_offset INTEGER NOT NULL, blob_length INTEGER NOT NULL);
        CREATE INDEX idx_chunks_path ON chunks(path);
        CREATE VIRTUAL TABLE chunks_fts USING fts5(text, tokenize='{FTS_TOKENIZER}');
        CREATE TABLE memories (
            id TEXT PRIMARY KEY,
            task TEXT,
            insights TEXT,
            context TEXT,
            symbol_keys TEXT,
            text TEXT NOT NULL,
            tags TEXT,
            blob_offset INTEGER,
            blob_length INTEGER,
            key_hash INTEGER UNIQUE NOT NULL,
            created_at REAL NOT NULL,
            updated_at REAL);
        CREATE INDEX idx_memories_task ON memories(task);
        CREATE INDEX idx_memories_key_hash ON memories(key_hash);
        CREATE INDEX idx_memories_created ON memories(created_at);
        """
    )


def _v2(conn: sqlite3.Connection) -> None:
    conn.executescript(
        f"""
        ALTER TABLE memories ADD COLUMN metadata TEXT NOT NULL DEFAULT '{{}}';
        ALTER TABLE files ADD COLUMN mode TEXT NOT NULL DEFAULT 'indexed';
        CREATE VIRTUAL TABLE memories_fts USING fts5(text, tags, content='', tokenize='{FTS_TOKENIZER}');
        INSERT INTO memories_fts(rowid, text, tags) SELECT key_hash, text, coalesce(tags, '') FROM memories;
        """
    )


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1, _v2]
MIGRATIONS.append(knowledge_schema)  # v3: seed 001 knowledge tables (reference/knowledge/schema.py)
MIGRATIONS.append(lane_v1)  # v4: seed 004 Memory Lane feedback and session recalls (reference/lane/schema.py)
MIGRATIONS.append(project_schema)  # v5: seed 002 project branches, commits, documents (reference/project/schema.py)
MIGRATIONS.append(add_row_sums)  # v6: issue 11 row checksums on memories, files, symbols, chunks (rowsum.py)
ROW_SUMS_VERSION = len(MIGRATIONS)
MIGRATIONS.append(drop_unread_indexes)  # v7: issue 15 fewer pages a write: indexes no query reads (lean_indexes.py)
MIGRATIONS.append(key_by_document)  # v8: issue 15 temporal_data, memory_layers WITHOUT ROWID (knowledge/schema.py)
MIGRATIONS.append(index_relationships_by_target_type)  # v9: issue 15 relationships indexed by (target_id, type)
LATEST = len(MIGRATIONS)


def schema_version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def migrate(conn: sqlite3.Connection, path: str, target: int = LATEST) -> tuple[int, int]:
    """Bring the database to `target`; return (version before, version after)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        before = schema_version(conn)
        if before > LATEST:
            raise SchemaTooNew(
                f"{path}: schema version {before} is newer than this code understands ({LATEST}); upgrade codemem-bench"
            )
        for version in range(before, target):
            # executescript would COMMIT our transaction; run the statements one by one instead.
            _run_in_tx(conn, MIGRATIONS[version])
            conn.execute(f"PRAGMA user_version={version + 1}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return before, max(before, target)


def _run_in_tx(conn: sqlite3.Connection, step: Callable[[sqlite3.Connection], None]) -> None:
    step(_NoCommitConnection(conn))


class _NoCommitConnection:
    """Lets a migration written with `executescript` run inside the caller's transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def executescript(self, script: str) -> None:
        for stmt in _split_sql(script):
            self._conn.execute(stmt)

    def execute(self, sql: str, params: tuple = ()) -> sqlite3.Cursor:
        return self._conn.execute(sql, params)


def _split_sql(script: str) -> list[str]:
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out
