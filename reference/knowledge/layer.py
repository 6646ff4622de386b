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
"""
from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

import numpy as np

from reference.knowledge import backfill as bf
from reference.knowledge import neighbours
from reference.knowledge import entity_table, relationship_table, temporal_table
from reference.knowledge.dates import parse_time_arg
from reference.knowledge.decay import DAY
from reference.knowledge.document_date import extract_document_date
from reference.knowledge.errors import KnowledgeError
from reference.knowledge.extractor import EntityExtractor
from reference.knowledge.hybrid import hybrid_search
from reference.knowledge.memory_ids import MemoryIds
from reference.knowledge.model import RELATION_TYPES, Entity, OracleHit, Relationship, Temporal
from reference.knowledge.relationship_rows import to_relationship
from reference.knowledge.relations import VECTOR_CANDIDATES, KnownEntities, RelationshipBuilder
from reference.knowledge.schema import ensure_schema
from reference.knowledge.timefmt import to_text
from reference.memories import check_memory_id
from reference.memory_record import MemoryEntry
from reference.tracker import MemoryFilter
from reference.tracker.codec import from_db, to_db
from reference.tracker.sqlite_errors import sqlite_errors
from reference.tuning import tuning_of
from reference.vector_search import KIND_TAGS

EXTENSION_KEY = "knowledge"
_CREATE_LOCK = threading.Lock()


class KnowledgeLayer:
    """Entities, mentions, relationships, temporal data and layers of one open store."""

    def __init__(self, store: Any, gazetteer: Mapping[str, Iterable[str]] | None = None) -> None:
        self.store = store
        self.extractor = EntityExtractor(gazetteer)
        self._colon_types = any(":" in t for t, _, _ in self.extractor.gazetteer)
        tuning = tuning_of(store)   # reference/tuning.py: None keeps the committed constant
        self.decay_weight = tuning.decay_weight
        relate = {} if tuning.relate_threshold is None else {"relate_threshold": tuning.relate_threshold}
        self.builder = RelationshipBuilder(self._similar, self._cosines, **relate)
        self._last_refresh: float | None = None
        self._backlog = True   # until a backfill step finds nothing more to do
        self._ids = MemoryIds()   # neighbours' ids across writes (memory_ids.py: what keeps it true)

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
            return layer

    # -- write path ----------------------------------------------------------------
    def ingest(self, entry: MemoryEntry, eligible: Callable[[str], bool] | None = None) -> list[Relationship]:
        """Entities, mentions, temporal data and relationships of one memory (idempotent per id).

        A live write (no `eligible`) goes through `ingest_many`; with `eligible` (a backfill)
        only the memories it accepts can be linked to."""
        if eligible is None:
            return self.ingest_many([entry])[0]
        return self._ingest(entry, eligible)

    def _ingest_written(self, entries: list[MemoryEntry]) -> None:
        """The write listener: `ingest_many` of memories written in this transaction.

        Their ids were free until now (`keys` rows are never deleted, so an id is never issued
        twice) and rows are derived only from memories, so none of them can have derived rows
        yet: the lookup a re-ingest needs is skipped.
        """
        self._ingest_rows(entries, fresh=True)   # the store reads no result: no records built

    def ingest_many(self, entries: list[MemoryEntry], *, fresh: bool = False) -> list[list[Relationship]]:
        """`ingest` of several live writes, in order, in one transaction; per entry its relationships.

        Each entry is ingested at its `created_at` (for a live write, the clock's time when
        it was written). The stored rows are the ones the same entries ingested one by one would give:
        entry i is linked only to the store before the batch and to entries before it
        (vector neighbours from `neighbours.live_neighbours`, shared entities from the
        mention rows that existed at its turn). Mentions and temporal rows go in with
        `executemany`. While a backfill backlog remains, a small backfill step per entry
        follows (then, and only then, the rows differ from one-by-one ingests, whose
        backfill steps fall between the writes). `fresh` (the write listener) says no entry
        can have derived rows yet, so the re-ingest lookup is skipped.
        """
        return [[to_relationship(r) for r in rows] for rows in self._ingest_rows(list(entries), fresh=fresh)]

    def _ingest_rows(self, entries: list[MemoryEntry], fresh: bool) -> list[list[tuple]]:
        """`ingest_many`, per entry its relationships as the rows stored (`relationship_rows.py`)."""
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
            for mid in [] if fresh else _already_ingested(conn, ids):
                self._drop(conn, mid)
            # the mention-id bound is read only by the shared-entity rule, which has nothing to do without mentions
            start = _next_mention_id(conn) if self._colon_types or any(m for m, _ in extracted) else 0
            entity_table.add_mentions_many(conn, [(e.id, e.text, m, now)
                                                  for e, (m, _), now in zip(entries, extracted, nows)])
            temporal_table.insert_many(conn, [(e.id, d, e.created_at, src, _importance(e.metadata))
                                              for e, (_, (d, src)) in zip(entries, extracted)])
            texts = self._neighbour_rows(conn, near, {e.key_hash for e in entries})
            known = self._known_entities(conn, ids, [m for m, _ in extracted], texts, near)
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
        if self._backlog:
            self.backfill(limit=bf.PER_WRITE * len(entries), scan_cap=bf.PAGE)
        return out

    def _neighbour_rows(self, conn: Any, near: list[list[tuple[int, float]]], pending: set[int]
                        ) -> dict[int, "Neighbour"]:
        """Key hash -> (id, text) of the batch's vector neighbours that are stored memories.

        Ids come from `MemoryIds` (no query for a memory seen before); a text is read only where
        a similarity is above the update threshold, the one rule that reads it (elsewhere None)."""
        ids = self._ids.lookup(conn, sorted({h for hs in near for h, _ in hs}), pending)
        above = self.builder.update_threshold
        wanted = sorted({h for hs in near for h, s in hs if s > above and h in ids})
        texts = _texts_of(conn, wanted) if wanted else {}
        return {h: Neighbour(mid, texts.get(h)) for h, mid in ids.items()}

    def _known_entities(self, conn: Any, ids: list[str], mentions: list[list[Any]],
                        texts: dict[int, "Neighbour"], near: list[list[tuple[int, float]]]) -> KnownEntities | None:
        """Entity ids of the batch (from its extraction) and of the neighbours outside it that a rule reads.

        The rules read a neighbour's entities only to compare subjects above the update threshold
        (`RelationshipBuilder.build`), and only where the entry itself names a subject, so only
        those neighbours are queried (one query; most writes have none: no query)."""
        if self._colon_types:
            return None   # an entity's type is then not its id's prefix: let the rules read the table
        known = {d: sorted({m.entity_id for m in ms}) for d, ms in zip(ids, mentions) if ms}
        ks = KnownEntities(known)
        above = self.builder.update_threshold
        wanted = {texts[h].id for d, hs in zip(ids, near) if ks.subjects(d)
                  for h, s in hs if s > above and h in texts} - set(ids)
        if wanted:
            known.update(entity_table.entity_ids_of(conn, sorted(wanted)))
            ks = KnownEntities(known)   # afresh: `subjects` caches per document
        return ks

    def _ingest(self, entry: MemoryEntry, eligible: Callable[[str], bool] | None,
                cursor: bf.Cursor | None = None) -> list[Relationship]:
        mentions = self.extractor.extract(entry.text, entry.created_at, entry.metadata)
        doc_date, source = extract_document_date(entry.text, entry.metadata, entry.created_at)
        now = to_text(self.store.clock.now())
        with self.store.tracker.tx() as conn:
            self._drop(conn, entry.id)
            entity_table.add_mentions(conn, entry.id, entry.text, mentions, now)
            temporal_table.insert(conn, entry.id, doc_date, entry.created_at, source, _importance(entry.metadata))
            rows = self.builder.rows(conn, entry, eligible or (lambda _id: True), now)
            relationship_table.insert_row_tuples(conn, rows)
            if cursor is not None:
                bf.write_cursor(conn, cursor)
        return [to_relationship(r) for r in rows]

    def forget(self, memory_id: str) -> None:
        """Drop everything derived from a deleted memory (mentions, orphaned entities, links, time, layer)."""
        self._ids.clear()
        with self.store.tracker.tx() as conn:
            self._drop(conn, memory_id)

    @staticmethod
    def _drop(conn: Any, memory_id: str) -> None:
        entity_table.delete_document(conn, memory_id)
        relationship_table.delete_document(conn, memory_id)
        temporal_table.delete_document(conn, memory_id)

    def backfill(self, limit: int | None = None, scan_cap: int = bf.SCAN_CAP) -> int:
        """Ingest memories not yet ingested, oldest first from the persisted cursor; returns how many.

        Each is linked only to memories before it. `limit` bounds the memories ingested and
        `scan_cap` the rows examined in this call (both: bounded work); `limit=None` runs to the
        end. The cursor moves with every ingest (same transaction), so an interrupted backfill
        resumes where it stopped.
        """
        with sqlite_errors(self.store.tracker.path):  # a damaged tracker.db: CorruptData naming it
            count, self._backlog = bf.step(self.store.tracker, self._ingest, limit, scan_cap)
        return count

    def learn(self, pattern: str, concepts: list[str] | None = None, source: str | None = None) -> MemoryEntry:
        """Seed 001 §6 `oracle_learn`: store a learning; its concepts become `concept` entities."""
        if not isinstance(pattern, str) or not pattern.strip():
            raise KnowledgeError("oracle_learn: pattern must be a non-empty string")
        if concepts is not None and (isinstance(concepts, str) or not all(isinstance(c, str) for c in concepts)):
            raise KnowledgeError(f"oracle_learn: concepts must be a list of strings, got {concepts!r}")
        if source is not None and not isinstance(source, str):
            raise KnowledgeError(f"oracle_learn: source must be a string, got {type(source).__name__}")
        meta: dict[str, Any] = {"kind": "learning"}
        if concepts:
            meta["concepts"] = [" ".join(c.split()) for c in concepts if c.strip()]
        if source:
            meta["source"] = source
        return self.store.write_memory(pattern, metadata=meta)

    # -- reads ---------------------------------------------------------------------
    def entities(self, type: str | None = None, limit: int = 100) -> list[Entity]:
        """Seed 001 `oracle_entities`: most widely mentioned first."""
        return entity_table.list_entities(self.store.tracker.conn(), type, _limit(limit))

    def document_entities(self, memory_id: str) -> list[Entity]:
        return entity_table.document_entities(self.store.tracker.conn(), check_memory_id(memory_id))

    def mentions(self, memory_id: str) -> list[dict[str, Any]]:
        rows = self.store.tracker.conn().execute(
            "SELECT entity_id, context, position, end_position, surface, confidence FROM entity_mentions "
            "WHERE document_id = ? ORDER BY coalesce(position, 1 << 40), id", (check_memory_id(memory_id),)).fetchall()
        keys = ("entity_id", "context", "position", "end_position", "surface", "confidence")
        return [dict(zip(keys, r)) for r in rows]

    def relationships(self, memory_id: str, type: str | None = None) -> list[Relationship]:
        """Seed 001 `oracle_relationships`: links where the memory is source or target."""
        if type is not None and type not in RELATION_TYPES:
            raise KnowledgeError(f"unknown relationship type {type!r}; expected one of {', '.join(RELATION_TYPES)}")
        rels = relationship_table.for_document(self.store.tracker.conn(), check_memory_id(memory_id))
        return [r for r in rels if type is None or r.type == type]

    def temporal(self, memory_id: str) -> Temporal | None:
        return temporal_table.get_many(self.store.tracker.conn(), [check_memory_id(memory_id)]).get(memory_id)

    def timeline(self, after: Any = None, before: Any = None, limit: int | None = None) -> list[Temporal]:
        """Seed 001 `oracle_timeline`: memories whose effective date is in [after, before), oldest first."""
        lo, hi = parse_time_arg(after, "after"), parse_time_arg(before, "before")
        self.maybe_refresh()
        return temporal_table.window(self.store.tracker.conn(), lo, hi, None if limit is None else _limit(limit))

    def search(self, text: str, *, limit: int = 10, include_related: bool = True, after: Any = None,
               before: Any = None, entity_filter: list[str] | None = None, min_relevance: float | None = None,
               flt: MemoryFilter | None = None, record_access: bool = True, details: bool = True) -> list[OracleHit]:
        """Seed 001 §5 hybrid search (see `reference.knowledge.hybrid`)."""
        if not isinstance(text, str):
            raise KnowledgeError(f"oracle_search: query must be a string, got {type(text).__name__}")
        if entity_filter is not None and (isinstance(entity_filter, str)
                                          or not all(isinstance(e, str) for e in entity_filter)):
            raise KnowledgeError(f"oracle_search: entityFilter must be a list of strings, got {entity_filter!r}")
        if min_relevance is not None and (isinstance(min_relevance, bool) or not isinstance(min_relevance, (int, float))
                                          or not math.isfinite(min_relevance)):
            raise KnowledgeError(f"oracle_search: minRelevance must be a number, got {min_relevance!r}")
        self.maybe_refresh()
        return hybrid_search(self, text, limit=_limit(limit), include_related=include_related,
                             after=parse_time_arg(after, "temporalFilter.after"),
                             before=parse_time_arg(before, "temporalFilter.before"),
                             entity_filter=entity_filter, min_relevance=min_relevance, flt=flt,
                             record_access=record_access, details=details)

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

    # -- internals -----------------------------------------------------------------
    def _cosines(self, entry: MemoryEntry, memory_ids: list[str]) -> dict[str, float]:
        vec = self.store.vectors.get(entry.key_hash)
        if vec is None or not memory_ids:
            return {}
        sims = self.store.vectors.scores(vec, [self.store.tracker.hash_fn(m) for m in memory_ids])
        return {m: float(x) for m, x in zip(memory_ids, sims) if not np.isnan(x)}

    def _similar(self, entry: MemoryEntry, k: int, eligible: Callable[[str], bool]) -> list[tuple[Any, float]]:
        """The `k` eligible memories nearest to `entry` by the store's vectors (itself excluded).

        Live writes find every other memory eligible; a backfill only the ones
        before it, so when the first `k + 1` neighbours hold too few the window
        widens (x4 a step) up to `MAX_NEIGHBOUR_WINDOW`, never to the whole store.
        """
        vec = self.store.vectors.get(entry.key_hash)
        if vec is None:
            return []
        conn = self.store.tracker.conn()
        want = k + 1
        while True:
            pairs = self.store.vectors.topk(vec, want, tags=[KIND_TAGS["memory"]])
            entries = _id_text_many(conn, [h for h, _ in pairs])
            out = [(entries[h], s) for h, s in pairs
                   if h in entries and h != entry.key_hash and eligible(entries[h].id)]
            if len(out) >= k or len(pairs) < want or want >= bf.MAX_NEIGHBOUR_WINDOW:
                break
            want = min(want * 4, bf.MAX_NEIGHBOUR_WINDOW)
        out.sort(key=lambda es: (-es[1], es[0].id))
        return out[:k]


def _any(_memory_id: str) -> bool:
    return True


def _already_ingested(conn: Any, ids: list[str]) -> list[str]:
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


def _next_mention_id(conn: Any) -> int:
    """The id the next `entity_mentions` row gets (AUTOINCREMENT: one above the largest ever used)."""
    row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'entity_mentions'").fetchone()
    top = conn.execute("SELECT max(id) FROM entity_mentions").fetchone()[0]
    return max(row[0] if row else 0, top or 0) + 1


class Neighbour(NamedTuple):
    """What the relationship rules read of a vector neighbour: its id and text (no JSON fields parsed).

    In a live write `text` is None where no similarity to the neighbour is above the update
    threshold: only the contradiction check, above it, reads a neighbour's text."""

    id: str
    text: str | None


def _id_text_many(conn: Any, key_hashes: list[int]) -> dict[int, Neighbour]:
    out: dict[int, Neighbour] = {}
    for i in range(0, len(key_hashes), 500):
        part = [to_db(h) for h in key_hashes[i: i + 500]]
        for kh, mid, text in conn.execute(
                f"SELECT key_hash, id, text FROM memories WHERE key_hash IN ({','.join('?' * len(part))})", part):
            out[from_db(kh)] = Neighbour(mid, text)
    return out


def _texts_of(conn: Any, key_hashes: list[int]) -> dict[int, str]:
    out: dict[int, str] = {}
    for i in range(0, len(key_hashes), 500):
        part = [to_db(h) for h in key_hashes[i: i + 500]]
        for kh, text in conn.execute(
                f"SELECT key_hash, text FROM memories WHERE key_hash IN ({','.join('?' * len(part))})", part):
            out[from_db(kh)] = text
    return out


def _limit(limit: Any) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise KnowledgeError(f"limit must be a positive integer, got {limit!r}")
    return limit


def _importance(metadata: Mapping[str, Any]) -> float:
    value = metadata.get("importance", 1.0) if metadata else 1.0
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0
    return float(value) if ok else 1.0
