"""One memory ingested alone, in its own transaction: a backfill step's, or one linked only to `eligible` memories.

Its vector neighbours come from `similarity.similar` (the store's vectors at the time), not
from a batch lookup; its rows are stamped with the clock's now. It takes the parts of
`KnowledgeLayer` it uses (the store, the extractor, the relationship builder) as arguments.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reference.knowledge import backfill as bf
from reference.knowledge import entity_table, relationship_table, temporal_table
from reference.knowledge.decay import importance_of
from reference.knowledge.derived_rows import drop
from reference.knowledge.document_date import extract_document_date
from reference.knowledge.extractor import EntityExtractor
from reference.knowledge.model import Relationship
from reference.knowledge.relations import RelationshipBuilder
from reference.knowledge.relationship_rows import to_relationship
from reference.knowledge.timefmt import to_text
from reference.memories.record import MemoryEntry


def ingest_one(store: Any, extractor: EntityExtractor, builder: RelationshipBuilder, entry: MemoryEntry,
               eligible: Callable[[str], bool] | None, cursor: bf.Cursor | None = None) -> list[Relationship]:
    """Entities, mentions, temporal data and relationships of `entry`, replacing any it had; its relationships.

    Only the memories `eligible` accepts (all, if None) can be linked to. With `cursor` the
    backfill cursor is written in the same transaction, so an interrupted backfill resumes."""
    mentions = extractor.extract(entry.text, entry.created_at, entry.metadata)
    doc_date, source = extract_document_date(entry.text, entry.metadata, entry.created_at)
    now = to_text(store.clock.now())
    with store.tracker.tx() as conn:
        drop(conn, entry.id)
        entity_table.add_mentions(conn, entry.id, entry.text, mentions, now)
        temporal_table.insert(conn, entry.id, doc_date, entry.created_at, source, importance_of(entry.metadata))
        rows = builder.rows(conn, entry, eligible or (lambda _id: True), now)
        relationship_table.insert_row_tuples(conn, rows)
        if cursor is not None:
            bf.write_cursor(conn, cursor)
    return [to_relationship(r) for r in rows]
