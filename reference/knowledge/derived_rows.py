"""A memory's derived rows (mentions, relationships, temporal and layer rows) as a whole: found and dropped."""
from __future__ import annotations

from typing import Any

from reference.knowledge import entity_table, relationship_table, temporal_table


def drop(conn: Any, memory_id: str) -> None:
    """Delete every row derived from `memory_id` (entities left with no mention go too)."""
    entity_table.delete_document(conn, memory_id)
    relationship_table.delete_document(conn, memory_id)
    temporal_table.delete_document(conn, memory_id)


def already_ingested(conn: Any, ids: list[str]) -> list[str]:
    """Those of `ids` with derived rows already (a re-ingest drops them first); a fresh write has none."""
    found: set[str] = set()
    for i in range(0, len(ids), 300):
        part = ids[i: i + 300]
        marks = ",".join("?" * len(part))
        found |= {r[0] for r in conn.execute(   # one statement: a single write pays one round trip, not three
            f"SELECT document_id FROM temporal_data WHERE document_id IN ({marks}) UNION "
            f"SELECT document_id FROM entity_mentions WHERE document_id IN ({marks}) UNION "
            f"SELECT source_id FROM relationships WHERE source_id IN ({marks})", part * 3)}
    return [m for m in ids if m in found]
