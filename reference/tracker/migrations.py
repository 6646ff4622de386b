"""The versioned `tracker.db` schema: `PRAGMA user_version` + ordered migrations.

`steps()[i]` takes a database at version `i` to version `i + 1`. Version 1
is the seed 000 §3.1 baseline (keys, files, symbols, chunks with their code
FTS, memories with exactly the seed's columns); version 2 adds what later
seeds need (memories.metadata, the memory FTS index, files.mode); v3-v5 are
the layers' tables; v6 adds `row_sum` checksums (rowsum.py); v7 drops the
indexes no query reads (lean_indexes.py); v8 keys two knowledge tables by document id; v9 indexes relationships by
(target, type). Opening a
file runs the missing steps in one transaction; a file newer than this code
is refused rather than guessed at.

The tracker never imports the layers built on it: each step is registered
(`register_step`) by `reference/schema_steps.py`, the one list of every
version in order, which the `reference` package imports first. A step left
unregistered is an error on open, not a silently older schema.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable

from reference.errors import StoreError

FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"


class SchemaTooNew(StoreError):
    """tracker.db was written by a newer version of this code."""


def tracker_v1(conn: sqlite3.Connection) -> None:
    """Seed 000 §3.1 baseline: keys, files, symbols, chunks and their code FTS, memories."""
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


def tracker_v2(conn: sqlite3.Connection) -> None:
    """memories.metadata, the memory FTS index (filled from the rows), files.mode."""
    conn.executescript(
        f"""
        ALTER TABLE memories ADD COLUMN metadata TEXT NOT NULL DEFAULT '{{}}';
        ALTER TABLE files ADD COLUMN mode TEXT NOT NULL DEFAULT 'indexed';
        CREATE VIRTUAL TABLE memories_fts USING fts5(text, tags, content='', tokenize='{FTS_TOKENIZER}');
        INSERT INTO memories_fts(rowid, text, tags) SELECT key_hash, text, coalesce(tags, '') FROM memories;
        """
    )


Step = Callable[[sqlite3.Connection], None]
LATEST = 9              # the version a store is brought to; every step up to it must be registered
ROW_SUMS_VERSION = 6    # the first version with row checksums (rowsum.py; verify checks them from here)
_STEPS: dict[int, Step] = {}   # version a step produces -> the step


def register_step(version: int, step: Step) -> None:
    """Make `step` the migration that takes a database from `version - 1` to `version`."""
    if not 1 <= version <= LATEST:
        raise ValueError(f"schema step {version}: versions run from 1 to {LATEST}")
    if _STEPS.get(version, step) is not step:
        raise ValueError(f"schema step {version} is already {_STEPS[version].__qualname__}")
    _STEPS[version] = step


def steps() -> list[Step]:
    """Every step in order (`steps()[i]` takes version `i` to `i + 1`); an error names any unregistered one."""
    missing = [v for v in range(1, LATEST + 1) if v not in _STEPS]
    if missing:
        raise StoreError(f"schema steps {missing} are not registered: import reference.schema_steps")
    return [_STEPS[v] for v in range(1, LATEST + 1)]


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
        todo = steps()[before:target]
        for version, step in enumerate(todo, start=before):
            # executescript would COMMIT our transaction; run the statements one by one instead.
            _run_in_tx(conn, step)
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
