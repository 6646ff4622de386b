"""Schema v7 (issue 15): drop the indexes no query reads, so a write touches fewer pages.

Every index is one more b-tree a write must update and one more set of dirty
pages its commit writes to the WAL (and a checkpoint copies back). These six
are read by no query (checked with `EXPLAIN QUERY PLAN` against every
statement in `reference/`), each either a copy of another index or an index
on a column no query filters or sorts on by itself:

- `idx_memories_key_hash`: the same entries as the `UNIQUE` constraint's index on `memories.key_hash`;
- `idx_rel_source`: a prefix of the `UNIQUE (source_id, target_id)` index, which every source lookup uses;
- `idx_rel_type`: no query selects relationships by type alone (`count_by_type` scans; it runs on `stats`);
- `idx_keys_kind`: no query selects keys by kind;
- `idx_temporal_document_date`, `idx_temporal_recorded_date`: the time-window queries filter and sort on
  `coalesce(document_date, recorded_date)`, which neither index can serve.

Rows, ids and answers are unchanged; only the file's pages are fewer (about 8 of the ~47 WAL pages a
single write with the knowledge layer committed at 10k memories, and the indexes' space in the file).
"""
from __future__ import annotations

from typing import Any

UNREAD_INDEXES = ("idx_memories_key_hash", "idx_rel_source", "idx_rel_type", "idx_keys_kind",
                  "idx_temporal_document_date", "idx_temporal_recorded_date")


def drop_unread_indexes(conn: Any) -> None:
    """Tracker migration to v7 (idempotent: `IF EXISTS`)."""
    for name in UNREAD_INDEXES:
        conn.execute(f"DROP INDEX IF EXISTS {name}")
