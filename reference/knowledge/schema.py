"""The seed 001 tables in `tracker.db`: entities, mentions, relationships, temporal data, layers.

`knowledge_schema` is a tracker migration (v3; registered in order by
`reference/schema_steps.py`); every statement is
`IF NOT EXISTS`, so `ensure_schema` can run it again on a store whose
tracker was created before the migration existed. Columns follow the seed
with two deliberate changes: no `DEFAULT CURRENT_TIMESTAMP` (the layer
writes every time from the injected clock, as ISO-8601 UTC text), and a few
extra columns the seed's code needs (`temporal_data.date_source`,
`importance`; `entity_mentions.end_position`, `surface`). Formats are in
reference/knowledge/README.md.
"""
from __future__ import annotations

from reference.layer_tables import ensure_tables, has_tables

import sqlite3
from typing import Any

TABLES = ("entities", "entity_mentions", "relationships", "temporal_data", "memory_layers")

_STATEMENTS = (
    """CREATE TABLE IF NOT EXISTS entities (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        normalized_name TEXT NOT NULL,
        metadata TEXT NOT NULL DEFAULT '{}',
        created_at TEXT,
        updated_at TEXT)""",
    "CREATE INDEX IF NOT EXISTS idx_entities_type ON entities(type)",
    "CREATE INDEX IF NOT EXISTS idx_entities_normalized ON entities(normalized_name)",
    """CREATE TABLE IF NOT EXISTS entity_mentions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        document_id TEXT NOT NULL,
        entity_id TEXT NOT NULL REFERENCES entities(id),
        context TEXT,
        position INTEGER,
        end_position INTEGER,
        surface TEXT,
        confidence REAL NOT NULL DEFAULT 1.0)""",
    "CREATE INDEX IF NOT EXISTS idx_mentions_doc ON entity_mentions(document_id)",
    "CREATE INDEX IF NOT EXISTS idx_mentions_entity ON entity_mentions(entity_id)",
    """CREATE TABLE IF NOT EXISTS relationships (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        source_id TEXT NOT NULL,
        target_id TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('updates', 'extends', 'derives', 'relates_to')),
        confidence REAL NOT NULL DEFAULT 1.0,
        metadata TEXT NOT NULL DEFAULT '{}',
        created_at TEXT,
        UNIQUE (source_id, target_id))""",
    # source lookups use the UNIQUE (source_id, target_id) index; no query reads by type or by one date
    # column (schema v7 dropped those indexes: reference/tracker/lean_indexes.py)
    # (target_id, type): hybrid search asks for a target's updates / extends / derives edges only; by target
    # alone it read every relates_to row of a much-related memory to check its type (0.7-4 ms at 100k)
    "CREATE INDEX IF NOT EXISTS idx_rel_target_type ON relationships(target_id, type)",
    """CREATE TABLE IF NOT EXISTS temporal_data (
        document_id TEXT PRIMARY KEY,
        document_date TEXT,
        recorded_date TEXT NOT NULL,
        last_accessed TEXT,
        access_count INTEGER NOT NULL DEFAULT 0,
        relevance_score REAL NOT NULL DEFAULT 1.0,
        date_source TEXT,
        importance REAL NOT NULL DEFAULT 1.0) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS memory_layers (
        document_id TEXT PRIMARY KEY,
        layer TEXT NOT NULL DEFAULT 'cold' CHECK (layer IN ('hot', 'warm', 'cold')),
        promoted_at TEXT,
        demoted_at TEXT) WITHOUT ROWID""",
)
# read and written by document id only: keyed by it (WITHOUT ROWID), a row is one b-tree entry, not a table
# row plus a primary-key index entry (one page less a write for each; schema v8 rebuilds older stores' tables)
KEYED_BY_DOCUMENT = ("temporal_data", "memory_layers")


def knowledge_schema(conn: Any) -> None:
    """Tracker migration: create the seed 001 tables (idempotent)."""
    for stmt in _STATEMENTS:
        conn.execute(stmt)


def key_by_document(conn: Any) -> None:
    """Tracker migration to v8: rebuild `KEYED_BY_DOCUMENT` tables made with a rowid as WITHOUT ROWID.

    Same columns and rows (copied in document id order); indexes on them are made again. A table
    already WITHOUT ROWID (created by this code) or absent is left alone.
    """
    for table in KEYED_BY_DOCUMENT:
        row = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
        if row is None or "WITHOUT ROWID" in row[0].upper():
            continue
        create = next(s for s in _STATEMENTS if f"EXISTS {table} (" in s)
        indexes = [r[0] for r in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
                                              "AND sql IS NOT NULL", (table,))]
        conn.execute(create.replace(f"EXISTS {table} (", f"EXISTS {table}__v8 ("))
        cols = ", ".join(r[1] for r in conn.execute(f"PRAGMA table_info({table})"))
        conn.execute(f"INSERT INTO {table}__v8({cols}) SELECT {cols} FROM {table} ORDER BY document_id")
        conn.execute(f"DROP TABLE {table}")
        conn.execute(f"ALTER TABLE {table}__v8 RENAME TO {table}")
        for sql in indexes:
            conn.execute(sql)


def index_relationships_by_target_type(conn: Any) -> None:
    """Tracker migration to v9: `idx_rel_target` (target_id) becomes `idx_rel_target_type` (target_id, type).

    Same number of index entries a write; a hop that wants one relationship type from a much-linked
    memory reads only those entries instead of every edge into it (issue 15: 1.4 -> 0.2 ms p50 at 100k).
    """
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'relationships'").fetchone():
        conn.execute("DROP INDEX IF EXISTS idx_rel_target")
        conn.execute(next(s for s in _STATEMENTS if "idx_rel_target_type" in s))


def has_schema(conn: sqlite3.Connection) -> bool:
    return has_tables(conn, TABLES)


def ensure_schema(tracker: Any) -> bool:
    """Create the tables if this tracker lacks them; True when something was created."""
    return ensure_tables(tracker, TABLES, knowledge_schema)
