"""The batch ingest of live writes: entities, mentions, temporal rows and relationships of a batch in one transaction.

`LiveIngest.rows(entries, fresh)` is `KnowledgeLayer.ingest_many` (and the write listener)
without building records; the layer holds one `LiveIngest`, built from its store, extractor,
relationship builder and neighbour-id map. Each entry is ingested at its `created_at` (for a
live write, the clock's time when it was written). Entry i of a batch is linked only to the
store before the batch and to the entries before it, so the rows equal those of the same
entries ingested one by one: vector neighbours come from `neighbours.live_neighbours`,
shared-entity candidates only from the mention rows that existed at its turn, and the entity
ids the rules read from the batch's own extraction (`known_entities`). Mentions and temporal
rows go in with `executemany`. While a backfill backlog remains, the layer runs a small
backfill step after each batch (then, and only then, the rows differ from one-by-one ingests,
whose backfill steps fall between the writes).
"""
from __future__ import annotations

from typing import Any

from reference.knowledge import neighbours
from reference.knowledge import entity_table, relationship_table, temporal_table
from reference.knowledge.decay import importance_of
from reference.knowledge.derived_rows import already_ingested, drop
from reference.knowledge.document_date import extract_document_date
from reference.knowledge.extractor import EntityExtractor
from reference.knowledge.memory_ids import MemoryIds
from reference.knowledge.neighbour_rows import Neighbour, neighbour_rows
from reference.knowledge.relations import VECTOR_CANDIDATES, KnownEntities, RelationshipBuilder
from reference.knowledge.timefmt import to_text
from reference.memories.record import MemoryEntry
from reference.tracker.sqlite_errors import sqlite_errors


class LiveIngest:
    """The write path of live batches over one store (a part of `KnowledgeLayer`)."""

    def __init__(self, store: Any, extractor: EntityExtractor, builder: RelationshipBuilder, ids: MemoryIds) -> None:
        self.store, self.extractor, self.builder, self.ids = store, extractor, builder, ids
        # a gazetteer type holding ':' makes an entity's type not its id's prefix (see `known_entities`)
        self.colon_types = any(":" in t for t, _, _ in extractor.gazetteer)

    def rows(self, entries: list[MemoryEntry], fresh: bool) -> list[list[tuple]]:
        """`KnowledgeLayer.ingest_many`, per entry its relationships as the rows stored (`relationship_rows.py`).

        `fresh` says no entry can have derived rows yet, so the re-ingest lookup is skipped."""
        if not entries:
            return []
        extracted = [(self.extractor.extract(e.text, e.created_at, e.metadata),
                      extract_document_date(e.text, e.metadata, e.created_at)) for e in entries]
        near = neighbours.live_neighbours(self.store, entries, VECTOR_CANDIDATES, self.builder.relate_threshold)
        # a live write is ingested at its own time (the clock's, when it was written alone)
        texts_at = {t: to_text(t) for t in {e.created_at for e in entries}}   # a batch's entries share a time
        nows = [texts_at[e.created_at] for e in entries]
        out: list[list[tuple]] = []
        with sqlite_errors(self.store.tracker.path), self.store.tracker.tx() as conn:
            ids = [e.id for e in entries]
            for mid in [] if fresh else already_ingested(conn, ids):
                drop(conn, mid)
            # the mention-id bound is read only by the shared-entity rule, which has nothing to do without mentions
            start = next_mention_id(conn) if self.colon_types or any(m for m, _ in extracted) else 0
            entity_table.add_mentions_many(conn, [(e.id, e.text, m, now)
                                                  for e, (m, _), now in zip(entries, extracted, nows)])
            temporal_table.insert_many(conn, [(e.id, d, e.created_at, src, importance_of(e.metadata))
                                              for e, (_, (d, src)) in zip(entries, extracted)])
            texts = neighbour_rows(self.ids, conn, near, {e.key_hash for e in entries}, self.builder.update_threshold)
            known = None if self.colon_types else known_entities(conn, ids, [m for m, _ in extracted], texts,
                                                                 near, self.builder.update_threshold)
            bound, rels = start, []
            for entry, (mentions, _), hs, now in zip(entries, extracted, near, nows):
                bound += len(mentions)
                found = [(texts[h], s) for h, s in hs if h in texts]
                found.sort(key=lambda ns: (-ns[1], ns[0].id))
                mine = self.builder.rows(conn, entry, _any, now, neighbours=found[:VECTOR_CANDIDATES],
                                          before_mention=bound, known=known)
                rels += mine
                out.append(mine)
            relationship_table.insert_row_tuples(conn, rels)
        return out


def known_entities(conn: Any, ids: list[str], mentions: list[list[Any]], texts: dict[int, Neighbour],
                   near: list[list[tuple[int, float]]], above: float) -> KnownEntities | None:
    """Entity ids of the batch (from its extraction) and of the neighbours outside it that a rule reads.

    The rules read a neighbour's entities only to compare subjects above the update threshold
    (`RelationshipBuilder.build`), and only where the entry itself names a subject, so only
    those neighbours are queried (one query; most writes have none: no query). None makes the
    rules read every document's entities from the table; `LiveIngest` does not call it when a
    gazetteer type holds ':' (an entity's type is then not its id's prefix: the rules read the table).
    `above` is the update threshold."""
    known = {d: sorted({m.entity_id for m in ms}) for d, ms in zip(ids, mentions) if ms}
    ks = KnownEntities(known)
    wanted = {texts[h].id for d, hs in zip(ids, near) if ks.subjects(d)
              for h, s in hs if s > above and h in texts} - set(ids)
    if wanted:
        known.update(entity_table.entity_ids_of(conn, sorted(wanted)))
        ks = KnownEntities(known)   # afresh: `subjects` caches per document
    return ks


def next_mention_id(conn: Any) -> int:
    """The id the next `entity_mentions` row gets (AUTOINCREMENT: one above the largest ever used)."""
    row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'entity_mentions'").fetchone()
    top = conn.execute("SELECT max(id) FROM entity_mentions").fetchone()[0]
    return max(row[0] if row else 0, top or 0) + 1


def _any(_memory_id: str) -> bool:
    return True
