"""`Memories`: the memory operations of one store (seed 000 §3-§4): write, get, delete, list, search.

A `Memories` holds one store's components (tracker, blob, vectors, embedder, clock, redactor)
and its in-memory indexes: the label filter index, and the keyword and id indexes that follow
its write notes.

Writes validate everything first, then, in one tracker transaction: allocate the next per-store
sequence number, derive the id, append the §3.2 JSON record to `blob.dat`, insert the row and its
FTS entry (`insert.py`), move the memories revision and put the vector; a failed transaction leaves
no vector behind. After the commit the filter index is told (`_note`), with the revision the change
moved. Searches narrow the candidates with the label index first (`candidates`), then rank by
cosine (`search`), by keyword bm25 (`keyword`) or both lists at once for rank fusion
(`ranked_lists`). Rankings are best first and break ties by id ascending.

Arguments are checked in `args.py` (`InvalidArgument`, `check_memory_id`, counts) and
`input.py` (a memory's fields); ids come from `insert.derive_memory_id`.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import numpy as np

from reference.blob import Blob
from reference.clock import Clock
from reference.embed import Embedder
from reference.errors import NotFound
from reference.memories.args import InvalidArgument, check_count, check_memory_id
from reference.memories.input import check_metadata, check_tags, redact_input, redact_value, validate_memory
from reference.memories.insert import insert_many
from reference.memories.record import MemoryEntry, SearchHit, memory_blob_record
from reference.ontology import check_context, check_insights, check_task
from reference.tracker import MemoryFilter, Tracker, check_where_metadata, fts_match, memory_revision
from reference.tracker.filter_index import FilterIndex
from reference.tracker.filter_labels import labels_of
from reference.tracker.fts.topk import ranked_matches
from reference.tracker.id_index import IdIndex
from reference.tracker.keyword.index import KeywordIndex
from reference.tracker.memories_table import ORDER_NEWEST
from reference.vectors import VectorCache
from reference.vectors.search import KIND_TAGS

__all__ = ["Memories"]

_RECORD_FIELDS = {"text", "task", "insights", "context", "symbol_keys", "tags", "metadata"}


class Memories:
    """Memory rows, blob records and vectors of one store."""

    def __init__(self, tracker: Tracker, blob: Blob, vectors: VectorCache, embedder: Embedder, clock: Clock,
                 redactor: Callable[[str], str] | None = None) -> None:
        self.tracker, self.blob, self.vectors, self.embedder = tracker, blob, vectors, embedder
        self.clock, self.redactor = clock, redactor
        self.filter_index = FilterIndex()
        self.filter_index.table = tracker.memories     # refuses filters while a row is damaged (issue 25)
        self.update_listeners: list[Callable[[MemoryEntry], None]] = []   # MemoryStore.add_update_listener

    # -- writing -------------------------------------------------------------------
    def write(self, text: Any, task: Any = None, insights: Any = None, context: Any = None,
              symbol_keys: Any = None, tags: Any = None, metadata: Any = None) -> MemoryEntry:
        """Store one memory at the clock's now."""
        inp = redact_input(validate_memory(text, task, insights, context, symbol_keys, tags, metadata), self.redactor)
        vec = self.embedder.embed([inp.text])[0]
        put = False
        try:
            with self.tracker.tx() as conn:
                entry = insert_many(self.tracker, self.blob, conn, [inp], [self.clock.now()])[0]
                rev = memory_revision.bump(conn)
                kh = entry.key_hash
                if np.any(vec):
                    self.vectors.put(kh, vec, KIND_TAGS["memory"])
                    put = True
        except BaseException:
            if put:
                self.vectors.remove(kh)  # the row was rolled back: do not leave its vector behind
            self.filter_index.reset()
            raise
        self._note(entry, rev)
        return entry

    def write_many(self, records: list[dict[str, Any]], times: list[float] | None = None
                   ) -> list[MemoryEntry]:
        """Several writes in one transaction: all validated first, embedded in one batch, vectors in one append.

        Each record holds `write`'s arguments by name (`text` required). The
        entries get the ids, rows and blob records that the same writes made
        one by one would get; nothing is stored if any record is invalid.
        `times` (one per record, not decreasing) replays a timed history in one batch: the
        clock is set to each (`LogicalClock.set`) before its record is stored, as a caller
        setting the clock between single writes would.
        """
        clock = self.clock
        if times is not None:
            if not callable(getattr(clock, "set", None)):
                raise InvalidArgument("times= needs a clock with set() (a LogicalClock)")
            if len(times) != len(records):
                raise InvalidArgument(f"{len(times)} times for {len(records)} records")
            if any(not isinstance(t, (int, float)) or isinstance(t, bool) for t in times) \
                    or any(b < a for a, b in zip([clock.now(), *times], times)):
                raise InvalidArgument("times must be numbers, none before the clock's now or the one before it")
        inputs = []
        for i, rec in enumerate(records):
            if not isinstance(rec, dict):
                raise InvalidArgument(f"record {i} must be a dict of write_memory arguments, got {type(rec).__name__}")
            unknown = sorted(set(rec) - _RECORD_FIELDS)
            if unknown:
                raise InvalidArgument(f"record {i}: unknown field(s) {', '.join(unknown)[:80]}")
            inputs.append(redact_input(validate_memory(rec.get("text"), rec.get("task"), rec.get("insights"),
                                                       rec.get("context"), rec.get("symbol_keys"), rec.get("tags"),
                                                       rec.get("metadata")), self.redactor))
        if not inputs:
            return []
        vecs = np.asarray(self.embedder.embed([inp.text for inp in inputs]), dtype=np.float32)
        entries: list[MemoryEntry] = []
        put: list[int] = []
        try:
            with self.tracker.tx() as conn:
                nows = []
                for i in range(len(inputs)):
                    if times is not None:
                        clock.set(float(times[i]))
                    nows.append(clock.now())
                entries = insert_many(self.tracker, self.blob, conn, inputs, nows)
                last = memory_revision.bump(conn, len(entries))
                nonzero = np.flatnonzero(vecs.any(axis=1))
                if nonzero.size:
                    put = [entries[i].key_hash for i in nonzero]
                    self.vectors.put_many(put, vecs[nonzero], KIND_TAGS["memory"])
        except BaseException:
            if put:
                self.vectors.remove_many(put)  # the rows were rolled back: do not leave their vectors behind
            raise
        for i, entry in enumerate(entries, start=last - len(entries) + 1):
            self._note(entry, i)   # revisions as the writes one by one would have moved it
        return entries

    def update_metadata(self, memory_id: str, updates: Any, *, replace_all: bool = False) -> MemoryEntry:
        """Merge `updates` into a memory's metadata (or replace it); appends a new blob record."""
        old = self.get(memory_id)
        if old is None:
            raise NotFound(f"no memory {memory_id!r}")
        upd = check_metadata(updates)
        if self.redactor is not None:
            upd = redact_value(upd, self.redactor)
        meta = check_metadata(upd if replace_all else {**old.metadata, **upd})
        now = self.clock.now()
        with self.tracker.tx() as conn:
            entry = replace(old, metadata=meta, updated_at=now)
            ref = self.blob.append(memory_blob_record(entry))
            entry = replace(entry, blob_offset=ref.offset, blob_length=ref.length)
            self.tracker.memories.update_metadata(conn, entry.key_hash, meta, now, ref.offset, ref.length)
            memory_revision.bump(conn, name=memory_revision.UPDATES)
            rev = memory_revision.bump(conn)
            for fn in self.update_listeners:   # inside the update's transaction: one that raises rolls it back
                fn(entry)
        self._note(entry, rev)
        return entry

    def delete(self, memory_id: str) -> bool:
        """Delete a memory's row and vector; False if there is no such memory."""
        kh = self.tracker.hash_fn(check_memory_id(memory_id))
        with self.tracker.tx() as conn:
            row = self.tracker.memories.get(conn, kh)
            if row is None or row.id != memory_id:
                return False
            self.tracker.memories.delete(conn, kh)
            rev = memory_revision.bump(conn)
            self.vectors.remove(kh)
        self.filter_index.note_delete(kh, rev)
        return True

    def _note(self, entry: MemoryEntry, rev: int) -> None:
        """Tell the filter index (and its followers) of a written entry, at revision `rev`."""
        self.filter_index.note_write(entry.key_hash, labels_of(entry.task, entry.context, entry.insights,
                                                                 entry.tags, entry.metadata), rev)

    # -- reading -------------------------------------------------------------------
    def get(self, memory_id: str) -> MemoryEntry | None:
        """Seed 000 §4.1: look the row up by hash64(memory_id)."""
        entry = self.tracker.get_memory_by_key(self.tracker.hash_fn(check_memory_id(memory_id)))
        return entry if entry is not None and entry.id == memory_id else None

    def filter(self, task: Any = None, context: Any = None, insights: Any = None, tags: Any = None,
               where_metadata: Any = None) -> MemoryFilter:
        """Validated filters (unknown slugs raise `UnknownSlug`)."""
        if isinstance(context, str) or isinstance(insights, str):
            raise InvalidArgument("context and insights filters must be lists of slugs, not a string")
        return MemoryFilter(task=check_task(task), context=tuple(check_context(context)),
                            insights=tuple(check_insights(insights)), tags=check_tags(tags),
                            where_metadata=check_where_metadata(where_metadata))

    def list(self, flt: MemoryFilter, limit: int = 50, offset: int = 0) -> list[MemoryEntry]:
        """Newest first (created_at descending, then id ascending)."""
        return self.tracker.memories.query(self.tracker.conn(), flt, order=ORDER_NEWEST,
                                           limit=check_count("limit", limit), offset=check_count("offset", offset))

    def iter(self, flt: MemoryFilter) -> Iterator[MemoryEntry]:
        """Oldest first, streamed in batches."""
        return self.tracker.memories.iter(self.tracker.conn(), flt)

    # -- searching -----------------------------------------------------------------
    def search(self, query: str | None, flt: MemoryFilter, top_k: int = 10) -> list[SearchHit]:
        """Filter in SQL, then rank the candidates by cosine to the query.

        Without a query (or a blank one) the filtered memories come newest first
        with score 0.0. Candidates without a vector are left out of a ranked answer.
        """
        top_k = check_count("top_k", top_k)
        if query is not None and not isinstance(query, str):
            raise InvalidArgument(f"query must be a string, got {type(query).__name__}")
        if query is None or not query.strip():
            return [SearchHit(e.id, "memory", 0.0, e) for e in self.list(flt, limit=top_k)]
        if top_k == 0:
            return []
        conn = self.tracker.conn()
        qvec = self.embedder.embed([query])[0]  # the query's type was checked above: not again in embed_query
        if flt.empty:  # every memory is a candidate: the vector tags say which rows are memories
            pairs = self.vectors.topk(qvec, top_k, tags=[KIND_TAGS["memory"]], with_ties=True)
        else:
            cands = self.candidates(flt)
            if cands.size == 0:
                return []
            pairs = self.vectors.topk(qvec, top_k, allowed=cands, with_ties=True)
        entries = self.tracker.memories.get_many(conn, [h for h, _ in pairs])
        hits = [SearchHit(entries[h].id, "memory", s, entries[h]) for h, s in pairs if h in entries]
        hits.sort(key=lambda x: (-x.score, x.id))
        return hits[:top_k]

    def keyword(self, query: str, flt: MemoryFilter, top_k: int = 10) -> list[SearchHit]:
        """FTS5 bm25 over text and tags; score = -bm25 (higher is better)."""
        top_k = check_count("top_k", top_k)
        match = fts_match(query)
        if match is None or top_k == 0:
            return []
        conn = self.tracker.conn()
        kept = ranked_matches(conn, match, top_k, None if flt.empty else self.candidates(flt), self.keyword_index)
        entries = self.tracker.memories.get_many(conn, [h for h, _ in kept])
        hits = [SearchHit(entries[h].id, "memory", s, entries[h]) for h, s in kept if h in entries]
        hits.sort(key=lambda x: (-x.score, x.id))
        return hits[:top_k]

    def ranked_ids(self, query: str, flt: MemoryFilter, k: int, *, keyword: bool = False
                   ) -> list[tuple[str, float]]:
        """(id, score) of `search` (cosine) or `keyword` (-bm25) without reading whole rows: the same
        ranking, best first, ties by id, for callers that need only the order (rank fusion)."""
        return self.ranked_lists(query, flt, k, keyword=keyword, vector=not keyword)[0 if keyword else 1]

    def ranked_lists(self, query: str, flt: MemoryFilter, k: int, *, keyword: bool = True, vector: bool = True
                     ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """(keyword list, vector list) as `ranked_ids` gives them (an empty list where not asked for),
        with one filter lookup and one id lookup for both."""
        k = check_count("k", k)
        conn = self.tracker.conn()
        allowed = None if flt.empty else self.candidates(flt)
        if k == 0 or (allowed is not None and allowed.size == 0):
            return [], []
        kw_pairs: list[tuple[int, float]] = []
        vec_pairs: list[tuple[int, float]] = []
        if keyword and (match := fts_match(query)) is not None:
            kw_pairs = ranked_matches(conn, match, k, allowed, self.keyword_index)
        if vector:
            qvec = self.embed_query(query)
            tags = None if allowed is not None else [KIND_TAGS["memory"]]
            vec_pairs = self.vectors.topk(qvec, k, allowed, tags=tags, with_ties=True)
        ids = self.id_index.ids_of(conn, [h for h, _ in kw_pairs] + [h for h, _ in vec_pairs])

        def named(pairs: list[tuple[int, float]]) -> list[tuple[str, float]]:
            # (-score, id) tuples sort in C, without a key function; -(-s) is s, bit for bit
            return [(m, -s) for s, m in sorted([(-s, ids[h]) for h, s in pairs if h in ids])[:k]]
        return named(kw_pairs), named(vec_pairs)

    def vector_scores(self, query: str, memory_ids: list[str]) -> dict[str, float]:
        """Cosine of the query with each listed memory; ids without a vector are left out."""
        ids = [check_memory_id(m) for m in memory_ids]
        scores = self.vectors.scores(self.embed_query(query), [self.tracker.hash_fn(m) for m in ids])
        return {m: float(s) for m, s in zip(ids, scores) if not np.isnan(s)}

    @functools.cached_property
    def keyword_index(self) -> KeywordIndex:
        """bm25 rankings without FTS5's per-row work; follows the filter index's write notes."""
        index = KeywordIndex()
        self.filter_index.followers.append(index)
        return index

    @functools.cached_property
    def id_index(self) -> IdIndex:
        """key hash -> memory id from memory instead of SQL; follows the filter index's write notes."""
        index = IdIndex(self.tracker.memories)
        self.filter_index.followers.append(index)
        return index

    def candidates(self, flt: MemoryFilter) -> np.ndarray:
        """Key hashes (sorted uint64) of the memories passing `flt`, from the label index."""
        return self.filter_index.candidates(self.tracker.conn(), flt)

    def embed_query(self, query: str) -> np.ndarray:
        if not isinstance(query, str):
            raise InvalidArgument(f"query must be a string, got {type(query).__name__}")
        return self.embedder.embed([query])[0]
