"""`KnowledgeLayer`: seed 001's entities, relationships, time and hybrid search over one `MemoryStore`.

    layer = KnowledgeLayer.for_store(store)      # once per open store
    store.write_memory("Fixed authClient.refresh() in src/features/auth/session.ts")
    layer.document_entities(mid)                 # symbol, file, feature:auth
    layer.search("token refresh", after="2026-01-01")

`for_store` creates the store's single layer (kept in
`store.extensions["knowledge"]`), makes sure the seed 001 tables exist,
runs one bounded step of the backfill of memories written while no layer was
attached (see `backfill.py`: incremental, resumable, never unbounded on open) and
registers a write listener (entities, mentions, temporal data, relationships
of every new memory, in one transaction) and a delete listener (drops what
was derived from the memory). Every time comes from `store.clock`.

The write path is `live_ingest.py` (a batch of live writes: a `LiveIngest` part the layer holds)
and `single_ingest.py` (one memory alone: backfill); the search is `lexical_search.py` or `hybrid.py`
(`ORACLE_SEARCH`). Those modules take
the parts they use (store, extractor, relationship builder) and never import this one. The rules
read vectors through `similarity.py`; argument checks: `arguments.py`.
"""
from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from reference.knowledge import backfill as bf
from reference.knowledge import entity_table, relationship_table, temporal_table
from reference.knowledge.arguments import check_limit, check_relation_type, check_search_args, learning_metadata
from reference.knowledge.dates import parse_time_arg
from reference.knowledge.decay import DAY, importance_of
from reference.knowledge.document_date import extract_document_date
from reference.knowledge.derived_rows import drop
from reference.knowledge.errors import KnowledgeError
from reference.knowledge.extractor import EntityExtractor
from reference.knowledge.hybrid import attach_details, hybrid_search
from reference.knowledge.lexical_search import lexical_search
from reference.knowledge.live_ingest import LiveIngest
from reference.knowledge.memory_ids import MemoryIds
from reference.knowledge.model import Entity, OracleHit, Relationship, Temporal
from reference.knowledge.relationship_rows import to_relationship
from reference.knowledge.relations import RelationshipBuilder
from reference.knowledge.schema import ensure_schema
from reference.knowledge.similarity import cosines, similar
from reference.knowledge.single_ingest import ingest_one
from reference.lexical.layer import LexicalLayer
from reference.lexical.params import SEED, params_for
from reference.memories.args import check_memory_id
from reference.memories.record import MemoryEntry
from reference.tracker import MemoryFilter
from reference.tracker.sqlite_errors import sqlite_errors
from reference.tuning import tuning_of

EXTENSION_KEY = "knowledge"
# the search `oracle_search` runs with tuned constants: "lexical" (lexical_search.py) or "seed" (hybrid.py, with the
# fitted DECAY_WEIGHT); chosen on knowledge-history-calibration by bench/calibration/oracle_search.py
ORACLE_SEARCH = "lexical"
_CREATE_LOCK = threading.Lock()


class KnowledgeLayer:
    """Entities, mentions, relationships, temporal data and layers of one open store."""

    def __init__(self, store: Any, gazetteer: Mapping[str, Iterable[str]] | None = None) -> None:
        self.store = store
        self.extractor = EntityExtractor(gazetteer)
        tuning = tuning_of(store)   # reference/tuning.py: None keeps the committed constant
        self.decay_weight = tuning.decay_weight
        given = {"update_threshold": tuning.update_threshold, "relate_threshold": tuning.relate_threshold}
        self.builder = RelationshipBuilder(functools.partial(similar, store), functools.partial(cosines, store),
                                           **{k: v for k, v in given.items() if v is not None})
        self._last_refresh: float | None = None
        self._backlog = True   # until a backfill step finds nothing more to do
        self._ids = MemoryIds()   # neighbours' ids across writes (memory_ids.py: what keeps it true)
        self._live = LiveIngest(store, self.extractor, self.builder, self._ids)

    @classmethod
    def for_store(cls, store: Any, *, gazetteer: Mapping[str, Iterable[str]] | None = None) -> "KnowledgeLayer":
        """The store's layer, created (schema, backfill, listeners) on first call."""
        with _CREATE_LOCK:
            layer = store.extensions.get(EXTENSION_KEY)
            if layer is not None:
                if gazetteer is not None:
                    raise KnowledgeError("the knowledge layer of this store already exists; "
                                         "gazetteer= applies only when it is created")
                return layer
            layer = cls(store, gazetteer)
            ensure_schema(store.tracker)
            layer.backfill(limit=bf.PER_OPEN)
            store.extensions[EXTENSION_KEY] = layer
            store.add_write_listener(layer.ingest, batch=layer._ingest_written)
            store.add_delete_listener(layer.forget)
            store.add_update_listener(layer.restate)
            return layer

    # -- write path (live_ingest.py, single_ingest.py) ------------------------------
    def ingest(self, entry: MemoryEntry, eligible: Callable[[str], bool] | None = None) -> list[Relationship]:
        """Entities, mentions, temporal data and relationships of one memory (idempotent per id).

        A live write (no `eligible`) goes through `ingest_many`; with `eligible` (a backfill)
        only the memories it accepts can be linked to."""
        if eligible is None:
            return self.ingest_many([entry])[0]
        return self._ingest_one(entry, eligible)

    def _ingest_one(self, entry: MemoryEntry, eligible: Callable[[str], bool] | None,
                    cursor: bf.Cursor | None = None) -> list[Relationship]:
        return ingest_one(self.store, self.extractor, self.builder, entry, eligible, cursor)

    def _ingest_written(self, entries: list[MemoryEntry]) -> None:
        """The write listener: `ingest_many` of memories written in this transaction.

        Their ids were free until now (`keys` rows are never deleted, so an id is never issued
        twice) and rows are derived only from memories, so none of them can have derived rows
        yet: the lookup a re-ingest needs is skipped.
        """
        self._ingest_live(entries, fresh=True)   # the store reads no result: no records built

    def ingest_many(self, entries: list[MemoryEntry], *, fresh: bool = False) -> list[list[Relationship]]:
        """`ingest` of several live writes, in order, in one transaction; per entry its relationships.

        Each entry is ingested at its `created_at`; the stored rows are the ones the same entries
        ingested one by one would give (`live_ingest.py`: how), except while a backfill backlog
        remains. `fresh` (the write listener) says no entry can have derived rows yet, so the
        re-ingest lookup is skipped.
        """
        return [[to_relationship(r) for r in rows] for rows in self._ingest_live(list(entries), fresh=fresh)]

    def _ingest_live(self, entries: list[MemoryEntry], fresh: bool) -> list[list[tuple]]:
        """`LiveIngest.rows`, then a small backfill step per entry while a backlog remains."""
        rows = self._live.rows(entries, fresh)
        if entries and self._backlog:
            self.backfill(limit=bf.PER_WRITE * len(entries), scan_cap=bf.PAGE)
        return rows

    def restate(self, entry: MemoryEntry) -> bool:
        """The update listener: a memory's temporal row as its metadata now gives it (`importance`, and the
        document date a `source_path` names), as an ingest of the updated memory would store it; True if it
        changed. Entities and relationships stay as ingested (README: metadata updates)."""
        doc_date, source = extract_document_date(entry.text, entry.metadata, entry.created_at)
        with self.store.tracker.tx() as conn:
            return temporal_table.restate(conn, entry.id, doc_date, source, importance_of(entry.metadata))

    def forget(self, memory_id: str) -> None:
        """Drop everything derived from a deleted memory (mentions, orphaned entities, links, time, layer)."""
        self._ids.clear()
        with self.store.tracker.tx() as conn:
            drop(conn, memory_id)

    def backfill(self, limit: int | None = None, scan_cap: int = bf.SCAN_CAP) -> int:
        """Ingest memories not yet ingested, oldest first from the persisted cursor; returns how many.

        Each is linked only to memories before it. `limit` bounds the memories ingested and
        `scan_cap` the rows examined in this call (both: bounded work); `limit=None` runs to the
        end. The cursor moves with every ingest (same transaction), so an interrupted backfill
        resumes where it stopped.
        """
        with sqlite_errors(self.store.tracker.path):  # a damaged tracker.db: CorruptData naming it
            count, self._backlog = bf.step(self.store.tracker, self._ingest_one, limit, scan_cap)
        return count

    def learn(self, pattern: str, concepts: list[str] | None = None, source: str | None = None) -> MemoryEntry:
        """Seed 001 §6 `oracle_learn`: store a learning; its concepts become `concept` entities."""
        return self.store.write_memory(pattern, metadata=learning_metadata(pattern, concepts, source))

    # -- reads ---------------------------------------------------------------------
    def entities(self, type: str | None = None, limit: int = 100) -> list[Entity]:
        """Seed 001 `oracle_entities`: most widely mentioned first."""
        return entity_table.list_entities(self.store.tracker.conn(), type, check_limit(limit))

    def document_entities(self, memory_id: str) -> list[Entity]:
        return entity_table.document_entities(self.store.tracker.conn(), check_memory_id(memory_id))

    def mentions(self, memory_id: str) -> list[dict[str, Any]]:
        return entity_table.document_mentions(self.store.tracker.conn(), check_memory_id(memory_id))

    def relationships(self, memory_id: str, type: str | None = None) -> list[Relationship]:
        """Seed 001 `oracle_relationships`: links where the memory is source or target."""
        check_relation_type(type)
        rels = relationship_table.for_document(self.store.tracker.conn(), check_memory_id(memory_id))
        return [r for r in rels if type is None or r.type == type]

    def temporal(self, memory_id: str) -> Temporal | None:
        return temporal_table.get_many(self.store.tracker.conn(), [check_memory_id(memory_id)]).get(memory_id)

    def timeline(self, after: Any = None, before: Any = None, limit: int | None = None) -> list[Temporal]:
        """Seed 001 `oracle_timeline`: memories whose effective date is in [after, before), oldest first."""
        lo, hi = parse_time_arg(after, "after"), parse_time_arg(before, "before")
        self.maybe_refresh()
        return temporal_table.window(self.store.tracker.conn(), lo, hi, None if limit is None else check_limit(limit))

    def search(self, text: str, *, limit: int = 10, include_related: bool = True, after: Any = None,
               before: Any = None, entity_filter: list[str] | None = None, min_relevance: float | None = None,
               flt: MemoryFilter | None = None, record_access: bool = True, details: bool = True,
               design: str | None = None) -> list[OracleHit]:
        """Seed 001 §5 hybrid search (`oracle_search`): with tuned constants the search `design` names ("lexical":
        `lexical_search.py`, over the code-aware lexical ranking; "seed": the seed's `hybrid.py`; None: the fitted
        `ORACLE_SEARCH`), at the seeds' values the seed's. `details` gives each hit its entities and relationships."""
        if design not in (None, "seed", "lexical"):
            raise ValueError(f"design must be None, 'seed' or 'lexical', got {design!r}"[:120])
        check_search_args(text, entity_filter, min_relevance)
        self.maybe_refresh()
        limit = check_limit(limit)
        after = parse_time_arg(after, "temporalFilter.after")
        before = parse_time_arg(before, "temporalFilter.before")
        params = params_for(self.store)
        if (design or ORACLE_SEARCH) == "lexical" and params is not SEED:
            hits = lexical_search(self.store, LexicalLayer.for_store(self.store), params, text, limit=limit,
                                  include_related=include_related, after=after, before=before,
                                  entity_filter=entity_filter, min_relevance=min_relevance, flt=flt)
            if details:
                attach_details(self.store.tracker.conn(), hits)
        else:
            hits = hybrid_search(self.store, self.extractor, text, decay_weight=self.decay_weight, limit=limit,
                                 include_related=include_related, after=after, before=before,
                                 entity_filter=entity_filter, min_relevance=min_relevance, flt=flt, details=details)
        if record_access and hits:
            self.record_access([h.id for h in hits])
        return hits

    # -- time ----------------------------------------------------------------------
    def record_access(self, memory_ids: list[str]) -> None:
        with self.store.tracker.tx(light=True) as conn:   # a search's bookkeeping: no WAL checkpoint here
            temporal_table.record_access(conn, memory_ids, self.store.clock.now())

    def refresh(self) -> dict[str, int]:
        """Recompute relevance and layers of every memory at the clock's now; the layer counts."""
        now = self.store.clock.now()
        with self.store.tracker.tx() as conn:
            counts = temporal_table.refresh(conn, now)
        self._last_refresh = now
        return counts

    def maybe_refresh(self) -> None:
        """Refresh at most once per day of clock time (reads trigger it; demotions need no daemon)."""
        now = self.store.clock.now()
        if self._last_refresh is None or now - self._last_refresh >= DAY:
            self.refresh()

    def stats(self) -> dict[str, Any]:
        conn = self.store.tracker.conn()
        return {"entities": conn.execute("SELECT count(*) FROM entities").fetchone()[0],
                "mentions": conn.execute("SELECT count(*) FROM entity_mentions").fetchone()[0],
                "relationships": relationship_table.count_by_type(conn),
                "layers": temporal_table.layer_counts(conn)}
